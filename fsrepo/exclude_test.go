package fsrepo

import (
	"context"
	"crypto/sha256"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
)

// excludeRepo writes a repository whose skill pdf holds development
// files: evals/ (excluded by default), drafts/ (its .skillignore) and
// a *.wip.md file (excludeFiles).
func excludeRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, config.FileName), "space: ab12\nexcludeFiles: ['*.wip.md']\nlint: {profile: agentskills}\n")
	for p, s := range map[string]string{
		"SKILL.md":         "---\nname: pdf\ndescription: Fills PDF forms. Use when the user asks to fill a PDF form.\n---\nSee [the forms](forms.md).\n",
		"forms.md":         "forms\n",
		"evals/evals.json": `{"skill_name": "pdf", "evals": []}`,
		".skillignore":     "drafts/\n",
		"drafts/idea.md":   "idea\n",
		"notes.wip.md":     "wip\n",
	} {
		writeTestFile(t, filepath.Join(root, "skills", "pdf", filepath.FromSlash(p)), s)
	}
	return root
}

func filePaths(s Skill) []string {
	var out []string
	for _, f := range s.Files {
		out = append(out, f.Path)
	}
	return out
}

// TestLoadLeavesOutDevelopmentFiles: the files evals/, excludeFiles and
// .skillignore exclude are no supporting files of the skill, from the
// working tree as from a commit, and no lint rule looks at them.
func TestLoadLeavesOutDevelopmentFiles(t *testing.T) {
	root := excludeRepo(t)
	check := func(name string, opts LoadOptions) {
		repo, ds, err := Load(context.Background(), root, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(repo.Skills) != 1 {
			t.Fatalf("%s: %d skills", name, len(repo.Skills))
		}
		if got := filePaths(repo.Skills[0]); !slices.Equal(got, []string{"forms.md"}) {
			t.Errorf("%s: files %v, want only forms.md", name, got)
		}
		for _, d := range ds {
			t.Errorf("%s: %s", name, d)
		}
	}
	check("work tree", LoadOptions{})
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	gitInit(t, root)
	commitAll(t, root, "skills")
	check("commit", LoadOptions{Ref: "HEAD"})
}

// TestVendoredHashLeavesOutDevelopmentFiles: the lock's hash leaves out
// development files, so editing them is no local change; a lock written
// before they were left out still matches.
func TestVendoredHashLeavesOutDevelopmentFiles(t *testing.T) {
	root := excludeRepo(t)
	files := map[string][]byte{
		"SKILL.md":         []byte("---\nname: pdf\ndescription: Fills PDF forms. Use when the user asks to fill a PDF form.\n---\nSee [the forms](forms.md).\n"),
		"forms.md":         []byte("forms\n"),
		"evals/evals.json": []byte("anything"),
		".skillignore":     []byte("drafts/\n"),
		"drafts/idea.md":   []byte("other"),
		"notes.wip.md":     []byte("other"),
	}
	hash := HashFiles(files, []string{"*.wip.md"})
	if other := HashFiles(map[string][]byte{"SKILL.md": files["SKILL.md"], "forms.md": files["forms.md"]}, nil); hash != other {
		t.Fatalf("HashFiles hashes development files: %s, the skill's files alone %s", hash, other)
	}
	modified := func() []diag.Diagnostic {
		t.Helper()
		_, ds, err := Load(context.Background(), root, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out []diag.Diagnostic
		for _, d := range ds {
			if strings.HasPrefix(d.Code, "vendored-") {
				out = append(out, d)
			}
		}
		return out
	}
	lock := func(h string) {
		var l Lock
		l.Set(LockedSkill{Slug: "pdf", Source: "https://github.com/anthropics/skills", Path: "skills/pdf", Commit: strings.Repeat("a", 40), Hash: h})
		if err := WriteLock(root, l); err != nil {
			t.Fatal(err)
		}
	}
	lock(hash)
	if ds := modified(); len(ds) != 0 {
		t.Errorf("development files differ from the vendored ones: %v", ds)
	}
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "forms.md"), "edited\n")
	if ds := modified(); len(ds) != 1 {
		t.Errorf("an edited supporting file: %v, want vendored-modified", ds)
	}
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "forms.md"), "forms\n")

	// A lock of every file, as skillsync wrote it before.
	legacy := map[string][]byte{}
	for p, s := range map[string]string{"SKILL.md": string(files["SKILL.md"]), "forms.md": "forms\n", "evals/evals.json": `{"skill_name": "pdf", "evals": []}`,
		".skillignore": "drafts/\n", "drafts/idea.md": "idea\n", "notes.wip.md": "wip\n"} {
		legacy[p] = []byte(s)
	}
	sums := map[string][32]byte{}
	for p, data := range legacy {
		sums[p] = sha256Sum(data)
	}
	lock(FolderHash(sums))
	if ds := modified(); len(ds) != 0 {
		t.Errorf("a lock that hashed development files: %v", ds)
	}
}

// TestFolderExclusions: pull reads a folder's .skillignore files from
// disk, and a missing folder has the default exclusions.
func TestFolderExclusions(t *testing.T) {
	root := excludeRepo(t)
	m, err := FolderExclusions(root, "skills", "pdf", []string{"*.wip.md"})
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{"evals/evals.json": true, "drafts/a.md": true, "x.wip.md": true, "forms.md": false} {
		if got := m.Excludes(p); got != want {
			t.Errorf("Excludes(%q) = %t, want %t", p, got, want)
		}
	}
	m, err = FolderExclusions(root, "skills", "new-skill", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Excludes("evals/evals.json") || m.Excludes("drafts/a.md") {
		t.Error("a folder not yet pulled: want evals/ excluded, nothing else")
	}
}

func sha256Sum(data []byte) [32]byte { return sha256.Sum256(data) }
