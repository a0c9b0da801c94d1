package fsrepo

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
)

// CheckFolder checks a skill folder that is not on disk, given as its
// files' contents by slash-separated path in the folder, as [Load] would
// check it as the folder slug of the skills folder of a repository whose
// configuration is cfg: the service's rules and the lint rules cfg turns
// on, all but those that span skills (two skills with one name). Files
// that [SkipsFile] leaves out are left out, and so are development files
// (see package skillignore). The skill is nil when the
// folder is no skill at all (it holds skills in subfolders).
func CheckFolder(cfg config.Config, slug string, files map[string][]byte) (*Skill, diag.Diagnostics, error) {
	rels := make([]string, 0, len(files))
	for rel := range files {
		if !SkipsFile(rel) {
			rels = append(rels, rel)
		}
	}
	sort.Strings(rels)
	f := &folder{slug: slug}
	for _, rel := range rels {
		data := files[rel]
		e := entry{rel: rel}
		if rel == skillmd.FileName && len(data) > MaxSkillMDBytes {
			e.large, e.size = true, int64(len(data))
		} else if err := readContent(bytes.NewReader(data), int64(len(data)), &e, nil); err != nil {
			return nil, nil, fmt.Errorf("checking %s: %w", rel, err)
		}
		f.entries = append(f.entries, e)
	}
	xds := dropExcluded(cfg.SkillsDir, cfg.ExcludeFiles, []*folder{f})
	skills, ds, err := buildSkills(context.Background(), cfg.SkillsDir, checks{lint: cfg.Lint}, []*folder{f})
	if err != nil {
		return nil, nil, err
	}
	ds = append(ds, xds...)
	if len(skills) == 0 {
		return nil, ds, nil
	}
	return &skills[0], ds, nil
}
