package render

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/diff"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/plans")

// goldenDir holds the golden outputs of the renderers.
const goldenDir = "../../testdata/plans"

// golden compares got with the golden file name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reconcile/render -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./reconcile/render -update if the change is intended):\n%s",
			name, diff.Unified("want", "got", string(want), string(got)))
	}
}

// reviewPlan is a plan with one of everything a reviewer may meet.
func reviewPlan() *reconcile.Plan {
	desired := reconciletest.Repo(
		reconciletest.Local("code-review", func(s *fsrepo.Skill) {
			s.Name = "Code Review"
			s.Description = "Use when reviewing a pull request."
			s.Instructions = "# Code review\n\nCheck:\n\n- correctness and security\n- tests\n- naming\n\nBe kind, and use `gofmt`.\n"
			s.Files = []fsrepo.File{reconciletest.TextFile("checklist.md", "- tests\n- docs\n"), reconciletest.LargeFile("reference.md"), reconciletest.TextFile("template.md", "Thanks!\n")}
		}),
		reconciletest.Local("legacy-search", reconciletest.Disabled),
		reconciletest.Local("new-skill"),
		reconciletest.Local("pdf-tools"),
		reconciletest.Local("unreadable"),
	)
	lv := &reconcile.Live{
		Space: "ab12",
		Skills: []remote.Skill{
			reconciletest.Live("code-review", func(s *remote.Skill) {
				s.Name = "Code review"
				s.Description = "Use for reviews."
				s.Instructions = reconciletest.Ptr("# Code review\n\nCheck:\n\n- correctness\n- tests\n- naming\n\nBe kind.\n")
			}),
			reconciletest.Live("legacy-search"),
			reconciletest.Live("pdf-tools", reconciletest.RemoteDisabled),
			reconciletest.Live("unreadable", func(s *remote.Skill) { s.Instructions = nil }),
			reconciletest.Live("scratch"),
			reconciletest.Live("old-draft", reconciletest.RemoteDisabled),
			reconciletest.Live("team-notes", func(s *remote.Skill) { s.Source = remote.SourceUpload }),
		},
		Files: map[string]map[string]*string{
			reconciletest.ID("code-review"): {"checklist.md": reconciletest.Ptr("- tests\n"), "template.md": nil},
		},
		Agents: []remote.Agent{
			{ID: "11111111-1111-4111-8111-111111111111", Name: "Support | Bot", SkillIDs: []string{reconciletest.ID("code-review"), reconciletest.ID("legacy-search")}},
			{ID: "22222222-2222-4222-8222-222222222222", Name: "Reviewer", SkillIDs: []string{reconciletest.ID("code-review")}, Published: true, HasUnpublishedChanges: true},
		},
	}
	return reconcile.Compute(desired, lv, reconcile.Policy{Missing: config.MissingWarn, PublishAgents: []string{"Reviewer"}})
}

func noChangePlan() *reconcile.Plan {
	return reconcile.Compute(reconciletest.Repo(reconciletest.Local("a")), &reconcile.Live{Space: "ab12", Skills: []remote.Skill{reconciletest.Live("a")}}, reconcile.Policy{})
}

func errorPlan() *reconcile.Plan {
	return reconcile.Compute(reconciletest.Repo(reconciletest.Local("a"), reconciletest.Local("missing")), &reconcile.Live{Space: "ab12", Skills: []remote.Skill{reconciletest.Live("a", reconciletest.RemoteDisabled)}}, reconcile.Policy{})
}

// splitPlan is reviewPlan split by origin, as plan --base splits it: some
// changes from the pull request, the others drift.
func splitPlan() *reconcile.Plan {
	p := reviewPlan()
	for i := range p.Changes {
		p.Changes[i].Origin = reconcile.OriginPR
		if i%2 == 1 {
			p.Changes[i].Origin = reconcile.OriginDrift
		}
	}
	return p
}

var renderCases = []struct {
	name string
	plan func() *reconcile.Plan
}{
	{"review", reviewPlan},
	{"nochange", noChangePlan},
	{"errors", errorPlan},
	{"split", splitPlan},
}

func TestRenderTextGolden(t *testing.T) {
	for _, tc := range renderCases {
		for _, color := range []bool{false, true} {
			name := tc.name + ".txt"
			if color {
				name = tc.name + ".color.txt"
			}
			t.Run(name, func(t *testing.T) {
				var b bytes.Buffer
				if err := Text(&b, tc.plan(), TextOptions{Color: color}); err != nil {
					t.Fatal(err)
				}
				golden(t, name, b.Bytes())
				if strings.Contains(b.String(), "\x1b[") != color {
					t.Errorf("colour escapes present = %v, want %v", !color, color)
				}
				lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
				last := lines[len(lines)-1]
				last = strings.ReplaceAll(strings.ReplaceAll(last, ansiBold, ""), ansiReset, "")
				if last != SummaryLine(tc.plan()) {
					t.Errorf("last line %q", last)
				}
			})
		}
	}
}

func TestSummaryLine(t *testing.T) {
	if got := SummaryLine(noChangePlan()); got != "No changes." {
		t.Errorf("got %q", got)
	}
	if got := SummaryLine(reviewPlan()); got != "Plan: 2 to update, 1 to enable, 1 to disable." {
		t.Errorf("got %q", got)
	}
}

func TestUnsyncableLine(t *testing.T) {
	tests := []struct {
		name string
		plan *reconcile.Plan
		want string
	}{
		{"in sync", noChangePlan(), ""},
		{"missing", errorPlan(), "Not possible through the API: 1 skill missing."},
		{"missing and files", reviewPlan(), "Not possible through the API: 1 skill missing, 1 file differs, 1 file absent."},
		{"unchecked files are not counted", &reconcile.Plan{Files: []reconcile.FileIssue{{Status: reconcile.FileUnchecked}}}, ""},
		{"plurals", &reconcile.Plan{
			Missing: make([]reconcile.MissingSkill, 2),
			Files:   []reconcile.FileIssue{{Status: reconcile.FileDiffers}, {Status: reconcile.FileDiffers}, {Status: reconcile.FileAbsent}, {Status: reconcile.FileAbsent}},
		}, "Not possible through the API: 2 skills missing, 2 files differ, 2 files absent."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnsyncableLine(tt.plan); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRenderMarkdownGolden(t *testing.T) {
	for _, tc := range renderCases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Markdown(&b, tc.plan(), MarkdownOptions{}); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".md", b.Bytes())
			if !strings.HasPrefix(b.String(), "<!-- skillsync:plan space=ab12 -->\n") {
				t.Errorf("no marker line: %q", b.String()[:40])
			}
		})
	}
}

// hugePlan updates many skills with long instructions, far more than fits
// in a comment.
func hugePlan(skills, lines int) *reconcile.Plan {
	r, l := reconciletest.Repo(), &reconcile.Live{Space: "ab12"}
	for i := 0; i < skills; i++ {
		slug := fmt.Sprintf("skill-%03d", i)
		var old, new strings.Builder
		for j := 0; j < lines; j++ {
			fmt.Fprintf(&old, "Old line %d of %s, with ```fences``` and <html> & such.\n", j, slug)
			fmt.Fprintf(&new, "New line %d of %s, rewritten.\n", j, slug)
		}
		r.Skills = append(r.Skills, reconciletest.Local(slug, func(s *fsrepo.Skill) { s.Instructions = new.String() }))
		l.Skills = append(l.Skills, reconciletest.Live(slug, func(s *remote.Skill) { s.Instructions = reconciletest.Ptr(old.String()) }))
	}
	// One small change, so fair sharing must keep it whole.
	r.Skills = append(r.Skills, reconciletest.Local("tiny", func(s *fsrepo.Skill) { s.Name = "Tiny" }))
	l.Skills = append(l.Skills, reconciletest.Live("tiny"))
	return reconcile.Compute(r, l, reconcile.Policy{})
}

func TestRenderMarkdownCutsLongDiffs(t *testing.T) {
	for _, tc := range []struct {
		name          string
		skills, lines int
		max           int
	}{
		{"one huge diff", 1, 5000, 0},
		{"many long diffs", 30, 400, 0},
		{"more skills than fit", 3000, 2, 0},
		{"small limit", 5, 200, 8000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := hugePlan(tc.skills, tc.lines)
			var b bytes.Buffer
			if err := Markdown(&b, p, MarkdownOptions{MaxLen: tc.max}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			max := tc.max
			if max == 0 {
				max = defaultMarkdownMaxLen
			}
			if b.Len() > max {
				t.Errorf("%d bytes, over %d", b.Len(), max)
			}
			if !utf8.ValidString(out) {
				t.Error("output is not valid UTF-8")
			}
			if !strings.Contains(out, "**"+SummaryLine(p)+"**") || !strings.HasPrefix(out, MarkdownMarker("ab12", "")) {
				t.Error("summary cut")
			}
			if !strings.Contains(out, "size limit") {
				t.Error("no note saying what was cut")
			}
			if tc.skills < 100 && !strings.Contains(out, "`~ tiny`") && !strings.Contains(out, "<code>~ tiny</code>") {
				t.Error("the small change was crowded out")
			}
			// Every opened fence and <details> is closed.
			if o, c := strings.Count(out, "<details>"), strings.Count(out, "</details>"); o != c {
				t.Errorf("%d <details>, %d </details>", o, c)
			}
		})
	}
}

func TestRenderJSONGolden(t *testing.T) {
	for _, tc := range renderCases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := JSON(&b, []*reconcile.Plan{tc.plan()}); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name+".json", b.Bytes())
		})
	}
}

// TestRenderJSONGoldenTargets: the document of two targets' plans, as a
// consumer (the action, a script) reads it.
func TestRenderJSONGoldenTargets(t *testing.T) {
	plans := targetPlans(t)
	review := reviewPlan()
	review.Target = "review"
	var b bytes.Buffer
	if err := JSON(&b, []*reconcile.Plan{plans[0], review}); err != nil {
		t.Fatal(err)
	}
	golden(t, "targets.json", b.Bytes())
}

func TestJSONRoundTrip(t *testing.T) {
	for _, tc := range renderCases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.plan()
			var b bytes.Buffer
			if err := JSON(&b, []*reconcile.Plan{p}); err != nil {
				t.Fatal(err)
			}
			got, err := DecodePlan(&b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, p) {
				t.Errorf("decoded plan differs:\n%+v\nwant\n%+v", got, p)
			}
		})
	}
}

func TestDecodePlanVersions(t *testing.T) {
	for _, tc := range []struct {
		json    string
		err     string // "" for success
		version bool   // the error wraps errFormatVersion
		earlier bool   // and ErrEarlierFormat
	}{
		{json: `{"format_version": "3", "targets": [{}]}`},
		{json: `{"format_version": "3.4", "some_future_field": {"x": 1}, "targets": [{"space": "ab12", "future": 1}]}`},
		{json: `{"format_version": "3"}`, err: "a document with no targets"},
		// The plans of earlier versions: plan again.
		{json: `{"format_version": "1", "space": "ab12", "desired_hash": "sha256:x", "changes": []}`, err: `format_version "1": the plan was written by an earlier skillsync, in a format this one no longer reads; plan again`, version: true, earlier: true},
		{json: `{"format_version": "2", "targets": [{"format_version": "1", "desired_hash": "sha256:x"}]}`, err: `"2": the plan was written by an earlier skillsync`, version: true, earlier: true},
		// Another document of version 1, not a plan.
		{json: `{"format_version": "1", "skills": []}`, err: `unsupported plan format_version "1": this skillsync reads plans of format_version 3`, version: true},
		{json: `{"format_version": "4"}`, err: `unsupported plan format_version "4": this skillsync reads plans of format_version 3`, version: true},
		{json: `{"format_version": "4.0"}`, err: `"4.0"`, version: true},
		{json: `{"format_version": "30"}`, err: `"30"`, version: true},
		{json: `{"format_version": ""}`, err: `""`, version: true},
		{json: `{"space": "ab12"}`, err: "no format_version"},
		{json: `[]`, err: "decoding plan"},
		{json: `{"format_version": "3", "targets": [{"changes": [{"slug": "a", "id": "x", "actions": ["delete"]}]}]}`, err: `unknown action "delete"`},
		{json: `{"format_version": "3", "targets": [{"changes": [{"slug": "a", "id": "x", "actions": ["update"], "fields": ["slug"]}]}]}`, err: `unknown field "slug"`},
		{json: `{"format_version": "3", "targets": [{"changes": [{"slug": "a", "actions": ["update"]}]}]}`, err: "no id"},
		{json: `{"format_version": "3", "targets": [{"changes": [{"slug": "a", "id": "x", "actions": ["update"], "fields": ["instructions"]}]}]}`, err: "to null"},
		{json: `{"format_version": "3", "targets": [{"changes": [{"slug": "a", "id": "x", "actions": ["enable", "disable"]}]}]}`, err: "both"},
	} {
		p, err := DecodePlan(strings.NewReader(tc.json))
		if tc.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tc.json, err)
			} else if p.Changes == nil || p.Errors == nil {
				t.Errorf("%s: slices left nil", tc.json)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want one containing %q", tc.json, err, tc.err)
		}
		if err != nil && errors.Is(err, errFormatVersion) != tc.version {
			t.Errorf("%s: errors.Is(err, errFormatVersion) = %v", tc.json, !tc.version)
		}
		if err != nil && errors.Is(err, ErrEarlierFormat) != tc.earlier {
			t.Errorf("%s: errors.Is(err, ErrEarlierFormat) = %v", tc.json, !tc.earlier)
		}
	}
}

func FuzzDecodePlan(f *testing.F) {
	for _, tc := range renderCases {
		var b bytes.Buffer
		if err := JSON(&b, []*reconcile.Plan{tc.plan()}); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes())
	}
	f.Add([]byte(`{"format_version": "3", "targets": [{"changes": [{"slug": "a", "id": "x", "actions": ["update"], "fields": []}]}]}`))
	f.Add([]byte(`{"format_version": "3"}`))
	f.Add([]byte(`{"format_version": "3", "targets": [{"errors": [{"code": "x", "skills": []}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePlan(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What decodes must render in every form and survive a round trip.
		var j1 bytes.Buffer
		if err := JSON(&j1, []*reconcile.Plan{p}); err != nil {
			t.Fatal(err)
		}
		p2, err := DecodePlan(bytes.NewReader(j1.Bytes()))
		if err != nil {
			t.Fatalf("re-decoding: %v\n%s", err, j1.String())
		}
		var j2 bytes.Buffer
		if err := JSON(&j2, []*reconcile.Plan{p2}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(j1.Bytes(), j2.Bytes()) {
			t.Fatalf("round trip changed the plan:\n%s\n%s", j1.String(), j2.String())
		}
		var md bytes.Buffer
		if err := Markdown(&md, p, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		if md.Len() > defaultMarkdownMaxLen {
			t.Fatalf("markdown of %d bytes", md.Len())
		}
		if err := Text(&bytes.Buffer{}, p, TextOptions{Color: true}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRenderTextEscapesControlCharacters(t *testing.T) {
	p := reconcile.Compute(
		reconciletest.Repo(reconciletest.Local("a", reconciletest.Disabled, func(s *fsrepo.Skill) { s.Instructions = "new \x1b[2J\n" })),
		&reconcile.Live{Space: "ab12", Skills: []remote.Skill{reconciletest.Live("a")},
			Agents: []remote.Agent{{ID: "ag\x07", Name: "Evil \x1b]0;title\x07", SkillIDs: []string{reconciletest.ID("a")}}}},
		reconcile.Policy{},
	)
	var b bytes.Buffer
	if err := Text(&b, p, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("control characters reach the terminal:\n%q", b.String())
	}
	if !strings.Contains(b.String(), "Evil ⟦ESC⟧]0;title⟦BEL⟧") {
		t.Errorf("agent name not shown escaped:\n%s", b.String())
	}
}

func TestMarkdownFencesHoldTheirContent(t *testing.T) {
	for _, tc := range []struct{ in, fence, span string }{
		{"plain", "```", "`plain`"},
		{"a ``` b", "````", "```` a ``` b ````"},
		{"`x`", "```", "`` `x` ``"},
		{"line\nbreak", "```", "`line⟦LF⟧break`"},
	} {
		if got := fenceFor(tc.in); got != tc.fence {
			t.Errorf("fenceFor(%q) = %q, want %q", tc.in, got, tc.fence)
		}
		if got := CodeSpan(tc.in); got != tc.span {
			t.Errorf("CodeSpan(%q) = %q, want %q", tc.in, got, tc.span)
		}
	}
}

// hostileText holds what a hostile space or repository may put in a plan
// to repaint what a reviewer reads: erase and move lines, set the title,
// write the clipboard (OSC 52), overwrite a line with a bare CR, reorder
// text with a bidi override, send a C1 CSI, and fake a line of the plan.
const hostileText = "erase\x1b[2K\x1b[1A title\x1b]0;title\x07 clip\x1b]52;c;ZXZpbA==\x07 over\rwrite rlo\u202eevil csi\u009b2J"

// hostileShown is hostileText as a reviewer must see it.
const hostileShown = "erase⟦ESC⟧[2K⟦ESC⟧[1A title⟦ESC⟧]0;title⟦BEL⟧ clip⟦ESC⟧]52;c;ZXZpbA==⟦BEL⟧ over⟦CR⟧write rlo⟦RLO⟧evil csi⟦U+009B⟧2J"

// rawControl reports the first control character of out that is not
// skillsync's own colour, tab or line end, or "" when there is none.
func rawControl(out string) string {
	for _, code := range []string{ansiReset, ansiBold, ansiRed, ansiGreen, ansiYellow, ansiCyan} {
		out = strings.ReplaceAll(out, code, "")
	}
	for i, r := range out {
		switch {
		case r == '\t' || r == '\n':
		case r == '\r' && strings.HasPrefix(out[i:], "\r\n"):
		case r < 0x20, r >= 0x7f && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("%U at %d in ...%q...", r, i, out[max(0, i-40):min(len(out), i+40)])
		}
	}
	return ""
}

func TestRenderersShowControlCharactersVisibly(t *testing.T) {
	p := reconcile.Compute(
		reconciletest.Repo(reconciletest.Local("a", reconciletest.Disabled, func(s *fsrepo.Skill) {
			s.Instructions = "kept line\nnew " + hostileText + "\n"
			s.Files = []fsrepo.File{reconciletest.TextFile("notes.md", "one\n")}
		})),
		&reconcile.Live{Space: "ab12", Skills: []remote.Skill{reconciletest.Live("a")},
			Files:  map[string]map[string]*string{reconciletest.ID("a"): {"notes.md": reconciletest.Ptr("one " + hostileText + "\n")}},
			Agents: []remote.Agent{{ID: "ag1", Name: "Agent " + hostileText + "\nNo changes.", SkillIDs: []string{reconciletest.ID("a")}}}},
		reconcile.Policy{},
	)
	render := map[string]func(*bytes.Buffer) error{
		"text":       func(b *bytes.Buffer) error { return Text(b, p, TextOptions{}) },
		"text color": func(b *bytes.Buffer) error { return Text(b, p, TextOptions{Color: true}) },
		"markdown":   func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{}) },
	}
	for name, r := range render {
		var b bytes.Buffer
		if err := r(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if c := rawControl(out); c != "" {
			t.Errorf("%s: a raw control character reaches the reader: %s", name, c)
		}
		// The instruction diff, the file diff and the agent's name.
		if n := strings.Count(out, hostileShown); n < 3 {
			t.Errorf("%s: the hostile text is shown escaped %d times, want 3 or more:\n%s", name, n, out)
		}
		if strings.HasPrefix(name, "text") && strings.Contains(out, "\nNo changes.") {
			t.Errorf("%s: an agent's name fakes a line of the plan:\n%s", name, out)
		}
	}
}
