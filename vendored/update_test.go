package vendored

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/diff3"
)

func TestOutdated(t *testing.T) {
	ctx := context.Background()
	up := pdfUpstream(t)
	up.write(map[string]string{"skills/xlsx/SKILL.md": "---\nname: xlsx\ndescription: Edits spreadsheets. Use when a task involves a .xlsx file.\n---\nBody.\n"})
	up.commit("a third skill")
	pinned := up.head()
	root := newRoot(t)
	for _, o := range []AddOptions{
		{Path: "skills/pdf"},
		{Path: "skills/docx"},
		{Path: "skills/xlsx"},
		{Path: "skills/pdf", Ref: pinned, As: "pdf-pinned"},
	} {
		o.Source = up.dir
		if _, err := Add(ctx, root, o); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Outdated(ctx, root, OutdatedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outdated() || rep.Failed() {
		t.Fatalf("just vendored: %+v", rep)
	}

	// Upstream changes pdf, leaves docx be, removes xlsx.
	up.write(map[string]string{"skills/pdf/forms.md": "# Forms, v2\n", "skills/xlsx/SKILL.md": "", "README.md": "moved\n"})
	tip := up.commit("v2")
	rep, err = Outdated(ctx, root, OutdatedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, s := range rep.Skills {
		states[s.Slug] = s.State
		if s.State != StateCurrent && s.Latest != tip {
			t.Errorf("%s: latest %s, want %s", s.Slug, s.Latest, tip)
		}
	}
	want := map[string]string{"pdf": StateOutdated, "docx": StateUnchanged, "xlsx": StateRemoved, "pdf-pinned": StateCurrent}
	if !reflect.DeepEqual(states, want) {
		t.Fatalf("states %v, want %v", states, want)
	}
	if !rep.Outdated() || rep.Failed() {
		t.Fatalf("Outdated %v, Failed %v", rep.Outdated(), rep.Failed())
	}

	var js bytes.Buffer
	if err := json.NewEncoder(&js).Encode(rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"format_version":"1"`) || !strings.Contains(js.String(), `"state":"outdated"`) {
		t.Errorf("JSON: %s", js.String())
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, line := range []string{
		"pdf: outdated: " + fsrepo.ShortCommit(up.headOf(t, rep, "pdf")) + " -> " + fsrepo.ShortCommit(tip),
		"Vendored: 1 outdated, 1 removed upstream, 2 current.",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, text.String())
		}
	}

	// One skill only; an unknown one is an error.
	if rep, err := Outdated(ctx, root, OutdatedOptions{Slugs: []string{"docx"}}); err != nil || len(rep.Skills) != 1 || rep.Outdated() {
		t.Errorf("outdated docx: %+v, %v", rep, err)
	}
	if _, err := Outdated(ctx, root, OutdatedOptions{Slugs: []string{"nope"}}); err == nil || !strings.Contains(err.Error(), `"nope" is not vendored`) {
		t.Errorf("outdated nope: %v", err)
	}

	// A source that is gone is an error of its skills, not of the others.
	os.RemoveAll(up.dir)
	rep, err = Outdated(ctx, root, OutdatedOptions{})
	if err != nil || !rep.Failed() || rep.Skills[0].State != StateError || !strings.Contains(rep.Skills[0].Error, "is not a git repository") {
		t.Fatalf("a source gone: %+v, %v", rep, err)
	}
}

// headOf is the locked commit of slug in a report.
func (u *testUpstream) headOf(t *testing.T, rep *Report, slug string) string {
	for _, s := range rep.Skills {
		if s.Slug == slug {
			return s.Commit
		}
	}
	t.Fatalf("no %s in the report", slug)
	return ""
}

func TestUpdateKeepsLocalEdits(t *testing.T) {
	ctx := context.Background()
	up := pdfUpstream(t)
	up.write(map[string]string{"skills/pdf/old.md": "to be removed upstream\n", "skills/pdf/run.sh": "echo\n"})
	up.commit("more files")
	root := newRoot(t)
	if _, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "skills", "pdf")
	// Local: an edit at the top of SKILL.md, a file of our own.
	writeFile(t, filepath.Join(dir, "SKILL.md"), strings.Replace(pdfSkill, "Line one.", "Line one, as we like it.", 1))
	writeFile(t, filepath.Join(dir, "ours.md"), "ours\n")
	if ds := vendoredDiagnostics(t, root); len(ds) != 1 || ds[0].Code != "vendored-modified" {
		t.Fatalf("validate after a local edit: %v", ds)
	}
	// Upstream: an edit at the bottom of SKILL.md, a new file, one
	// removed, one no longer executable.
	up.write(map[string]string{
		"skills/pdf/SKILL.md": strings.Replace(pdfSkill, "Line twelve.", "Line twelve, fixed upstream.", 1),
		"skills/pdf/new.md":   "new upstream\n",
		"skills/pdf/old.md":   "",
	})
	os.Chmod(filepath.Join(up.dir, "skills", "pdf", "run.sh"), 0o644)
	tip := up.commit("upstream moves")

	rep, err := Update(ctx, root, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	su := rep.Skills[0]
	if su.State != StateUpdated || su.To != tip || rep.Failed() {
		t.Fatalf("update: %+v", su)
	}
	wantFiles := []FileChange{{"SKILL.md", ChangeMerged}, {"new.md", ChangeAdded}, {"old.md", ChangeRemoved}, {"run.sh", ChangeMode}}
	if !reflect.DeepEqual(su.Files, wantFiles) {
		t.Errorf("files %+v\nwant %+v", su.Files, wantFiles)
	}
	md := readFile(t, filepath.Join(dir, "SKILL.md"))
	if !strings.Contains(md, "Line one, as we like it.") || !strings.Contains(md, "Line twelve, fixed upstream.") {
		t.Errorf("SKILL.md lost a side:\n%s", md)
	}
	if readFile(t, filepath.Join(dir, "ours.md")) != "ours\n" || readFile(t, filepath.Join(dir, "new.md")) != "new upstream\n" {
		t.Error("ours.md or new.md wrong")
	}
	if _, err := os.Stat(filepath.Join(dir, "old.md")); !os.IsNotExist(err) {
		t.Errorf("old.md is still there: %v", err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "run.sh")); fi.Mode().Perm()&0o111 != 0 {
		t.Errorf("run.sh is still executable: %v", fi.Mode())
	}
	e, _ := lockOf(t, root).Entry("pdf")
	theirs := map[string][]byte{}
	for _, p := range []string{"SKILL.md", "forms.md", "scripts/fill.py", "run.sh", "new.md"} {
		theirs[p] = []byte(readFile(t, filepath.Join(up.dir, "skills", "pdf", filepath.FromSlash(p))))
	}
	if e.Commit != tip || e.Hash != fsrepo.HashFiles(theirs, nil) {
		t.Errorf("lock entry %+v: want the new commit and upstream's folder hash there", e)
	}
	// The merge, local edits in, is recorded as vendored: validate does
	// not warn of it as modified locally, as it did forever.
	if e.Local == "" || e.Local == e.Hash {
		t.Errorf("lock entry %+v: want the merged folder's hash as local", e)
	}
	if ds := vendoredDiagnostics(t, root); len(ds) != 0 {
		t.Errorf("validate after the update: %v", ds)
	}

	// Again: nothing to do.
	rep, err = Update(ctx, root, UpdateOptions{})
	if err != nil || rep.Skills[0].State != StateCurrent {
		t.Fatalf("second update: %+v, %v", rep, err)
	}
}

// TestCRLFCheckout: git for Windows checks text files out with CRLF line
// endings (core.autocrlf) and stores them with LF, as upstream does. Such
// a vendored folder is not modified locally, and an update merges
// upstream's changes line by line, writing them with CRLF; a binary file
// is compared byte for byte.
func TestCRLFCheckout(t *testing.T) {
	ctx := context.Background()
	up := pdfUpstream(t)
	up.write(map[string]string{"skills/pdf/logo.png": "\x89PNG\r\n\x1a\n\x00\x00"})
	up.commit("a logo")
	root := newRoot(t)
	if _, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "skills", "pdf")
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	for _, p := range []string{"SKILL.md", "forms.md", "scripts/fill.py"} {
		name := filepath.Join(dir, filepath.FromSlash(p))
		writeFile(t, name, crlf(readFile(t, name)))
	}
	os.Chmod(filepath.Join(dir, "scripts", "fill.py"), 0o755)
	if ds := vendoredDiagnostics(t, root); len(ds) != 0 {
		t.Errorf("validate of a CRLF checkout: %v, want nothing", ds)
	}

	// A line edited here too, all in CRLF.
	local := crlf(strings.Replace(pdfSkill, "Line one.", "Line one, as we like it.", 1))
	writeFile(t, filepath.Join(dir, "SKILL.md"), local)
	up.write(map[string]string{
		"skills/pdf/SKILL.md": strings.Replace(pdfSkill, "Line twelve.", "Line twelve, fixed upstream.", 1),
		"skills/pdf/forms.md": "# Forms\n\nFill them in.\n",
	})
	tip := up.commit("upstream moves")
	rep, err := Update(ctx, root, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	su := rep.Skills[0]
	if su.State != StateUpdated || su.To != tip || len(su.Conflicts) != 0 {
		t.Fatalf("update: %+v", su)
	}
	if want := []FileChange{{"SKILL.md", ChangeMerged}, {"forms.md", ChangeUpdated}}; !reflect.DeepEqual(su.Files, want) {
		t.Errorf("files %+v, want %+v", su.Files, want)
	}
	want := crlf(strings.Replace(strings.Replace(pdfSkill, "Line one.", "Line one, as we like it.", 1), "Line twelve.", "Line twelve, fixed upstream.", 1))
	if got := readFile(t, filepath.Join(dir, "SKILL.md")); got != want {
		t.Errorf("SKILL.md:\n%q\nwant:\n%q", got, want)
	}
	if got := readFile(t, filepath.Join(dir, "forms.md")); got != "# Forms\r\n\r\nFill them in.\r\n" {
		t.Errorf("forms.md = %q, want upstream's in CRLF", got)
	}
	if got := readFile(t, filepath.Join(dir, "scripts", "fill.py")); got != "print('fill')\r\n" {
		t.Errorf("fill.py = %q, want it untouched", got)
	}
}

// TestFolderGone: a vendored skill whose folder is gone is an error of
// outdated and update, as of validate, whether upstream moved or not, with
// how to restore it or stop vendoring it; never "current".
func TestFolderGone(t *testing.T) {
	ctx := context.Background()
	up := pdfUpstream(t)
	root := newRoot(t)
	if _, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/docx"}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(root, "skills", "pdf")); err != nil {
		t.Fatal(err)
	}
	const want = `skill "pdf" vendored from %s (skills/pdf) has no folder: skills/pdf is gone; restore it (git checkout -- skills/pdf), or delete its entry (lines %d-%d) from skillsync.lock`
	e, _ := lockOf(t, root).Entry("pdf")
	msg := fmt.Sprintf(want, up.dir, e.Line, e.Line+e.Lines-1)
	for _, moved := range []bool{false, true} {
		if moved {
			up.write(map[string]string{"skills/pdf/forms.md": "# Forms\n\nnew\n"})
			up.commit("upstream moves")
		}
		rep, err := Outdated(ctx, root, OutdatedOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if st := rep.Skills[1]; st.Slug != "pdf" || st.State != StateError || st.Error != msg || !rep.Failed() {
			t.Errorf("moved %t: outdated %+v, want the error %q", moved, st, msg)
		}
		if st := rep.Skills[0]; st.Slug != "docx" || st.State == StateError {
			t.Errorf("moved %t: outdated %+v, want docx checked", moved, st)
		}
		urep, err := Update(ctx, root, UpdateOptions{Slugs: []string{"pdf"}})
		if err != nil {
			t.Fatal(err)
		}
		if su := urep.Skills[0]; su.State != StateError || su.Error != msg || !urep.Failed() {
			t.Errorf("moved %t: update %+v, want the error %q", moved, su, msg)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "skills", "pdf")); !os.IsNotExist(err) {
		t.Errorf("update wrote the folder: %v", err)
	}
}

func TestUpdateConflictWritesNothing(t *testing.T) {
	ctx := context.Background()
	up := pdfUpstream(t)
	root := newRoot(t)
	if _, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "skills", "pdf")
	writeFile(t, filepath.Join(dir, "SKILL.md"), strings.Replace(pdfSkill, "Line two.", "Line two, ours.", 1))
	writeFile(t, filepath.Join(dir, "forms.md"), "# Forms, ours\n")
	os.Remove(filepath.Join(dir, "scripts", "fill.py"))
	up.write(map[string]string{
		"skills/pdf/SKILL.md":        strings.Replace(pdfSkill, "Line two.", "Line two, theirs.\nAnd a line more.", 1),
		"skills/pdf/scripts/fill.py": "print('fill v2')\n",
		"skills/pdf/clean.md":        "clean change\n",
	})
	tip := up.commit("conflicting")
	lockBefore := readFile(t, filepath.Join(root, fsrepo.LockFile))
	before := snapshot(t, root)

	rep, err := Update(ctx, root, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	su := rep.Skills[0]
	if su.State != StateConflict || !rep.Failed() {
		t.Fatalf("update: %+v", su)
	}
	wantConflicts := []FileConflict{
		{Path: "SKILL.md", Reason: ConflictContent, Hunks: []Hunk{{
			Conflict:  diff3.Conflict{Base: diff3.Range{Start: 8, Count: 1}, Ours: diff3.Range{Start: 8, Count: 1}, Theirs: diff3.Range{Start: 8, Count: 2}},
			BaseLines: []string{"Line two."}, OursLines: []string{"Line two, ours."}, TheirsLines: []string{"Line two, theirs.", "And a line more."},
		}}},
		{Path: "scripts/fill.py", Reason: ConflictDeletedHere},
	}
	if !reflect.DeepEqual(su.Conflicts, wantConflicts) {
		t.Errorf("conflicts %+v\nwant %+v", su.Conflicts, wantConflicts)
	}
	if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
		t.Fatal("a conflicted update wrote files")
	}
	if readFile(t, filepath.Join(root, fsrepo.LockFile)) != lockBefore {
		t.Fatal("a conflicted update changed the lock")
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, line := range []string{
		"pdf: 2 files in conflict from",
		"nothing written",
		"conflict: SKILL.md: both changed the same lines",
		"here line 8, upstream lines 8-9 (line 8 at",
		"\n      here:     Line two, ours.\n      upstream: Line two, theirs.\n                And a line more.\n",
		"conflict: scripts/fill.py: deleted here, changed upstream",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("text lacks %q:\n%s", line, text.String())
		}
	}

	// Forced: upstream's version of the conflicted files, the rest merged.
	rep, err = Update(ctx, root, UpdateOptions{Force: true})
	if err != nil || rep.Skills[0].State != StateUpdated {
		t.Fatalf("forced update: %+v, %v", rep, err)
	}
	if got := readFile(t, filepath.Join(dir, "SKILL.md")); got != readFile(t, filepath.Join(up.dir, "skills", "pdf", "SKILL.md")) {
		t.Errorf("SKILL.md is not upstream's:\n%s", got)
	}
	if readFile(t, filepath.Join(dir, "forms.md")) != "# Forms, ours\n" || readFile(t, filepath.Join(dir, "clean.md")) != "clean change\n" {
		t.Error("the files that merged did not keep both sides")
	}
	if e, _ := lockOf(t, root).Entry("pdf"); e.Commit != tip {
		t.Errorf("lock commit %s, want %s", e.Commit, tip)
	}
}

func TestUpdateOverHTTP(t *testing.T) {
	for _, byTipOnly := range []bool{false, true} {
		name := "commit by id"
		if byTipOnly {
			name = "whole history when the server gives no commit by id"
		}
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			up := pdfUpstream(t)
			srv, base := serveGit(t, map[string]*git.Repository{"/anthropics/skills": up.repo})
			srv.byTipOnly = byTipOnly
			root := newRoot(t)
			if _, err := Add(ctx, root, AddOptions{Source: base + "/anthropics/skills", Path: "skills/pdf"}); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(root, "skills", "pdf", "forms.md"), "# Forms\n\nFill them.\nOurs.\n")
			up.write(map[string]string{"skills/pdf/SKILL.md": strings.Replace(pdfSkill, "Line ten.", "Line ten, v2.", 1)})
			up.commit("v2")
			up.write(map[string]string{"README.md": "v3\n"})
			tip := up.commit("v3, the locked commit two back")

			rep, err := Update(ctx, root, UpdateOptions{})
			if err != nil || rep.Skills[0].State != StateUpdated || rep.Skills[0].To != tip {
				t.Fatalf("update: %+v, %v", rep, err)
			}
			if got := readFile(t, filepath.Join(root, "skills", "pdf", "forms.md")); got != "# Forms\n\nFill them.\nOurs.\n" {
				t.Errorf("forms.md = %q", got)
			}
			if !strings.Contains(readFile(t, filepath.Join(root, "skills", "pdf", "SKILL.md")), "Line ten, v2.") {
				t.Error("SKILL.md lacks upstream's change")
			}
			last := srv.seen()[len(srv.seen())-1]
			if want := "depth=1 wants=2"; !byTipOnly && !strings.HasSuffix(last, want) {
				t.Errorf("last request %q, want one shallow fetch of the tip and the locked commit (%s)", last, want)
			}
			if want := "depth=0 wants=1"; byTipOnly && !strings.HasSuffix(last, want) {
				t.Errorf("last request %q, want the branch's history (%s)", last, want)
			}
		})
	}
}

func TestUpdateRefusesALockTheSourceDoesNotMatch(t *testing.T) {
	ctx := context.Background()
	up := pdfUpstream(t)
	root := newRoot(t)
	if _, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"}); err != nil {
		t.Fatal(err)
	}
	l := lockOf(t, root)
	e, _ := l.Entry("pdf")
	e.Hash = "sha256:" + strings.Repeat("0", 64)
	l.Set(e)
	if err := fsrepo.WriteLock(root, l); err != nil {
		t.Fatal(err)
	}
	up.write(map[string]string{"skills/pdf/forms.md": "v2\n"})
	up.commit("v2")
	before := snapshot(t, root)
	rep, err := Update(ctx, root, UpdateOptions{})
	if err != nil || rep.Skills[0].State != StateError || !strings.Contains(rep.Skills[0].Error, "the lock was edited") {
		t.Fatalf("update: %+v, %v", rep, err)
	}
	if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
		t.Fatal("files written")
	}
}

func TestMergeFolder(t *testing.T) {
	f := func(s string) file { return file{data: []byte(s)} }
	x := func(s string) file { return file{data: []byte(s), exec: true} }
	png := "\x89PNG\r\n\x1a\n\x00"
	base := map[string]file{
		"same.md": f("same\n"), "ours-only.md": f("o\n"), "theirs-only.md": f("t\n"), "both-same.md": f("b\n"),
		"del-here.md": f("d\n"), "del-there.md": f("d\n"), "del-both.md": f("d\n"), "img.png": f(png + "1"),
		"exec-there.sh": f("x\n"), "exec-here.sh": f("x\n"),
	}
	ours := map[string]file{
		"same.md": f("same\n"), "ours-only.md": f("o2\n"), "theirs-only.md": f("t\n"), "both-same.md": f("b2\n"),
		"del-there.md": f("changed here\n"), "img.png": f(png + "2"), "added.md": f("mine\n"),
		"exec-there.sh": f("x\n"), "exec-here.sh": x("x\n"),
	}
	theirs := map[string]file{
		"same.md": f("same\n"), "ours-only.md": f("o\n"), "theirs-only.md": f("t2\n"), "both-same.md": f("b2\n"),
		"del-here.md": f("changed there\n"), "img.png": f(png + "3"), "added.md": f("theirs\n"),
		"exec-there.sh": x("x\n"), "exec-here.sh": f("x\n"), "new.md": f("n\n"),
	}
	m := mergeFolder(base, ours, theirs, false)
	wantChanges := []FileChange{{"exec-there.sh", ChangeMode}, {"new.md", ChangeAdded}, {"theirs-only.md", ChangeUpdated}}
	if !reflect.DeepEqual(m.changes, wantChanges) {
		t.Errorf("changes %+v\nwant %+v", m.changes, wantChanges)
	}
	wantConflicts := []FileConflict{
		{Path: "added.md", Reason: ConflictAddAdd},
		{Path: "del-here.md", Reason: ConflictDeletedHere},
		{Path: "del-there.md", Reason: ConflictDeletedThere},
		{Path: "img.png", Reason: ConflictBinary},
	}
	if !reflect.DeepEqual(m.conflicts, wantConflicts) {
		t.Errorf("conflicts %+v\nwant %+v", m.conflicts, wantConflicts)
	}
	for p, want := range map[string]file{"ours-only.md": f("o2\n"), "both-same.md": f("b2\n"), "exec-here.sh": x("x\n"), "exec-there.sh": x("x\n")} {
		if got := m.files[p]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %+v, want %+v", p, got, want)
		}
	}
	if _, ok := m.files["del-both.md"]; ok {
		t.Error("a file both removed is back")
	}

	forced := mergeFolder(base, ours, theirs, true)
	if _, ok := forced.files["del-there.md"]; ok {
		t.Error("forced: a file upstream removed is kept")
	}
	if got := forced.files["del-here.md"]; string(got.data) != "changed there\n" {
		t.Errorf("forced: del-here.md = %q", got.data)
	}
	if got := forced.files["added.md"]; string(got.data) != "theirs\n" {
		t.Errorf("forced: added.md = %q", got.data)
	}
}

// TestUpdateSkipsGitControlFiles: a .gitignore upstream adds is not
// written, and the report says so; the lock's hash stays the folder's.
func TestUpdateSkipsGitControlFiles(t *testing.T) {
	ctx := context.Background()
	up := pdfUpstream(t)
	root := newRoot(t)
	if _, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"}); err != nil {
		t.Fatal(err)
	}
	up.write(map[string]string{"skills/pdf/.gitignore": "secret.txt\n", "skills/pdf/forms.md": "# Forms, v2\n"})
	up.commit("ignore everything")
	rep, err := Update(ctx, root, UpdateOptions{})
	if err != nil || len(rep.Skills) != 1 || rep.Skills[0].State != StateUpdated {
		t.Fatalf("Update = %+v, %v", rep, err)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if want := "  note: skills/pdf/.gitignore is not copied: a file git reads for itself"; !strings.Contains(text.String(), want) {
		t.Errorf("the report does not say %q:\n%s", want, &text)
	}
	if _, err := os.Lstat(filepath.Join(root, "skills", "pdf", ".gitignore")); !os.IsNotExist(err) {
		t.Errorf(".gitignore was written: %v", err)
	}
	if ds := vendoredDiagnostics(t, root); len(ds) > 0 {
		t.Errorf("validate reports the folder just updated: %v", ds)
	}
}
