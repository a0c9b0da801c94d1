package reconcile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/remote"
)

func liveSkill(slug, name, desc string, enabled bool) remote.Skill {
	return remote.Skill{ID: "id-" + slug, Slug: slug, Name: name, Description: desc, Enabled: enabled}
}

func intp(n int) *int { return &n }

// TestDescribeSpaceBudget: the characters of the active skills' names and
// descriptions before and after apply, the largest, and what each change
// adds; disabled skills count for nothing.
func TestDescribeSpaceBudget(t *testing.T) {
	live := []remote.Skill{
		liveSkill("a", "A", strings.Repeat("x", 99), true),   // 100
		liveSkill("b", "B", strings.Repeat("y", 199), true),  // 200
		liveSkill("c", "C", strings.Repeat("z", 299), false), // 300 once enabled
		liveSkill("d", "D", strings.Repeat("é", 49), true),   // 50 characters, 99 bytes
		liveSkill("e", "E", strings.Repeat("w", 9), true),    // 10, disabled by the change
		liveSkill("a", "A", strings.Repeat("x", 99), true),   // listed twice: counted once
	}
	changes := []Change{
		{Slug: "b", ID: "id-b", After: SkillState{Name: "B", Description: strings.Repeat("y", 149), Enabled: true}},
		{Slug: "c", ID: "id-c", After: SkillState{Name: "C", Description: strings.Repeat("z", 299), Enabled: true}},
		{Slug: "e", ID: "id-e", After: SkillState{Name: "E", Description: strings.Repeat("w", 9), Enabled: false}},
	}
	r := DescribeSpace(live, changes, config.Descriptions{Budget: intp(550)})
	if r.Before != 360 || r.After != 600 || r.Budget != 550 || !r.Over {
		t.Errorf("before %d, after %d of %d, over %t; want 360 -> 600 of 550, over", r.Before, r.After, r.Budget, r.Over)
	}
	if got, want := r.BudgetLine(), "360 -> 600 of 550 characters (+300 from c, -10 from e, -50 from b)"; got != want {
		t.Errorf("BudgetLine() = %q, want %q", got, want)
	}
	if got, want := r.LargestLine(), "largest: c 300, b 150, a 100, d 50"; got != want {
		t.Errorf("LargestLine() = %q, want %q", got, want)
	}
	if r := DescribeSpace(live, nil, config.Descriptions{}); r.Budget != config.DefaultDescriptionBudget || r.Over || len(r.Changed) != 0 {
		t.Errorf("no change, default budget: %+v", r)
	}
}

// TestDescribeSpaceOverlap: skills whose descriptions say the same thing
// overlap, unrelated ones do not, and a pair that a change brings about
// is marked new.
func TestDescribeSpaceOverlap(t *testing.T) {
	live := []remote.Skill{
		liveSkill("sql-style", "SQL Style", "Formats and reviews SQL queries and migrations to the team's style guide. Use for any SQL query.", true),
		liveSkill("sql-review", "SQL Review", "Reviews SQL queries and migrations against the team's SQL style guide. Use when a SQL query changes.", false),
		liveSkill("brand-voice", "Brand Voice", "Rewrites marketing copy in the company's brand voice. Use for announcements and blog posts.", true),
		liveSkill("release-notes", "Release Notes", "Writes release notes from merged pull requests, grouped by feature and fix.", true),
	}
	enable := []Change{{Slug: "sql-review", ID: "id-sql-review", After: SkillState{Name: "SQL Review", Description: live[1].Description, Enabled: true}}}
	r := DescribeSpace(live, enable, config.Descriptions{})
	if len(r.Overlaps) != 1 || r.Overlaps[0].Slugs != [2]string{"sql-review", "sql-style"} || !r.Overlaps[0].New || r.Overlaps[0].Percent < 50 {
		t.Fatalf("overlaps %+v, want sql-review and sql-style, new", r.Overlaps)
	}
	// Enabled already, the pair is not the change's.
	live[1].Enabled = true
	r = DescribeSpace(live, nil, config.Descriptions{})
	if len(r.Overlaps) != 1 || r.Overlaps[0].New {
		t.Errorf("overlaps %+v, want the pair, not new", r.Overlaps)
	}
	// A threshold above the pair's similarity, or the check off, reports none.
	if r := DescribeSpace(live, nil, config.Descriptions{Overlap: intp(r.Overlaps[0].Percent + 1)}); len(r.Overlaps) != 0 {
		t.Errorf("above the threshold: %+v", r.Overlaps)
	}
	if r := DescribeSpace(live, nil, config.Descriptions{OverlapLevel: config.LevelOff}); len(r.Overlaps) != 0 {
		t.Errorf("overlapLevel off: %+v", r.Overlaps)
	}
}

// TestComputeReportsTheSpace: plan carries the report, and its problems at
// the levels descriptions: sets, warnings by default.
func TestComputeReportsTheSpace(t *testing.T) {
	desc := "Formats and reviews SQL queries and migrations to the team's style guide. Use for any SQL query."
	live := &Live{Space: "ab12", Skills: []remote.Skill{
		liveSkill("sql-style", "SQL Style", desc, true),
		liveSkill("sql-lint", "SQL Lint", desc, false),
	}}
	for i := range live.Skills {
		text := "Body.\n"
		live.Skills[i].Instructions = &text
	}
	repo := &fsrepo.Repo{Skills: []fsrepo.Skill{
		{Slug: "sql-style", Name: "SQL Style", Description: desc, Enabled: true, Instructions: "Body.\n"},
		{Slug: "sql-lint", Name: "SQL Lint", Description: desc, Enabled: true, Instructions: "Body.\n"},
	}}
	codes := func(ps []Problem) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Code+": "+p.Message)
		}
		return out
	}
	p := Compute(repo, live, Policy{Descriptions: config.Descriptions{Budget: intp(100)}})
	want := []string{
		"description-budget: descriptions 105 -> 209 of 100 characters (+104 from sql-lint): over budget by 109",
		"description-overlap: sql-lint and sql-style would overlap after this change: their descriptions are 91% alike (threshold 30%)",
	}
	if got := codes(p.Warnings); fmt.Sprint(got) != fmt.Sprint(want) || len(p.Errors) != 0 {
		t.Errorf("warnings %q, errors %q; want warnings %q", got, codes(p.Errors), want)
	}
	p = Compute(repo, live, Policy{Descriptions: config.Descriptions{Budget: intp(100), BudgetLevel: config.LevelError, OverlapLevel: config.LevelError}})
	if got := codes(p.Errors); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("errors %q, want %q", got, want)
	}
	if p.Descriptions == nil || p.Descriptions.After != 209 {
		t.Errorf("the plan's report: %+v", p.Descriptions)
	}
}

// spaceOf makes n active skills whose descriptions draw words from a
// vocabulary of common and rare words, as real descriptions do.
func spaceOf(n int) []remote.Skill {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := make([]string, 4000)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("word%d", i)
	}
	skills := make([]remote.Skill, n)
	for i := range skills {
		var b strings.Builder
		b.WriteString("Use when the user asks to")
		for range 30 {
			// A few words in a third of the descriptions, most in a handful.
			k := int(float64(len(vocab)) * rng.Float64() * rng.Float64())
			b.WriteString(" " + vocab[k])
		}
		slug := fmt.Sprintf("skill-%05d", i)
		skills[i] = liveSkill(slug, slug, b.String(), true)
	}
	return skills
}

// BenchmarkDescribeSpace5000: the budget and the overlapping pairs of a
// space of 5,000 active skills (a space holds up to 5,000 skills).
func BenchmarkDescribeSpace5000(b *testing.B) {
	live := spaceOf(5000)
	b.ReportAllocs()
	for b.Loop() {
		DescribeSpace(live, nil, config.Descriptions{})
	}
}
