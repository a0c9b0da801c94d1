package skillsync

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink is an inline markdown link or image: its destination, without a
// title.
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinks: every relative link of README.md and docs/*.md leads to
// a file of the repository and, with a #fragment, to a heading of it, so
// that moving a section never leaves a reader at a dead end.
func TestDocsLinks(t *testing.T) {
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, "README.md")
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(withoutCode(string(data)), -1) {
			dest := m[1]
			if strings.Contains(dest, "://") || strings.HasPrefix(dest, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(dest, "#")
			target := page
			if file != "" {
				target = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, dest)
				continue
			}
			if frag != "" && !hasAnchor(t, target, frag) {
				t.Errorf("%s links to %s, but %s has no heading with that anchor", page, dest, target)
			}
		}
	}
}

// withoutCode is markdown with its fenced blocks left out, where a "](x)"
// is code, not a link.
func withoutCode(s string) string {
	var b strings.Builder
	in := false
	for line := range strings.Lines(s) {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			in = !in
			continue
		}
		if !in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// hasAnchor reports whether the markdown file has a heading whose GitHub
// anchor is frag.
func hasAnchor(t *testing.T, file, frag string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(withoutCode(string(data))) {
		h, ok := strings.CutPrefix(line, "#")
		if !ok {
			continue
		}
		if githubAnchor(strings.TrimLeft(h, "#")) == frag {
			return true
		}
	}
	return false
}

// githubAnchor is the id GitHub gives a heading: lower case, spaces made
// hyphens, punctuation but hyphens and underscores dropped.
func githubAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}
