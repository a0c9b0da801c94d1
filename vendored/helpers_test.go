package vendored

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/revlist"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
)

// testUpstream is an upstream repository a test builds with go-git: a
// working tree whose files it writes and commits.
type testUpstream struct {
	t    *testing.T
	dir  string
	repo *git.Repository
	n    int
}

func newUpstream(t *testing.T) *testUpstream {
	t.Helper()
	dir := t.TempDir()
	r, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	if err != nil {
		t.Fatal(err)
	}
	return &testUpstream{t: t, dir: dir, repo: r}
}

// write writes files (by slash path; "" content removes), executable
// when the path ends in ".sh" or ".py".
func (u *testUpstream) write(files map[string]string) *testUpstream {
	u.t.Helper()
	for p, content := range files {
		name := filepath.Join(u.dir, filepath.FromSlash(p))
		if content == "" {
			if err := os.Remove(name); err != nil {
				u.t.Fatal(err)
			}
			continue
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") || strings.HasSuffix(p, ".py") {
			mode = 0o755
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			u.t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), mode); err != nil {
			u.t.Fatal(err)
		}
		os.Chmod(name, mode)
	}
	return u
}

// commit commits every change of the working tree and returns the commit.
func (u *testUpstream) commit(msg string) string {
	u.t.Helper()
	wt, err := u.repo.Worktree()
	if err != nil {
		u.t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		u.t.Fatal(err)
	}
	u.n++
	sig := &object.Signature{Name: "upstream", Email: "up@example.com", When: time.Unix(1700000000+int64(u.n)*60, 0)}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		u.t.Fatal(err)
	}
	return h.String()
}

func (u *testUpstream) head() string {
	u.t.Helper()
	h, err := u.repo.Head()
	if err != nil {
		u.t.Fatal(err)
	}
	return h.Hash().String()
}

// tag tags HEAD, with an annotated tag when message is not "".
func (u *testUpstream) tag(name, message string) {
	u.t.Helper()
	h, err := u.repo.Head()
	if err != nil {
		u.t.Fatal(err)
	}
	var opts *git.CreateTagOptions
	if message != "" {
		opts = &git.CreateTagOptions{Message: message, Tagger: &object.Signature{Name: "t", Email: "t@example.com", When: time.Unix(1700000000, 0)}}
	}
	if _, err := u.repo.CreateTag(name, h.Hash(), opts); err != nil {
		u.t.Fatal(err)
	}
}

// checkout switches to branch, created at HEAD when create.
func (u *testUpstream) checkout(branch string, create bool) {
	u.t.Helper()
	wt, err := u.repo.Worktree()
	if err != nil {
		u.t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(branch), Create: create}); err != nil {
		u.t.Fatal(err)
	}
}

const pdfSkill = "---\nname: pdf\ndescription: Reads and fills PDF forms. Use when a task involves a PDF.\n---\n# PDF\n\nLine one.\nLine two.\nLine three.\n\nSee [forms](forms.md) and run scripts/fill.py.\n\nLine ten.\nLine eleven.\nLine twelve.\n"

// pdfUpstream is an upstream holding two skills under skills/, the pdf
// one with a script, and a README at its root.
func pdfUpstream(t *testing.T) *testUpstream {
	u := newUpstream(t)
	u.write(map[string]string{
		"README.md":                  "# Skills\n",
		"skills/pdf/SKILL.md":        pdfSkill,
		"skills/pdf/forms.md":        "# Forms\n\nFill them.\n",
		"skills/pdf/scripts/fill.py": "print('fill')\n",
		"skills/docx/SKILL.md":       "---\nname: docx\ndescription: Edits Word documents. Use when a task involves a .docx file.\n---\nBody.\n",
	})
	u.commit("two skills")
	return u
}

// newRoot makes a skills repository (a skillsync.yaml and a skills
// folder) and returns its root.
func newRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte("space: ab12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

// snapshot records every file and folder under dir, with its mode, to
// tell that nothing was written.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := de.Info()
		if err != nil {
			return err
		}
		if de.IsDir() {
			m[rel] = "dir"
			return nil
		}
		data, err := os.ReadFile(p)
		m[rel] = fmt.Sprintf("%v:%s", info.Mode(), data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func lockOf(t *testing.T, root string) fsrepo.Lock {
	t.Helper()
	l, ds, err := fsrepo.ReadLock(root)
	if err != nil || len(ds) > 0 {
		t.Fatalf("ReadLock: %v %v", ds, err)
	}
	return l
}

// vendoredDiagnostics are the diagnostics of Load about vendored folders.
func vendoredDiagnostics(t *testing.T, root string) diag.Diagnostics {
	t.Helper()
	_, ds, err := fsrepo.Load(context.Background(), root, fsrepo.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out diag.Diagnostics
	for _, d := range ds {
		if strings.HasPrefix(d.Code, "vendored-") || d.Code == "lock-invalid" {
			out = append(out, d)
		}
	}
	return out
}

// gitServer serves repositories over git's smart HTTP protocol, as
// GitHub does, from go-git's own pieces: the references advertised by
// its upload-pack server, and packs of what a request wants, at depth 1
// when it asks for a shallow fetch.
type gitServer struct {
	t     *testing.T
	repos map[string]*git.Repository // by URL path
	// byTipOnly refuses wants that are not an advertised reference's
	// commit, and does not advertise allow-reachable-sha1-in-want, as
	// servers that do not give a commit by its id.
	byTipOnly bool

	mu       sync.Mutex
	requests []string // "list PATH" and "fetch PATH depth=N wants=N"
}

func serveGit(t *testing.T, repos map[string]*git.Repository) (*gitServer, string) {
	s := &gitServer{t: t, repos: repos}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts.URL
}

func (s *gitServer) log(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, fmt.Sprintf(format, args...))
}

func (s *gitServer) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func (s *gitServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var repoPath string
	var repo *git.Repository
	for p, rr := range s.repos {
		if strings.HasPrefix(r.URL.Path, p+"/") {
			repoPath, repo = p, rr
		}
	}
	if repo == nil {
		http.NotFound(w, r)
		return
	}
	switch strings.TrimPrefix(r.URL.Path, repoPath) {
	case "/info/refs":
		if r.URL.Query().Get("service") != transport.UploadPackServiceName {
			http.Error(w, "smart HTTP only", http.StatusForbidden)
			return
		}
		s.log("list %s", repoPath)
		ar, err := s.advertise(repo)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
		ar.Prefix = [][]byte{[]byte("# service=git-upload-pack"), pktline.Flush}
		if err := ar.Encode(w); err != nil {
			s.t.Errorf("advertising: %v", err)
		}
	case "/git-upload-pack":
		if err := s.uploadPack(w, r, repoPath, repo); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
		}
	default:
		http.NotFound(w, r)
	}
}

func (s *gitServer) advertise(repo *git.Repository) (*packp.AdvRefs, error) {
	ep, _ := transport.NewEndpoint("/")
	sess, err := server.NewServer(storerLoader{repo.Storer}).NewUploadPackSession(ep, nil)
	if err != nil {
		return nil, err
	}
	ar, err := sess.AdvertisedReferencesContext(context.Background())
	if err != nil {
		return nil, err
	}
	ar.Capabilities.Set(capability.Shallow)
	if !s.byTipOnly {
		// As GitHub does: any commit of the history can be asked for.
		ar.Capabilities.Set(capability.AllowReachableSHA1InWant)
	}
	if head, err := repo.Storer.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference {
		ar.Capabilities.Add(capability.SymRef, "HEAD:"+head.Target().String())
	}
	// Annotated tags' commits, as git advertises them.
	for name, h := range ar.References {
		if tag, err := repo.TagObject(h); err == nil {
			ar.Peeled[name] = tag.Target
		}
	}
	return ar, nil
}

// storerLoader serves one repository's storage to go-git's server.
type storerLoader struct{ s storer.Storer }

func (l storerLoader) Load(*transport.Endpoint) (storer.Storer, error) { return l.s, nil }

func (s *gitServer) uploadPack(w http.ResponseWriter, r *http.Request, repoPath string, repo *git.Repository) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	req := packp.NewUploadPackRequest()
	if err := req.UploadRequest.Decode(bytes.NewReader(body)); err != nil {
		return fmt.Errorf("decoding the request: %w", err)
	}
	depth := 0
	if d, ok := req.Depth.(packp.DepthCommits); ok {
		depth = int(d)
	}
	s.log("fetch %s depth=%d wants=%d", repoPath, depth, len(req.Wants))
	if s.byTipOnly {
		ar, err := s.advertise(repo)
		if err != nil {
			return err
		}
		for _, want := range req.Wants {
			tip := false
			for _, h := range ar.References {
				tip = tip || h == want
			}
			if !tip {
				return fmt.Errorf("not our ref %s", want)
			}
		}
	}
	var objs, shallows []plumbing.Hash
	if depth > 0 {
		if depth != 1 {
			return fmt.Errorf("depth %d: this server gives depth 1 only", depth)
		}
		seen := map[plumbing.Hash]bool{}
		for _, want := range req.Wants {
			commit, err := s.shallowObjects(repo, want, seen, &objs)
			if err != nil {
				return err
			}
			shallows = append(shallows, commit)
		}
	} else if objs, err = revlist.Objects(repo.Storer, req.Wants, nil); err != nil {
		return err
	}
	var pack bytes.Buffer
	if _, err := packfile.NewEncoder(&pack, repo.Storer, false).Encode(objs, 10); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
	resp := packp.NewUploadPackResponseWithPackfile(req, io.NopCloser(&pack))
	resp.ShallowUpdate.Shallows = shallows
	return resp.Encode(w)
}

// shallowObjects adds the objects of want at depth 1 to objs: a tag, its
// commit, the commit's trees and blobs, not its parents.
func (s *gitServer) shallowObjects(repo *git.Repository, want plumbing.Hash, seen map[plumbing.Hash]bool, objs *[]plumbing.Hash) (plumbing.Hash, error) {
	add := func(h plumbing.Hash) {
		if !seen[h] {
			seen[h] = true
			*objs = append(*objs, h)
		}
	}
	c := want
	if tag, err := repo.TagObject(want); err == nil {
		add(want)
		c = tag.Target
	}
	commit, err := repo.CommitObject(c)
	if err != nil {
		return c, fmt.Errorf("want %s: %w", want, err)
	}
	add(c)
	tree, err := commit.Tree()
	if err != nil {
		return c, err
	}
	add(tree.Hash)
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	for {
		_, e, err := walker.Next()
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return c, err
		}
		add(e.Hash)
	}
}
