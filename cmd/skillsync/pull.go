package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/remote"
)

func pullCommand(ui *ui) *cli.Command {
	return &cli.Command{
		Name:      "pull",
		Usage:     "write the space's skills into the repository",
		ArgsUsage: "[SLUG...]",
		Description: `Writes the skills of the space into the skills folder, one folder per skill
named by its slug: SKILL.md (name, description, "enabled: false" when the
skill is disabled, and the instructions as the body) and the supporting
files that the instructions refer to by a relative path (markdown links, and
file paths in code such as scripts/extract.py), read through the files
endpoint. Only text files can be read; binary files are skipped with a
warning. With SLUG arguments, only those skills are pulled.

Pull bootstraps a repository: when no skillsync.yaml is found (in --dir, or
in the current folder or any folder above it, never above the root of the
git working tree holding the current folder), it writes into --dir or the
current folder and creates skillsync.yaml with the service address and the
space. The token is never written. So 'git init' in a new folder, even one
inside another skills repository, starts a repository of its own.

A SKILL.md already there keeps its other frontmatter keys (license,
allowed-tools, metadata, ...), and is left untouched when its name,
description, enabled and instructions already match the space.

Pull never writes outside the skills folder nor through a symlink, and never
overwrites a file that differs from git's HEAD (uncommitted work) unless
--force. When it refuses, it names every such file and writes nothing.

Examples:
   export SKILLSYNC_TOKEN=...
   skillsync pull --base-url https://tenant.example.com --space ab12
   skillsync pull pdf-processing code-review
   skillsync pull --force
   skillsync pull --format json > pulled.json

Exit codes: 0 success, 1 error (when pull refuses, nothing is written),
130 interrupted.`,
		Flags: flags([]cli.Flag{
			&cli.StringFlag{Name: "dir", Usage: "repository root (default: nearest folder upward holding skillsync.yaml, within the git working tree, else the current folder)", EnvVars: []string{"SKILLSYNC_DIR"}},
			&cli.BoolFlag{Name: "force", Usage: "overwrite local files that differ from git's HEAD"},
			formatFlag("text", "json"),
		}, remoteFlags()),
		Action: func(c *cli.Context) error {
			format, err := checkFormat(c, "text", "json")
			if err != nil {
				return err
			}
			root, hasConfig, err := pullRoot(c)
			if err != nil {
				return err
			}
			cfg := fsrepo.DefaultConfig()
			if hasConfig {
				if cfg, err = fsrepo.ReadConfig(root); err != nil {
					return err
				}
			}
			t, err := resolveTarget(c, cfg)
			if err != nil {
				return err
			}
			par, err := parallelism(c)
			if err != nil {
				return err
			}
			cl, err := newClient(c, ui, t)
			if err != nil {
				return err
			}
			return runPull(c.Context, ui, cl, pullOptions{
				root:        root,
				config:      cfg,
				writeConfig: !hasConfig,
				target:      t,
				slugs:       c.Args().Slice(),
				force:       c.Bool("force"),
				format:      format,
				parallelism: par,
			})
		},
	}
}

// pullRoot is the repository root pull writes into: --dir, else the
// nearest folder upward holding skillsync.yaml (never above the root of the
// git working tree, see [fsrepo.FindRoot]), else the current folder.
// hasConfig says whether skillsync.yaml is there already.
func pullRoot(c *cli.Context) (root string, hasConfig bool, err error) {
	if dir := c.String("dir"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", false, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return "", false, withHint(fmt.Errorf("--dir: %w", err), "create the folder first, or point --dir at the repository root")
		}
		if !fi.IsDir() {
			return "", false, withHint(fmt.Errorf("--dir %s is not a folder", dir), "point --dir at the repository root")
		}
		_, err = os.Lstat(filepath.Join(abs, fsrepo.ConfigFile))
		return abs, err == nil, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false, err
	}
	root, err = fsrepo.FindRoot(wd)
	if errors.Is(err, fsrepo.ErrNoConfig) {
		return wd, false, nil
	}
	return root, err == nil, err
}

type pullOptions struct {
	root        string
	config      fsrepo.Config
	writeConfig bool // create skillsync.yaml once the skills are written
	target      target
	slugs       []string // only these skills; all when empty
	force       bool
	format      string // text or json
	parallelism int
}

// pulledSkill is one skill as read from the space, ready to write.
type pulledSkill struct {
	remote.Skill
	files    map[string][]byte // by path in the skill folder, SKILL.md included
	skip     string            // why the skill is not written, when it is not
	warnings []string
	unfound  int // paths the instructions mention (not link) that the space does not have
}

func runPull(ctx context.Context, ui *ui, cl *remote.Client, o pullOptions) error {
	space := o.target.Space
	pr := ui.progress("reading skills")
	list, err := cl.ListAllSkills(ctx, space)
	if err != nil {
		pr.done()
		return fmt.Errorf("reading space %s: %w", space, err)
	}
	selected, err := selectSkills(list, o.slugs, space)
	if err != nil {
		pr.done()
		return err
	}
	pulled, err := fetchSkills(ctx, cl, space, selected, o.parallelism, pr.update)
	pr.done()
	if err != nil {
		return err
	}

	w := fsrepo.NewSkillWriter(o.root, o.config.SkillsDir, fsrepo.WriteOptions{Force: o.force})
	for _, p := range pulled {
		for _, msg := range p.warnings {
			ui.warningf("%s", msg)
		}
		if p.skip == "" {
			w.Add(p.Slug, p.files)
		}
	}
	results, err := w.Write()
	var refused *fsrepo.RefusedError
	if errors.As(err, &refused) {
		var hints []string
		if len(refused.Unsafe) > 0 {
			hints = append(hints, "pull never writes outside the skills folder nor through a symlink: replace a symlink named above with a real folder or remove it, or pull only the other skills by naming their slugs")
		}
		if len(refused.Modified) > 0 {
			hints = append(hints, "commit or stash those changes first, or pass --force to overwrite them")
		}
		return withHint(fmt.Errorf("refusing to pull: %w", err), "%s", strings.Join(hints, "\n"))
	}
	if err != nil {
		return err
	}

	bySlug := make(map[string]fsrepo.SkillWritten, len(results))
	for _, r := range results {
		bySlug[r.Slug] = r
	}
	rep := pullReport{Space: space, SkillsDir: o.config.SkillsDir, Skills: []pulledReport{}}
	for _, p := range pulled {
		pr := pulledReport{Slug: p.Slug, Dir: path.Join(o.config.SkillsDir, p.Slug), Status: "unchanged"}
		r, ok := bySlug[p.Slug]
		switch {
		case p.skip != "":
			pr.Status, pr.Reason = "skipped", p.skip
			rep.Summary.Skipped++
		case ok && len(r.Written) > 0:
			pr.Status, pr.Files = "written", r.Written
			rep.Summary.Written++
		default:
			rep.Summary.Unchanged++
		}
		rep.Skills = append(rep.Skills, pr)
	}
	rep.Summary.Pulled = len(pulled)
	if o.writeConfig {
		cfg := o.config
		cfg.BaseURL, cfg.Space = o.target.BaseURL, space
		if err := fsrepo.WriteConfig(o.root, cfg); err != nil {
			return err
		}
		rep.ConfigWritten = true
	}
	if o.format == "json" {
		return writeJSON(ui, rep)
	}
	for _, s := range rep.Skills {
		switch s.Status {
		case "skipped":
			fprintf(ui.stdout, "skipped   %s: %s\n", s.Dir, s.Reason)
		case "written":
			fprintf(ui.stdout, "wrote     %s (%s)\n", s.Dir, strings.Join(s.Files, ", "))
		default:
			fprintf(ui.stdout, "unchanged %s\n", s.Dir)
		}
	}
	if rep.ConfigWritten {
		fprintf(ui.stdout, "wrote     %s\n", fsrepo.ConfigFile)
	}
	fprintf(ui.stdout, "Pulled %d %s from space %s: %d written, %d unchanged, %d skipped.\n",
		len(pulled), plural(len(pulled), "skill", "skills"), space, rep.Summary.Written, rep.Summary.Unchanged, rep.Summary.Skipped)
	unfound := 0
	for _, p := range pulled {
		unfound += p.unfound
	}
	if unfound > 0 {
		ui.infof("%s that instructions mention, but do not link, %s not in the space: taken for examples, not pulled",
			count(unfound, "path", "paths"), plural(unfound, "is", "are"))
	}
	ui.hintf("run 'skillsync plan' to check that the repository matches the space, then commit")
	return nil
}

// pullReport is what pull did, as --format json prints it.
type pullReport struct {
	Space         string         `json:"space"`
	SkillsDir     string         `json:"skills_dir"`
	Skills        []pulledReport `json:"skills"`
	ConfigWritten bool           `json:"config_written"` // skillsync.yaml was created
	Summary       struct {
		Pulled    int `json:"pulled"`
		Written   int `json:"written"`
		Unchanged int `json:"unchanged"`
		Skipped   int `json:"skipped"`
	} `json:"summary"`
}

// pulledReport is one skill of a [pullReport].
type pulledReport struct {
	Slug   string   `json:"slug"`
	Dir    string   `json:"dir"`              // the skill's folder, relative to the repository root
	Status string   `json:"status"`           // written, unchanged or skipped
	Files  []string `json:"files,omitempty"`  // written, relative to Dir
	Reason string   `json:"reason,omitempty"` // why it was skipped
}

// count is n with the noun that fits it: "1 error", "2 errors".
func count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, plural(n, one, many))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// selectSkills picks the listed skills named by slugs (all when there are
// none), sorted by slug. An unknown slug is an error naming it, and so is a
// slug that several of the skills picked share (one folder cannot hold
// them), before anything is read or written.
func selectSkills(list []remote.Skill, slugs []string, space string) ([]remote.Skill, error) {
	bySlug := make(map[string]remote.Skill, len(list))
	ids := make(map[string][]string, len(list)) // by slug
	for _, s := range list {
		bySlug[s.Slug] = s
		if !slices.Contains(ids[s.Slug], s.ID) {
			ids[s.Slug] = append(ids[s.Slug], s.ID)
		}
	}
	var out []remote.Skill
	if len(slugs) == 0 {
		for _, s := range bySlug {
			out = append(out, s)
		}
	} else {
		var unknown []string
		seen := map[string]bool{}
		for _, slug := range slugs {
			s, ok := bySlug[slug]
			switch {
			case !ok:
				unknown = append(unknown, fmt.Sprintf("%q", slug))
			case !seen[slug]:
				seen[slug] = true
				out = append(out, s)
			}
		}
		if len(unknown) > 0 {
			known := make([]string, 0, len(bySlug))
			for slug := range bySlug {
				known = append(known, slug)
			}
			sort.Strings(known)
			if len(known) > 20 {
				known = append(known[:20], "...")
			}
			hint := fmt.Sprintf("nothing was written; the skills of space %s are: %s", space, strings.Join(known, ", "))
			if len(known) == 0 {
				hint = fmt.Sprintf("nothing was written; space %s has no skills", space)
			}
			return nil, withHint(fmt.Errorf("no skill with slug %s in space %s", strings.Join(unknown, ", "), space), "%s", hint)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	var shared []string
	for _, s := range out {
		if n := len(ids[s.Slug]); n > 1 {
			shared = append(shared, fmt.Sprintf("%d skills of space %s share the slug %q: %s", n, space, s.Slug, strings.Join(ids[s.Slug], ", ")))
		}
	}
	if len(shared) > 0 {
		return nil, withHint(errors.New(strings.Join(shared, "\n")),
			"nothing was written; the service should keep slugs unique: ask its administrators which skill to keep, or pull the other skills by naming their slugs")
	}
	return out, nil
}

// fetchSkills reads each skill and the supporting files its instructions
// link to, with at most par requests in flight. The first error stops it.
func fetchSkills(ctx context.Context, cl *remote.Client, space string, skills []remote.Skill, par int, progress func(done, total int)) ([]*pulledSkill, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, par)
	var (
		mu       sync.Mutex
		firstErr error
		done     int
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
		mu.Unlock()
	}
	// request runs f holding one of the par slots.
	request := func(f func() error) error {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		defer func() { <-sem }()
		return f()
	}

	out := make([]*pulledSkill, len(skills))
	var wg sync.WaitGroup
	for i, s := range skills {
		out[i] = &pulledSkill{Skill: s}
		wg.Add(1)
		go func(p *pulledSkill) {
			defer wg.Done()
			// A panic would end the process with Go's exit code 2.
			err := bug.Call(func() error {
				err := fetchSkill(ctx, cl, space, p, request)
				mu.Lock()
				defer mu.Unlock()
				done++
				progress(done, len(skills))
				return err
			})
			if err != nil {
				fail(err)
			}
		}(out[i])
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

func fetchSkill(ctx context.Context, cl *remote.Client, space string, p *pulledSkill, request func(func() error) error) error {
	var got *remote.Skill
	err := request(func() (err error) {
		got, err = cl.GetSkill(ctx, space, p.ID)
		return err
	})
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
		fsrepo.SkillFile: fsrepo.FormatSkillMD(got.Name, got.Description, got.Enabled, *got.Instructions),
	}
	for _, ref := range fsrepo.ReferencedFiles(*got.Instructions, p.Slug) {
		rel := ref.Path
		if fsrepo.IsBinaryPath(rel) {
			p.warnings = append(p.warnings, fmt.Sprintf("%s: skipped %s: binary files cannot be read through the API", p.Slug, rel))
			continue
		}
		var f *remote.SkillFile
		var err error
		// The path as written, then (".claude/skills/SLUG/x.py") the
		// skill's own x.py.
		for _, try := range []string{ref.Path, ref.Alt} {
			if try == "" {
				continue
			}
			rel = try
			err = request(func() (err error) {
				f, err = cl.GetSkillFile(ctx, space, p.ID, rel)
				return err
			})
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
