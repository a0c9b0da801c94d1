package config

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/skillsync/skillsync/lint"
	"go.yaml.in/yaml/v3"
)

// schemaCopy is the committed copy of the schema, which SchemaURL serves.
const schemaCopy = "../../skillsync.schema.json"

// compileSchema compiles Schema with a validator of JSON Schema
// 2020-12, which also checks it is a valid schema.
func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(SchemaURL)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// yamlToJSON reads a skillsync.yaml as the schema's validator reads it.
func yamlToJSON(t *testing.T, data string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	if v == nil {
		v = map[string]any{}
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// TestConfigSchemaKeys: every section of the schema has exactly the keys
// the parser reads there, and the lint rules are the rules there are, so
// that an editor neither offers a key skillsync refuses nor refuses one
// it reads.
func TestConfigSchemaKeys(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(Schema(), &s); err != nil {
		t.Fatal(err)
	}
	get := func(m map[string]any, path ...string) map[string]any {
		for _, k := range path {
			next, ok := m[k].(map[string]any)
			if !ok {
				t.Fatalf("the schema has no object at %s", strings.Join(path, "."))
			}
			m = next
		}
		return m
	}
	keys := func(m map[string]any) []string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	sorted := func(s []string) []string { s = slices.Clone(s); sort.Strings(s); return s }
	target := get(s, "properties", "targets", "additionalProperties")
	for _, tc := range []struct {
		section string
		props   map[string]any
	}{
		{"", get(s, "properties")},
		{"agents", get(s, "properties", "agents", "properties")},
		{"lint", get(s, "properties", "lint", "properties")},
		{"ignoreRule", get(s, "properties", "ignore", "items", "properties")},
		{"target", get(target, "properties")},
		{"target.agents", get(target, "properties", "agents", "properties")},
		{"descriptions", get(s, "properties", "descriptions", "properties")},
		{"target.descriptions", get(target, "properties", "descriptions", "properties")},
		{"notifyDestination", get(s, "properties", "notify", "additionalProperties", "properties")},
		{"notifyDestination", get(target, "properties", "notify", "additionalProperties", "properties")},
	} {
		if got, want := keys(tc.props), sorted(configKeys[tc.section]); !slices.Equal(got, want) {
			t.Errorf("section %q: the schema has keys %v, the parser reads %v", tc.section, got, want)
		}
	}
	var codes []string
	for _, r := range lint.Rules {
		if !r.Security {
			codes = append(codes, r.Name)
		}
	}
	if got := keys(get(s, "properties", "lint", "properties", "rules", "properties")); !slices.Equal(got, sorted(codes)) {
		t.Errorf("lint.rules: the schema has %v, the rules are %v", got, codes)
	}
}

// TestConfigSchemaAgreesWithParser: what the parser reads the schema
// accepts, and what the parser refuses for a key, a value or a shape the
// schema refuses too.
func TestConfigSchemaAgreesWithParser(t *testing.T) {
	sch := compileSchema(t)
	for _, tc := range []struct {
		name, yaml string
		ok         bool
	}{
		{"empty", "", true},
		{"one space", "baseURL: https://tenant.example.com\nspace: ab12\nskillsDir: skills\nunmanaged: disable\nmissing: warn\nmaxDisablePercent: 0\nagents:\n  publish: [Support Bot]\n", true},
		{"targets", "baseURL: https://tenant.example.com\nignore:\n  - skills: ['*']\n    fields: [enabled]\ntargets:\n  staging:\n    space: st01\n    tokenEnv: SKILLSYNC_TOKEN_STAGING\n    exclude: [experimental-*]\n    enabled: {sql-style: true}\n  prod:\n    space: pr01\n    baseURL: https://prod.example.com\n    missing: warn\n    maxDisablePercent: 10\n    agents: {publish: [Bot]}\n    ignore:\n      - skills: [legacy]\n        fields: [description, instructions]\n", true},
		{"lint", "space: ab12\nlint:\n  profile: agentskills\n  rules:\n    body-long: off\n    description-when: error\n", true},
		// A key with no value is one left out, to the parser as to the
		// schema; YAML's numbers and the case of a level are read too.
		{"numeric space", "space: 1234\n", true},
		{"numeric target space", "targets:\n  prod:\n    space: 1234\n", true},
		{"empty sections", "space: ab12\nagents:\nlint:\nignore:\nmaxDisablePercent:\nbaseURL:\nskillsDir:\nunmanaged:\nmissing:\n", true},
		{"null sections", "space: ~\nagents: null\nlint: {rules: , profile: }\n", true},
		{"empty target keys", "targets:\n  prod:\n    space: pr01\n    enabled:\n    exclude:\n    ignore:\n    agents:\n    baseURL:\n", true},
		{"level in another case", "space: ab12\nlint:\n  rules:\n    body-long: Warning\n", true},
		{"numeric agent name", "space: ab12\nagents: {publish: [123]}\n", true},
		{"scheme in capitals", "space: ab12\nbaseURL: HTTPS://x.example\n", true},
		{"empty baseURL", "space: ab12\nbaseURL: \"\"\n", true},
		{"unknown key", "space: ab12\nspaces: cd34\n", false},
		{"unknown policy", "space: ab12\nunmanaged: delete\n", false},
		{"percent over 100", "space: ab12\nmaxDisablePercent: 150\n", false},
		{"space too long", "space: abcdefg\n", false},
		{"space beside targets", "space: ab12\ntargets:\n  prod:\n    space: pr01\n", false},
		{"target without space", "targets:\n  prod:\n    tokenEnv: SKILLSYNC_TOKEN_PROD\n", false},
		{"bad target name", "targets:\n  'prod env':\n    space: pr01\n", false},
		{"bad tokenEnv", "targets:\n  prod:\n    space: pr01\n    tokenEnv: 1TOKEN\n", false},
		{"tokenEnv of another secret", "targets:\n  prod:\n    space: pr01\n    tokenEnv: GITHUB_TOKEN\n", false},
		{"tokenEnv of nothing after the prefix", "targets:\n  prod:\n    space: pr01\n    tokenEnv: SKILLSYNC_TOKEN_\n", false},
		{"tokenEnv of the default", "targets:\n  prod:\n    space: pr01\n    tokenEnv: SKILLSYNC_TOKEN\n", true},
		{"unknown ignore field", "space: ab12\nignore:\n  - skills: ['*']\n    fields: [slug]\n", false},
		{"ignore without fields", "space: ab12\nignore:\n  - skills: ['*']\n", false},
		{"unknown lint rule", "space: ab12\nlint:\n  rules:\n    body-lenght: off\n", false},
		{"unknown lint level", "space: ab12\nlint:\n  rules:\n    body-long: fatal\n", false},
		{"unknown profile", "space: ab12\nlint:\n  profile: strict\n", false},
		{"notify", "space: ab12\nnotify:\n  chat: {kind: slack, urlEnv: SKILLSYNC_NOTIFY_SLACK}\n  audit:\n    kind: webhook\n    urlEnv: SKILLSYNC_NOTIFY_AUDIT\n    secretEnv: SKILLSYNC_NOTIFY_AUDIT_SECRET\n    events: [all]\n", true},
		{"notify of a target", "notify:\n  chat: {kind: teams, urlEnv: SKILLSYNC_NOTIFY_TEAMS}\ntargets:\n  prod:\n    space: pr01\n    notify:\n      chat: {events: [failures, drift.resolved]}\n  staging:\n    space: st01\n    notify:\n      chat: {events: []}\n", true},
		{"notify URL of another secret", "space: ab12\nnotify:\n  chat: {kind: slack, urlEnv: GITHUB_TOKEN}\n", false},
		{"notify secret of another secret", "space: ab12\nnotify:\n  audit: {kind: webhook, urlEnv: SKILLSYNC_NOTIFY_AUDIT, secretEnv: AWS_SECRET_ACCESS_KEY}\n", false},
		{"notify webhook unsigned", "space: ab12\nnotify:\n  audit: {kind: webhook, urlEnv: SKILLSYNC_NOTIFY_AUDIT}\n", false},
		{"notify without kind", "space: ab12\nnotify:\n  chat: {urlEnv: SKILLSYNC_NOTIFY_SLACK}\n", false},
		{"notify unknown kind", "space: ab12\nnotify:\n  chat: {kind: discord, urlEnv: SKILLSYNC_NOTIFY_SLACK}\n", false},
		{"notify unknown event", "space: ab12\nnotify:\n  chat: {kind: slack, urlEnv: SKILLSYNC_NOTIFY_SLACK, events: [drift.fixed]}\n", false},
		{"notify unknown key", "space: ab12\nnotify:\n  chat: {kind: slack, url: https://hooks.slack.com/x}\n", false},
		{"notify bad name", "space: ab12\nnotify:\n  'team chat': {kind: slack, urlEnv: SKILLSYNC_NOTIFY_SLACK}\n", false},
		{"notify URL in the file", "space: ab12\nnotify:\n  chat: {kind: slack, urlEnv: 'https://hooks.slack.com/services/T/B/X'}\n", false},
		{"descriptions", "space: ab12\ndescriptions: {budget: 6000, budgetLevel: error, overlap: 40, overlapLevel: off}\n", true},
		{"descriptions of a target", "descriptions: {budget: 6000}\ntargets:\n  prod:\n    space: pr01\n    descriptions: {budgetLevel: error}\n", true},
		{"descriptions bad level", "space: ab12\ndescriptions: {budgetLevel: off}\n", false},
		{"descriptions overlap over 100", "space: ab12\ndescriptions: {overlap: 150}\n", false},
		{"descriptions unknown key", "space: ab12\ndescriptions: {limit: 5}\n", false},
		{"excludeFiles", "space: ab12\nexcludeFiles: ['*.draft.md', fixtures/, '!evals/keep.json']\n", true},
		{"excludeFiles not a list", "space: ab12\nexcludeFiles: fixtures/\n", false},
		{"excludeFiles empty item", "space: ab12\nexcludeFiles: ['']\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, perr := Parse([]byte(tc.yaml))
			if (perr == nil) != tc.ok {
				t.Fatalf("the parser: err = %v, want ok = %t (fix the case, not the schema)", perr, tc.ok)
			}
			verr := sch.Validate(yamlToJSON(t, tc.yaml))
			if (verr == nil) != tc.ok {
				t.Errorf("the schema: err = %v, want ok = %t", verr, tc.ok)
			}
		})
	}
}

// TestConfigSchemaAcceptsRepositoryConfigs: every skillsync.yaml the
// repository holds (examples, demo, test data) that the parser reads, the
// schema accepts.
func TestConfigSchemaAcceptsRepositoryConfigs(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	out, err := exec.Command("git", "-C", "../..", "ls-files", "*skillsync.yaml", "*.txtar").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	sch := compileSchema(t)
	n := 0
	check := func(name string, data []byte) {
		if _, err := Parse(data); err != nil {
			return // a config made to be refused
		}
		var v any
		if yaml.Unmarshal(data, &v) != nil {
			return
		}
		n++
		if err := sch.Validate(yamlToJSON(t, string(data))); err != nil {
			t.Errorf("%s: the parser reads it, the schema refuses it: %v", name, err)
		}
	}
	for _, name := range strings.Fields(string(out)) {
		data, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(name, ".txtar") {
			check(name, data)
			continue
		}
		// The configs the scripts write: every .yaml file of an archive
		// that reads as a skillsync.yaml.
		for _, f := range txtar.Parse(data).Files {
			if strings.HasSuffix(f.Name, ".yaml") && !strings.Contains(f.Name, "/") {
				check(name+":"+f.Name, f.Data)
			}
		}
	}
	if n < 20 {
		t.Errorf("%d configs read to check, want the repository's and its scripts' (20 or more)", n)
	}
	t.Logf("%d configs the parser reads, all accepted by the schema", n)
}

var update = flag.Bool("update", false, "rewrite the committed copy of the schema")

// TestSchemaCopyIsCurrent: the committed copy that SchemaURL serves is the
// schema of this build (go test ./fsrepo/config -update rewrites it).
func TestSchemaCopyIsCurrent(t *testing.T) {
	if *update {
		if err := os.WriteFile(schemaCopy, Schema(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(schemaCopy)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, Schema()) {
		t.Errorf("%s is not the schema of this build: run go test ./fsrepo/config -update and commit it", schemaCopy)
	}
}
