// Package pull writes the skills of a space into a repository, one folder
// per skill: the first step of managing an existing space as code
// ([Skills]). It reads the space through a [Service] of three calls, which
// *remote.Client satisfies, and writes through [fsrepo.SkillWriter]; it
// plans nothing, so it needs nothing of package reconcile.
package pull

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillignore"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/remote"
)

// Options tune [Skills].
type Options struct {
	// Root is the repository root written into, and Config its
	// skillsync.yaml (or [fsrepo.DefaultConfig] when there is none): the
	// skills go into its SkillsDir.
	Root   string
	Config config.Config
	// WriteConfig creates skillsync.yaml, with BaseURL and the space,
	// once the skills are written.
	WriteConfig bool
	BaseURL     string
	// Slugs are the skills to pull; all of the space's when empty.
	Slugs []string
	// Force overwrites local files that differ from git's HEAD.
	Force bool
	// Parallelism bounds the requests in flight (default 8).
	Parallelism int
	// Progress, when set, is called after each skill is read, with the
	// skills read and the total; never concurrently.
	Progress func(done, total int)
	// Enabled, by slug, is the enabled state SKILL.md is written with in
	// place of the space's: pulling a target keeps the state every
	// target shares in SKILL.md, and the target's own goes to its
	// override ([Skill.SpaceEnabled]).
	Enabled map[string]bool
	// Exclude, when set, says which skills of the space are not pulled
	// when Slugs names none: those a target does not manage, which are
	// unmanaged in its space, and whose folders other targets may manage.
	Exclude func(slug string) bool
	// Secrets, when set, returns the names of the secrets of this process
	// that a text holds. A skill holding one is not written at all, and
	// Skills returns a [*SecretsError] once the others are written.
	Secrets func(text string) []string
}

// defaultParallelism is how many skills are read at once when
// [Options.Parallelism] is not set.
const defaultParallelism = 8

// Service is what pull asks of the space: its list of skills, and a
// skill's instructions and files. *remote.Client satisfies it.
type Service interface {
	StreamSkills(ctx context.Context, space string, o remote.ListOptions) ([]remote.Skill, error)
	GetSkill(ctx context.Context, space, skillID string) (*remote.Skill, error)
	GetSkillFile(ctx context.Context, space, skillID, path string) (*remote.SkillFile, error)
}

// Statuses of a [Skill].
const (
	Written   = "written"
	Unchanged = "unchanged"
	Skipped   = "skipped"
)

// Report is what [Skills] did, as `pull --format json` prints it.
type Report struct {
	Space         string  `json:"space"`
	SkillsDir     string  `json:"skills_dir"`
	Skills        []Skill `json:"skills"`
	ConfigWritten bool    `json:"config_written"` // skillsync.yaml was created
	Summary       Summary `json:"summary"`
	// Warnings are what was read but not written, and why: a file the
	// API cannot read, a link to a file the space lacks. They are not in
	// the JSON form; the CLI says them on stderr.
	Warnings []string `json:"-"`
	// Unfound counts the paths instructions mention, but do not link,
	// that the space does not have: taken for examples, not pulled.
	Unfound int `json:"-"`
}

// Summary counts the skills of a [Report] by status.
type Summary struct {
	Pulled    int `json:"pulled"`
	Written   int `json:"written"`
	Unchanged int `json:"unchanged"`
	Skipped   int `json:"skipped"`
	// SecurityErrors and SecurityWarnings count the findings of the
	// skills written, notes among the warnings.
	SecurityErrors   int `json:"security_errors"`
	SecurityWarnings int `json:"security_warnings"`
}

// Skill is one skill of a [Report].
type Skill struct {
	Slug   string   `json:"slug"`
	Dir    string   `json:"dir"`              // the skill's folder, relative to the repository root
	Status string   `json:"status"`           // Written, Unchanged or Skipped
	Files  []string `json:"files,omitempty"`  // written, relative to Dir
	Reason string   `json:"reason,omitempty"` // why it was skipped
	// NotRead are the files its instructions refer to that pull does not
	// ask the space for, each with why, in the order of the instructions.
	NotRead []NotRead `json:"not_read,omitempty"`
	// SpaceEnabled is the skill's enabled state in the space, which
	// SKILL.md holds unless [Options.Enabled] says otherwise.
	SpaceEnabled bool `json:"-"`
	// Findings are what the security rules find in the skill as written,
	// less what waivers accept, once the caller has judged it.
	Findings diag.Diagnostics `json:"findings,omitempty"`
}

// NotRead is a file that a skill's instructions refer to and pull does not
// ask the space for: one outside the folder, or one the files endpoint
// cannot address or serve (see [skillmd.FindReferences]). A file asked for
// and not found is a warning when linked, and counted when only mentioned.
type NotRead struct {
	Path   string `json:"path"`   // as written in the instructions
	Line   int    `json:"line"`   // of the instructions, from 1
	Reason string `json:"reason"` // why it was not read
}

// Skills writes the skills of a space into a repository, one folder per
// skill named by its slug: SKILL.md (name, description, "enabled: false"
// when disabled, and the instructions as the body) and the supporting files
// its instructions refer to by a relative path (see
// [skillmd.ReferencedFiles]), read through the files endpoint. Only text
// files can be read: others are skipped with a warning, and so is a skill
// whose SKILL.md the space cannot read (an empty body would erase it on
// apply).
//
// Nothing is written before every skill asked for is read: a slug the
// space does not have, or that several of its skills share, is an error
// ([*UnknownSlugsError], [*SharedSlugsError]) and so is the first failed
// read. Writing goes through [fsrepo.SkillWriter], which refuses, writing
// nothing, a path out of the skills folder or through a symlink, and a file
// that differs from git's HEAD unless o.Force ([*fsrepo.RefusedError]); a
// file it skips (see [fsrepo.Unwritable]) is a warning.
// When writing fails, the report is returned with the error, holding the
// warnings of the reads.
func Skills(ctx context.Context, c Service, space string, o Options) (*Report, error) {
	list, err := c.StreamSkills(ctx, space, remote.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("reading space %s: %w", space, err)
	}
	selected, err := selectSkills(list, o.Slugs, space)
	if err != nil {
		return nil, err
	}
	if o.Exclude != nil && len(o.Slugs) == 0 {
		selected = slices.DeleteFunc(selected, func(s remote.Skill) bool { return o.Exclude(s.Slug) })
	}
	pulled := make([]*pulledSkill, len(selected))
	for i, s := range selected {
		// Development files (see package skillignore) are never asked for.
		m, err := fsrepo.FolderExclusions(o.Root, o.Config.SkillsDir, s.Slug, o.Config.ExcludeFiles)
		if err != nil {
			return nil, err
		}
		pulled[i] = &pulledSkill{Skill: s, excluded: m}
	}
	if err := readPulled(ctx, c, space, pulled, o.Parallelism, o.Progress); err != nil {
		return nil, err
	}
	rep := &Report{Space: space, SkillsDir: o.Config.SkillsDir, Skills: []Skill{}}
	var leaks []string
	w := fsrepo.NewSkillWriter(o.Root, o.Config.SkillsDir, fsrepo.WriteOptions{Force: o.Force})
	for _, p := range pulled {
		rep.Warnings = append(rep.Warnings, p.warnings...)
		rep.Unfound += p.unfound
		if on, ok := o.Enabled[p.Slug]; ok && p.skip == "" && on != p.Enabled {
			p.files[skillmd.FileName] = skillmd.Format(p.Name, p.Description, on, *p.Instructions)
		}
		if names := heldSecrets(p, o.Secrets); len(names) > 0 {
			p.skip = "holds the value of " + strings.Join(names, ", ")
			leaks = append(leaks, p.Slug+" "+p.skip)
		}
		if p.skip == "" {
			w.Add(p.Slug, p.files)
		}
	}
	results, err := w.Write()
	if err != nil {
		return rep, err
	}

	bySlug := make(map[string]fsrepo.SkillWritten, len(results))
	for _, r := range results {
		bySlug[r.Slug] = r
		for _, sk := range r.Skipped {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s is not written: %s", sk.Path, sk.Reason))
		}
	}
	for _, p := range pulled {
		ps := Skill{Slug: p.Slug, Dir: path.Join(o.Config.SkillsDir, p.Slug), Status: Unchanged, NotRead: p.notRead, SpaceEnabled: p.Enabled}
		r, ok := bySlug[p.Slug]
		switch {
		case p.skip != "":
			ps.Status, ps.Reason = Skipped, p.skip
			rep.Summary.Skipped++
		case ok && len(r.Written) > 0:
			ps.Status, ps.Files = Written, r.Written
			rep.Summary.Written++
		default:
			rep.Summary.Unchanged++
		}
		rep.Skills = append(rep.Skills, ps)
	}
	rep.Summary.Pulled = len(pulled)
	if o.WriteConfig {
		cfg := o.Config
		cfg.BaseURL, cfg.Space = o.BaseURL, space
		if err := config.Write(o.Root, cfg); err != nil {
			return rep, err
		}
		rep.ConfigWritten = true
	}
	if len(leaks) > 0 {
		return rep, &SecretsError{Space: space, Leaks: leaks}
	}
	return rep, nil
}

// heldSecrets are the names of the secrets that a file of p holds,
// sorted, each once.
func heldSecrets(p *pulledSkill, secrets func(string) []string) []string {
	if secrets == nil || p.skip != "" {
		return nil
	}
	var names []string
	for _, data := range p.files {
		names = append(names, secrets(string(data))...)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// A SecretsError is returned by [Skills] when skills of the space hold a
// secret this process knows: they were not written, the others were.
type SecretsError struct {
	Space string
	// Leaks say, one a skill, which secrets it holds, by their names and
	// never their values: "notes holds the value of GITHUB_TOKEN".
	Leaks []string
}

func (e *SecretsError) Error() string {
	return fmt.Sprintf("not written, as no secret of this process is ever written to a file: in space %s, %s", e.Space, strings.Join(e.Leaks, "; "))
}

// An UnknownSlugsError is returned by [Skills] for slugs the space has no
// skill of, before anything is read or written.
type UnknownSlugsError struct {
	Space string
	Slugs []string // the unknown slugs, in the order asked
	Known []string // the slugs of the space, sorted
}

func (e *UnknownSlugsError) Error() string {
	quoted := make([]string, len(e.Slugs))
	for i, s := range e.Slugs {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("no skill with slug %s in space %s", strings.Join(quoted, ", "), e.Space)
}

// Advice says what the space has instead.
func (e *UnknownSlugsError) Advice() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("nothing was written; space %s has no skills", e.Space)
	}
	known := e.Known
	if len(known) > 20 {
		known = append(known[:20:20], "...")
	}
	return fmt.Sprintf("nothing was written; the skills of space %s are: %s", e.Space, strings.Join(known, ", "))
}

// A SharedSlugsError is returned by [Skills] when several skills of the
// space share the slug of a skill to pull: one folder cannot hold them.
type SharedSlugsError struct {
	Space string
	IDs   map[string][]string // by shared slug, the ids of its skills
}

func (e *SharedSlugsError) Error() string {
	var lines []string
	for _, slug := range slices.Sorted(maps.Keys(e.IDs)) {
		ids := e.IDs[slug]
		lines = append(lines, fmt.Sprintf("%d skills of space %s share the slug %q: %s", len(ids), e.Space, slug, strings.Join(ids, ", ")))
	}
	return strings.Join(lines, "\n")
}

// Advice says what to do about it.
func (e *SharedSlugsError) Advice() string {
	return "nothing was written; the service should keep slugs unique: ask its administrators which skill to keep, or pull the other skills by naming their slugs"
}

// selectSkills picks the listed skills named by slugs (all when there are
// none), sorted by slug.
func selectSkills(list []remote.Skill, slugs []string, space string) ([]remote.Skill, error) {
	bySlug := make(map[string]remote.Skill, len(list))
	ids := make(map[string][]string, len(list)) // by slug, in the order listed
	seen := make(map[[2]string]bool, len(list)) // slug and id: a service may list a skill twice
	for _, s := range list {
		bySlug[s.Slug] = s
		if k := [2]string{s.Slug, s.ID}; !seen[k] {
			seen[k] = true
			ids[s.Slug] = append(ids[s.Slug], s.ID)
		}
	}
	var out []remote.Skill
	if len(slugs) == 0 {
		out = slices.Collect(maps.Values(bySlug))
	} else {
		var unknown []string
		seen := map[string]bool{}
		for _, slug := range slugs {
			s, ok := bySlug[slug]
			switch {
			case !ok:
				unknown = append(unknown, slug)
			case !seen[slug]:
				seen[slug] = true
				out = append(out, s)
			}
		}
		if len(unknown) > 0 {
			return nil, &UnknownSlugsError{Space: space, Slugs: unknown, Known: slices.Sorted(maps.Keys(bySlug))}
		}
	}
	slices.SortFunc(out, func(a, b remote.Skill) int { return strings.Compare(a.Slug, b.Slug) })
	shared := &SharedSlugsError{Space: space, IDs: map[string][]string{}}
	for _, s := range out {
		if len(ids[s.Slug]) > 1 {
			shared.IDs[s.Slug] = ids[s.Slug]
		}
	}
	if len(shared.IDs) > 0 {
		return nil, shared
	}
	return out, nil
}

// pulledSkill is one skill as read from the space, ready to write.
type pulledSkill struct {
	remote.Skill
	files    map[string][]byte // by path in the skill folder, SKILL.md included
	skip     string            // why the skill is not written, when it is not
	warnings []string
	unfound  int                 // paths the instructions mention (not link) that the space does not have
	notRead  []NotRead           // references not read, with why
	excluded skillignore.Matcher // the development files of its folder, never asked for
}

// readPulled reads each skill and the supporting files its instructions
// refer to, par skills at a time, each one request at a time. The first
// error cancels the reads in flight and is returned; a read that panics
// fails with a [*bug.Error] rather than ending the process.
func readPulled(ctx context.Context, c Service, space string, skills []*pulledSkill, par int, progressf func(done, total int)) error {
	if par <= 0 {
		par = defaultParallelism
	}
	var mu sync.Mutex
	done := 0
	return bug.Each(ctx, len(skills), par, func(ctx context.Context, i int) error {
		defer func() {
			if progressf != nil {
				mu.Lock()
				defer mu.Unlock()
				done++
				progressf(done, len(skills))
			}
		}()
		return readPulledSkill(ctx, c, space, skills[i])
	})
}

func readPulledSkill(ctx context.Context, c Service, space string, p *pulledSkill) error {
	got, err := c.GetSkill(ctx, space, p.ID)
	switch {
	case remote.IsNotFound(err):
		p.skip = "no longer in the space"
		return nil
	case err != nil:
		return fmt.Errorf("reading skill %s: %w", p.Slug, err)
	case got.Instructions == nil:
		p.skip = "the space cannot read its SKILL.md (instructions are null)"
		p.warnings = append(p.warnings, fmt.Sprintf("skipped %s: the space cannot read its SKILL.md (instructions are null), and an empty body would erase them on apply", p.Slug))
		return nil
	}
	p.Skill = *got
	p.files = map[string][]byte{
		skillmd.FileName: skillmd.Format(got.Name, got.Description, got.Enabled, *got.Instructions),
	}
	refs := skillmd.FindReferences(*got.Instructions, p.Slug)
	for _, sk := range refs.Skipped {
		p.notRead = append(p.notRead, NotRead{Path: sk.Text, Line: sk.Line, Reason: sk.Reason})
	}
	for _, ref := range refs.Files {
		if p.excluded.Excludes(ref.Path) || ref.Alt != "" && p.excluded.Excludes(ref.Alt) {
			p.notRead = append(p.notRead, NotRead{Path: ref.Path, Line: ref.Line,
				Reason: "a development file (evals/, excludeFiles or .skillignore), which never comes from the space"})
			continue
		}
		rel := ref.Path
		var f *remote.SkillFile
		var err error
		// The path as written, then (".claude/skills/SLUG/x.py") the
		// skill's own x.py.
		for _, try := range []string{ref.Path, ref.Alt} {
			if try == "" {
				continue
			}
			rel = try
			f, err = c.GetSkillFile(ctx, space, p.ID, rel)
			if !remote.IsNotFound(err) {
				break
			}
		}
		switch {
		case remote.IsNotFound(err) && ref.Linked:
			p.warnings = append(p.warnings, fmt.Sprintf("%s: skipped %s: linked from SKILL.md but not in the space (or not a text file)", p.Slug, rel))
			continue
		case remote.IsNotFound(err):
			p.unfound++ // only mentioned: most often an example path
			continue
		case err != nil && !ref.Linked && ctx.Err() == nil && !remote.IsUnauthorized(err) && !remote.IsForbidden(err):
			// A mention's read that failed otherwise does not fail the
			// pull, but is said: the file may well exist.
			p.warnings = append(p.warnings, fmt.Sprintf("%s: skipped %s: %v", p.Slug, rel, err))
			continue
		case err != nil:
			return fmt.Errorf("reading %s of skill %s: %w", rel, p.Slug, err)
		}
		data := []byte(f.Content)
		if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
			p.warnings = append(p.warnings, fmt.Sprintf("%s: skipped %s: not a text file", p.Slug, rel))
			continue
		}
		p.files[rel] = data
	}
	return nil
}
