package remotetest

import (
	"fmt"
	"strings"

	"github.com/skillsync/skillsync/internal/visible"
)

// piece is a part of a text as a page shows it: as it is, or a marker
// standing for a run of characters a reader could not see.
type piece struct {
	Text   string
	Hidden bool
	Title  string // what the hidden run is, for a tooltip
}

// shown cuts s into what a page shows: the text as it is, and each run of
// invisible characters (controls, bidirectional controls, zero-width and
// tag characters, ... as [visible.Runs] finds them) as a marker naming its
// code points and what it spells. The template escapes every piece.
func shown(s string) []piece {
	runs := visible.Runs(s)
	if len(runs) == 0 {
		return []piece{{Text: s}}
	}
	var out []piece
	at := 0
	for _, run := range runs {
		if run.Start > at {
			out = append(out, piece{Text: s[at:run.Start]})
		}
		out = append(out, piece{Text: marker(s[run.Start:run.End], run), Hidden: true, Title: run.Main().String()})
		at = run.End
	}
	if at < len(s) {
		out = append(out, piece{Text: s[at:]})
	}
	return out
}

// marker names the first code points of a run, its length past four, and
// what it spells.
func marker(text string, run visible.Run) string {
	var b strings.Builder
	b.WriteByte('[')
	n := 0
	for _, r := range text {
		if n == 4 {
			fmt.Fprintf(&b, " ... %d in all", run.Count)
			break
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "U+%04X", r)
		n++
	}
	if run.Decoded != "" {
		fmt.Fprintf(&b, " spelling %q", run.Decoded)
	}
	b.WriteByte(']')
	return b.String()
}

// hiddenNote warns that a field holds characters a reader cannot see.
type hiddenNote struct {
	Field   string
	Summary string
	Text    string
}

// hiddenNotes takes pairs of a field's name and its text, and notes those
// texts that hold invisible characters.
func hiddenNotes(fieldAndText ...string) []hiddenNote {
	var out []hiddenNote
	for i := 0; i+1 < len(fieldAndText); i += 2 {
		if s := hiddenSummary(fieldAndText[i+1]); s != "" {
			out = append(out, hiddenNote{Field: fieldAndText[i], Summary: s, Text: fieldAndText[i+1]})
		}
	}
	return out
}

// hiddenSummary says how many invisible characters s holds and of which
// kinds, "" when none.
func hiddenSummary(s string) string {
	runs := visible.Runs(s)
	if len(runs) == 0 {
		return ""
	}
	count := 0
	var kinds []string
	seen := map[visible.Kind]bool{}
	for _, run := range runs {
		count += run.Count
		if k := run.Main(); !seen[k] {
			seen[k] = true
			kinds = append(kinds, k.String())
		}
	}
	noun := "characters"
	if count == 1 {
		noun = "character"
	}
	return fmt.Sprintf("%d hidden %s (%s)", count, noun, strings.Join(kinds, ", "))
}

// visibleName is s for a page's title, which can hold no markup: its
// hidden characters written as markers, its line ends as spaces.
func visibleName(s string) string {
	var b strings.Builder
	for _, p := range shown(s) {
		b.WriteString(p.Text)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
