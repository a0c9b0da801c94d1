// Package githubtest is a fake of the few endpoints of GitHub's REST API
// that package github calls (the comments of a pull request, the issues of
// a repository, GET /user, the git data API of blobs, trees, commits and
// refs, and pull requests), served on loopback by a real HTTP server, so
// that the tests of package github and of the CLI talk to it as to GitHub,
// through go-github and net/http. It is strict where GitHub is: a bearer
// token ([Token]), the repository in the path ([Owner]/[Repo]), offset
// pagination with Link headers (30 a page unless per_page says up to 100),
// newest first unless asked otherwise, the 65,536-character limit on
// bodies and 256 on titles, who may read GET /user, git objects with the
// ids git gives them (see forgetest), a ref update that is not a fast
// forward only with force, protected branches ([Server.Protect]), one open
// pull request per head and base, none with no commits, the repository
// setting that lets GITHUB_TOKEN open pull requests
// ([Server.AllowActionsPullRequests], off as on a new repository), and a
// deleted branch closing its pull requests. It records every request, and
// answers in GitHub's place with a [Fault] (an error, a redirect) when a
// test asks it to.
package githubtest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/forge/forgetest"
)

// The token the server accepts, and the one repository it holds.
const (
	Token      = "ghs_fake_token_0123456789"
	Owner      = "acme"
	Repo       = "skills"
	Repository = Owner + "/" + Repo
)

// An Issue is an issue or a pull request: they share numbers, as on
// GitHub.
type Issue struct {
	Number      int
	Author      string // login; empty for whom the token posts as
	Title, Body string
	State       string // "open" or "closed"
	StateReason string
	Labels      []string
	PR          bool
	// Head and Base are a pull request's branches; HeadOwner owns the
	// repository of Head, empty for [Owner] (another for a fork's).
	Head, Base, HeadOwner string
}

// A Comment is a comment on an issue or a pull request.
type Comment struct {
	ID     int64
	Issue  int
	Author string // login; empty for whom the token posts as
	Body   string
}

// A Fault is what the server answers in GitHub's place.
type Fault = forgetest.Fault

// Server is the fake, listening on loopback at URL until the test ends.
type Server struct {
	// URL is the root of the API, for GITHUB_API_URL.
	URL string

	forgetest.Front

	mu sync.Mutex
	// user is the login of a user's token; empty for an app installation's
	// token (GITHUB_TOKEN), which GET /user refuses and whose posts are by
	// app.
	user         string
	app          string // the bot an app installation's token posts as
	issues       []*Issue
	comments     []*Comment
	nextID       int64
	rejectLabels bool
	git          *forgetest.Repo
	protected    map[string]bool // branches
	actionsPRs   bool            // GITHUB_TOKEN may open pull requests
}

// New starts a server holding no issue and no comment, closed when t ends.
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{nextID: 1000, app: "github-actions[bot]", git: forgetest.NewRepo(), protected: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /user", s.getUser)
	mux.HandleFunc("GET /repos/{owner}/{repo}/issues/{number}/comments", s.listComments)
	mux.HandleFunc("POST /repos/{owner}/{repo}/issues/{number}/comments", s.createComment)
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/issues/comments/{id}", s.updateComment)
	mux.HandleFunc("GET /repos/{owner}/{repo}/issues", s.listIssues)
	mux.HandleFunc("POST /repos/{owner}/{repo}/issues", s.createIssue)
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/issues/{number}", s.updateIssue)
	s.routeGit(mux)
	s.routePulls(mux)
	tok := forgetest.Token{Header: "Authorization", Value: "Bearer " + Token, Refusal: `{"message":"Bad credentials"}`}
	s.URL = s.Start(t, tok, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	return s
}

// SetUser makes the token a user's, of login, whom GET /user names and
// whose posts are by login; "" makes it an app installation's
// (GITHUB_TOKEN), the default.
func (s *Server) SetUser(login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user = login
}

// SetApp makes the token an app installation's whose posts are by login,
// such as "my-app[bot]" for a GitHub App's token; GET /user refuses it, as
// it refuses GITHUB_TOKEN, whose posts are by github-actions[bot].
func (s *Server) SetApp(login string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user, s.app = "", login
}

// RejectLabels makes the server answer an issue created with labels with
// a 422, as GitHub does when the token may not set them.
func (s *Server) RejectLabels() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rejectLabels = true
}

// Git is the repository's git data: seed it with Git().CommitFiles, read
// what a client wrote with Git().Branch and Git().Files.
func (s *Server) Git() *forgetest.Repo { return s.git }

// Protect makes branch protected: GitHub refuses to create, move or
// delete it through the git data API.
func (s *Server) Protect(branch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.protected[branch] = true
}

// AllowActionsPullRequests turns on the repository's setting "Allow
// GitHub Actions to create and approve pull requests", off by default:
// without it GITHUB_TOKEN (github-actions[bot]) may not open one.
func (s *Server) AllowActionsPullRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actionsPRs = true
}

// AddIssue files an issue (or a pull request) under the next free number,
// which it returns.
func (s *Server) AddIssue(is Issue) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.add(&is).Number
}

// AddComment adds a comment as it is, ID and issue included.
func (s *Server) AddComment(c Comment) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.comments = append(s.comments, &c)
}

// EditIssue changes issue number with fn, as someone on GitHub would.
func (s *Server) EditIssue(number int, fn func(*Issue)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, is := range s.issues {
		if is.Number == number {
			fn(is)
			return
		}
	}
	panic(fmt.Sprintf("githubtest: no issue #%d", number))
}

// Issues returns the issues and pull requests, by number.
func (s *Server) Issues() []Issue {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Issue, 0, len(s.issues))
	for _, is := range s.issues {
		c := *is
		c.Labels = slices.Clone(is.Labels)
		out = append(out, c)
	}
	return out
}

// Comments returns the comments, in the order they were made.
func (s *Server) Comments() []Comment {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Comment, 0, len(s.comments))
	for _, c := range s.comments {
		out = append(out, *c)
	}
	return out
}

const notFound = `{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`

func (s *Server) inRepo(w http.ResponseWriter, r *http.Request) bool {
	if r.PathValue("owner") != Owner || r.PathValue("repo") != Repo {
		forgetest.WriteError(w, http.StatusNotFound, notFound)
		return false
	}
	return true
}

func (s *Server) issue(w http.ResponseWriter, r *http.Request) *Issue {
	n, _ := strconv.Atoi(r.PathValue("number"))
	for _, is := range s.issues {
		if is.Number == n {
			return is
		}
	}
	forgetest.WriteError(w, http.StatusNotFound, notFound)
	return nil
}

// page answers one page of items, with GitHub's Link header.
func page[T any](s *Server, w http.ResponseWriter, r *http.Request, items []T) {
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
		return fmt.Sprintf("<%s%s?%s>", s.URL, r.URL.Path, q.Encode())
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
func (s *Server) userJSON(login string) map[string]any {
	login = cmp.Or(login, s.poster())
	typ := "User"
	if strings.HasSuffix(login, "[bot]") {
		typ = "Bot"
	}
	return map[string]any{"login": login, "type": typ}
}

// poster is whom the token posts as; s.mu is held.
func (s *Server) poster() string { return cmp.Or(s.user, s.app) }

// getUser answers GET /user: the user of a user's token, and for an app
// installation's token what GitHub answers it.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	if s.user == "" {
		forgetest.WriteError(w, http.StatusForbidden, `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/users/users#get-the-authenticated-user","status":"403"}`)
		return
	}
	json.NewEncoder(w).Encode(s.userJSON(s.user))
}

func (s *Server) commentJSON(c *Comment) map[string]any {
	return map[string]any{
		"id":       c.ID,
		"body":     c.Body,
		"html_url": fmt.Sprintf("https://github.com/%s/pull/%d#issuecomment-%d", Repository, c.Issue, c.ID),
		"user":     s.userJSON(c.Author),
	}
}

func (s *Server) issueJSON(is *Issue) map[string]any {
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
		"user":     s.userJSON(is.Author),
		"html_url": fmt.Sprintf("https://github.com/%s/issues/%d", Repository, is.Number),
	}
	if is.PR {
		m["pull_request"] = map[string]any{"url": "https://api.github.com/pulls/" + strconv.Itoa(is.Number)}
		m["html_url"] = fmt.Sprintf("https://github.com/%s/pull/%d", Repository, is.Number)
	}
	return m
}

// tooLong answers GitHub's 422 for a body over 65,536 characters.
func tooLong(w http.ResponseWriter, resource, body string) bool {
	if utf8.RuneCountInString(body) <= 65536 {
		return false
	}
	forgetest.WriteError(w, http.StatusUnprocessableEntity, fmt.Sprintf(
		`{"message":"Validation Failed","errors":[{"resource":%q,"code":"custom","field":"body","message":"body is too long (maximum is 65536 characters)"}]}`, resource))
	return true
}

func (s *Server) listComments(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	is := s.issue(w, r)
	if is == nil {
		return
	}
	var out []map[string]any
	for _, c := range s.comments {
		if c.Issue == is.Number {
			out = append(out, s.commentJSON(c))
		}
	}
	page(s, w, r, out)
}

func (s *Server) createComment(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	is := s.issue(w, r)
	if is == nil {
		return
	}
	var req struct{ Body string }
	json.NewDecoder(r.Body).Decode(&req)
	if tooLong(w, "IssueComment", req.Body) {
		return
	}
	s.nextID++
	c := &Comment{ID: s.nextID, Issue: is.Number, Body: req.Body}
	s.comments = append(s.comments, c)
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(s.commentJSON(c))
}

func (s *Server) updateComment(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	i := slices.IndexFunc(s.comments, func(c *Comment) bool { return c.ID == id })
	if i < 0 {
		forgetest.WriteError(w, http.StatusNotFound, notFound)
		return
	}
	if a := s.comments[i].Author; a != "" && a != s.poster() {
		// As GitHub answers an app's token for a comment it did not make.
		forgetest.WriteError(w, http.StatusForbidden, `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/issues/comments#update-an-issue-comment","status":"403"}`)
		return
	}
	var req struct{ Body string }
	json.NewDecoder(r.Body).Decode(&req)
	if tooLong(w, "IssueComment", req.Body) {
		return
	}
	s.comments[i].Body = req.Body
	json.NewEncoder(w).Encode(s.commentJSON(s.comments[i]))
}

func (s *Server) listIssues(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	state := cmp.Or(r.URL.Query().Get("state"), "open")
	var want []string
	if l := r.URL.Query().Get("labels"); l != "" {
		want = strings.Split(l, ",")
	}
	var out []map[string]any
	for _, is := range s.issues {
		unlabelled := slices.ContainsFunc(want, func(l string) bool { return !slices.Contains(is.Labels, l) })
		if (state == "all" || is.State == state) && !unlabelled {
			out = append(out, s.issueJSON(is))
		}
	}
	// GitHub's default order is newest first.
	if r.URL.Query().Get("direction") != "asc" {
		slices.Reverse(out)
	}
	page(s, w, r, out)
}

func (s *Server) createIssue(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
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
	if s.rejectLabels && len(req.Labels) > 0 {
		forgetest.WriteError(w, http.StatusUnprocessableEntity, `{"message":"Validation Failed","errors":[{"resource":"Label","code":"invalid","field":"labels"}]}`)
		return
	}
	is := s.add(&Issue{Title: req.Title, Body: req.Body, State: "open", Labels: req.Labels})
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(s.issueJSON(is))
}

func (s *Server) updateIssue(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	is := s.issue(w, r)
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
	json.NewEncoder(w).Encode(s.issueJSON(is))
}

// add files is under the next free number; s.mu is held.
func (s *Server) add(is *Issue) *Issue {
	is.Number = len(s.issues) + 1
	s.issues = append(s.issues, is)
	return is
}
