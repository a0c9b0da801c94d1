package fsrepo

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/lint"
)

// CheckFolder checks a skill folder that is not on disk, given as its
// files' contents by slash-separated path in the folder, as [Load] would
// check it as the folder slug of the skills folder of a repository whose
// configuration is cfg: the service's rules and the lint rules cfg turns
// on, all but those that span skills (two skills with one name). Files
// that [SkipsFile] leaves out are left out, and so are development files
// (see package skillignore). The skill is nil when the
// folder is no skill at all (it holds skills in subfolders).
//
// j, when not nil, judges the folder with the security rules, less what
// cfg's waivers accept.
func CheckFolder(cfg config.Config, slug string, files map[string][]byte, j *lint.Judge) (*Skill, diag.Diagnostics, error) {
	f := &folder{slug: slug}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		if SkipsFile(rel) {
			continue
		}
		data := files[rel]
		e := entry{rel: rel}
		if err := readContent(bytes.NewReader(data), int64(len(data)), &e, nil); err != nil {
			return nil, nil, fmt.Errorf("checking %s: %w", rel, err)
		}
		f.entries = append(f.entries, e)
	}
	xds := dropExcluded(cfg.SkillsDir, cfg.ExcludeFiles, []*folder{f})
	skills, ds, err := buildSkills(context.Background(), cfg.SkillsDir, checks{lint: cfg.Lint, judge: j}, []*folder{f})
	if err != nil {
		return nil, nil, err
	}
	ds = append(ds, xds...)
	if len(skills) == 0 {
		return nil, ds, nil
	}
	return &skills[0], ds, nil
}

// JudgeFiles is what j finds in files of the skill folder slug (paths in
// it, slash-separated), less what cfg's waivers accept, as diagnostics
// of the files under cfg's skills folder: for what changes in a folder.
func JudgeFiles(j *lint.Judge, cfg config.Config, slug string, files map[string][]byte) diag.Diagnostics {
	var raw []byte
	var fs []File
	for p, data := range files {
		if p == skillmd.FileName {
			raw = data
		} else if !IsBinary(p, data) {
			fs = append(fs, File{Path: p, Content: data})
		}
	}
	slices.SortFunc(fs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	ds, _ := judgeFolder(j, path.Join(cfg.SkillsDir, slug), raw, fs, cfg.Lint.Waivers)
	return ds
}

// SecurityErrors reports whether ds holds an error of the security
// rules, which no --force overrides: only a waiver does.
func SecurityErrors(ds diag.Diagnostics) bool {
	return slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Severity == diag.SeverityError && d.Hash != "" })
}
