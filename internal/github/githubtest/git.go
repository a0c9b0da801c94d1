package githubtest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillsync/skillsync/internal/forge/forgetest"
)

func (s *Server) routeGit(mux *http.ServeMux) {
	const p = "/repos/{owner}/{repo}/git"
	mux.HandleFunc("POST "+p+"/blobs", s.createBlob)
	mux.HandleFunc("GET "+p+"/trees/{sha}", s.getTree)
	mux.HandleFunc("POST "+p+"/trees", s.createTree)
	mux.HandleFunc("GET "+p+"/commits/{sha}", s.getCommit)
	mux.HandleFunc("POST "+p+"/commits", s.createCommit)
	mux.HandleFunc("GET "+p+"/ref/{ref...}", s.getRef)
	mux.HandleFunc("POST "+p+"/refs", s.createRef)
	mux.HandleFunc("PATCH "+p+"/refs/{ref...}", s.updateRef)
	mux.HandleFunc("DELETE "+p+"/refs/{ref...}", s.deleteRef)
}

func (s *Server) routePulls(mux *http.ServeMux) {
	mux.HandleFunc("GET /repos/{owner}/{repo}/pulls", s.listPulls)
	mux.HandleFunc("POST /repos/{owner}/{repo}/pulls", s.createPull)
	mux.HandleFunc("PATCH /repos/{owner}/{repo}/pulls/{number}", s.updatePull)
}

// unprocessable answers GitHub's 422 with message.
func unprocessable(w http.ResponseWriter, message string) {
	b, _ := json.Marshal(map[string]string{"message": message, "documentation_url": "https://docs.github.com/rest"})
	forgetest.WriteError(w, http.StatusUnprocessableEntity, string(b))
}

// invalid answers GitHub's 422 Validation Failed for a field.
func invalid(w http.ResponseWriter, resource, field, code, message string) {
	e := map[string]string{"resource": resource, "field": field, "code": code}
	if message != "" {
		e["message"] = message
	}
	b, _ := json.Marshal(map[string]any{"message": "Validation Failed", "errors": []any{e}})
	forgetest.WriteError(w, http.StatusUnprocessableEntity, string(b))
}

// decodeJSON reads a request body into v, answering GitHub's 400 when it
// is not JSON.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		forgetest.WriteError(w, http.StatusBadRequest, `{"message":"Problems parsing JSON"}`)
		return false
	}
	return true
}

func (s *Server) createBlob(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	var req struct {
		Content  *string
		Encoding string
	}
	if !decodeJSON(w, r, &req) {
		return
	}
	if req.Content == nil {
		invalid(w, "Blob", "content", "missing_field", "")
		return
	}
	content := []byte(*req.Content)
	switch req.Encoding {
	case "", "utf-8":
	case "base64":
		b, err := base64.StdEncoding.DecodeString(*req.Content)
		if err != nil {
			unprocessable(w, "Invalid base64 content")
			return
		}
		content = b
	default:
		unprocessable(w, fmt.Sprintf("encoding must be utf-8 or base64, not %q", req.Encoding))
		return
	}
	id := s.git.PutBlob(content)
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(map[string]any{"sha": id, "url": s.URL + "/repos/" + Repository + "/git/blobs/" + id})
}

// modeString is a mode as GitHub writes it: six octal digits.
func modeString(m filemode.FileMode) string { return fmt.Sprintf("%06o", uint32(m)) }

func (s *Server) treeJSON(id string, entries []forgetest.Entry) map[string]any {
	out := []map[string]any{}
	for _, e := range entries {
		m := map[string]any{"path": e.Name, "mode": modeString(e.Mode), "type": e.Type(), "sha": e.ID}
		if e.Type() == "blob" {
			b, _ := s.git.Blob(e.ID)
			m["size"] = len(b)
		}
		out = append(out, m)
	}
	return map[string]any{"sha": id, "url": s.URL + "/repos/" + Repository + "/git/trees/" + id, "tree": out, "truncated": false}
}

func (s *Server) getTree(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	id := r.PathValue("sha")
	if r.URL.Query().Get("recursive") != "" {
		forgetest.WriteError(w, http.StatusNotImplemented, `{"message":"githubtest: recursive trees are not modelled"}`)
		return
	}
	entries, ok := s.git.Tree(id)
	if !ok {
		forgetest.WriteError(w, http.StatusNotFound, notFound)
		return
	}
	json.NewEncoder(w).Encode(s.treeJSON(id, entries))
}

func (s *Server) createTree(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	var req struct {
		BaseTree string `json:"base_tree"`
		Tree     []struct {
			Path    string
			Mode    string
			Type    string
			SHA     *string
			Content *string
		}
	}
	if !decodeJSON(w, r, &req) {
		return
	}
	base := forgetest.EmptyTree
	if req.BaseTree != "" {
		if _, ok := s.git.Tree(req.BaseTree); !ok {
			unprocessable(w, "base_tree is not a valid tree oid")
			return
		}
		base = req.BaseTree
	}
	var edits []forgetest.TreeEdit
	for _, e := range req.Tree {
		if e.SHA == nil && e.Content == nil {
			edits = append(edits, forgetest.TreeEdit{Path: e.Path, Delete: true})
			continue
		}
		mode, err := filemode.New(e.Mode)
		if err != nil || !slices.Contains([]filemode.FileMode{filemode.Regular, filemode.Executable, filemode.Symlink, filemode.Dir, filemode.Submodule}, mode) || len(e.Mode) != 6 {
			unprocessable(w, fmt.Sprintf("tree.mode %q is not one of 100644, 100755, 040000, 160000, 120000", e.Mode))
			return
		}
		var id string
		switch {
		case e.Content != nil:
			id = s.git.PutBlob([]byte(*e.Content))
		case mode == filemode.Dir:
			if _, ok := s.git.Tree(*e.SHA); !ok {
				unprocessable(w, "GitRPC::BadObjectState")
				return
			}
			id = *e.SHA
		default:
			if _, ok := s.git.Blob(*e.SHA); !ok && mode != filemode.Submodule {
				unprocessable(w, "GitRPC::BadObjectState")
				return
			}
			id = *e.SHA
		}
		edits = append(edits, forgetest.TreeEdit{Path: e.Path, Mode: mode, ID: id})
	}
	id, err := s.git.EditTree(base, edits)
	if err != nil {
		unprocessable(w, "GitRPC::BadObjectState: "+err.Error())
		return
	}
	entries, _ := s.git.Tree(id)
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(s.treeJSON(id, entries))
}

func (s *Server) commitJSON(c forgetest.Commit) map[string]any {
	parents := []map[string]any{}
	for _, p := range c.Parents {
		parents = append(parents, map[string]any{"sha": p})
	}
	return map[string]any{
		"sha": c.ID, "message": c.Message, "tree": map[string]any{"sha": c.Tree}, "parents": parents,
		"html_url": fmt.Sprintf("https://github.com/%s/commit/%s", Repository, c.ID),
	}
}

func (s *Server) getCommit(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	c, ok := s.git.Commit(r.PathValue("sha"))
	if !ok {
		forgetest.WriteError(w, http.StatusNotFound, notFound)
		return
	}
	json.NewEncoder(w).Encode(s.commitJSON(c))
}

func (s *Server) createCommit(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	var req struct {
		Message string
		Tree    string
		Parents []string
	}
	if !decodeJSON(w, r, &req) {
		return
	}
	if _, ok := s.git.Tree(req.Tree); !ok {
		unprocessable(w, "Tree SHA does not exist")
		return
	}
	for _, p := range req.Parents {
		if _, ok := s.git.Commit(p); !ok {
			unprocessable(w, "Parent SHA does not exist or is not a commit object")
			return
		}
	}
	id, err := s.git.NewCommit(req.Tree, req.Parents, req.Message)
	if err != nil {
		unprocessable(w, err.Error())
		return
	}
	c, _ := s.git.Commit(id)
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(s.commitJSON(c))
}

// branchOf is the branch of ref "heads/NAME" or "refs/heads/NAME"; ok
// is false for any other ref.
func branchOf(ref string) (string, bool) {
	name, ok := strings.CutPrefix(strings.TrimPrefix(ref, "refs/"), "heads/")
	return name, ok && name != ""
}

func (s *Server) refJSON(branch, id string) map[string]any {
	return map[string]any{
		"ref":    "refs/heads/" + branch,
		"url":    s.URL + "/repos/" + Repository + "/git/refs/heads/" + branch,
		"object": map[string]any{"sha": id, "type": "commit"},
	}
}

func (s *Server) getRef(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	branch, ok := branchOf(r.PathValue("ref"))
	id, found := s.git.Branch(branch)
	if !ok || !found {
		forgetest.WriteError(w, http.StatusNotFound, notFound)
		return
	}
	json.NewEncoder(w).Encode(s.refJSON(branch, id))
}

func (s *Server) createRef(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	var req struct{ Ref, SHA string }
	if !decodeJSON(w, r, &req) {
		return
	}
	if !strings.HasPrefix(req.Ref, "refs/") || strings.Count(req.Ref, "/") < 2 {
		unprocessable(w, "Reference name must start with 'refs/' and have at least two slashes.")
		return
	}
	branch, ok := branchOf(req.Ref)
	if !ok {
		forgetest.WriteError(w, http.StatusNotImplemented, `{"message":"githubtest: only branches are modelled"}`)
		return
	}
	if _, exists := s.git.Branch(branch); exists {
		unprocessable(w, "Reference already exists")
		return
	}
	if _, ok := s.git.Commit(req.SHA); !ok {
		unprocessable(w, "Object does not exist")
		return
	}
	if s.protected[branch] {
		unprocessable(w, "Reference update failed")
		return
	}
	s.git.SetBranch(branch, req.SHA)
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(s.refJSON(branch, req.SHA))
}

func (s *Server) updateRef(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	var req struct {
		SHA   string
		Force bool
	}
	if !decodeJSON(w, r, &req) {
		return
	}
	branch, ok := branchOf(r.PathValue("ref"))
	old, exists := s.git.Branch(branch)
	switch {
	case !ok || !exists:
		unprocessable(w, "Reference does not exist")
	case s.protected[branch]:
		unprocessable(w, fmt.Sprintf("Protected branch update failed for refs/heads/%s.", branch))
	default:
		if _, ok := s.git.Commit(req.SHA); !ok {
			unprocessable(w, "Object does not exist")
			return
		}
		if !req.Force && !s.git.IsAncestor(old, req.SHA) {
			unprocessable(w, "Update is not a fast forward")
			return
		}
		s.git.SetBranch(branch, req.SHA)
		json.NewEncoder(w).Encode(s.refJSON(branch, req.SHA))
	}
}

func (s *Server) deleteRef(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	branch, ok := branchOf(r.PathValue("ref"))
	if _, exists := s.git.Branch(branch); !ok || !exists {
		unprocessable(w, "Reference does not exist")
		return
	}
	if s.protected[branch] {
		unprocessable(w, fmt.Sprintf("Cannot delete this protected branch: refs/heads/%s", branch))
		return
	}
	s.git.DeleteBranch(branch)
	// A pull request whose head branch is deleted is closed.
	for _, is := range s.issues {
		if is.PR && is.State == "open" && is.Head == branch && (is.HeadOwner == "" || is.HeadOwner == Owner) {
			is.State = "closed"
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// headOwner is the owner of the head repository of pull request is.
func headOwner(is *Issue) string { return cmp.Or(is.HeadOwner, Owner) }

func (s *Server) pullJSON(is *Issue) map[string]any {
	m := s.issueJSON(is)
	delete(m, "pull_request")
	delete(m, "labels")
	head := map[string]any{"ref": is.Head, "label": headOwner(is) + ":" + is.Head, "repo": map[string]any{"full_name": headOwner(is) + "/" + Repo}}
	if id, ok := s.git.Branch(is.Head); ok && headOwner(is) == Owner {
		head["sha"] = id
	}
	base := map[string]any{"ref": is.Base, "repo": map[string]any{"full_name": Repository}}
	if id, ok := s.git.Branch(is.Base); ok {
		base["sha"] = id
	}
	m["head"], m["base"] = head, base
	return m
}

func (s *Server) listPulls(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	q := r.URL.Query()
	state := cmp.Or(q.Get("state"), "open")
	owner, head, byHead := strings.Cut(q.Get("head"), ":")
	var out []map[string]any
	for _, is := range s.issues {
		switch {
		case !is.PR, state != "all" && is.State != state:
		case byHead && (headOwner(is) != owner || is.Head != head):
		case q.Get("base") != "" && is.Base != q.Get("base"):
		default:
			out = append(out, s.pullJSON(is))
		}
	}
	if q.Get("direction") != "asc" {
		slices.Reverse(out)
	}
	page(s, w, r, out)
}

// titleTooLong answers GitHub's 422 for a title over 256 characters.
func titleTooLong(w http.ResponseWriter, title string) bool {
	if utf8.RuneCountInString(title) <= 256 {
		return false
	}
	invalid(w, "Issue", "title", "custom", "title is too long (maximum is 256 characters)")
	return true
}

func (s *Server) createPull(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	var req struct{ Title, Head, Base, Body string }
	if !decodeJSON(w, r, &req) {
		return
	}
	if s.user == "" && s.app == "github-actions[bot]" && !s.actionsPRs {
		forgetest.WriteError(w, http.StatusForbidden, `{"message":"GitHub Actions is not permitted to create or approve pull requests.","documentation_url":"https://docs.github.com/rest/pulls/pulls#create-a-pull-request","status":"403"}`)
		return
	}
	if tooLong(w, "PullRequest", req.Body) || titleTooLong(w, req.Title) {
		return
	}
	if strings.TrimSpace(req.Title) == "" {
		invalid(w, "PullRequest", "title", "missing_field", "")
		return
	}
	owner, head, forked := strings.Cut(req.Head, ":")
	if !forked {
		owner, head = Owner, req.Head
	}
	headID, ok := s.git.Branch(head)
	if owner != Owner || !ok {
		invalid(w, "PullRequest", "head", "invalid", "")
		return
	}
	baseID, ok := s.git.Branch(req.Base)
	if !ok {
		invalid(w, "PullRequest", "base", "invalid", "")
		return
	}
	for _, is := range s.issues {
		if is.PR && is.State == "open" && is.Head == head && headOwner(is) == owner && is.Base == req.Base {
			invalid(w, "PullRequest", "", "custom", fmt.Sprintf("A pull request already exists for %s:%s.", owner, head))
			return
		}
	}
	if s.git.IsAncestor(headID, baseID) {
		invalid(w, "PullRequest", "", "custom", fmt.Sprintf("No commits between %s and %s", req.Base, head))
		return
	}
	is := s.add(&Issue{Title: req.Title, Body: req.Body, State: "open", PR: true, Head: head, Base: req.Base})
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(s.pullJSON(is))
}

func (s *Server) updatePull(w http.ResponseWriter, r *http.Request) {
	if !s.inRepo(w, r) {
		return
	}
	n, _ := strconv.Atoi(r.PathValue("number"))
	i := slices.IndexFunc(s.issues, func(is *Issue) bool { return is.Number == n && is.PR })
	if i < 0 {
		forgetest.WriteError(w, http.StatusNotFound, notFound)
		return
	}
	is := s.issues[i]
	var req struct{ Title, Body, State, Base *string }
	if !decodeJSON(w, r, &req) {
		return
	}
	if req.Body != nil && tooLong(w, "PullRequest", *req.Body) || req.Title != nil && titleTooLong(w, *req.Title) {
		return
	}
	if req.Base != nil {
		if _, ok := s.git.Branch(*req.Base); !ok {
			invalid(w, "PullRequest", "base", "invalid", "")
			return
		}
		is.Base = *req.Base
	}
	if req.State != nil {
		if *req.State != "open" && *req.State != "closed" {
			invalid(w, "PullRequest", "state", "invalid", "")
			return
		}
		is.State = *req.State
	}
	if req.Title != nil {
		is.Title = *req.Title
	}
	if req.Body != nil {
		is.Body = *req.Body
	}
	json.NewEncoder(w).Encode(s.pullJSON(is))
}
