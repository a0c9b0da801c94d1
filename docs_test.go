package skillsync

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

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
		for _, dest := range links(data) {
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

// links are the destinations of the markdown's links and images, as a
// CommonMark parser reads them: a "](x)" inside code is no link.
func links(md []byte) []string {
	var out []string
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(md))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Link:
			if entering {
				out = append(out, string(n.Destination))
			}
		case *ast.Image:
			if entering {
				out = append(out, string(n.Destination))
			}
		}
		return ast.WalkContinue, nil
	})
	return out
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
