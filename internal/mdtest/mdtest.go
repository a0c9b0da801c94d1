// Package mdtest reads markdown as GitHub and GitLab render it (CommonMark
// with GitHub's extensions, parsed by goldmark), for tests that check that
// text from outside a report is shown in it and never obeyed: [Shape]
// counts what text could add to a document, and [Exposed] finds what a
// host would link or mention.
package mdtest

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// parse returns the syntax tree of md.
func parse(md string) (ast.Node, []byte) {
	src := []byte(md)
	return goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src)), src
}

// htmlTag matches an HTML tag or comment in an HTML block.
var htmlTag = regexp.MustCompile(`<(!--|/?[A-Za-z][A-Za-z0-9-]*)`)

// Shape counts by kind the constructs of md that text could add or
// break: links, images, autolinks, emphasis, strikethrough, raw HTML,
// headings, paragraphs, tables, rows and cells, lists and items,
// blockquotes, thematic breaks, code blocks, HTML blocks and each tag
// their lines hold. A document rendered from hostile text and the same
// rendered from benign text must have the same shape.
func Shape(md string) map[string]int {
	doc, src := parse(md)
	shape := map[string]int{}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindText, ast.KindString, ast.KindDocument, ast.KindTextBlock, ast.KindCodeSpan:
			return ast.WalkContinue, nil
		case ast.KindHeading:
			shape["Heading"+strings.Repeat("#", n.(*ast.Heading).Level)]++
		case ast.KindEmphasis:
			shape["Emphasis"+strings.Repeat("*", n.(*ast.Emphasis).Level)]++
		case ast.KindHTMLBlock:
			shape["HTMLBlock"]++
			for _, tag := range htmlTag.FindAllStringSubmatch(linesOf(n, src), -1) {
				shape["<"+strings.ToLower(tag[1])+">"]++
			}
		default:
			shape[n.Kind().String()]++
		}
		return ast.WalkContinue, nil
	})
	return shape
}

// linesOf is the text of block n.
func linesOf(n ast.Node, src []byte) string {
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	if h, ok := n.(*ast.HTMLBlock); ok && h.HasClosure() {
		b.Write(h.ClosureLine.Value(src))
	}
	return b.String()
}

// codeElement matches a <code> element of an HTML block and what it holds.
var codeElement = regexp.MustCompile(`(?s)<code>.*?</code>`)

// Exposed returns the texts of md outside code (code spans, code blocks,
// <code> elements of HTML blocks) that hold one of words: GitHub and
// GitLab link a mention (@user), a reference (#12, GH-12, !12) or an
// address in them, and show an entity (&amp;) as the character it names.
func Exposed(md string, words ...string) []string {
	doc, src := parse(md)
	var out []string
	check := func(s string) {
		for _, w := range words {
			if strings.Contains(s, w) {
				out = append(out, s)
				return
			}
		}
	}
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan, *ast.FencedCodeBlock, *ast.CodeBlock:
			return ast.WalkSkipChildren, nil
		case *ast.AutoLink:
			check(string(n.Label(src)))
		case *ast.Text:
			check(string(n.Segment.Value(src)))
		case *ast.String:
			check(string(n.Value))
		case *ast.HTMLBlock:
			check(codeElement.ReplaceAllString(linesOf(n, src), "<code></code>"))
		case *ast.RawHTML:
			for i := range n.Segments.Len() {
				seg := n.Segments.At(i)
				check(string(seg.Value(src)))
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}
