package gitlabtest

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillsync/skillsync/internal/forge/forgetest"
)

// MaxTitleChars is GitLab's limit on a merge request's title.
const MaxTitleChars = 255

// projectNumber is ProjectID as a number.
const projectNumber = 4242

func (s *Server) routeRepository(mux *http.ServeMux, p string) {
	mux.HandleFunc("GET "+p+"/repository/branches/{branch}", s.getBranch)
	mux.HandleFunc("DELETE "+p+"/repository/branches/{branch}", s.deleteBranch)
	mux.HandleFunc("GET "+p+"/repository/tree", s.listTree)
	mux.HandleFunc("POST "+p+"/repository/commits", s.createCommit)
	mux.HandleFunc("GET "+p+"/merge_requests", s.listMergeRequests)
	mux.HandleFunc("POST "+p+"/merge_requests", s.createMergeRequest)
	mux.HandleFunc("PUT "+p+"/merge_requests/{iid}", s.updateMergeRequest)
}

// message answers GitLab's error of status with a message.
func message(w http.ResponseWriter, status int, msg any) {
	writeJSON(w, status, map[string]any{"message": msg})
}

func (s *Server) mr(iid int64) *MergeRequest {
	for _, mr := range s.mrs {
		if mr.IID == iid {
			return mr
		}
	}
	return nil
}

// nextMRIID is the iid of the next merge request; s.mu is held.
func (s *Server) nextMRIID() int64 {
	var n int64
	for _, mr := range s.mrs {
		n = max(n, mr.IID)
	}
	return n + 1
}

func (s *Server) commitJSON(c forgetest.Commit) map[string]any {
	title, _, _ := strings.Cut(c.Message, "\n")
	return map[string]any{
		"id": c.ID, "short_id": c.ID[:8], "title": title, "message": c.Message,
		"parent_ids": c.Parents, "project_id": projectNumber,
		"web_url": WebURL + "/-/commit/" + c.ID,
	}
}

func (s *Server) branchJSON(name, id string) map[string]any {
	c, _ := s.git.Commit(id)
	return map[string]any{
		"name": name, "commit": s.commitJSON(c), "protected": s.protected[name], "default": name == "main",
		"can_push": !s.protected[name], "web_url": WebURL + "/-/tree/" + name,
	}
}

func (s *Server) getBranch(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	name := r.PathValue("branch")
	id, ok := s.git.Branch(name)
	if !ok {
		message(w, http.StatusNotFound, "404 Branch Not Found")
		return
	}
	writeJSON(w, http.StatusOK, s.branchJSON(name, id))
}

func (s *Server) deleteBranch(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	name := r.PathValue("branch")
	if s.protected[name] {
		message(w, http.StatusForbidden, "403 Forbidden")
		return
	}
	if !s.git.DeleteBranch(name) {
		message(w, http.StatusNotFound, "404 Branch Not Found")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// resolve is the commit ref names: a branch, or a commit's id.
func (s *Server) resolve(ref string) (forgetest.Commit, bool) {
	if id, ok := s.git.Branch(ref); ok {
		ref = id
	}
	return s.git.Commit(ref)
}

func (s *Server) listTree(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	q := r.URL.Query()
	if q.Get("recursive") == "true" {
		message(w, http.StatusNotImplemented, "gitlabtest: recursive trees are not modelled")
		return
	}
	ref := cmp.Or(q.Get("ref"), "main")
	dir := strings.Trim(q.Get("path"), "/")
	c, ok := s.resolve(ref)
	var folder forgetest.Entry
	if ok {
		folder, ok = s.git.Lookup(c.Tree, dir)
	}
	if !ok || folder.Mode != filemode.Dir {
		message(w, http.StatusNotFound, "404 Tree Not Found")
		return
	}
	entries, _ := s.git.Tree(folder.ID)
	out := make([]map[string]any, 0, len(entries))
	for _, e := range entries {
		p := e.Name
		if dir != "" {
			p = dir + "/" + e.Name
		}
		out = append(out, map[string]any{"id": e.ID, "name": e.Name, "type": e.Type(), "path": p, "mode": fmt.Sprintf("%06o", uint32(e.Mode))})
	}
	page(s, w, r, out)
}

// An action is one of a commit's actions, as GitLab reads it.
type action struct {
	Action          string
	FilePath        string `json:"file_path"`
	Content         *string
	Encoding        string
	ExecuteFilemode *bool `json:"execute_filemode"`
}

func (s *Server) createCommit(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	var req struct {
		Branch        string
		CommitMessage string `json:"commit_message"`
		StartBranch   string `json:"start_branch"`
		StartSHA      string `json:"start_sha"`
		Actions       []action
		Force         bool
	}
	if !decode(w, r, &req) {
		return
	}
	switch {
	case req.Branch == "":
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"branch is missing"}`)
		return
	case req.CommitMessage == "":
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"commit_message is missing"}`)
		return
	case len(req.Actions) == 0:
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"actions is empty"}`)
		return
	case req.StartBranch != "" && req.StartSHA != "":
		message(w, http.StatusBadRequest, "You can't pass both start_branch and start_sha")
		return
	case s.protected[req.Branch]:
		message(w, http.StatusForbidden, "403 Forbidden - You are not allowed to push into this branch")
		return
	}
	start := cmp.Or(req.StartSHA, req.StartBranch, req.Branch)
	base, ok := s.resolve(start)
	if !ok {
		message(w, http.StatusBadRequest, "You can only create or edit files when you are on a branch")
		return
	}
	if _, exists := s.git.Branch(req.Branch); exists && req.Branch != start && !req.Force {
		message(w, http.StatusBadRequest, fmt.Sprintf("A branch called '%s' already exists. Switch to that branch in order to make changes", req.Branch))
		return
	}
	tree := base.Tree
	for _, a := range req.Actions {
		edit, msg := s.apply(tree, a)
		if msg != "" {
			message(w, http.StatusBadRequest, msg)
			return
		}
		var err error
		if tree, err = s.git.EditTree(tree, []forgetest.TreeEdit{edit}); err != nil {
			message(w, http.StatusBadRequest, err.Error())
			return
		}
	}
	id, err := s.git.NewCommit(tree, []string{base.ID}, req.CommitMessage)
	if err != nil {
		message(w, http.StatusBadRequest, err.Error())
		return
	}
	s.git.SetBranch(req.Branch, id)
	c, _ := s.git.Commit(id)
	writeJSON(w, http.StatusCreated, s.commitJSON(c))
}

// apply reads a against tree as GitLab does: the edit it makes, or the
// message GitLab refuses it with.
func (s *Server) apply(tree string, a action) (forgetest.TreeEdit, string) {
	old, exists := s.git.Lookup(tree, a.FilePath)
	if exists && old.Mode == filemode.Dir {
		return forgetest.TreeEdit{}, "A directory with this name already exists"
	}
	content := func() ([]byte, string) {
		if a.Content == nil {
			return []byte{}, ""
		}
		if a.Encoding == "base64" {
			b, err := base64.StdEncoding.DecodeString(*a.Content)
			if err != nil {
				return nil, "content is not base64"
			}
			return b, ""
		}
		return []byte(*a.Content), ""
	}
	switch a.Action {
	case "create":
		if exists {
			return forgetest.TreeEdit{}, "A file with this name already exists"
		}
		b, msg := content()
		// execute_filemode is read by chmod only.
		return forgetest.TreeEdit{Path: a.FilePath, Mode: filemode.Regular, ID: s.git.PutBlob(b)}, msg
	case "update", "delete", "chmod":
		if !exists {
			return forgetest.TreeEdit{}, "A file with this name doesn't exist"
		}
	default:
		return forgetest.TreeEdit{}, fmt.Sprintf("Unknown action '%s'", a.Action)
	}
	switch a.Action {
	case "update":
		b, msg := content()
		return forgetest.TreeEdit{Path: a.FilePath, Mode: old.Mode, ID: s.git.PutBlob(b)}, msg
	case "delete":
		return forgetest.TreeEdit{Path: a.FilePath, Delete: true}, ""
	}
	mode := filemode.Regular
	if a.ExecuteFilemode != nil && *a.ExecuteFilemode {
		mode = filemode.Executable
	}
	return forgetest.TreeEdit{Path: a.FilePath, Mode: mode, ID: old.ID}, ""
}

func (s *Server) mrJSON(mr *MergeRequest) map[string]any {
	source := cmp.Or(mr.SourceProjectID, projectNumber)
	m := map[string]any{
		"id": 70000 + mr.IID, "iid": mr.IID, "project_id": projectNumber,
		"source_project_id": source, "target_project_id": projectNumber,
		"title": mr.Title, "description": mr.Description, "state": mr.State,
		"source_branch": mr.SourceBranch, "target_branch": mr.TargetBranch,
		"author": author(mr.AuthorID), "web_url": fmt.Sprintf("%s/-/merge_requests/%d", WebURL, mr.IID),
	}
	if id, ok := s.git.Branch(mr.SourceBranch); ok && source == projectNumber {
		m["sha"] = id
	}
	return m
}

func (s *Server) listMergeRequests(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	q := r.URL.Query()
	author, _ := strconv.ParseInt(q.Get("author_id"), 10, 64)
	var out []map[string]any
	for _, mr := range s.mrs {
		switch {
		case q.Get("state") != "" && q.Get("state") != "all" && mr.State != q.Get("state"):
		case q.Get("source_branch") != "" && mr.SourceBranch != q.Get("source_branch"):
		case q.Get("target_branch") != "" && mr.TargetBranch != q.Get("target_branch"):
		case author != 0 && authorOf(mr.AuthorID) != author:
		default:
			out = append(out, s.mrJSON(mr))
		}
	}
	if !ascending(r) {
		slices.Reverse(out)
	}
	page(s, w, r, out)
}

// mrFields checks a title and description as GitLab does, answering 400
// when it refuses them.
func mrFields(w http.ResponseWriter, title, desc *string) bool {
	if title != nil && utf8.RuneCountInString(*title) > MaxTitleChars {
		message(w, http.StatusBadRequest, map[string]any{"title": []string{"is too long (maximum is 255 characters)"}})
		return false
	}
	return description(w, desc)
}

func (s *Server) createMergeRequest(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	var req struct {
		SourceBranch string `json:"source_branch"`
		TargetBranch string `json:"target_branch"`
		Title        *string
		Description  *string
	}
	if !decode(w, r, &req) || !mrFields(w, req.Title, req.Description) {
		return
	}
	if req.Title == nil || strings.TrimSpace(*req.Title) == "" {
		forgetest.WriteError(w, http.StatusBadRequest, `{"error":"title is missing"}`)
		return
	}
	conflict := func(msg string) { message(w, http.StatusConflict, []string{msg}) }
	if _, ok := s.git.Branch(req.SourceBranch); !ok {
		conflict(fmt.Sprintf("Source branch %q does not exist", req.SourceBranch))
		return
	}
	if _, ok := s.git.Branch(req.TargetBranch); !ok {
		conflict(fmt.Sprintf("Target branch %q does not exist", req.TargetBranch))
		return
	}
	if req.SourceBranch == req.TargetBranch {
		conflict("You can't use same project/branch for source and target")
		return
	}
	for _, mr := range s.mrs {
		if mr.State == "opened" && mr.SourceBranch == req.SourceBranch && mr.SourceProjectID == 0 {
			conflict(fmt.Sprintf("Another open merge request already exists for this source branch: !%d", mr.IID))
			return
		}
	}
	mr := &MergeRequest{IID: s.nextMRIID(), SourceBranch: req.SourceBranch, TargetBranch: req.TargetBranch, Title: *req.Title, State: "opened"}
	if req.Description != nil {
		mr.Description = *req.Description
	}
	s.mrs = append(s.mrs, mr)
	writeJSON(w, http.StatusCreated, s.mrJSON(mr))
}

func (s *Server) updateMergeRequest(w http.ResponseWriter, r *http.Request) {
	if !inProject(w, r) {
		return
	}
	mr := s.mr(pathInt(r, "iid"))
	if mr == nil {
		message(w, http.StatusNotFound, "404 Not found")
		return
	}
	var req struct {
		Title        *string
		Description  *string
		TargetBranch *string `json:"target_branch"`
		StateEvent   *string `json:"state_event"`
	}
	if !decode(w, r, &req) || !mrFields(w, req.Title, req.Description) {
		return
	}
	if req.TargetBranch != nil {
		if _, ok := s.git.Branch(*req.TargetBranch); !ok {
			message(w, http.StatusBadRequest, map[string]any{"target_branch": []string{"is invalid"}})
			return
		}
		mr.TargetBranch = *req.TargetBranch
	}
	if !stateEvent(w, req.StateEvent, &mr.State) {
		return
	}
	if req.Title != nil {
		mr.Title = *req.Title
	}
	if req.Description != nil {
		mr.Description = *req.Description
	}
	writeJSON(w, http.StatusOK, s.mrJSON(mr))
}
