// Package mdcut shortens markdown to fit a size limit without breaking
// the page: [Cut] keeps whole lines, closes the code fence and the
// <details> elements the cut leaves open, and ends with a note saying
// that something was left out. It is shared by the hosts skillsync posts
// to, each with its own limit and its own way of counting: characters
// ([Runes]) for a GitHub comment or a GitLab note, bytes ([Bytes]) for a
// GitHub job summary.
package mdcut

import (
	"strings"
	"unicode/utf8"
)

// Cut returns s unchanged if size(s) <= limit, else the longest run of
// whole lines of s that fits with note appended, with any ``` fence and
// <details> element left open by the cut closed again so that the rest of
// the page still renders. size counts what the limit counts: characters for
// a comment body, bytes for a step summary.
func Cut(s string, limit int, note string, size func(string) int) string {
	if size(s) <= limit {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	// Grow the kept prefix line by line while it could still fit; then
	// shrink it until the closers and the note fit too. What each prefix
	// leaves open is counted as it grows, so that shrinking it costs no
	// reading of it again: a prefix of many unclosed <details> lines
	// would otherwise be read once for each line taken off.
	budget := limit - size(note)
	n, used := 0, 0
	type open struct{ used, fences, details int } // of the first n lines
	prefix := []open{{}}
	for n < len(lines) && used+size(lines[n]) <= budget {
		used += size(lines[n])
		last := prefix[n]
		if isFence(lines[n]) {
			last.fences++
		}
		last.details += strings.Count(lines[n], "<details") - strings.Count(lines[n], "</details>")
		last.used = used
		prefix = append(prefix, last)
		n++
	}
	for ; n > 0; n-- {
		p := prefix[n]
		closing := max(p.details, 0) * size(detailsCloser)
		if p.fences%2 == 1 {
			closing += size(fenceCloser)
		}
		if !strings.HasSuffix(lines[n-1], "\n") {
			closing += size("\n")
		}
		if p.used+closing+size(note) <= limit {
			kept := strings.Join(lines[:n], "")
			return kept + closers(kept) + note
		}
	}
	// Not even the first line fits: cut inside it, leaving room for the
	// newline that closers adds.
	kept := cutTo(lines[0], budget-1, size)
	if out := kept + closers(kept) + note; size(out) <= limit {
		return out
	}
	return cutTo(note, limit, size)
}

// The lines [closers] writes.
const (
	fenceCloser   = "```\n"
	detailsCloser = "</details>\n"
)

// isFence reports whether line opens or closes a code fence.
func isFence(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), "```")
}

// closers returns what closes the code fence and the <details> elements that
// md leaves open, each on its own line.
func closers(md string) string {
	var b strings.Builder
	if !strings.HasSuffix(md, "\n") && md != "" {
		b.WriteString("\n")
	}
	fenced := false
	for line := range strings.SplitSeq(md, "\n") {
		if isFence(line) {
			fenced = !fenced
		}
	}
	if fenced {
		b.WriteString(fenceCloser)
	}
	open := strings.Count(md, "<details") - strings.Count(md, "</details>")
	for range max(open, 0) {
		b.WriteString(detailsCloser)
	}
	return b.String()
}

// cutTo returns the longest prefix of s, cut at a rune boundary, that fits
// in limit.
func cutTo(s string, limit int, size func(string) int) string {
	if limit <= 0 {
		return ""
	}
	for size(s) > limit {
		// Cut roughly, then by single runes: sizes are per rune or per byte,
		// so the rough cut never undershoots by more than the rune widths.
		over := size(s) - limit
		cut := len(s) - over
		if cut >= len(s) {
			cut = len(s) - 1
		}
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// Runes counts characters, the way GitHub and GitLab count the length of
// a comment, a note or an issue's body.
func Runes(s string) int { return utf8.RuneCountInString(s) }

// Bytes counts bytes, as GitHub's 1 MiB limit of a step summary does.
func Bytes(s string) int { return len(s) }
