package fsrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillignore"
	"github.com/skillsync/skillsync/internal/bounded"
)

// dropExcluded moves the development files of each folder (see package
// skillignore) from its entries to its excluded ones, so that nothing
// after the reading sees them. A .skillignore that cannot be read as
// patterns is a warning, and so is an evals/evals.json not of the Agent
// Skills guide's shape (see checkEvals).
func dropExcluded(skillsDir string, repoWide []string, folders []*folder) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, f := range folders {
		ignores := map[string][]byte{}
		for _, e := range f.entries {
			if !skillignore.IsIgnoreFile(e.rel) {
				continue
			}
			if e.link || e.large {
				ds = append(ds, diag.Diagnostic{Path: path.Join(skillsDir, f.slug, e.rel), Severity: diag.SeverityWarning, Code: "skillignore-unread",
					Message: fmt.Sprintf("%s is a symlink or over %d bytes, so its patterns are not read", skillignore.FileName, maxKeptBytes),
					Hint:    "make it a small regular file of patterns"})
				continue
			}
			ignores[e.rel] = e.data
		}
		m := skillignore.New(repoWide, ignores)
		kept := f.entries[:0:0]
		for _, e := range f.entries {
			if e.rel == evalsFile && !e.link && !e.large {
				ds = append(ds, checkEvals(path.Join(skillsDir, f.slug), e.data)...)
			}
			if m.Excludes(e.rel) {
				f.excluded = append(f.excluded, e)
			} else {
				kept = append(kept, e)
			}
		}
		f.entries = kept
	}
	return ds
}

// maxIgnoreFileBytes is the largest .skillignore read from disk for
// [FolderExclusions]; a real one holds a few lines.
const maxIgnoreFileBytes = 64 << 10

// FolderExclusions is the [skillignore.Matcher] of the skill folder slug
// of the working tree at root: the default, excludeFiles, and the
// .skillignore files the folder holds, if it exists. Symlinks are not
// followed, and a .skillignore over 64 KiB is not read.
func FolderExclusions(root, skillsDir, slug string, excludeFiles []string) (skillignore.Matcher, error) {
	dir := filepath.Join(root, filepath.FromSlash(skillsDir), slug)
	ignores := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == dir {
			return fs.SkipAll
		}
		if err != nil {
			return err
		}
		if p == dir && de.Type()&fs.ModeSymlink != 0 {
			return fs.SkipAll
		}
		if de.Name() != skillignore.FileName || !de.Type().IsRegular() {
			return nil
		}
		data, err := bounded.ReadFile(p, maxIgnoreFileBytes)
		var tl *bounded.TooLargeError
		if errors.As(err, &tl) {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		ignores[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		return skillignore.Matcher{}, fmt.Errorf("reading the %s files of %s: %w", skillignore.FileName, dir, err)
	}
	return skillignore.New(excludeFiles, ignores), nil
}
