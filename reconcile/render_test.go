package reconcile

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/remote"
)

// reviewPlan is a plan with one of everything a reviewer may meet.
func reviewPlan() *Plan {
	desired := repo(
		local("code-review", func(s *fsrepo.Skill) {
			s.Name = "Code Review"
			s.Description = "Use when reviewing a pull request."
			s.Instructions = "# Code review\n\nCheck:\n\n- correctness and security\n- tests\n- naming\n\nBe kind, and use `gofmt`.\n"
			s.Files = []fsrepo.File{textFile("checklist.md", "- tests\n- docs\n"), largeFile("reference.md"), textFile("template.md", "Thanks!\n")}
		}),
		local("legacy-search", disabled),
		local("new-skill"),
		local("pdf-tools"),
		local("unreadable"),
	)
	lv := &Live{
		Space: "ab12",
		Skills: []remote.Skill{
			live("code-review", func(s *remote.Skill) {
				s.Name = "Code review"
				s.Description = "Use for reviews."
				s.Instructions = ptr("# Code review\n\nCheck:\n\n- correctness\n- tests\n- naming\n\nBe kind.\n")
			}),
			live("legacy-search"),
			live("pdf-tools", remoteDisabled),
			live("unreadable", func(s *remote.Skill) { s.Instructions = nil }),
			live("scratch"),
			live("old-draft", remoteDisabled),
			live("team-notes", func(s *remote.Skill) { s.Source = remote.SourceUpload }),
		},
		Files: map[string]map[string]*string{
			id("code-review"): {"checklist.md": ptr("- tests\n"), "template.md": nil},
		},
		Agents: []remote.Agent{
			{ID: "11111111-1111-4111-8111-111111111111", Name: "Support | Bot", SkillIDs: []string{id("code-review"), id("legacy-search")}},
			{ID: "22222222-2222-4222-8222-222222222222", Name: "Reviewer", SkillIDs: []string{id("code-review")}, Published: true, HasUnpublishedChanges: true},
		},
	}
	return Compute(desired, lv, Policy{Missing: config.MissingWarn, PublishAgents: []string{"Reviewer"}})
}

func noChangePlan() *Plan {
	return Compute(repo(local("a")), &Live{Space: "ab12", Skills: []remote.Skill{live("a")}}, Policy{})
}

func errorPlan() *Plan {
	return Compute(repo(local("a"), local("missing")), &Live{Space: "ab12", Skills: []remote.Skill{live("a", remoteDisabled)}}, Policy{})
}

// splitPlan is reviewPlan split by origin, as plan --base splits it: some
// changes from the pull request, the others drift.
func splitPlan() *Plan {
	p := reviewPlan()
	for i := range p.Changes {
		p.Changes[i].Origin = OriginPR
		if i%2 == 1 {
			p.Changes[i].Origin = OriginDrift
		}
	}
	return p
}

var renderCases = []struct {
	name string
	plan func() *Plan
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
				if err := RenderText(&b, tc.plan(), TextOptions{Color: color}); err != nil {
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
		plan *Plan
		want string
	}{
		{"in sync", noChangePlan(), ""},
		{"missing", errorPlan(), "Not possible through the API: 1 skill missing."},
		{"missing and files", reviewPlan(), "Not possible through the API: 1 skill missing, 1 file differs, 1 file absent."},
		{"unchecked files are not counted", &Plan{Files: []FileIssue{{Status: FileUnchecked}}}, ""},
		{"plurals", &Plan{
			Missing: make([]MissingSkill, 2),
			Files:   []FileIssue{{Status: FileDiffers}, {Status: FileDiffers}, {Status: FileAbsent}, {Status: FileAbsent}},
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
			if err := RenderMarkdown(&b, tc.plan(), MarkdownOptions{}); err != nil {
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
func hugePlan(skills, lines int) *Plan {
	r, l := repo(), &Live{Space: "ab12"}
	for i := 0; i < skills; i++ {
		slug := fmt.Sprintf("skill-%03d", i)
		var old, new strings.Builder
		for j := 0; j < lines; j++ {
			fmt.Fprintf(&old, "Old line %d of %s, with ```fences``` and <html> & such.\n", j, slug)
			fmt.Fprintf(&new, "New line %d of %s, rewritten.\n", j, slug)
		}
		r.Skills = append(r.Skills, local(slug, func(s *fsrepo.Skill) { s.Instructions = new.String() }))
		l.Skills = append(l.Skills, live(slug, func(s *remote.Skill) { s.Instructions = ptr(old.String()) }))
	}
	// One small change, so fair sharing must keep it whole.
	r.Skills = append(r.Skills, local("tiny", func(s *fsrepo.Skill) { s.Name = "Tiny" }))
	l.Skills = append(l.Skills, live("tiny"))
	return Compute(r, l, Policy{})
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
			if err := RenderMarkdown(&b, p, MarkdownOptions{MaxLen: tc.max}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			max := tc.max
			if max == 0 {
				max = DefaultMarkdownMaxLen
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
			if err := RenderJSON(&b, []*Plan{tc.plan()}); err != nil {
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
	if err := RenderJSON(&b, []*Plan{plans[0], review}); err != nil {
		t.Fatal(err)
	}
	golden(t, "targets.json", b.Bytes())
}

func TestJSONRoundTrip(t *testing.T) {
	for _, tc := range renderCases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.plan()
			var b bytes.Buffer
			if err := RenderJSON(&b, []*Plan{p}); err != nil {
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
		version bool   // the error wraps ErrFormatVersion
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
		if err != nil && errors.Is(err, ErrFormatVersion) != tc.version {
			t.Errorf("%s: errors.Is(err, ErrFormatVersion) = %v", tc.json, !tc.version)
		}
		if err != nil && errors.Is(err, ErrEarlierFormat) != tc.earlier {
			t.Errorf("%s: errors.Is(err, ErrEarlierFormat) = %v", tc.json, !tc.earlier)
		}
	}
}

func FuzzDecodePlan(f *testing.F) {
	for _, tc := range renderCases {
		var b bytes.Buffer
		if err := RenderJSON(&b, []*Plan{tc.plan()}); err != nil {
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
		if err := RenderJSON(&j1, []*Plan{p}); err != nil {
			t.Fatal(err)
		}
		p2, err := DecodePlan(bytes.NewReader(j1.Bytes()))
		if err != nil {
			t.Fatalf("re-decoding: %v\n%s", err, j1.String())
		}
		var j2 bytes.Buffer
		if err := RenderJSON(&j2, []*Plan{p2}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(j1.Bytes(), j2.Bytes()) {
			t.Fatalf("round trip changed the plan:\n%s\n%s", j1.String(), j2.String())
		}
		var md bytes.Buffer
		if err := RenderMarkdown(&md, p, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		if md.Len() > DefaultMarkdownMaxLen {
			t.Fatalf("markdown of %d bytes", md.Len())
		}
		if err := RenderText(&bytes.Buffer{}, p, TextOptions{Color: true}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRenderTextEscapesControlCharacters(t *testing.T) {
	p := Compute(
		repo(local("a", disabled, func(s *fsrepo.Skill) { s.Instructions = "new \x1b[2J\n" })),
		&Live{Space: "ab12", Skills: []remote.Skill{live("a")},
			Agents: []remote.Agent{{ID: "ag\x07", Name: "Evil \x1b]0;title\x07", SkillIDs: []string{id("a")}}}},
		Policy{},
	)
	var b bytes.Buffer
	if err := RenderText(&b, p, TextOptions{}); err != nil {
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
		if got := codeSpan(tc.in); got != tc.span {
			t.Errorf("codeSpan(%q) = %q, want %q", tc.in, got, tc.span)
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
	p := Compute(
		repo(local("a", disabled, func(s *fsrepo.Skill) {
			s.Instructions = "kept line\nnew " + hostileText + "\n"
			s.Files = []fsrepo.File{textFile("notes.md", "one\n")}
		})),
		&Live{Space: "ab12", Skills: []remote.Skill{live("a")},
			Files:  map[string]map[string]*string{id("a"): {"notes.md": ptr("one " + hostileText + "\n")}},
			Agents: []remote.Agent{{ID: "ag1", Name: "Agent " + hostileText + "\nNo changes.", SkillIDs: []string{id("a")}}}},
		Policy{},
	)
	render := map[string]func(*bytes.Buffer) error{
		"text":       func(b *bytes.Buffer) error { return RenderText(b, p, TextOptions{}) },
		"text color": func(b *bytes.Buffer) error { return RenderText(b, p, TextOptions{Color: true}) },
		"markdown":   func(b *bytes.Buffer) error { return RenderMarkdown(b, p, MarkdownOptions{}) },
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
