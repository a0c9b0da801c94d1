package reconcile

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/remote"
)

// Codes of the problems of the space as a whole.
const (
	CodeDescriptionBudget  = "description-budget"  // the active skills' descriptions pass the budget
	CodeDescriptionOverlap = "description-overlap" // two active skills' descriptions overlap
)

// maxContributors is how many of the largest descriptions a report names.
const maxContributors = 5

// maxOverlapProblems bounds the overlapping pairs reported one by one as
// problems; the report holds them all.
const maxOverlapProblems = 20

// Descriptions is what the AI of a space sees of its active skills
// together, before and after apply: the characters their names and
// descriptions take against the budget, the largest of them, what the
// change does to each, and the pairs whose descriptions overlap.
type Descriptions struct {
	Budget  int               `json:"budget"`
	Before  int               `json:"before"`  // characters of the active skills' names and descriptions now
	After   int               `json:"after"`   // ... after apply
	Over    bool              `json:"over"`    // After > Budget
	Largest []DescriptionSize `json:"largest"` // after apply, largest first, at most 5
	// Changed are the skills whose share changes, by most characters
	// added first: enabled, disabled, or with a new name or description.
	Changed []DescriptionSize `json:"changed"`
	// OverlapPercent is the similarity from which a pair overlaps.
	OverlapPercent int       `json:"overlap_percent"`
	Overlaps       []Overlap `json:"overlaps"` // after apply, most similar first
}

// A DescriptionSize is one active skill's share of the budget.
type DescriptionSize struct {
	Slug  string `json:"slug"`
	Chars int    `json:"chars"`           // its name and description after apply; 0 when not active then
	Delta int    `json:"delta,omitempty"` // what apply changes
}

// An Overlap is a pair of active skills whose descriptions are alike.
type Overlap struct {
	Slugs   [2]string `json:"slugs"`   // sorted
	Percent int       `json:"percent"` // similarity, 0 to 100
	// New is set when the pair does not overlap before apply: the change
	// introduces it.
	New bool `json:"new,omitempty"`
}

// activeSkill is an active skill as the AI sees it.
type activeSkill struct {
	slug, name, description string
}

// chars is what s takes of the budget: its name and description, in
// characters.
func (s activeSkill) chars() int {
	return utf8.RuneCountInString(s.name) + utf8.RuneCountInString(s.description)
}

// activeSets are the active skills of the space before and after the
// changes, by slug: live skills not listed twice, each after its change.
func activeSets(live []remote.Skill, changes []Change) (before, after []activeSkill) {
	byID := make(map[string]int, len(changes))
	for i, ch := range changes {
		byID[ch.ID] = i
	}
	seen := make(map[string]bool, len(live))
	for _, s := range live {
		if seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		if s.Enabled {
			before = append(before, activeSkill{s.Slug, s.Name, s.Description})
		}
		st := SkillState{Name: s.Name, Description: s.Description, Enabled: s.Enabled}
		if i, ok := byID[s.ID]; ok {
			st = changes[i].After
		}
		if st.Enabled {
			after = append(after, activeSkill{s.Slug, st.Name, st.Description})
		}
	}
	bySlug := func(a, b activeSkill) int { return cmp.Compare(a.slug, b.slug) }
	slices.SortFunc(before, bySlug)
	slices.SortFunc(after, bySlug)
	return before, after
}

// DescribeSpace reports the descriptions of the active skills of live
// before and after changes, under the budget and overlap threshold of d
// (its defaults filled in). It is pure, as [Compute] is.
func DescribeSpace(live []remote.Skill, changes []Change, d config.Descriptions) *Descriptions {
	d = d.WithDefaults()
	before, after := activeSets(live, changes)
	r := &Descriptions{Budget: *d.Budget, OverlapPercent: *d.Overlap, Largest: []DescriptionSize{}, Changed: []DescriptionSize{}, Overlaps: []Overlap{}}
	was := map[string]int{}
	for _, s := range before {
		r.Before += s.chars()
		was[s.slug] += s.chars()
	}
	now := map[string]int{}
	for _, s := range after {
		r.After += s.chars()
		now[s.slug] += s.chars()
		r.Largest = append(r.Largest, DescriptionSize{Slug: s.slug, Chars: s.chars()})
	}
	r.Over = r.After > r.Budget
	slices.SortStableFunc(r.Largest, func(a, b DescriptionSize) int { return cmp.Compare(b.Chars, a.Chars) })
	r.Largest = r.Largest[:min(len(r.Largest), maxContributors)]
	for slug, n := range now {
		if n != was[slug] {
			r.Changed = append(r.Changed, DescriptionSize{Slug: slug, Chars: n, Delta: n - was[slug]})
		}
	}
	for slug, n := range was {
		if _, ok := now[slug]; !ok {
			r.Changed = append(r.Changed, DescriptionSize{Slug: slug, Delta: -n})
		}
	}
	slices.SortFunc(r.Changed, func(a, b DescriptionSize) int {
		return cmp.Or(cmp.Compare(b.Delta, a.Delta), cmp.Compare(a.Slug, b.Slug))
	})
	if d.OverlapLevel != config.LevelOff {
		r.Overlaps = overlaps(after, r.OverlapPercent)
		was := r.Overlaps // the same skills overlap alike
		if !slices.Equal(before, after) {
			was = overlaps(before, r.OverlapPercent)
		}
		old := map[[2]string]bool{}
		for _, o := range was {
			old[o.Slugs] = true
		}
		for i := range r.Overlaps {
			r.Overlaps[i].New = !old[r.Overlaps[i].Slugs]
		}
	}
	return r
}

// BudgetLine is the budget as one line says it: "7,430 -> 8,210 of 8,000
// characters (+780 from sql-style)", the characters before and after
// apply, the budget, and the skills that change them most.
func (r *Descriptions) BudgetLine() string {
	line := fmt.Sprintf("%s -> %s of %s characters", thousands(r.Before), thousands(r.After), thousands(r.Budget))
	var from []string
	for _, c := range r.Changed {
		if len(from) == 3 {
			from = append(from, fmt.Sprintf("%d more", len(r.Changed)-3))
			break
		}
		from = append(from, fmt.Sprintf("%+d from %s", c.Delta, c.Slug))
	}
	if len(from) > 0 {
		line += " (" + strings.Join(from, ", ") + ")"
	}
	return line
}

// LargestLine names the largest descriptions after apply: "largest:
// pdf 1,024, docx 980".
func (r *Descriptions) LargestLine() string {
	var parts []string
	for _, c := range r.Largest {
		parts = append(parts, fmt.Sprintf("%s %s", c.Slug, thousands(c.Chars)))
	}
	return "largest: " + strings.Join(parts, ", ")
}

// thousands writes n, a count of characters, with a comma between groups
// of three digits.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// describeSpace adds the report of the descriptions to the plan, and its
// problems at the levels the policy sets.
func (c *planner) describeSpace() {
	var live []remote.Skill // index has listed each id once
	for _, slug := range c.slugs {
		live = append(live, c.bySlug[slug]...)
	}
	d := c.policy.Descriptions.WithDefaults()
	r := DescribeSpace(live, c.plan.Changes, d)
	c.plan.Descriptions = r
	report := c.warnf
	if d.BudgetLevel == config.LevelError {
		report = c.errorf
	}
	if r.Over {
		report(Problem{Code: CodeDescriptionBudget,
			Hint: fmt.Sprintf("agents hide skills past their budget: shorten the largest descriptions (%s), or disable skills; the budget is descriptions.budget in %s",
				strings.TrimPrefix(r.LargestLine(), "largest: "), config.FileName)},
			"descriptions %s: over budget by %s", r.BudgetLine(), thousands(r.After-r.Budget))
	}
	report = c.warnf
	if d.OverlapLevel == config.LevelError {
		report = c.errorf
	}
	for i, o := range r.Overlaps {
		if i == maxOverlapProblems {
			report(Problem{Code: CodeDescriptionOverlap}, "%d more pairs of active skills overlap (see the JSON plan)", len(r.Overlaps)-i)
			break
		}
		what := "overlap"
		if o.New {
			what = "would overlap after this change"
		}
		report(Problem{Code: CodeDescriptionOverlap, Slug: o.Slugs[0], Skills: o.Slugs[:],
			Hint: "an agent picks a skill by its description: say in each what sets it apart, and when to use the other one instead"},
			"%s and %s %s: their descriptions are %d%% alike (threshold %d%%)", o.Slugs[0], o.Slugs[1], what, o.Percent, r.OverlapPercent)
	}
}

// overlaps are the pairs of skills whose similarity (see [similar]) is
// at least percent, most similar first, then by slugs.
func overlaps(skills []activeSkill, percent int) []Overlap {
	out := []Overlap{}
	similar(skills, float64(percent)/100-0.005, func(i, j int, sim float64) {
		p := int(math.Round(sim * 100))
		if p < percent {
			return
		}
		a, b := skills[i].slug, skills[j].slug
		if b < a {
			a, b = b, a
		}
		out = append(out, Overlap{Slugs: [2]string{a, b}, Percent: p})
	})
	slices.SortFunc(out, func(a, b Overlap) int {
		return cmp.Or(cmp.Compare(b.Percent, a.Percent), cmp.Compare(a.Slugs[0], b.Slugs[0]), cmp.Compare(a.Slugs[1], b.Slugs[1]))
	})
	return out
}

// similar calls pair for each pair i < j of skills whose similarity is at
// least min: the cosine of their TF-IDF vectors, over the words of name and
// description (see [words]), each weighted by its count and by ln(1 +
// n/df), n the skills and df those holding the word. It walks an inverted
// index, so its work is the pairs that share a word, not all pairs.
func similar(skills []activeSkill, min float64, pair func(i, j int, sim float64)) {
	type posting struct {
		doc int
		w   float64
	}
	ids := map[string]int{} // word -> its index in postings
	tf := make([][]int, len(skills))
	for i, s := range skills {
		for _, w := range words(s.name + " " + s.description) {
			id, ok := ids[w]
			if !ok {
				id = len(ids)
				ids[w] = id
			}
			tf[i] = append(tf[i], id)
		}
		slices.Sort(tf[i])
	}
	df := make([]int, len(ids))
	for _, t := range tf {
		for k, id := range t {
			if k == 0 || t[k-1] != id {
				df[id]++
			}
		}
	}
	postings := make([][]posting, len(ids))
	type term struct {
		id, at int // the word, and the skill's place in its postings
		w      float64
	}
	vecs := make([][]term, len(skills))
	norms := make([]float64, len(skills))
	n := float64(len(skills))
	for i, t := range tf {
		for k := 0; k < len(t); {
			id, count := t[k], 0
			for ; k < len(t) && t[k] == id; k++ {
				count++
			}
			w := float64(count) * math.Log(1+n/float64(df[id]))
			norms[i] += w * w
			vecs[i] = append(vecs[i], term{id, len(postings[id]), w})
			postings[id] = append(postings[id], posting{i, w})
		}
		norms[i] = math.Sqrt(norms[i])
	}
	dot := make([]float64, len(skills))
	for i := range skills {
		if norms[i] == 0 {
			continue
		}
		last := i
		for _, t := range vecs[i] {
			for _, p := range postings[t.id][t.at+1:] { // the skills after i
				dot[p.doc] += t.w * p.w
				last = max(last, p.doc)
			}
		}
		for j := i + 1; j <= last; j++ {
			if d := dot[j]; d > 0 {
				dot[j] = 0
				if sim := d / (norms[i] * norms[j]); sim >= min {
					pair(i, j, sim)
				}
			}
		}
	}
}

// words are the words of text that tell skills apart: runs of letters and
// digits, lower case, without the words every description holds (see
// stopWord) and those shorter than three characters, and with a plural
// "s" dropped.
func words(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }) {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		if utf8.RuneCountInString(w) < 3 || stopWord(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// stopWord reports the English function words, and the words of the
// "what it does and when to use it" form every description follows, as
// words gives them (plural "s" dropped).
func stopWord(w string) bool {
	switch w {
	case "about", "again", "all", "also", "and", "any", "are", "ask", "asked", "because",
		"both", "but", "can", "claude", "could", "did", "doe", "doing", "done", "each", "few",
		"for", "from", "further", "had", "has", "have", "having", "help", "here", "how",
		"into", "its", "just", "like", "may", "might", "more", "most", "must", "need", "not",
		"off", "once", "only", "other", "our", "out", "over", "own", "request", "same",
		"should", "skill", "some", "such", "task", "than", "that", "the", "their", "them",
		"then", "there", "these", "they", "thi", "those", "under", "until", "use", "used",
		"user", "using", "very", "want", "was", "were", "what", "when", "whenever", "where",
		"which", "while", "who", "whom", "why", "will", "with", "work", "working", "would",
		"you", "your":
		return true
	}
	return false
}
