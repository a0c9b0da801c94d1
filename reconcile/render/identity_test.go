package render

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/diff"
	"github.com/skillsync/skillsync/reconcile/planfile"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
)

// renderText is instructions, file content or a field value drawn from
// pieces a renderer must keep straight: fences, HTML, pipes, control
// characters, separators JSON escapes, CRLF, no final newline.
func renderText(r *rand.Rand, lines int) string {
	pieces := []string{
		"plain words of a skill", "```go", "````", "`x`", "<b>bold</b> & co", "a | b",
		"\x1b[2J", "\u2028 line separator", "tab\there", "- item", "## Heading", "",
		"@@ -1 +1 @@", "+++ b", "--- a", "\\ No newline", "é ünïcode ✓", "\r",
	}
	var sb strings.Builder
	for i := range lines {
		sb.WriteString(pieces[r.IntN(len(pieces))])
		if r.IntN(3) == 0 {
			fmt.Fprintf(&sb, " %d", i)
		}
		if i < lines-1 || r.IntN(4) > 0 {
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// renderEdit changes a few lines of s, so that diffs have hunks and context.
func renderEdit(r *rand.Rand, s string) string {
	lines := diff.Lines(s)
	for range 1 + r.IntN(4) {
		if len(lines) == 0 {
			break
		}
		at := r.IntN(len(lines))
		switch r.IntN(3) {
		case 0:
			lines[at] = "edited " + lines[at]
		case 1:
			lines = append(lines[:at], lines[at+1:]...)
		default:
			lines = append(lines[:at], append([]string{"inserted line\n"}, lines[at:]...)...)
		}
	}
	return strings.Join(lines, "")
}

// randomPlan computes the plan of a random repository and space, then
// splits it by origin at random, as plan --base would.
func randomPlan(r *rand.Rand) *reconcile.Plan {
	desired, lv := reconciletest.Repo(), &reconcile.Live{Space: "ab12", Files: map[string]map[string]*string{}}
	if r.IntN(4) == 0 {
		desired.Commit = ""
	}
	desired.Dirty = r.IntN(4) == 0
	var agentSkills []string
	for i := range r.IntN(14) {
		slug := fmt.Sprintf("s%02d-%s", i, []string{"a", "b`c", "d|e", "<f>", "g\x07"}[r.IntN(5)])
		text := renderText(r, r.IntN(60))
		inRepo, inSpace := r.IntN(8) > 0, r.IntN(8) > 0
		if !inRepo && !inSpace {
			inRepo = true
		}
		if inRepo {
			desired.Skills = append(desired.Skills, reconciletest.Local(slug, func(s *fsrepo.Skill) {
				s.Enabled = r.IntN(3) > 0
				s.Instructions = text
				if r.IntN(3) == 0 {
					s.Name = "Name " + renderText(r, 1)
				}
				if r.IntN(5) == 0 {
					s.Path = ""
				}
				for k := range r.IntN(3) {
					s.Files = append(s.Files, reconciletest.TextFile(fmt.Sprintf("f%d.md", k), renderText(r, r.IntN(30))))
				}
			}))
		}
		if inSpace {
			lv.Skills = append(lv.Skills, reconciletest.Live(slug, func(s *remote.Skill) {
				s.Enabled = r.IntN(3) > 0
				switch r.IntN(6) {
				case 0:
					s.Instructions = nil
				case 1, 2:
					s.Instructions = reconciletest.Ptr(renderEdit(r, text))
				case 3:
					s.Instructions = reconciletest.Ptr(renderText(r, r.IntN(60)))
				default:
					s.Instructions = reconciletest.Ptr(text)
				}
				if r.IntN(4) == 0 {
					s.Description = "Old " + renderText(r, 1)
				}
			}))
			if inRepo {
				files := map[string]*string{}
				for _, f := range desired.Skills[len(desired.Skills)-1].Files {
					switch r.IntN(3) {
					case 0:
						files[f.Path] = nil
					case 1:
						files[f.Path] = reconciletest.Ptr(renderEdit(r, string(f.Content)))
					}
				}
				lv.Files[reconciletest.ID(slug)] = files
			}
			if r.IntN(2) == 0 {
				agentSkills = append(agentSkills, reconciletest.ID(slug))
			}
		}
	}
	lv.Agents = []remote.Agent{
		{ID: "11111111-1111-4111-8111-111111111111", Name: "Support | <Bot>", SkillIDs: agentSkills},
		{ID: "22222222-2222-4222-8222-222222222222", Name: "Reviewer", SkillIDs: agentSkills[:len(agentSkills)/2], Published: r.IntN(2) == 0, HasUnpublishedChanges: true},
	}
	pol := reconcile.Policy{Force: r.IntN(2) == 0, PublishAgents: []string{"Reviewer"}}
	if r.IntN(2) == 0 {
		pol.Missing = config.MissingWarn
	}
	if r.IntN(2) == 0 {
		pol.Unmanaged = config.UnmanagedDisable
	}
	p := reconcile.Compute(desired, lv, pol)
	if r.IntN(2) == 0 {
		for i := range p.Changes {
			c := &p.Changes[i]
			c.Origin = []string{reconcile.OriginPR, reconcile.OriginDrift}[r.IntN(2)]
			if c.Origin == reconcile.OriginPR && len(c.Fields) > 1 && r.IntN(2) == 0 {
				c.DriftFields = c.Fields[:1]
			}
		}
	}
	return p
}

// propertyPlans are the plans every renderer is tried on: the golden
// plans, huge ones and random ones.
func propertyPlans(t *testing.T) map[string]*reconcile.Plan {
	plans := map[string]*reconcile.Plan{}
	for _, tc := range renderCases {
		plans[tc.name] = tc.plan()
	}
	for _, h := range []struct{ skills, lines int }{{1, 5000}, {30, 100}, {3000, 2}, {5, 200}, {200, 10}} {
		plans[fmt.Sprintf("huge-%dx%d", h.skills, h.lines)] = hugePlan(h.skills, h.lines)
	}
	n := 200
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(15, 4))
	for i := range n {
		plans[fmt.Sprintf("random-%03d", i)] = randomPlan(r)
	}
	return plans
}

// TestRenderersOnEveryPlan: on golden, huge and random plans, every
// format says what a reader checks. Text names every change and ends with
// the summary line; markdown starts with the plan's marker, stays within
// its size, and names every change or says how many it cut; JSON reads
// back as the same changes.
func TestRenderersOnEveryPlan(t *testing.T) {
	render := func(f func(*bytes.Buffer) error) string {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for name, p := range propertyPlans(t) {
		t.Run(name, func(t *testing.T) {
			// The huge plans' diffs are slow to make: they take fewer forms.
			huge := strings.HasPrefix(name, "huge-")
			texts := []TextOptions{{}, {Color: true}, {Title: "skillsync drift"}}
			limits := []int{0, 3000, 4500, 8000, 20000, 1 << 20}
			if huge {
				texts, limits = texts[:1], []int{0, 8000}
			}
			for _, o := range texts {
				out := render(func(b *bytes.Buffer) error { return Text(b, p, o) })
				for _, c := range p.Changes {
					if !strings.Contains(out, visible.Line(c.Slug)) {
						t.Errorf("text %+v does not name %s", o, c.Slug)
					}
				}
				if !strings.HasSuffix(strings.TrimRight(out, "\n"), SummaryLine(p)) && !strings.HasSuffix(strings.TrimRight(out, "\n"), SummaryLine(p)+ansiReset) {
					t.Errorf("text %+v does not end with %q: ...%q", o, SummaryLine(p), out[max(0, len(out)-120):])
				}
			}
			for _, limit := range limits {
				out := render(func(b *bytes.Buffer) error { return Markdown(b, p, MarkdownOptions{MaxLen: limit}) })
				if want := MarkdownMarker(p.Space, p.Target) + "\n"; !strings.HasPrefix(out, want) {
					t.Errorf("markdown of %d bytes does not start with the marker %q", limit, want)
				}
				if max := cmp.Or(limit, defaultMarkdownMaxLen); len(out) > max {
					t.Errorf("markdown of %d bytes is %d bytes", limit, len(out))
				}
				cut := strings.Contains(out, " more ")
				for _, c := range p.Changes {
					// Markdown escapes a slug's odd characters its own way:
					// look for what comes before the first of them.
					plain := c.Slug[:strings.IndexFunc(c.Slug+"\x00", func(r rune) bool { return !(r == '-' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9') })]
					if !strings.Contains(out, plain) && !cut {
						t.Errorf("markdown of %d bytes neither names %s nor says it cut", limit, c.Slug)
						break
					}
				}
			}
			back, err := DecodePlan(strings.NewReader(render(func(b *bytes.Buffer) error { return JSON(b, []*reconcile.Plan{p}) })))
			if err != nil {
				t.Fatalf("json does not read back: %v", err)
			}
			if len(back.Changes) != len(p.Changes) {
				t.Fatalf("json read back %d changes, want %d", len(back.Changes), len(p.Changes))
			}
			for i := range p.Changes {
				if got, want := back.Changes[i], p.Changes[i]; got.Slug != want.Slug || !reflect.DeepEqual(got.After, want.After) || got.Diff() != want.Diff() {
					t.Errorf("json change %d read back as %s %+v, want %s %+v", i, got.Slug, got.After, want.Slug, want.After)
				}
			}
		})
	}
}

// TestChangeJSONHoldsEveryField keeps the JSON form of a change in step
// with Change: every field, in order, with its tag, and the diff after
// "after" where plans have always had it.
func TestChangeJSONHoldsEveryField(t *testing.T) {
	var got, want []string
	ct, jt := reflect.TypeFor[reconcile.Change](), reflect.TypeFor[changeJSON]()
	for i := range ct.NumField() {
		f := ct.Field(i)
		want = append(want, f.Name+" "+f.Type.String()+" "+f.Tag.Get("json"))
		if f.Name == "After" {
			want = append(want, "Diff string diff,omitempty")
		}
	}
	for i := range jt.NumField() {
		f := jt.Field(i)
		got = append(got, f.Name+" "+f.Type.String()+" "+f.Tag.Get("json"))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("changeJSON has\n%s\nChange asks\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// writeLog records each write a renderer makes.
type writeLog struct {
	writes []string
	fail   error // returned by every write, when set
}

func (w *writeLog) Write(p []byte) (int, error) {
	if w.fail != nil {
		return 0, w.fail
	}
	w.writes = append(w.writes, string(p))
	return len(p), nil
}

// TestRenderersWriteAsTheyGo: a plan too large to hold twice is written
// as it is rendered, in writes of a few kilobytes.
func TestRenderersWriteAsTheyGo(t *testing.T) {
	p := hugePlan(40, 200) // 40 diffs of 400 lines: near a megabyte
	for _, tc := range []struct {
		name   string
		render func(*writeLog) error
		many   bool // large enough to take several writes
	}{
		{"text", func(w *writeLog) error { return Text(w, p, TextOptions{Color: true}) }, true},
		{"json", func(w *writeLog) error { return JSON(w, []*reconcile.Plan{p}) }, true},
		{"targets json", func(w *writeLog) error {
			a, b := *p, *p
			a.Target, b.Target = "staging", "prod"
			return JSON(w, []*reconcile.Plan{&a, &b})
		}, true},
		// plan -out of the largest plan must not hold it whole either.
		{"saved", func(w *writeLog) error {
			return WriteSavedPlan(w, &planfile.Saved{BaseURL: "https://t.example.com", Plan: p})
		}, true},
		{"markdown", func(w *writeLog) error { return Markdown(w, p, MarkdownOptions{}) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w writeLog
			if err := tc.render(&w); err != nil {
				t.Fatal(err)
			}
			all := strings.Join(w.writes, "")
			longest := 0
			for _, l := range strings.SplitAfter(all, "\n") {
				longest = max(longest, len(l))
			}
			for i, s := range w.writes {
				if len(s) > bufferBytes+longest {
					t.Errorf("write %d is %d bytes: the renderer held more than it had to", i, len(s))
				}
			}
			if tc.many && len(w.writes) < len(all)/(2*bufferBytes) {
				t.Errorf("%d bytes in %d writes", len(all), len(w.writes))
			}
		})
	}
}

// TestRenderersReportWriteErrors: a writer that fails (a closed pipe)
// fails the render, and nothing more is written after.
func TestRenderersReportWriteErrors(t *testing.T) {
	p := hugePlan(5, 200)
	broken := errors.New("broken pipe")
	for name, render := range map[string]func(*writeLog) error{
		"text":     func(w *writeLog) error { return Text(w, p, TextOptions{}) },
		"json":     func(w *writeLog) error { return JSON(w, []*reconcile.Plan{p}) },
		"markdown": func(w *writeLog) error { return Markdown(w, p, MarkdownOptions{}) },
	} {
		w := &writeLog{fail: broken}
		if err := render(w); !errors.Is(err, broken) {
			t.Errorf("%s: rendering to a broken writer: %v, want %v", name, err, broken)
		}
	}
}

// TestDecodedPlanShowsTheDiffOfWhatApplySends: a plan read back shows the
// diff its before and after give, never a "diff" edited in the file, which
// could hide from a reviewer what apply would write.
func TestDecodedPlanShowsTheDiffOfWhatApplySends(t *testing.T) {
	p := reviewPlan()
	var b bytes.Buffer
	if err := JSON(&b, []*reconcile.Plan{p}); err != nil {
		t.Fatal(err)
	}
	const real = `+- correctness and security\n`
	if !strings.Contains(b.String(), real) {
		t.Fatalf("the plan lacks the diff line %s", real)
	}
	edited := strings.ReplaceAll(b.String(), real, `+- correctness and kindness\n`)
	got, err := DecodePlan(strings.NewReader(edited))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := Text(&text, got, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "+- correctness and security\n") || strings.Contains(text.String(), "kindness") {
		t.Errorf("the decoded plan shows the diff of the file, not of its before and after:\n%s", text.String())
	}
}
