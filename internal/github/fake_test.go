package github_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// fakeGitHub is an in-memory stand-in for the few REST endpoints the
// package calls, strict where GitHub is: a bearer token, the repository in
// the path, offset pagination with Link headers (30 a page unless per_page
// says up to 100), the 65,536-character limit on bodies, and who may read
// GET /user.
type fakeGitHub struct {
	owner, repo, token string
	// user is the login of a user's token; empty for an app installation's
	// token (GITHUB_TOKEN), which GET /user refuses and whose posts are by
	// github-actions[bot].
	user string

	mu       sync.Mutex
	issues   []*fakeIssue // issues and pull requests share numbers, as on GitHub
	comments []*fakeComment
	nextID   int64
	requests []string // "METHOD /path?query" of every request, in order

	// fail, when it returns a status, answers the request with it and the
	// headers in failHeader.
	fail       func(r *http.Request) (status int, body string)
	failHeader http.Header
	// rejectLabels answers an issue created with labels with a 422.
	rejectLabels bool

	srv *httptest.Server
}

type fakeIssue struct {
	Number      int
	Author      string // login; empty for whom the token posts as
	Title, Body string
	State       string
	StateReason string
	Labels      []string
	PR          bool
}

type fakeComment struct {
	ID     int64
	Issue  int
	Author string // login; empty for whom the token posts as
	Body   string
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{owner: "acme", repo: "skills", token: "ghs_secret_token_123", nextID: 1000}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /user", f.getUser)
	mux.HandleFunc("GET /repos/{owner}/{repo}/issues/{number}/comments", f.listComments)
	mux.HandleFunc("POST /repos/{owner}/{repo}/issues/{number}/comments", f.createComment)
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/issues/comments/{id}", f.updateComment)
	mux.HandleFunc("GET /repos/{owner}/{repo}/issues", f.listIssues)
	mux.HandleFunc("POST /repos/{owner}/{repo}/issues", f.createIssue)
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/issues/{number}", f.updateIssue)
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI())
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer "+f.token {
			writeError(w, http.StatusUnauthorized, `{"message":"Bad credentials"}`)
			return
		}
		if f.fail != nil {
			if status, body := f.fail(r); status != 0 {
				for k, v := range f.failHeader {
					w.Header()[k] = v
				}
				writeError(w, status, body)
				return
			}
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func writeError(w http.ResponseWriter, status int, body string) {
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}

func (f *fakeGitHub) inRepo(w http.ResponseWriter, r *http.Request) bool {
	if r.PathValue("owner") != f.owner || r.PathValue("repo") != f.repo {
		writeError(w, http.StatusNotFound, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`)
		return false
	}
	return true
}

func (f *fakeGitHub) issue(w http.ResponseWriter, r *http.Request) *fakeIssue {
	n, _ := strconv.Atoi(r.PathValue("number"))
	for _, is := range f.issues {
		if is.Number == n {
			return is
		}
	}
	writeError(w, http.StatusNotFound, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`)
	return nil
}

// page answers one page of items, with GitHub's Link header.
func page[T any](f *fakeGitHub, w http.ResponseWriter, r *http.Request, items []T) {
	per, _ := strconv.Atoi(r.URL.Query().Get("per_page"))
	if per <= 0 {
		per = 30
	}
	per = min(per, 100)
	p, _ := strconv.Atoi(r.URL.Query().Get("page"))
	p = max(p, 1)
	last := max((len(items)+per-1)/per, 1)
	lo, hi := min((p-1)*per, len(items)), min(p*per, len(items))
	link := func(n int) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(n))
		q.Set("per_page", strconv.Itoa(per))
		return fmt.Sprintf("<%s%s?%s>", f.srv.URL, r.URL.Path, q.Encode())
	}
	var links []string
	if p < last {
		links = append(links, link(p+1)+`; rel="next"`, link(last)+`; rel="last"`)
	}
	if p > 1 {
		links = append(links, link(p-1)+`; rel="prev"`, link(1)+`; rel="first"`)
	}
	if len(links) > 0 {
		w.Header().Set("Link", strings.Join(links, ", "))
	}
	out := items[lo:hi]
	if out == nil {
		out = []T{}
	}
	json.NewEncoder(w).Encode(out)
}

// userJSON is the author of an issue or comment: login, or whom the
// token posts as when login is empty.
func (f *fakeGitHub) userJSON(login string) map[string]any {
	if login == "" {
		login = f.user
	}
	if login == "" {
		login = "github-actions[bot]"
	}
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return map[string]any{"login": login, "type": typ}
}

// getUser answers GET /user: the user of a user's token, and for an app
// installation's token what GitHub answers it.
func (f *fakeGitHub) getUser(w http.ResponseWriter, r *http.Request) {
	if f.user == "" {
		writeError(w, http.StatusForbidden, `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/users/users#get-the-authenticated-user","status":"403"}`)
		return
	}
	json.NewEncoder(w).Encode(f.userJSON(f.user))
}

func (f *fakeGitHub) commentJSON(c *fakeComment) map[string]any {
	return map[string]any{
		"id":       c.ID,
		"body":     c.Body,
		"html_url": fmt.Sprintf("https://github.com/%s/%s/pull/%d#issuecomment-%d", f.owner, f.repo, c.Issue, c.ID),
		"user":     f.userJSON(c.Author),
	}
}

func (f *fakeGitHub) issueJSON(is *fakeIssue) map[string]any {
	labels := []map[string]any{}
	for _, l := range is.Labels {
		labels = append(labels, map[string]any{"name": l})
	}
	m := map[string]any{
		"number":   is.Number,
		"title":    is.Title,
		"body":     is.Body,
		"state":    is.State,
		"labels":   labels,
		"user":     f.userJSON(is.Author),
		"html_url": fmt.Sprintf("https://github.com/%s/%s/issues/%d", f.owner, f.repo, is.Number),
	}
	if is.PR {
		m["pull_request"] = map[string]any{"url": "https://api.github.com/pulls/" + strconv.Itoa(is.Number)}
		m["html_url"] = fmt.Sprintf("https://github.com/%s/%s/pull/%d", f.owner, f.repo, is.Number)
	}
	return m
}

// tooLong answers GitHub's 422 for a body over 65,536 characters.
func tooLong(w http.ResponseWriter, resource, body string) bool {
	if utf8.RuneCountInString(body) <= 65536 {
		return false
	}
	writeError(w, http.StatusUnprocessableEntity, fmt.Sprintf(
		`{"message":"Validation Failed","errors":[{"resource":%q,"code":"custom","field":"body","message":"body is too long (maximum is 65536 characters)"}]}`, resource))
	return true
}

func (f *fakeGitHub) listComments(w http.ResponseWriter, r *http.Request) {
	if !f.inRepo(w, r) {
		return
	}
	is := f.issue(w, r)
	if is == nil {
		return
	}
	var out []map[string]any
	for _, c := range f.comments {
		if c.Issue == is.Number {
			out = append(out, f.commentJSON(c))
		}
	}
	page(f, w, r, out)
}

func (f *fakeGitHub) createComment(w http.ResponseWriter, r *http.Request) {
	if !f.inRepo(w, r) {
		return
	}
	is := f.issue(w, r)
	if is == nil {
		return
	}
	var req struct{ Body string }
	json.NewDecoder(r.Body).Decode(&req)
	if tooLong(w, "IssueComment", req.Body) {
		return
	}
	f.nextID++
	c := &fakeComment{ID: f.nextID, Issue: is.Number, Body: req.Body}
	f.comments = append(f.comments, c)
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(f.commentJSON(c))
}

func (f *fakeGitHub) updateComment(w http.ResponseWriter, r *http.Request) {
	if !f.inRepo(w, r) {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	i := slices.IndexFunc(f.comments, func(c *fakeComment) bool { return c.ID == id })
	if i < 0 {
		writeError(w, http.StatusNotFound, `{"message":"Not Found"}`)
		return
	}
	var req struct{ Body string }
	json.NewDecoder(r.Body).Decode(&req)
	if tooLong(w, "IssueComment", req.Body) {
		return
	}
	f.comments[i].Body = req.Body
	json.NewEncoder(w).Encode(f.commentJSON(f.comments[i]))
}

func (f *fakeGitHub) listIssues(w http.ResponseWriter, r *http.Request) {
	if !f.inRepo(w, r) {
		return
	}
	state := r.URL.Query().Get("state")
	if state == "" {
		state = "open"
	}
	var want []string
	if l := r.URL.Query().Get("labels"); l != "" {
		want = strings.Split(l, ",")
	}
	var out []map[string]any
	for _, is := range f.issues {
		labelled := true
		for _, l := range want {
			labelled = labelled && slices.Contains(is.Labels, l)
		}
		if (state == "all" || is.State == state) && labelled {
			out = append(out, f.issueJSON(is))
		}
	}
	// GitHub's default order is newest first.
	if r.URL.Query().Get("direction") != "asc" {
		slices.Reverse(out)
	}
	page(f, w, r, out)
}

func (f *fakeGitHub) createIssue(w http.ResponseWriter, r *http.Request) {
	if !f.inRepo(w, r) {
		return
	}
	var req struct {
		Title  string
		Body   string
		Labels []string
	}
	json.NewDecoder(r.Body).Decode(&req)
	if tooLong(w, "Issue", req.Body) {
		return
	}
	if f.rejectLabels && len(req.Labels) > 0 {
		writeError(w, http.StatusUnprocessableEntity, `{"message":"Validation Failed","errors":[{"resource":"Label","code":"invalid","field":"labels"}]}`)
		return
	}
	is := f.add(&fakeIssue{Title: req.Title, Body: req.Body, State: "open", Labels: req.Labels})
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(f.issueJSON(is))
}

func (f *fakeGitHub) updateIssue(w http.ResponseWriter, r *http.Request) {
	if !f.inRepo(w, r) {
		return
	}
	is := f.issue(w, r)
	if is == nil {
		return
	}
	var req struct {
		Body        *string
		State       *string
		StateReason *string `json:"state_reason"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	if req.Body != nil {
		if tooLong(w, "Issue", *req.Body) {
			return
		}
		is.Body = *req.Body
	}
	if req.State != nil {
		is.State = *req.State
	}
	if req.StateReason != nil {
		is.StateReason = *req.StateReason
	}
	json.NewEncoder(w).Encode(f.issueJSON(is))
}

// add files an issue (or pull request) under the next free number.
func (f *fakeGitHub) add(is *fakeIssue) *fakeIssue {
	is.Number = len(f.issues) + 1
	f.issues = append(f.issues, is)
	return is
}

// seed adds issues and comments before a test talks to the fake.
func (f *fakeGitHub) seed(fn func(f *fakeGitHub)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f)
}

// snapshot reads the fake's state under its lock.
func (f *fakeGitHub) snapshot() (issues []fakeIssue, comments []fakeComment, requests []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, is := range f.issues {
		issues = append(issues, *is)
	}
	for _, c := range f.comments {
		comments = append(comments, *c)
	}
	return issues, comments, slices.Clone(f.requests)
}
