// Package gitlabtest is a fake of the few endpoints of GitLab's REST API
// that package gitlab calls (the notes of a merge request, the issues of
// a project and their notes, GET /user, the branches, tree and commits of
// the repository, and merge requests), served on loopback by a real HTTP
// server, so that the tests of package gitlab and of the CLI talk to it
// as to GitLab, through client-go and net/http. It is strict where
// GitLab is: the PRIVATE-TOKEN header ([Token]), the project in the path
// by id ([ProjectID]) or URL-encoded path ([ProjectPath]), offset
// pagination with X-Next-Page and Link headers (20 a page unless per_page
// says up to 100), newest first unless sort=asc, issues filtered by
// state, labels, author_id and search (in title and description, or as
// in= says; a plain substring here, where GitLab matches words), the
// 1,000,000-character limit of a note, only a note's author may edit it,
// a token without the api scope may only read, git objects with the ids
// git gives them (see forgetest), a commit's actions as strict as
// GitLab's (create only what is not there, update, delete and chmod only
// what is), a branch that exists moved only with force, protected
// branches ([Server.Protect]), titles of at most 255 characters, and one
// open merge request per source branch. It records every request, and
// answers in GitLab's place with a [Fault] (an error, a redirect) when a
// test asks it to.
package gitlabtest

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

// The token the server accepts, whom it belongs to, and the one project
// it holds.
const (
	Token       = "glpat-fake_token_0123456789"
	UserID      = 77
	Username    = "project_4242_bot_5f3a"
	ProjectID   = "4242"
	ProjectPath = "acme/skills"
	// WebURL is the project's web page, for CI_PROJECT_URL.
	WebURL = "https://gitlab.example.com/" + ProjectPath
)

// An Issue is an issue of the project.
type Issue struct {
	IID         int64
	AuthorID    int64 // 0 for whom the token posts as
	Title       string
	Description string
	State       string // "opened" or "closed"
	Labels      []string
}

// A Note is a comment on a merge request or an issue.
type Note struct {
	ID       int64
	Noteable string // "MergeRequest" or "Issue"
	IID      int64  // of the merge request or issue
	AuthorID int64  // 0 for whom the token posts as
	Body     string
	System   bool // GitLab's own ("added 1 commit")
}

// A MergeRequest is a merge request into the project.
type MergeRequest struct {
	IID                        int64
	AuthorID                   int64 // 0 for whom the token posts as
	SourceBranch, TargetBranch string
	// SourceProjectID is the project of SourceBranch, 0 for this one (a
	// fork's otherwise).
	SourceProjectID    int64
	Title, Description string
	State              string // "opened", "closed" or "merged"
}

// A Fault is what the server answers in GitLab's place.
type Fault = forgetest.Fault

// Paging says which headers tell the client of a next page.
type Paging int

const (
	// PagingBoth sends X-Next-Page and Link, as GitLab does.
	PagingBoth Paging = iota
	// PagingHeaders sends X-Next-Page (and X-Page, X-Total...) only.
	PagingHeaders
	// PagingLink sends the Link header only.
	PagingLink
)

// MaxNoteChars and MaxDescriptionChars are GitLab's limits.
const (
	MaxNoteChars        = 1_000_000
	MaxDescriptionChars = 1_048_576
)

// Server is the fake, listening on loopback at URL until the test ends.
type Server struct {
	// URL is the root of the API (…/api/v4), for CI_API_V4_URL.
	URL string

	forgetest.Front

	mu        sync.Mutex
	mrs       []*MergeRequest
	git       *forgetest.Repo
	protected map[string]bool // branches
	issues    []*Issue
	notes     []*Note
	nextID    int64
	readOnly  bool // the token has read_api, not api
	paging    Paging
}

// New starts a server holding no merge request, issue or note, closed
// when t ends.
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{nextID: 5000, git: forgetest.NewRepo(), protected: map[string]bool{}}
	mux := http.NewServeMux()
	const p = "/api/v4/projects/{id}"
	mux.HandleFunc("GET /api/v4/user", s.getUser)
	mux.HandleFunc("GET "+p+"/merge_requests/{iid}/notes", s.listNotes)
	mux.HandleFunc("POST "+p+"/merge_requests/{iid}/notes", s.createNote)
	mux.HandleFunc("PUT "+p+"/merge_requests/{iid}/notes/{note}", s.updateNote)
	mux.HandleFunc("GET "+p+"/issues", s.listIssues)
	mux.HandleFunc("POST "+p+"/issues", s.createIssue)
	mux.HandleFunc("PUT "+p+"/issues/{iid}", s.updateIssue)
	mux.HandleFunc("POST "+p+"/issues/{iid}/notes", s.createNote)
	s.routeRepository(mux, p)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		forgetest.WriteError(w, http.StatusNotFound, `{"error":"404 Not Found"}`)
	})
	tok := forgetest.Token{Header: "Private-Token", Value: Token, Refusal: `{"message":"401 Unauthorized"}`}
	s.URL = s.Start(t, tok, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.readOnly && r.Method != http.MethodGet {
			forgetest.WriteError(w, http.StatusForbidden, `{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api"}`)
			return
		}
		mux.ServeHTTP(w, r)
	})) + "/api/v4"
	return s
}

// ReadOnly gives the token the read_api scope instead of api: every write
// is refused with 403 insufficient_scope.
func (s *Server) ReadOnly() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.readOnly = true
}

// SetPaging chooses the headers that announce a next page.
func (s *Server) SetPaging(p Paging) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.paging = p
}

// AddMergeRequest opens merge request iid, of no branch in particular.
func (s *Server) AddMergeRequest(iid int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mrs = append(s.mrs, &MergeRequest{IID: iid, State: "opened"})
}

// OpenMergeRequest adds mr as it is, under the next free iid when it has
// none, which it returns; an empty state is "opened".
func (s *Server) OpenMergeRequest(mr MergeRequest) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if mr.IID == 0 {
		mr.IID = s.nextMRIID()
	}
	mr.State = cmp.Or(mr.State, "opened")
	s.mrs = append(s.mrs, &mr)
	return mr.IID
}

// MergeRequests returns the merge requests, in the order they were made.
func (s *Server) MergeRequests() []MergeRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]MergeRequest, 0, len(s.mrs))
	for _, mr := range s.mrs {
		out = append(out, *mr)
	}
	return out
}

// Git is the repository: seed it with Git().CommitFiles, read what a
// client wrote with Git().Branch and Git().Files.
func (s *Server) Git() *forgetest.Repo { return s.git }

// Protect makes branch protected with no one allowed to push: GitLab
// refuses a commit to it.
func (s *Server) Protect(branch string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.protected[branch] = true
}

// AddIssue files an issue under the next free iid, which it returns; an
// empty state is "opened".
func (s *Server) AddIssue(is Issue) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	is.IID = int64(len(s.issues) + 1)
	is.State = cmp.Or(is.State, "opened")
	is.Labels = slices.Clone(is.Labels)
	s.issues = append(s.issues, &is)
	return is.IID
}

// AddNote adds a note as it is; a zero ID gets the next free one, which
// it returns.
func (s *Server) AddNote(n Note) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n.ID == 0 {
		s.nextID++
		n.ID = s.nextID
	}
	s.notes = append(s.notes, &n)
	return n.ID
}

// Issues returns the issues, by iid.
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

// Notes returns the notes, in the order they were made.
func (s *Server) Notes() []Note {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Note, 0, len(s.notes))
	for _, n := range s.notes {
		out = append(out, *n)
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// inProject reports whether the request is for the project, by id or by
// path, and answers GitLab's 404 when it is not.
func inProject(w http.ResponseWriter, r *http.Request) bool {
	if id := r.PathValue("id"); id != ProjectID && id != ProjectPath {
		forgetest.WriteError(w, http.StatusNotFound, `{"message":"404 Project Not Found"}`)
		return false
	}
	return true
}

func pathInt(r *http.Request, name string) int64 {
	n, _ := strconv.ParseInt(r.PathValue(name), 10, 64)
	return n
}

// page answers one page of items, with GitLab's pagination headers.
func page[T any](s *Server, w http.ResponseWriter, r *http.Request, items []T) {
	q := r.URL.Query()
	per, _ := strconv.Atoi(q.Get("per_page"))
	if per <= 0 {
		per = 20
	}
	per = min(per, 100)
	p, _ := strconv.Atoi(q.Get("page"))
	p = max(p, 1)
	last := max((len(items)+per-1)/per, 1)
	lo, hi := min((p-1)*per, len(items)), min(p*per, len(items))
	h := w.Header()
	if s.paging != PagingLink {
		h.Set("X-Page", strconv.Itoa(p))
		h.Set("X-Per-Page", strconv.Itoa(per))
		h.Set("X-Total", strconv.Itoa(len(items)))
		h.Set("X-Total-Pages", strconv.Itoa(last))
		next, prev := "", ""
		if p < last {
			next = strconv.Itoa(p + 1)
		}
		if p > 1 {
			prev = strconv.Itoa(p - 1)
		}
		h.Set("X-Next-Page", next)
		h.Set("X-Prev-Page", prev)
	}
	if s.paging != PagingHeaders {
		link := func(n int) string {
			lq := r.URL.Query()
			lq.Set("page", strconv.Itoa(n))
			lq.Set("per_page", strconv.Itoa(per))
			return fmt.Sprintf("<%s%s?%s>", strings.TrimSuffix(s.URL, "/api/v4"), r.URL.EscapedPath(), lq.Encode())
		}
		var links []string
		if p < last {
			links = append(links, link(p+1)+`; rel="next"`)
		}
		if p > 1 {
			links = append(links, link(p-1)+`; rel="prev"`)
		}
		links = append(links, link(1)+`; rel="first"`, link(last)+`; rel="last"`)
		h.Set("Link", strings.Join(links, ", "))
	}
	out := items[lo:hi]
	if out == nil {
		out = []T{}
	}
	writeJSON(w, http.StatusOK, out)
}

// ascending reports whether a list asks for the oldest first; GitLab
// lists notes and issues newest first by default.
func ascending(r *http.Request) bool { return r.URL.Query().Get("sort") == "asc" }

// authorOf is the id of an author, whom the token posts as for 0.
func authorOf(id int64) int64 {
	if id == 0 {
		return UserID
	}
	return id
}

// author is the JSON of a user: whom the token posts as for id 0.
func author(id int64) map[string]any {
	if authorOf(id) == UserID {
		return map[string]any{"id": UserID, "username": Username}
	}
	return map[string]any{"id": id, "username": "user" + strconv.FormatInt(id, 10)}
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, author(UserID))
}

func noteJSON(n *Note) map[string]any {
	return map[string]any{
		"id": n.ID, "body": n.Body, "author": author(n.AuthorID), "system": n.System,
		"noteable_type": n.Noteable, "noteable_iid": n.IID,
	}
}

func (s *Server) issue(iid int64) *Issue {
	for _, is := range s.issues {
		if is.IID == iid {
			return is
		}
	}
	return nil
}

// noteable finds the merge request or issue of the path, answering 404
// when there is none.
func (s *Server) noteable(w http.ResponseWriter, r *http.Request) (kind string, iid int64, ok bool) {
	if !inProject(w, r) {
		return "", 0, false
	}
	iid = pathInt(r, "iid")
	if strings.Contains(r.URL.Path, "/merge_requests/") {
		if s.mr(iid) == nil {
			forgetest.WriteError(w, http.StatusNotFound, `{"message":"404 Not found"}`)
			return "", 0, false
		}
		return "MergeRequest", iid, true
	}
	if s.issue(iid) == nil {
		forgetest.WriteError(w, http.StatusNotFound, `{"message":"404 Issue Not Found"}`)
		return "", 0, false
	}
	return "Issue", iid, true
}

// decode reads a JSON request body into v, answering 400 when it is not
// JSON.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"the request body is not JSON"}`)
		return false
	}
	return true
}

// noteBody checks a note's body as GitLab does, answering 400 when it is
// refused.
func noteBody(w http.ResponseWriter, body *string) bool {
	switch {
	case body == nil || strings.TrimSpace(*body) == "":
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"body is missing"}`)
		return false
	case utf8.RuneCountInString(*body) > MaxNoteChars:
		forgetest.WriteError(w, http.StatusBadRequest, `{"message":{"note":["is too long (maximum is 1000000 characters)"]}}`)
		return false
	}
	return true
}

func (s *Server) listNotes(w http.ResponseWriter, r *http.Request) {
	kind, iid, ok := s.noteable(w, r)
	if !ok {
		return
	}
	var out []map[string]any
	for _, n := range s.notes {
		if n.Noteable == kind && n.IID == iid {
			out = append(out, noteJSON(n))
		}
	}
	if !ascending(r) {
		slices.Reverse(out)
	}
	page(s, w, r, out)
}

func (s *Server) createNote(w http.ResponseWriter, r *http.Request) {
	kind, iid, ok := s.noteable(w, r)
	if !ok {
		return
	}
	var req struct{ Body *string }
	if !decode(w, r, &req) || !noteBody(w, req.Body) {
		return
	}
	s.nextID++
	n := &Note{ID: s.nextID, Noteable: kind, IID: iid, Body: *req.Body}
	s.notes = append(s.notes, n)
	writeJSON(w, http.StatusCreated, noteJSON(n))
}

func (s *Server) updateNote(w http.ResponseWriter, r *http.Request) {
	kind, iid, ok := s.noteable(w, r)
	if !ok {
		return
	}
	id := pathInt(r, "note")
	i := slices.IndexFunc(s.notes, func(n *Note) bool { return n.ID == id && n.Noteable == kind && n.IID == iid })
	if i < 0 {
		forgetest.WriteError(w, http.StatusNotFound, `{"message":"404 Note Not Found"}`)
		return
	}
	if a := s.notes[i].AuthorID; a != 0 && a != UserID {
		forgetest.WriteError(w, http.StatusForbidden, `{"message":"403 Forbidden"}`)
		return
	}
	var req struct{ Body *string }
	if !decode(w, r, &req) || !noteBody(w, req.Body) {
		return
	}
	s.notes[i].Body = *req.Body
	writeJSON(w, http.StatusOK, noteJSON(s.notes[i]))
}

func issueJSON(is *Issue) map[string]any {
	return map[string]any{
		"id": 90000 + is.IID, "iid": is.IID, "project_id": 4242,
		"title": is.Title, "description": is.Description, "state": is.State,
		"labels": slices.Clone(is.Labels), "author": author(is.AuthorID),
		"web_url": fmt.Sprintf("%s/-/issues/%d", WebURL, is.IID),
	}
}

// labels reads GitLab's labels parameter: a comma-separated string, or
// (in a JSON body) an array.
func labels(raw json.RawMessage) []string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		for l := range strings.SplitSeq(s, ",") {
			list = append(list, strings.TrimSpace(l))
		}
	}
	return list
}

func (s *Server) listIssues(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	q := r.URL.Query()
	state := q.Get("state")
	var want []string
	if l := q.Get("labels"); l != "" {
		want = strings.Split(l, ",")
	}
	author, _ := strconv.ParseInt(q.Get("author_id"), 10, 64)
	search, in := strings.ToLower(q.Get("search")), cmp.Or(q.Get("in"), "title,description")
	var out []map[string]any
	for _, is := range s.issues {
		if search != "" && !(strings.Contains(in, "title") && strings.Contains(strings.ToLower(is.Title), search) ||
			strings.Contains(in, "description") && strings.Contains(strings.ToLower(is.Description), search)) {
			continue
		}
		if state != "" && state != "all" && is.State != state {
			continue
		}
		if author != 0 && authorOf(is.AuthorID) != author {
			continue
		}
		if slices.ContainsFunc(want, func(l string) bool { return !slices.Contains(is.Labels, l) }) {
			continue // a label asked for is missing
		}
		out = append(out, issueJSON(is))
	}
	if !ascending(r) {
		slices.Reverse(out)
	}
	page(s, w, r, out)
}

func description(w http.ResponseWriter, d *string) bool {
	if d != nil && utf8.RuneCountInString(*d) > MaxDescriptionChars {
		forgetest.WriteError(w, http.StatusBadRequest, `{"message":{"description":["is too long (maximum is 1048576 characters)"]}}`)
		return false
	}
	return true
}

func (s *Server) createIssue(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	var req struct {
		Title       string
		Description *string
		Labels      json.RawMessage
	}
	if !decode(w, r, &req) || !description(w, req.Description) {
		return
	}
	if strings.TrimSpace(req.Title) == "" {
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"title is missing"}`)
		return
	}
	is := &Issue{IID: int64(len(s.issues) + 1), Title: req.Title, State: "opened", Labels: labels(req.Labels)}
	if req.Description != nil {
		is.Description = *req.Description
	}
	s.issues = append(s.issues, is)
	writeJSON(w, http.StatusCreated, issueJSON(is))
}

func (s *Server) updateIssue(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	is := s.issue(pathInt(r, "iid"))
	if is == nil {
		forgetest.WriteError(w, http.StatusNotFound, `{"message":"404 Issue Not Found"}`)
		return
	}
	var req struct {
		Title       *string
		Description *string
		StateEvent  *string `json:"state_event"`
	}
	if !decode(w, r, &req) || !description(w, req.Description) {
		return
	}
	if req.Title != nil {
		is.Title = *req.Title
	}
	if req.Description != nil {
		is.Description = *req.Description
	}
	if !stateEvent(w, req.StateEvent, &is.State) {
		return
	}
	writeJSON(w, http.StatusOK, issueJSON(is))
}

// stateEvent makes *state what event ("close", "reopen"; nil for none)
// makes it, answering GitLab's 400 for another event.
func stateEvent(w http.ResponseWriter, event *string, state *string) bool {
	if event == nil {
		return true
	}
	switch *event {
	case "close":
		*state = "closed"
	case "reopen":
		*state = "opened"
	default:
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"state_event does not have a valid value"}`)
		return false
	}
	return true
}
