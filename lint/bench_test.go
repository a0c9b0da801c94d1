package lint

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sync/errgroup"
)

// benchSkills is the set a benchmark judges: 5,000 skills read from the
// folders SKILLSYNC_LINT_CORPUS names (comma-separated), or, without it,
// made to the size and shape of public skills (see [synth]), with a
// fixture every 25th. A skill used more than once is made a little
// different each time, so that nothing is shared.
func benchSkills(b *testing.B) ([][]File, int) {
	const n = 5000
	var skills [][]File
	if roots := os.Getenv("SKILLSYNC_LINT_CORPUS"); roots != "" {
		for _, root := range strings.Split(roots, ",") {
			cs, err := readCorpus(root)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range cs {
				skills = append(skills, c.files)
			}
		}
	} else {
		fixtures := loadFixtures(b)
		g := newSynth(23)
		for i := range n {
			if i%25 == 0 {
				skills = append(skills, fixtures[i/25%len(fixtures)].files)
			} else {
				skills = append(skills, g.skill(i))
			}
		}
	}
	if len(skills) == 0 {
		b.Fatal("no skills to judge")
	}
	out := make([][]File, n)
	size := 0
	used := map[*File]bool{}
	for i := range out {
		src := skills[i%len(skills)]
		again := false // src was judged before
		if len(src) > 0 {
			again = used[&src[0]]
			used[&src[0]] = true
		}
		files := make([]File, len(src))
		for k, f := range src {
			data := append([]byte(nil), f.Data...)
			if f.Path == "SKILL.md" && again {
				// A comment that wakes no rule.
				data = append(data, fmt.Sprintf("\n<!-- %d -->\n", i)...)
			}
			files[k] = File{Path: f.Path, Data: data}
			size += len(data)
		}
		out[i] = files
	}
	return out, size
}

// A synth makes skills of the size and shape of public ones (the 7,319 of
// 12 public collections average 28 KB), always the same for a seed.
type synth struct {
	r *rand.Rand
	// plain are common words of skills that wake no rule; waking are
	// words that wake the rules' anchors and prefilters; commands are
	// lines of command blocks and scripts, official installers among them.
	plain, waking, commands, typography []string
}

func newSynth(seed uint64) *synth {
	return &synth{
		r: rand.New(rand.NewPCG(seed, 5000)),
		plain: strings.Fields(`the a to of and in for is with on this that it when file files data skill skills agent
			code run write create update check list output input format json yaml markdown table build deploy project
			repository branch commit review before after each all any only always step steps script python bash shell
			node npm install setup path directory folder name value default option error errors message log logs
			document page section example examples model context task tasks workflow tool tools result results image
			text line lines source target local cloud database query schema service services account team support
			version release change changes new old first next then also more less fast simple clear git docker
			browser analysis chart summary be are as by or from at which can will should must use using used how
			what where so if not have has into over under between within`),
		waking: strings.Fields(`read send copy include report search find extract post email share sync append key
			token secret password environment variable api request response server client curl user never without
			don't ignore`),
		commands: []string{
			"pip install -r requirements.txt",
			"npm install --save-dev typescript eslint",
			"git clone https://github.com/example/project.git && cd project",
			"curl -fsSL https://api.example.com/v1/items -H \"Authorization: Bearer $API_TOKEN\" | jq '.items[]'",
			"curl -LsSf https://astral.sh/uv/install.sh | sh",
			"python3 scripts/run.py --input data.json --output report.md",
			"docker run --rm -v \"$PWD:/work\" -w /work node:20 npm test",
			"export API_URL=https://api.example.com/v1",
			"find . -name '*.md' -exec grep -l 'TODO' {} +",
			"gh pr create --title \"Update docs\" --body-file body.md",
			"if [ -z \"${OUTPUT_DIR:-}\" ]; then OUTPUT_DIR=./out; fi",
			"jq -r '.results[] | [.name, .score] | @tsv' results.json | sort -k2 -nr | head -20",
			"echo \"Done: $(date -u +%Y-%m-%dT%H:%M:%SZ)\"",
		},
		typography: []string{"“quoted”", "it’s", "café", "✅ done", "→ next", "naïve", "日本語のテキスト", "über", "…", "🚀"},
	}
}

// skill makes a SKILL.md of prose, lists, tables and commands, a
// reference page, a Python and a shell script, 10 to 30 KB in all, with
// typography beyond ASCII in half of them.
func (g *synth) skill(i int) []File {
	r := g.r
	size := 10_000 + r.IntN(20_000)
	fancy := r.IntN(2) == 0
	name := fmt.Sprintf("%s-%s-%d", g.word(), g.word(), i)
	var md strings.Builder
	fmt.Fprintf(&md, "---\nname: %s\ndescription: %s Use when the user asks to %s.\nlicense: MIT\n---\n\n# %s\n\n",
		name, g.sentence(fancy), g.phrase(6), name)
	for md.Len() < size*2/5 {
		g.section(&md, fancy)
	}
	var ref strings.Builder
	fmt.Fprintf(&ref, "# Reference for %s\n\n", name)
	for ref.Len() < size*3/10 {
		g.section(&ref, fancy)
	}
	var py strings.Builder
	py.WriteString("#!/usr/bin/env python3\n\"\"\"" + g.sentence(false) + "\"\"\"\nimport argparse\nimport json\nimport os\nimport sys\n\nimport requests\n\nAPI_URL = os.environ.get(\"API_URL\", \"https://api.example.com/v1\")\n")
	for py.Len() < size/5 {
		// Functions that read a file, transform data, or call an API.
		f, n := g.word(), g.word()
		fmt.Fprintf(&py, "\n\ndef %s_%s(path: str, limit: int = %d) -> dict:\n    \"\"\"%s\"\"\"\n", f, n, r.IntN(100), g.sentence(false))
		switch r.IntN(3) {
		case 0:
			fmt.Fprintf(&py, "    with open(path, encoding=\"utf-8\") as f:\n        data = json.load(f)\n    return {k: v for k, v in data.items() if k.startswith(%q)}\n", n)
		case 1:
			fmt.Fprintf(&py, "    rows = []\n    for i, line in enumerate(path.splitlines()):\n        if %q in line and i < limit:\n            rows.append(line.strip())\n    # %s\n    return {\"rows\": rows}\n", g.word(), g.sentence(false))
		default:
			fmt.Fprintf(&py, "    resp = requests.post(f\"{API_URL}/%s\", json={\"path\": path}, headers={\"Authorization\": f\"Bearer {os.environ.get('API_TOKEN', '')}\"}, timeout=30)\n", n)
			fmt.Fprintf(&py, "    resp.raise_for_status()\n    return resp.json()\n")
		}
	}
	var sh strings.Builder
	sh.WriteString("#!/usr/bin/env bash\nset -euo pipefail\n\n: \"${API_TOKEN:?set API_TOKEN}\"\n")
	for sh.Len() < size/10 {
		fmt.Fprintf(&sh, "\n# %s\n%s\n", g.sentence(false), g.commands[r.IntN(len(g.commands))])
	}
	return []File{
		{Path: "SKILL.md", Data: []byte(md.String())},
		{Path: "references/guide.md", Data: []byte(ref.String())},
		{Path: "scripts/" + name + ".py", Data: []byte(py.String())},
		{Path: "scripts/setup.sh", Data: []byte(sh.String())},
	}
}

// section writes a heading, prose, a list, and a command block or a table.
func (g *synth) section(b *strings.Builder, fancy bool) {
	r := g.r
	h := g.phrase(2 + r.IntN(3))
	fmt.Fprintf(b, "## %s%s\n\n", strings.ToUpper(h[:1]), h[1:])
	for range 1 + r.IntN(3) {
		for range 2 + r.IntN(4) {
			b.WriteString(g.sentence(fancy) + " ")
		}
		b.WriteString("\n\n")
	}
	for k := range 2 + r.IntN(5) {
		fmt.Fprintf(b, "%d. **%s**: %s\n", k+1, g.phrase(2), g.sentence(fancy))
	}
	b.WriteString("\n")
	if r.IntN(3) > 0 {
		b.WriteString("```bash\n")
		for range 1 + r.IntN(4) {
			b.WriteString(g.commands[r.IntN(len(g.commands))] + "\n")
		}
		b.WriteString("```\n\n")
		return
	}
	b.WriteString("| Option | Default | Meaning |\n|--------|---------|---------|\n")
	for range 2 + r.IntN(4) {
		fmt.Fprintf(b, "| `--%s` | `%d` | %s |\n", g.word(), r.IntN(1000), g.sentence(fancy))
	}
	b.WriteString("\nSee [the guide](references/guide.md) for more.\n\n")
}

func (g *synth) sentence(fancy bool) string {
	s := g.phrase(6 + g.r.IntN(14))
	if fancy && g.r.IntN(4) == 0 {
		s += " — " + g.typography[g.r.IntN(len(g.typography))] + " " + g.phrase(3)
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *synth) phrase(n int) string {
	w := make([]string, n)
	for k := range w {
		w[k] = g.word()
	}
	return strings.Join(w, " ")
}

// word picks a word of prose: one in fifty wakes the rules, about as
// often as in public skills.
func (g *synth) word() string {
	if g.r.IntN(50) == 0 {
		return g.waking[g.r.IntN(len(g.waking))]
	}
	return g.plain[g.r.IntN(len(g.plain))]
}

// BenchmarkJudge5000 judges 5,000 skills one after the other.
func BenchmarkJudge5000(b *testing.B) {
	skills, size := benchSkills(b)
	j := New(Options{Secrets: map[string]string{"SKILLSYNC_TOKEN": "sk-sync-7Hq2mX9vL4pR8wZ1cT6y"}})
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		for _, s := range skills {
			j.Skill(s)
		}
	}
}

// BenchmarkJudge5000Parallel judges 5,000 skills on every core, as a
// command judging a space would.
func BenchmarkJudge5000Parallel(b *testing.B) {
	skills, size := benchSkills(b)
	j := New(Options{Secrets: map[string]string{"SKILLSYNC_TOKEN": "sk-sync-7Hq2mX9vL4pR8wZ1cT6y"}})
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		g, _ := errgroup.WithContext(context.Background())
		g.SetLimit(runtime.GOMAXPROCS(0))
		for _, s := range skills {
			g.Go(func() error { j.Skill(s); return nil })
		}
		g.Wait()
	}
}

// BenchmarkNew measures what every command that judges pays first:
// making the Judge, with no secret and with the secrets of three targets.
func BenchmarkNew(b *testing.B) {
	for _, c := range []struct {
		name    string
		secrets map[string]string
	}{
		{"rules", nil},
		{"secrets", map[string]string{
			"SKILLSYNC_TOKEN":      "sk-sync-7Hq2mX9vL4pR8wZ1cT6y",
			"SKILLSYNC_TOKEN_PROD": "prod-3kF9xQ2mW7vN4pL8rT1zY6bC",
			"GITHUB_TOKEN":         "ghp_Zk3vQ8mX2pL9rT4wN7yB1cF6hJ5dS0aE3gK8",
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				New(Options{Secrets: c.secrets})
			}
		})
	}
}
