package lint

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

// tablesFile holds what New would otherwise derive from gitleaks'
// configuration and from the expressions of the rules.
const tablesFile = "tables_gen.go"

// TestGeneratedTables: tables_gen.go is what gitleaks' default
// configuration and the rules of this build give (go test ./lint -update,
// or go generate ./lint, rewrites it).
func TestGeneratedTables(t *testing.T) {
	want, err := generateTables()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := generated(t, tablesFile, want); !ok {
		t.Errorf("%s is not what gitleaks' rules and the rules of this build give: run go generate ./lint and commit it", tablesFile)
	}
}

// TestStaleTablesDerive: a detector whose expression the tables do not
// hold gets the prefilter its expression gives, as if none were stored.
func TestStaleTablesDerive(t *testing.T) {
	for _, expr := range []string{`\bcurl\s+\S+\s*\|\s*(?:bash|sh)\b`, `^(?:ignore_previous_instructions)`} {
		got := detectorDerivation(expr)
		want := derive(expr, false)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("detectorDerivation(%q) = %v, want %v", expr, got, want)
		}
	}
	j := judgeFor(nil)
	stored := 0
	for _, d := range j.dets {
		if _, ok := lookupDerivation(d.re.String()); ok {
			stored++
		}
	}
	if stored != len(j.dets) {
		t.Errorf("the tables hold the derivations of %d of %d detectors", stored, len(j.dets))
	}
}

// TestExpressionsCompile: every expression a Judge may run compiles,
// those of the detectors, of gitleaks' rules and allowlists and of the
// package, which compile only when first used.
func TestExpressionsCompile(t *testing.T) {
	j := judgeFor(nil)
	try := func(e *expression) {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("expression %q: %v", e.String(), r)
			}
		}()
		e.re()
	}
	for _, d := range j.dets {
		try(d.re)
		if d.pre != nil {
			try(d.pre)
		}
	}
	for _, l := range j.leaks {
		try(l.re)
		for _, a := range l.allow {
			if a.re != nil {
				try(a.re)
			}
		}
	}
	for _, a := range j.leakCfg.allow {
		if a.re != nil {
			try(a.re)
		}
	}
	for _, e := range []*expression{whenWords, moduleName, toolPoison, quotedPiece, sensitivePlaceholder,
		addressedOrder, verbOrder, systemOrder, sendsAway, modelAddressed, agentDirected, downloadedTo, identityUse, identityArg,
		secretVar, replacedByData, conversational, fetchesCode, literalKey, standingOrder, urlPattern,
		bareHost, refComment, hiddenOpen, docPath} {
		try(e)
	}
}

// TestAllowlistsAsGitleaks: the stored allowlists allow the secrets,
// matches and lines that gitleaks' own allowlists allow, and no others.
func TestAllowlistsAsGitleaks(t *testing.T) {
	cfg, err := gitleaksRules()
	if err != nil {
		t.Fatal(err)
	}
	leaks, global := loadLeakRules()
	secrets := []string{"", "true", "FALSE", "null", "aaaaaaaa", "$1", "${12}", "$API_KEY", "${api_key}", "{{ .Values.key }}",
		"${{ secrets.DEPLOY_TOKEN }}", "%APPDATA%", "%s", "{0}", "@TOKEN@", "/Users/me/keys/x", "/usr/local/bin/tool",
		"AKIAIOSFODNN7EXAMPLE", "AKIAQYLPMN5HHHFPZAM2", "AIzaSyabcdefghijklmnopqrstuvwxyz1234567", "AIzaSyQ7kX2mVn9bT4wLp8rE3dJc6hF1gY5sZ0u",
		"s.ABCDEFGHIJKLMNOPQRSTUVWX", "s.A1B2C3D4E5F6G7H8I9J0K1L2", "ghp_" + strings.Repeat("aB3dE6", 6), "Zk3vQ8mX2pL9rT4w"}
	for _, a := range cfg.Allowlists {
		for _, w := range a.StopWords {
			secrets = append(secrets, "Xy9"+strings.ToUpper(w)+"Qz7", w[:len(w)/2]+"Q")
		}
	}
	yes, no := 0, 0
	for i, l := range leaks {
		ref := cfg.Rules[l.id].Allowlists
		for _, secret := range secrets {
			for _, match := range []string{secret, "key = " + secret} {
				line := "export " + match + " # " + l.id
				want := gitleaksAllowed(ref, secret, match, line) || gitleaksAllowed(cfg.Allowlists, secret, match, line)
				got := allowed(leaks[i].allow, secret, match, line) || allowed(global.allow, secret, match, line)
				if got != want {
					t.Errorf("rule %s, secret %q in %q: allowed %v, gitleaks says %v", l.id, secret, line, got, want)
				}
				if want {
					yes++
				} else {
					no++
				}
			}
		}
	}
	t.Logf("%d cases allowed, %d not", yes, no)
	if yes < 100 || no < 100 {
		t.Errorf("%d cases allowed, %d not: the test shows little", yes, no)
	}
}

// gitleaksAllowed applies gitleaks' allowlists through gitleaks' own
// methods, as New did before it stored them.
func gitleaksAllowed(lists []*config.Allowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		regexOK := len(a.Regexes) > 0 && a.RegexAllowed(target)
		stopOK, _ := a.ContainsStopWord(secret)
		stopOK = stopOK && len(a.StopWords) > 0
		if a.MatchCondition == config.AllowlistMatchAnd {
			if len(a.Paths) > 0 || len(a.Commits) > 0 {
				continue
			}
			if (len(a.Regexes) == 0 || regexOK) && (len(a.StopWords) == 0 || stopOK) && (len(a.Regexes) > 0 || len(a.StopWords) > 0) {
				return true
			}
			continue
		}
		if regexOK || stopOK {
			return true
		}
	}
	return false
}

// gitleaksRules reads gitleaks' default configuration, the maintained
// rule set it embeds, as gitleaks itself reads it.
func gitleaksRules() (config.Config, error) {
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		return config.Config{}, err
	}
	var vc config.ViperConfig
	if err := v.Unmarshal(&vc); err != nil {
		return config.Config{}, err
	}
	return vc.Translate()
}

// generateTables writes tables_gen.go: gitleaks' rules that judge a
// skill's text, and the derivations of every expression of the rules.
func generateTables() ([]byte, error) {
	cfg, err := gitleaksRules()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by go test ./lint -run TestGeneratedTables -update. DO NOT EDIT.\n\npackage lint\n\n")
	b.WriteString("// leakTable are gitleaks' rules for token formats, from its default\n// configuration, with the derivations of their expressions.\n")
	b.WriteString("var leakTable = []leakSpec{\n")
	for _, id := range cfg.OrderedRules {
		r := cfg.Rules[id]
		if leakSkipped(id) || r.Regex == nil || r.Path != nil || len(r.RequiredRules) > 0 || r.SkipReport || len(r.Keywords) == 0 {
			continue
		}
		expr := r.Regex.String()
		fmt.Fprintf(&b, "{id: %q, desc: %q,\nexpr: %s,\n", id, r.Description, goString(expr))
		if r.SecretGroup != 0 {
			fmt.Fprintf(&b, "secretGroup: %d, ", r.SecretGroup)
		}
		if r.Entropy != 0 {
			fmt.Fprintf(&b, "entropy: %s, ", strconv.FormatFloat(r.Entropy, 'g', -1, 64))
		}
		if strings.Contains(expr, ":{1,3}=") {
			b.WriteString("assigned: true, ")
		}
		fmt.Fprintf(&b, "keywords: %s,\n", stringList(r.Keywords))
		if len(r.Allowlists) > 0 {
			b.WriteString("allow: []allowSpec{\n")
			for _, a := range r.Allowlists {
				writeAllowSpec(&b, a)
			}
			b.WriteString("},\n")
		}
		writeDerivation(&b, derive(expr, true))
		b.WriteString("},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("// leakAllowTable are gitleaks' allowlists that apply to every rule.\n")
	b.WriteString("var leakAllowTable = []allowSpec{\n")
	for _, a := range cfg.Allowlists {
		writeAllowSpec(&b, a)
	}
	b.WriteString("}\n\n")

	j := &Judge{dets: detectors()}
	anchorDetectors(j.dets)
	type stored struct {
		sum  uint64
		expr string
	}
	var exprs []stored
	for _, d := range j.dets {
		s := stored{exprSum(d.re.String()), d.re.String()}
		if !slices.Contains(exprs, s) {
			exprs = append(exprs, s)
		}
	}
	slices.SortFunc(exprs, func(a, b stored) int {
		if a.sum < b.sum {
			return -1
		}
		if a.sum > b.sum {
			return 1
		}
		return strings.Compare(a.expr, b.expr)
	})
	for i := 1; i < len(exprs); i++ {
		if exprs[i].sum == exprs[i-1].sum {
			return nil, fmt.Errorf("two expressions of detectors have the hash %#x", exprs[i].sum)
		}
	}
	b.WriteString("// detectorTable are the derivations of the expressions of the detectors,\n// by the FNV-1a hash of each expression, in its order.\n")
	b.WriteString("var detectorTable = []storedDerivation{\n")
	for _, e := range exprs {
		fmt.Fprintf(&b, "{sum: %#016x, ", e.sum)
		writeDerivation(&b, derive(e.expr, false))
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

func writeAllowSpec(b *bytes.Buffer, a *config.Allowlist) {
	b.WriteString("{")
	if a.RegexTarget != "" {
		fmt.Fprintf(b, "target: %q, ", a.RegexTarget)
	}
	if a.MatchCondition == config.AllowlistMatchAnd {
		b.WriteString("and: true, ")
	}
	if len(a.Paths) > 0 || len(a.Commits) > 0 {
		b.WriteString("scoped: true, ")
	}
	if len(a.Regexes) > 0 {
		// Joined as gitleaks joins them.
		parts := make([]string, len(a.Regexes))
		for i, re := range a.Regexes {
			parts[i] = re.String()
		}
		fmt.Fprintf(b, "\nregex: %s,\n", goString("(?:"+strings.Join(parts, "|")+")"))
	}
	if len(a.StopWords) > 0 {
		// gitleaks keeps them in a set: their order means nothing.
		words := slices.Clone(a.StopWords)
		slices.Sort(words)
		fmt.Fprintf(b, "stopWords: %s,\n", stringList(words))
	}
	b.WriteString("},\n")
}

func writeDerivation(b *bytes.Buffer, d derivation) {
	if d.runLen > 0 {
		fmt.Fprintf(b, "derived: derivation{run: %q, runLen: %d}", d.run, d.runLen)
		return
	}
	b.WriteString("derived: derivation{")
	if len(d.groups) > 0 {
		b.WriteString("groups: [][]string{")
		for _, g := range d.groups {
			b.WriteString(stringList(g)[len("[]string"):])
			b.WriteString(", ")
		}
		b.WriteString("}")
	}
	if len(d.branches) > 0 {
		if len(d.groups) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("branches: []branch{")
		for _, br := range d.branches {
			b.WriteString("{")
			if br.starts != nil {
				fmt.Fprintf(b, "starts: %s, ", stringList(br.starts))
			}
			if len(br.steps) > 0 {
				b.WriteString("steps: []step{")
				for _, st := range br.steps {
					if st.class != "" {
						fmt.Fprintf(b, "{class: %q}, ", st.class)
					} else {
						fmt.Fprintf(b, "{strs: %s}, ", stringList(st.strs))
					}
				}
				b.WriteString("}, ")
			}
			if len(br.lines) > 0 {
				b.WriteString("lines: []lineGroup{")
				for _, g := range br.lines {
					fmt.Fprintf(b, "{%s, %d}, ", stringList(g.lits), g.nl)
				}
				b.WriteString("}")
			}
			b.WriteString("}, ")
		}
		b.WriteString("}")
	}
	b.WriteString("}")
}

func stringList(s []string) string {
	q := make([]string, len(s))
	for i, w := range s {
		q[i] = strconv.Quote(w)
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

// goString is s as a Go literal, raw when it can be.
func goString(s string) string {
	if !strings.Contains(s, "`") && strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// leakSkipped are gitleaks rules left out: generic-api-key finds any
// assignment of a random-looking value to a name like "key" or "token",
// which examples in skills do all the time; the curl rules find any
// token in a curl command, which documentation shows by the hundred (a
// token of a known format still draws its own rule); pkcs12-file judges
// file names.
func leakSkipped(id string) bool {
	switch id {
	case "generic-api-key", "pkcs12-file", "curl-auth-header", "curl-auth-user":
		return true
	}
	return false
}
