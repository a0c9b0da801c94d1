package forge

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"
)

// A WebPageError is a successful answer that is a web page where the API
// answers JSON: a sign-in page, a proxy's, or the web site at an address
// that is not the API's.
type WebPageError struct {
	Host         string // "GitHub", "GitLab"
	Method, Path string // of the request answered
	Type         string // the media type of its Content-Type, "" when none
	// Excerpt is the page's title, or else its first characters, with
	// white space collapsed.
	Excerpt string
}

func (e *WebPageError) Error() string {
	what := "a web page"
	if e.Type != "" {
		what += " (" + e.Type + ")"
	}
	return fmt.Sprintf("%s answered %s %s with %s, not its API's JSON: %q", e.Host, e.Method, e.Path, what, e.Excerpt)
}

// webPagePeek is how much of a successful answer is looked at for a page.
const webPagePeek = 4096

// webPage returns the error of resp, a successful answer to r, when it is
// a web page: said so by its Content-Type, or starting with '<', which
// no JSON does. It leaves resp readable from its start otherwise.
func webPage(r *http.Request, resp *http.Response, host string) *WebPageError {
	if resp.StatusCode < 200 || resp.StatusCode > 299 || resp.Body == nil || r.Method == http.MethodHead {
		return nil
	}
	typ, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	br := bufio.NewReaderSize(resp.Body, webPagePeek)
	resp.Body = readCloser{br, resp.Body}
	head, _ := br.Peek(webPagePeek)
	text := bytes.TrimLeft(bytes.TrimPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("\uFEFF")), " \t\r\n")
	if typ != "text/html" && typ != "application/xhtml+xml" && !bytes.HasPrefix(text, []byte("<")) {
		return nil
	}
	return &WebPageError{Host: host, Method: r.Method, Path: r.URL.Path, Type: typ, Excerpt: pageExcerpt(text)}
}

// pageExcerpt is the title of the page that starts with text, or else its
// first 80 characters, white space collapsed.
func pageExcerpt(text []byte) string {
	s := string(text)
	if i := strings.Index(strings.ToLower(s), "<title>"); i >= 0 {
		title := s[i+len("<title>"):]
		if j := strings.Index(strings.ToLower(title), "</title>"); j >= 0 {
			s = title[:j]
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > 80 {
		s = string([]rune(s)[:80]) + "…"
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

type readCloser struct {
	io.Reader
	io.Closer
}
