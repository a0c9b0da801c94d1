package main

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
	"github.com/skillsync/skillsync/spec"
)

const (
	pullSpace = "ab12"
	pullToken = "pull-test-token"
)

// pullEmulator serves space ab12 with skills whose text is hard to write
// and read back, and records the path of every request.
func pullEmulator(t *testing.T) (e *remotetest.Emulator, url string, paths func() []string) {
	t.Helper()
	e = remotetest.New()
	e.AddSpace(remotetest.Space{ID: pullSpace})
	e.AddToken(pullToken, remotetest.ReadWrite)
	e.AddSkill(pullSpace, remotetest.SkillSeed{
		Name:        "PDF Processing",
		Description: "Extract text and tables from PDF files.\nUse when the user mentions PDFs: forms, scans.",
		Instructions: "# PDF\r\n\r\nRun `python scripts/extract.py input.pdf` first.\r\n" +
			"See [the reference](reference.md) and [forms](./docs/forms.md#filling).\r\n" +
			"![logo](img/logo.png) and [gone](missing.md).\r\n---\r\nNot frontmatter.\r\n",
		Enabled: true,
		Files: map[string]string{
			"scripts/extract.py": "import sys\nprint(sys.argv)\n",
			"reference.md":       "# Reference\n\nCafé ☕\n",
			"docs/forms.md":      "Forms\r\nwith CRLF\r\n",
			"unlinked.md":        "not referred to by the instructions",
		},
		BinaryFiles: []string{"img/logo.png"},
	})
	e.AddSkill(pullSpace, remotetest.SkillSeed{
		Name:         "Café Crème 2",
		Description:  "Décrit en français, 日本語も 🎉",
		Instructions: "\uFEFFÉtapes :\n\n1. Lire.\n2. Écrire.   \n\n\n",
		Enabled:      true,
	})
	e.AddSkill(pullSpace, remotetest.SkillSeed{
		Slug:         "yes",
		Name:         "yes",
		Description:  "no",
		Instructions: "---\nname: fake\ndescription: fake\n---\n\nA body that starts like frontmatter.\n---\n",
		Enabled:      false,
	})
	e.AddSkill(pullSpace, remotetest.SkillSeed{
		Name:         "Tricky YAML",
		Description:  "key: value # not a comment\n---\n  indented \"quotes\" and 'more' \\ ",
		Instructions: "- item\n\n```\n---\n```\n",
		Enabled:      true,
	})
	var mu sync.Mutex
	var seen []string
	e.SetOnRequest(func(r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.EscapedPath())
		mu.Unlock()
	})
	srv := testserver.New(t, e)
	return e, srv.URL, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}
}

// pullEnv is the environment of the commands of a pull test.
func pullEnv() testEnv { return testEnv{"SKILLSYNC_TOKEN": pullToken, "NO_COLOR": "1"} }

// tree records every path under dir (file contents, symlink targets,
// folders), to tell that nothing was written.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case de.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			m[rel] = "-> " + target
			return err
		case de.IsDir():
			m[rel] = "dir"
		default:
			data, err := os.ReadFile(p)
			m[rel] = string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPullRoundTrip(t *testing.T) {
	t.Parallel()
	e, url, paths := pullEmulator(t)
	env := pullEnv()
	e.AddSkill(pullSpace, remotetest.SkillSeed{Name: "Unreadable", Description: "Its SKILL.md cannot be read.", Unreadable: true, Enabled: true})
	dir := t.TempDir()

	code, stdout, stderr := runCLI(t, env, "pull", "--dir", dir, "--base-url", url, "--space", pullSpace)
	if code != 0 {
		t.Fatalf("pull exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"wrote     skills/pdf-processing (SKILL.md, docs/forms.md, reference.md, scripts/extract.py)\n",
		"wrote     skills/caf-cr-me-2 (SKILL.md)\n",
		// A referenced file pull does not ask for is listed, with why.
		"          not read: img/logo.png (SKILL.md line ",
		"skipped   skills/unreadable: ",
		"wrote     skillsync.yaml\n",
		"Pulled 5 skills from space ab12: 4 written, 0 unchanged, 1 skipped.\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stderr, "logo.png") {
		t.Errorf("the binary file is said twice, also on stderr:\n%s", stderr)
	}
	for _, want := range []string{
		"skillsync: warning: skipped unreadable: ",
		"skillsync: warning: pdf-processing: skipped missing.md: ",
		"skillsync: hint: run 'skillsync plan'",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	files := tree(t, dir)
	if got := files["skills/pdf-processing/docs/forms.md"]; got != "Forms\r\nwith CRLF\r\n" {
		t.Errorf("supporting file not written byte for byte: %q", got)
	}
	for _, absent := range []string{"skills/pdf-processing/unlinked.md", "skills/pdf-processing/img", "skills/pdf-processing/missing.md", "skills/unreadable"} {
		if _, ok := files[absent]; ok {
			t.Errorf("%s was written", absent)
		}
	}
	if got := files["skills/yes/SKILL.md"]; !strings.Contains(got, "enabled: false\n") {
		t.Errorf("disabled skill written without enabled: false:\n%s", got)
	}
	cfg := files["skillsync.yaml"]
	if !strings.Contains(cfg, "space: ab12\n") || !strings.Contains(cfg, "baseURL: "+url+"\n") || strings.Contains(cfg, pullToken) {
		t.Errorf("skillsync.yaml:\n%s", cfg)
	}
	for _, p := range paths() {
		if strings.Contains(p, "/files/img/") {
			t.Errorf("requested a binary file: %s", p)
		}
	}

	// The repository now plans no change, from its own skillsync.yaml.
	code, stdout, stderr = runCLI(t, env, "plan", "--dir", dir, "--detailed-exitcode")
	if code != 0 || !strings.Contains(stdout, "No changes.") {
		t.Fatalf("plan after pull: exit %d\nstdout:\n%s\nstderr:\n%s\nfiles: %q", code, stdout, stderr, files)
	}

	// Pulling again changes nothing, and keeps skillsync.yaml.
	code, stdout, stderr = runCLI(t, env, "pull", "--dir", dir)
	if code != 0 || !strings.Contains(stdout, "4 unchanged") || strings.Contains(stdout, "wrote") {
		t.Errorf("second pull: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if after := tree(t, dir); !reflect.DeepEqual(after, files) {
		t.Errorf("second pull changed files")
	}
}

// TestPullNeverEscapes seeds instructions that refer to files outside the
// skill folder: none is requested, none written.
func TestPullNeverEscapes(t *testing.T) {
	t.Parallel()
	e, url, paths := pullEmulator(t)
	env := pullEnv()
	e.AddSkill(pullSpace, remotetest.SkillSeed{
		Slug: "escape", Name: "Escape", Description: "Tries to leave its folder.", Enabled: true,
		Instructions: "[up](../pdf-processing/SKILL.md) [deep](../../../../etc/passwd.md) [abs](/etc/passwd)\n" +
			"`scripts/../../../x.py` `../x.py` `/tmp/x.py` [enc](%2e%2e/x.md) [enc2](..%2fx.md) [win](..\\x.md)\n" +
			"[url](file:///etc/passwd) `C:/x.py` [ok](ok.md)\n" +
			// A .git folder planted in a skill would make git run its
			// config's commands (core.fsmonitor) in that folder.
			"[g](.git/config) [h](.GIT/hooks/pre-commit.md) `sub/.git/HEAD` [short](git~1/config) [dot](.git./config)\n",
		Files: map[string]string{"ok.md": "fine", ".git/config": "[core]\n\tfsmonitor = touch pwned\n", ".GIT/hooks/pre-commit.md": "x", "sub/.git/HEAD": "ref: x"},
	})
	base := t.TempDir()
	dir := filepath.Join(base, "repo")
	os.Mkdir(dir, 0o755)
	code, stdout, stderr := runCLI(t, env, "pull", "--dir", dir, "--base-url", url, "--space", pullSpace, "escape")
	if code != 0 {
		t.Fatalf("pull: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var files []string
	for _, p := range paths() {
		if i := strings.Index(p, "/files/"); i >= 0 {
			files = append(files, p[i+len("/files/"):])
		}
	}
	if !reflect.DeepEqual(files, []string{"ok.md"}) {
		t.Errorf("file requests %q, want only ok.md", files)
	}
	want := map[string]string{".": "dir", "repo": "dir", "repo/skills": "dir", "repo/skills/escape": "dir", "repo/skills/escape/ok.md": "fine"}
	got := tree(t, base)
	delete(got, "repo/skills/escape/SKILL.md")
	delete(got, "repo/skillsync.yaml")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
}

// TestPullMentionErrors: a mention whose read is refused (403: the token
// may not read files) fails the pull, as a linked file's would; any other
// failure of a mention is a warning naming it, never "not in the space".
func TestPullMentionErrors(t *testing.T) {
	t.Parallel()
	e, _, _ := pullEmulator(t)
	env := pullEnv()
	e.AddSkill(pullSpace, remotetest.SkillSeed{
		Slug: "m", Name: "M", Description: "Mentions a script.", Enabled: true,
		Instructions: "Run `scripts/run.py`.\n", Files: map[string]string{"scripts/run.py": "print(1)\n"},
	})
	for _, tc := range []struct {
		status   int
		wantCode int
		want     string
	}{
		{http.StatusForbidden, 1, "skillsync: error: reading scripts/run.py of skill m: "},
		{http.StatusBadGateway, 0, "skillsync: warning: m: skipped scripts/run.py: GET "},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/files/scripts/run.py") {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				w.Write([]byte(`{"error":{"code":"x","message":"refused"}}`))
				return
			}
			e.ServeHTTP(w, r)
		}))
		dir := t.TempDir()
		code, stdout, stderr := runCLI(t, env, "pull", "--dir", dir, "--base-url", srv.URL, "--space", pullSpace, "m")
		srv.Close()
		if code != tc.wantCode || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "taken for examples") {
			t.Errorf("status %d: exit %d\n%s\n%s", tc.status, code, stdout, stderr)
		}
	}
}

// TestInstructionsAtTheLimit: a remote skill of exactly 50,000 characters
// (UTF-16 code units, as the service counts) with no final newline pulls
// into a SKILL.md that validates and plans no change, although the file
// ends with the newline a SKILL.md always gets; and a change at the limit
// applies, the newline left out of what is sent.
func TestInstructionsAtTheLimit(t *testing.T) {
	t.Parallel()
	e, url, _ := pullEmulator(t)
	env := pullEnv()
	// "😀" is two code units: the limit is not counted in bytes or runes.
	atLimit := "😀" + strings.Repeat("a", spec.MaxInstructionsLen-2)
	e.AddSkill(pullSpace, remotetest.SkillSeed{Slug: "big", Name: "Big", Description: "As long as the service allows.", Instructions: atLimit, Enabled: true})
	dir := t.TempDir()

	code, stdout, stderr := runCLI(t, env, "pull", "--dir", dir, "--base-url", url, "--space", pullSpace, "big")
	if code != 0 {
		t.Fatalf("pull: exit %d\n%s\n%s", code, stdout, stderr)
	}
	md := filepath.Join(dir, "skills", "big", "SKILL.md")
	data, err := os.ReadFile(md)
	if err != nil || !bytes.HasSuffix(data, []byte(atLimit+"\n")) {
		t.Fatalf("SKILL.md (%v) does not end with the instructions and a newline", err)
	}
	if code, stdout, stderr = runCLI(t, env, "validate", "--dir", dir); code != 0 {
		t.Fatalf("validate after pull: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, stderr = runCLI(t, env, "plan", "--dir", dir, "--detailed-exitcode"); code != 0 || !strings.Contains(stdout, "No changes.") {
		t.Fatalf("plan after pull: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// Another text at the limit, with the final newline of a SKILL.md.
	changed := strings.Repeat("b", spec.MaxInstructionsLen)
	if err := os.WriteFile(md, []byte("---\nname: Big\ndescription: As long as the service allows.\n---\n"+changed+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr = runCLI(t, env, "validate", "--dir", dir); code != 0 {
		t.Fatalf("validate at the limit: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if code, stdout, stderr = runCLI(t, env, "apply", "--dir", dir, "--auto-approve", "--journal", filepath.Join(t.TempDir(), "j.jsonl")); code != 0 {
		t.Fatalf("apply at the limit: exit %d\n%s\n%s", code, stdout, stderr)
	}
	s, _ := e.SkillBySlug(pullSpace, "big")
	if s.Instructions == nil || *s.Instructions != changed {
		t.Errorf("the space holds %d code units, want the %d sent", spec.UTF16Len(*s.Instructions), spec.MaxInstructionsLen)
	}
	if code, stdout, stderr = runCLI(t, env, "plan", "--dir", dir, "--detailed-exitcode"); code != 0 {
		t.Fatalf("plan after apply: exit %d\n%s\n%s", code, stdout, stderr)
	}

	// One character more is over the limit, newline or not.
	if err := os.WriteFile(md, []byte("---\nname: Big\ndescription: As long as the service allows.\n---\n"+changed+"c"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr = runCLI(t, env, "validate", "--dir", dir); code != 1 || !strings.Contains(stderr+stdout, "instructions are 50001 characters (UTF-16 code units) long without the final newline; the service accepts at most 50000") {
		t.Errorf("validate over the limit: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestPullSharedSlug: two remote skills with one slug cannot both be its
// folder: pull names both and writes nothing, skillsync.yaml included.
func TestPullSharedSlug(t *testing.T) {
	t.Parallel()
	e, _, _ := pullEmulator(t)
	env := pullEnv()
	yes, _ := e.SkillBySlug(pullSpace, "yes")
	tricky, _ := e.SkillBySlug(pullSpace, "tricky-yaml")
	// The emulator keeps slugs unique, as the service should: its answers
	// are rewritten to give "yes" the slug of "tricky-yaml".
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(rec.Code)
		io.WriteString(w, strings.ReplaceAll(rec.Body.String(), `"slug":"yes"`, `"slug":"tricky-yaml"`))
	}))
	defer srv.Close()

	for _, args := range [][]string{nil, {"tricky-yaml"}} {
		dir := t.TempDir()
		code, stdout, stderr := runCLI(t, env, append([]string{"pull", "--dir", dir, "--base-url", srv.URL, "--space", pullSpace}, args...)...)
		if code != 1 || !strings.Contains(stderr, `skillsync: error: 2 skills of space ab12 share the slug "tricky-yaml": `) ||
			!strings.Contains(stderr, yes.ID) || !strings.Contains(stderr, tricky.ID) || !strings.Contains(stderr, "nothing was written") {
			t.Errorf("pull %q: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
		}
		if files := tree(t, dir); len(files) != 1 {
			t.Errorf("pull %q wrote files: %q", args, files)
		}
	}

	// The other skills can still be pulled by name.
	dir := t.TempDir()
	if code, stdout, stderr := runCLI(t, env, "pull", "--dir", dir, "--base-url", srv.URL, "--space", pullSpace, "pdf-processing"); code != 0 {
		t.Errorf("pull pdf-processing: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestPullNamesTooLong: a name the file system cannot hold (over 255
// bytes) is refused before anything is written; one that fits is written,
// however long.
func TestPullNamesTooLong(t *testing.T) {
	t.Parallel()
	e, url, _ := pullEmulator(t)
	env := pullEnv()
	// Sorted last, so that the other skills would be written first.
	long := "z" + strings.Repeat("-long", 60) // 301 bytes
	e.AddSkill(pullSpace, remotetest.SkillSeed{Slug: long, Name: "Long", Description: "A slug too long for a folder name.", Instructions: "# Long\n", Enabled: true})
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, env, "pull", "--dir", dir, "--base-url", url, "--space", pullSpace)
	if code != 1 || !strings.Contains(stderr, "skills/"+long+": the folder name is 301 bytes long; file systems hold names of at most 255 bytes") ||
		!strings.Contains(stderr, "nothing was written") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if files := tree(t, dir); len(files) != 1 {
		t.Errorf("files written: %q", files)
	}

	// A file name of 250 bytes fits (the temporary file it is first
	// written to must fit too); one of 300 does not.
	fits, over := strings.Repeat("f", 247)+".md", strings.Repeat("o", 297)+".md"
	e.AddSkill(pullSpace, remotetest.SkillSeed{Slug: "long-files", Name: "Long files", Description: "Long file names.",
		Instructions: "[a](" + fits + ") [b](docs/" + over + ")\n", Enabled: true,
		Files: map[string]string{fits: "fits", "docs/" + over: "over"}})
	code, stdout, stderr = runCLI(t, env, "pull", "--dir", dir, "--base-url", url, "--space", pullSpace, "yes", "long-files")
	if code != 1 || !strings.Contains(stderr, "skills/long-files/docs/"+over+": the file name is 300 bytes long; file systems hold names of at most 255 bytes") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if files := tree(t, dir); len(files) != 1 {
		t.Errorf("files written: %q", files)
	}
	e.EditSkill(pullSpace, mustSlug(t, e, "long-files").ID, func(s *remotetest.SkillSeed) { s.Instructions = "[a](" + fits + ")\n" })
	if code, stdout, stderr = runCLI(t, env, "pull", "--dir", dir, "--base-url", url, "--space", pullSpace, "long-files"); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if got := tree(t, dir)["skills/long-files/"+fits]; got != "fits" {
		t.Errorf("%s holds %q", fits, got)
	}
}

func mustSlug(t *testing.T, e *remotetest.Emulator, slug string) remote.Skill {
	t.Helper()
	s, ok := e.SkillBySlug(pullSpace, slug)
	if !ok {
		t.Fatalf("no skill %s", slug)
	}
	return s
}
