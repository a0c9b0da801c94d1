package config

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func readConfigText(t *testing.T, text string) (Config, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Read(dir)
}

// TestReadConfigTargets: targets: is read in file order, each with its
// overrides; ignore: at the top and in a target.
func TestReadConfigTargets(t *testing.T) {
	cfg, err := readConfigText(t, `baseURL: https://a.example.com
unmanaged: ignore
ignore:
  - skills: ["*"]
    fields: [enabled]
targets:
  staging: {space: st01}
  prod:
    space: pr01
    baseURL: https://b.example.com
    tokenEnv: SKILLSYNC_TOKEN_PROD
    exclude: ["experimental-*"]
    enabled: {sql-style: false, brand-voice: true}
    unmanaged: disable
    missing: warn
    maxDisablePercent: 0
    agents: {publish: [Support bot]}
    ignore:
      - skills: [code-review]
        fields: [description, instructions]
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.TargetNames(); !slices.Equal(got, []string{"staging", "prod"}) {
		t.Fatalf("targets %q, want staging, prod in file order", got)
	}
	zero := 0
	want := Target{
		Name: "prod", Line: 8, Space: "pr01", BaseURL: "https://b.example.com", TokenEnv: "SKILLSYNC_TOKEN_PROD",
		Exclude:      []Pattern{{Glob: "experimental-*", Line: 12}},
		Enabled:      map[string]bool{"sql-style": false, "brand-voice": true},
		EnabledLines: map[string]int{"sql-style": 13, "brand-voice": 13},
		Unmanaged:    "disable", Missing: "warn", MaxDisablePercent: &zero,
		Agents: &AgentsConfig{Publish: []string{"Support bot"}},
		Ignore: []IgnoreRule{{Skills: []Pattern{{Glob: "code-review", Line: 19}}, Fields: []string{"description", "instructions"}, Line: 19}},
	}
	if got := cfg.Targets[1]; !reflect.DeepEqual(got, want) {
		t.Errorf("prod:\n got %+v\nwant %+v", got, want)
	}
	if got := cfg.Targets[0]; got.Space != "st01" || got.BaseURL != "" || got.Exclude != nil || got.Line != 7 {
		t.Errorf("staging: %+v", got)
	}
	if len(cfg.Ignore) != 1 || !cfg.Ignore[0].Covers("anything", "enabled") || cfg.Ignore[0].Covers("anything", "name") {
		t.Errorf("top-level ignore: %+v", cfg.Ignore)
	}

	// Each target plans with the top level's settings under its own.
	st, _ := cfg.ForTarget("staging")
	if st.Space != "st01" || st.BaseURL != "https://a.example.com" || st.Unmanaged != "ignore" || st.MaxDisablePercent != 30 || len(st.Ignore) != 1 || st.Targets != nil {
		t.Errorf("staging's config: %+v", st)
	}
	pr, _ := cfg.ForTarget("prod")
	if pr.Space != "pr01" || pr.BaseURL != "https://b.example.com" || pr.Unmanaged != "disable" || pr.Missing != "warn" ||
		pr.MaxDisablePercent != 0 || !slices.Equal(pr.Agents.Publish, []string{"Support bot"}) || len(pr.Ignore) != 2 {
		t.Errorf("prod's config: %+v", pr)
	}
	if _, ok := cfg.ForTarget("nope"); ok {
		t.Error("ForTarget of an unknown target is ok")
	}
}

// TestReadConfigTargetErrors: every bad target is an error at its line.
func TestReadConfigTargetErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, err string }{
		{"space beside targets", "space: ab12\ntargets:\n  prod: {space: pr01}\n", `skillsync.yaml:1: space and targets are both set`},
		{"no space", "targets:\n  prod: {baseURL: https://x.example.com}\n", `skillsync.yaml:2: target "prod" has no space`},
		{"nothing at all", "targets:\n  prod:\n", `skillsync.yaml:2: target "prod" has no space`},
		{"empty targets", "targets: {}\n", "skillsync.yaml:1: targets lists no target"},
		{"bad space", "targets:\n  prod: {space: abcdefgh}\n", "skillsync.yaml:2: targets.prod.space: invalid spaceId"},
		{"unknown key", "targets:\n  prod: {space: pr01, exlude: [a]}\n", `skillsync.yaml:2: unknown key "targets.prod.exlude" (did you mean "exclude"?)`},
		{"unknown nested key", "targets:\n  prod:\n    space: pr01\n    agents: {publsh: []}\n", `skillsync.yaml:4: unknown key "targets.prod.agents.publsh"`},
		{"same space and address", "baseURL: https://a.example.com\ntargets:\n  one: {space: ab12}\n  two: {space: ab12, baseURL: https://A.example.com:443/}\n",
			`skillsync.yaml:4: targets "two" and "one" (line 3) are both space ab12 at https://A.example.com:443/: they would undo each other's changes`},
		{"same space, no address", "targets:\n  one: {space: ab12}\n  two: {space: ab12}\n", `targets "two" and "one" (line 2) are both space ab12 at the same address`},
		{"duplicate target", "targets:\n  one: {space: ab12}\n  one: {space: cd34}\n", `skillsync.yaml:3: duplicate target "one" (first at line 2; target names differ in more than case)`},
		// Their journals would be one file where case is ignored.
		{"targets differing in case only", "targets:\n  Prod: {space: ab12}\n  prod: {space: cd34}\n", `skillsync.yaml:3: duplicate target "prod" (first at line 2; target names differ in more than case)`},
		{"bad name", "targets:\n  \"pro d\": {space: ab12}\n", `skillsync.yaml:2: target name "pro d" must be`},
		{"bad tokenEnv", "targets:\n  prod: {space: ab12, tokenEnv: 1TOKEN}\n", `skillsync.yaml:2: targets.prod.tokenEnv "1TOKEN" must be SKILLSYNC_TOKEN or begin with SKILLSYNC_TOKEN_`},
		{"tokenEnv of another secret", "targets:\n  prod:\n    space: ab12\n    tokenEnv: GITHUB_TOKEN\n", `skillsync.yaml:4: targets.prod.tokenEnv "GITHUB_TOKEN" must be SKILLSYNC_TOKEN or begin with SKILLSYNC_TOKEN_ (SKILLSYNC_TOKEN_PROD, say)`},
		{"tokenEnv of a prefix alike", "targets:\n  prod: {space: ab12, tokenEnv: SKILLSYNC_TOKENS}\n", `targets.prod.tokenEnv "SKILLSYNC_TOKENS" must be`},
		{"tokenEnv of the prefix alone", "targets:\n  prod: {space: ab12, tokenEnv: SKILLSYNC_TOKEN_}\n", `targets.prod.tokenEnv "SKILLSYNC_TOKEN_" must be`},
		{"bad policy", "targets:\n  prod: {space: ab12, unmanaged: delete}\n", `targets.prod.unmanaged must be "ignore" or "disable", not "delete"`},
		{"bad percent", "targets:\n  prod: {space: ab12, maxDisablePercent: 101}\n", `targets.prod.maxDisablePercent must be 0 to 100, not 101`},
		{"enabled not a bool", "targets:\n  prod:\n    space: ab12\n    enabled: {sql-style: no}\n", `skillsync.yaml:4: targets.prod.enabled.sql-style must be true or false, not "no"`},
		{"enabled glob", "targets:\n  prod:\n    space: ab12\n    enabled: {\"sql-*\": false}\n", `targets.prod.enabled: "sql-*" is not a skill's slug`},
		{"bad exclude glob", "targets:\n  prod: {space: ab12, exclude: [\"[a\"]}\n", `targets.prod.exclude: "[a" is not a glob`},
		{"exclude not a list", "targets:\n  prod: {space: ab12, exclude: a}\n", `targets.prod.exclude must be a list, not "a"`},
		{"ignore unknown field", "ignore:\n  - skills: [\"*\"]\n    fields: [enabld]\n", `skillsync.yaml:3: ignore[0].fields: unknown field "enabld" (did you mean "enabled"?)`},
		{"ignore without skills", "ignore:\n  - fields: [enabled]\n", `skillsync.yaml:2: ignore[0] has no skills`},
		{"ignore without fields", "ignore:\n  - skills: [a]\n", `skillsync.yaml:2: ignore[0] has no fields`},
		{"ignore unknown key", "ignore:\n  - skills: [a]\n    field: [enabled]\n", `skillsync.yaml:3: unknown key "ignore[0].field" (did you mean "fields"?)`},
		{"ignore not rules", "ignore: [enabled]\n", `skillsync.yaml:1: ignore: each item must be a rule {skills: [...], fields: [...]}, not "enabled"`},
		{"target ignore", "targets:\n  prod:\n    space: ab12\n    ignore:\n      - {skills: [a], fields: [colour]}\n", `skillsync.yaml:5: targets.prod.ignore[0].fields: unknown field "colour"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readConfigText(t, tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}

// TestSameAddress: addresses of one service compare equal however they
// are written; those of two services do not.
func TestSameAddress(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"http://localhost:8080", "http://127.0.0.1:8080", true},
		{"http://[::1]:8080/", "http://LOCALHOST:8080", true},
		{"http://127.0.0.1/api", "http://[::1]:80/api/", true},
		{"https://a.example.com/x/../", "https://a.example.com", true},
		{"https://a.example.com/api/./v1/", "https://A.example.com:443/api/v1", true},
		{"http://[::ffff:127.0.0.1]:8080", "http://127.0.0.1:8080", true},
		{"http://[::ffff:10.0.0.7]:8080", "http://10.0.0.7:8080", true},
		{"http://[0:0:0:0:0:0:0:1]:8080", "http://localhost:8080", true},
		{"https://[2001:DB8::0:1]", "https://[2001:db8::1]:443", true},
		{"https://a.example.com./api", "https://a.example.com/api", true},
		{"http://localhost.:8080", "http://127.0.0.1:8080", true},
		{"http://localhost:8080", "http://localhost:8081", false},
		{"http://10.0.0.7", "http://10.0.0.8", false},
		{"http://127.0.0.1", "https://127.0.0.1", false},
		{"http://localhost", "http://example.com", false},
		{"https://a.example.com/x", "https://a.example.com/y", false},
	} {
		if got := SameAddress(tc.a, tc.b); got != tc.same {
			t.Errorf("SameAddress(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
	_, err := readConfigText(t, "baseURL: http://localhost:8080\ntargets:\n  one: {space: ab12}\n  two: {space: ab12, baseURL: \"http://127.0.0.1:8080/x/../\"}\n")
	if want := `skillsync.yaml:4: targets "two" and "one" (line 3) are both space ab12`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
}

// TestReadConfigPercent: maxDisablePercent, at the top or in a target,
// takes any whole number YAML writes (0x10 is 16), and an error says what
// is wrong with another: out of 0 to 100, or too large a number.
func TestReadConfigPercent(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int
		err   string
	}{
		{value: "0x10", want: 16},
		{value: "1_0", want: 10},
		{value: "0x100", err: "maxDisablePercent must be 0 to 100, not 256"},
		{value: "-1", err: "maxDisablePercent must be 0 to 100, not -1"},
		{value: "99999999999999999999", err: "maxDisablePercent: 99999999999999999999 is too large a number; for example maxDisablePercent: 30"},
		{value: "9223372036854775808", err: "maxDisablePercent: 9223372036854775808 is too large a number"},
		{value: "12.5", err: `maxDisablePercent must be a whole number, not "12.5"`},
	} {
		t.Run(tc.value, func(t *testing.T) {
			top, err := readConfigText(t, "space: ab12\nmaxDisablePercent: "+tc.value+"\n")
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), "skillsync.yaml:2: "+tc.err)):
				t.Errorf("top level: error %v, want one containing %q", err, tc.err)
			case tc.err == "" && err != nil:
				t.Errorf("top level: %v", err)
			case tc.err == "" && top.MaxDisablePercent != tc.want:
				t.Errorf("top level: %d, want %d", top.MaxDisablePercent, tc.want)
			}
			cfg, err := readConfigText(t, "targets:\n  prod:\n    space: ab12\n    maxDisablePercent: "+tc.value+"\n")
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), "skillsync.yaml:4: targets.prod."+tc.err)):
				t.Errorf("target: error %v, want one containing %q", err, "targets.prod."+tc.err)
			case tc.err == "" && err != nil:
				t.Errorf("target: %v", err)
			case tc.err == "" && (cfg.Targets[0].MaxDisablePercent == nil || *cfg.Targets[0].MaxDisablePercent != tc.want):
				t.Errorf("target: %v, want %d", cfg.Targets[0].MaxDisablePercent, tc.want)
			}
		})
	}
}

// TestReadConfigEnabledAnyCase: YAML writes true and false in three
// cases (true, True, TRUE); an override is the state the YAML says.
func TestReadConfigEnabledAnyCase(t *testing.T) {
	cfg, err := readConfigText(t, "targets:\n  prod:\n    space: pr01\n    enabled: {a: True, b: FALSE, c: TRUE, d: false}\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a": true, "b": false, "c": true, "d": false}
	if got := cfg.Targets[0].Enabled; !maps.Equal(got, want) {
		t.Errorf("enabled %v, want %v", got, want)
	}
}
