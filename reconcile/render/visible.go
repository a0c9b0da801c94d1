package render

import (
	"fmt"
	"strings"

	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/diff"
)

// shownDiff is the unified diff d as a reviewer reads it: each line shown
// by [visible.Line]. A deleted and an inserted line paired in a hunk that
// would show alike are shown by [visible.Every]; if they still look alike,
// a line starting "\ " after the inserted one says which characters
// differ. Only the renderers
// use it: the JSON plan's diff stays one that patch applies.
func shownDiff(d string) string {
	if !mayHide(d) {
		return d
	}
	lines := diff.Lines(d)
	var b strings.Builder
	b.Grow(len(d) + len(d)/8)
	inHunk := false
	for i := 0; i < len(lines); {
		l := lines[i]
		if !inHunk || l[0] != '-' {
			inHunk = inHunk || strings.HasPrefix(l, "@@")
			writeShownLine(&b, l)
			i++
			continue
		}
		// A run of deleted lines, then one of inserted lines.
		j := i
		for j < len(lines) && lines[j][0] == '-' {
			j++
		}
		k := j
		for k < len(lines) && lines[k][0] == '+' {
			k++
		}
		if k-j != j-i {
			for _, l := range lines[i:k] {
				writeShownLine(&b, l)
			}
			i = k
			continue
		}
		alike := make([]string, j-i)
		for n := range j - i {
			old, new := strings.TrimSuffix(lines[i+n][1:], "\n"), strings.TrimSuffix(lines[j+n][1:], "\n")
			if old == new || !lookAlike(old, new) {
				continue
			}
			lines[i+n], lines[j+n] = "-"+visible.Every(old), "+"+visible.Every(new)
			if lines[i+n][1:] == lines[j+n][1:] {
				alike[n] = whereTheyDiffer(old, new)
			}
		}
		for n, l := range lines[i:k] {
			writeShownLine(&b, l)
			if n >= j-i && alike[n-(j-i)] != "" {
				b.WriteString(`\ ` + alike[n-(j-i)] + "\n")
			}
		}
		i = k
	}
	return b.String()
}

// mayHide reports whether s holds anything but printable ASCII, tabs and
// newlines: something [visible.Line] might show.
func mayHide(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 || c >= 0x7f) && c != '\n' && c != '\t' {
			return true
		}
	}
	return false
}

// writeShownLine writes diff line l, its first character kept and the rest
// shown by [visible.Line], then a newline.
func writeShownLine(b *strings.Builder, l string) {
	l = strings.TrimSuffix(l, "\n")
	if l == "" {
		b.WriteString("\n")
		return
	}
	b.WriteString(l[:1])
	b.WriteString(visible.Line(l[1:]))
	b.WriteString("\n")
}

// lookAlike reports whether a and b read the same once shown by
// [visible.Line]: the same but for characters it leaves as they are, the
// invisible characters of emoji sequences and of scripts.
func lookAlike(a, b string) bool {
	return visible.Strip(visible.Line(a)) == visible.Strip(visible.Line(b))
}

// maxAlikeRunes bounds the characters [whereTheyDiffer] names on each side.
const maxAlikeRunes = 12

// whereTheyDiffer says which characters of two lines that look alike
// differ, by their code points: "looks like the line it replaces, but
// differs: U+27E6 U+005A ... -> U+200B".
func whereTheyDiffer(a, b string) string {
	ra, rb := []rune(a), []rune(b)
	pre, suf := diff.CommonEnds(ra, rb)
	return "looks like the line it replaces, but differs: " + codePoints(ra[pre:len(ra)-suf]) + " -> " + codePoints(rb[pre:len(rb)-suf])
}

// codePoints names rs as U+XXXX, at most maxAlikeRunes of them.
func codePoints(rs []rune) string {
	if len(rs) == 0 {
		return "nothing"
	}
	parts := make([]string, 0, min(len(rs), maxAlikeRunes)+1)
	for i, r := range rs {
		if i == maxAlikeRunes {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("U+%04X", r))
	}
	return strings.Join(parts, " ")
}

// An invisibleChange is what changes between two texts that a person sees
// alike: the markers ([visible.Hidden]) of the runs of invisible
// characters added and removed.
type invisibleChange struct {
	added, removed []string
}

// maxListedRuns bounds the runs an [invisibleChange] lists on each side.
const maxListedRuns = 5

// onlyInvisible returns what changes from before to after, and true, when
// the two differ in invisible characters only.
func onlyInvisible(before, after string) (invisibleChange, bool) {
	if before == after || visible.Strip(before) != visible.Strip(after) {
		return invisibleChange{}, false
	}
	was := map[string]int{}
	for _, m := range visible.Hidden(before) {
		was[m]++
	}
	var ch invisibleChange
	for _, m := range visible.Hidden(after) {
		if was[m] > 0 {
			was[m]--
			continue
		}
		ch.added = append(ch.added, m)
	}
	for _, m := range visible.Hidden(before) {
		if was[m] > 0 {
			was[m]--
			ch.removed = append(ch.removed, m)
		}
	}
	return ch, true
}

// describe says what changes, each marker passed through mark (a code
// span, in markdown): "only invisible characters change: adds ⟦ZWSP⟧;
// removes ⟦SHY⟧".
func (ch invisibleChange) describe(mark func(string) string) string {
	list := func(verb string, ms []string) string {
		parts := make([]string, 0, min(len(ms), maxListedRuns)+1)
		for i, m := range ms {
			if i == maxListedRuns {
				parts = append(parts, fmt.Sprintf("and %d more", len(ms)-i))
				break
			}
			parts = append(parts, mark(m))
		}
		return verb + " " + strings.Join(parts, ", ")
	}
	var what []string
	if len(ch.added) > 0 {
		what = append(what, list("adds", ch.added))
	}
	if len(ch.removed) > 0 {
		what = append(what, list("removes", ch.removed))
	}
	if len(what) == 0 {
		what = append(what, "they move")
	}
	return "only invisible characters change: " + strings.Join(what, "; ")
}

// quote is s between double quotes, with its quotes and backslashes
// escaped, for a field's value: the renderer that writes it shows what it
// holds that no one can see.
func quote(s string) string {
	if strings.ContainsAny(s, `"\`) {
		s = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
	}
	return `"` + s + `"`
}

// invisibleNote is " (only invisible characters change)" when before and
// after differ in invisible characters only, else "".
func invisibleNote(before, after string) string {
	if _, only := onlyInvisible(before, after); only {
		return " (only invisible characters change)"
	}
	return ""
}

// invisibleInstructions is what changes in c's instructions, and whether
// only invisible characters do.
func invisibleInstructions(c *reconcile.Change) (invisibleChange, bool) {
	if c.Before.Instructions == nil || c.After.Instructions == nil {
		return invisibleChange{}, false
	}
	return onlyInvisible(*c.Before.Instructions, *c.After.Instructions)
}
