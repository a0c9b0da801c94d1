package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/lint"
	"github.com/skillsync/skillsync/reconcile/render"
	"github.com/skillsync/skillsync/vendored"
)

// proposeVendorUpdates does vendor update --pr: for each upstream whose
// vendored skills moved, the update of those skills (merged with local
// edits, the lock moved) as one pull request on its own branch, with
// upstream's log between the two commits; later runs update it. The
// working tree is left as it was. The first failure is returned.
func proposeVendorUpdates(ctx context.Context, e *env, root string, o vendorUpdateOptions) error {
	ui := e.ui
	rep, err := vendored.Outdated(ctx, root, vendored.OutdatedOptions{Slugs: o.slugs, Auth: gitAuth(e)})
	if err != nil {
		return vendorError(ui, err, "")
	}
	bySource := map[string][]string{}
	for _, s := range rep.Skills {
		if s.State == vendored.StateOutdated {
			bySource[s.Source] = append(bySource[s.Source], s.Slug)
		}
	}
	if len(bySource) == 0 {
		ui.infof("no vendored skill moved upstream: nothing to propose")
		return nil
	}
	sink, err := openReviewSink(ctx, e, githubOptions{}, "drift")
	if err != nil {
		return err
	}
	base, err := proposalBase(e, o.prBase)
	if err != nil {
		return err
	}
	cfg, err := config.Read(root)
	if err != nil {
		return err
	}
	var errs []error
	for _, src := range slices.Sorted(maps.Keys(bySource)) {
		if err := proposeVendorUpdate(ctx, e, sink, root, cfg, base, src, bySource[src], o.force); err != nil {
			errs = append(errs, fmt.Errorf("vendor %s of %s: %w", sink.Request(), src, err))
		}
	}
	return errors.Join(errs...)
}

// proposeVendorUpdate proposes the update of slugs, vendored from src.
// The update is made in the working tree, read, and the tree put back as
// it was, as the source of a relative path is found from the root.
func proposeVendorUpdate(ctx context.Context, e *env, sink reviewSink, root string, cfg config.Config, base, src string, slugs []string, force bool) error {
	ui := e.ui
	folders := []string{fsrepo.LockFile}
	for _, slug := range slugs {
		folders = append(folders, path.Join(cfg.SkillsDir, slug))
	}
	before, err := snapshot(root, folders)
	if err != nil {
		return err
	}
	// Judged as vendor update judges it: an error no waiver accepts is
	// refused before anything is pushed.
	j := judge(e.ui.secrets, e.getenv, "", nil)(cfg)
	rep, err := vendored.Update(ctx, root, vendored.UpdateOptions{Slugs: slugs, Force: force, Auth: gitAuth(e), Judge: j})
	after, serr := snapshot(root, folders)
	if rerr := writeSnapshot(root, before, after); rerr != nil {
		return fmt.Errorf("putting the working tree back after the update: %w", rerr)
	}
	if err != nil {
		return vendorError(ui, err, src)
	}
	if serr != nil {
		return serr
	}
	for _, s := range rep.Skills {
		if fsrepo.SecurityErrors(s.Findings) {
			for _, s := range rep.Skills {
				writeDiagnostics(ui, s.Findings)
			}
			rep.WriteText(ui.stdout)
			return withHint(fmt.Errorf("%s was not updated: %w; nothing is pushed nor proposed for %s", s.Slug, vendored.ErrInsecureSkill, src),
				"read what they find above; if it is intended, waive each finding in skillsync.yaml (lint.waivers, see docs/security.md) and run 'skillsync vendor update --pr' again")
		}
	}
	for _, s := range rep.Skills {
		if s.State == vendored.StateConflict || s.State == vendored.StateError {
			rep.WriteText(ui.stdout)
			return fmt.Errorf("%s was not updated (%s): nothing is proposed for %s", s.Slug, s.State, src)
		}
	}
	files := map[string]forge.FileChange{}
	for rel, f := range after {
		if b, ok := before[rel]; !ok || !bytes.Equal(b.data, f.data) || b.exec != f.exec {
			mode := forge.RegularMode
			if f.exec {
				mode = forge.ExecutableMode
			}
			files[rel] = forge.FileChange{Content: f.data, Mode: mode}
		}
	}
	for rel := range before {
		if _, ok := after[rel]; !ok {
			files[rel] = forge.FileChange{Delete: true}
		}
	}
	if len(files) == 0 {
		return nil
	}
	var body strings.Builder
	// Upstream names its files and writes what the findings quote: every
	// such text goes in a code span or is escaped.
	fmt.Fprintf(&body, "Upstream %s moved: skillsync vendor update merged its changes into the vendored skills below, keeping local edits, and moved `%s`. skillsync updates this %s when upstream moves again.\n", render.CodeSpan(src), fsrepo.LockFile, sink.Request())
	for _, s := range rep.Skills {
		if s.State != vendored.StateUpdated && s.State != vendored.StateUnchanged {
			continue
		}
		fmt.Fprintf(&body, "\n### %s: %s → %s\n\n", render.CodeSpan(s.Slug), fsrepo.ShortCommit(s.From), fsrepo.ShortCommit(s.To))
		for _, f := range s.Files {
			fmt.Fprintf(&body, "- %s %s\n", render.CodeSpan(f.Path), render.MarkdownText(f.Change))
		}
		dir := path.Join(cfg.SkillsDir, s.Slug)
		if fs := newFindings(j, dir, before, after); len(fs) > 0 {
			fmt.Fprintf(&body, "\n**Security findings the update brings** (%d):\n\n", len(fs))
			for _, f := range fs {
				fmt.Fprintf(&body, "- %v `%s`, %s: %s\n", f.Severity, f.Rule, render.CodeSpan(fmt.Sprintf("%s:%d", f.Path, f.Line)), render.MarkdownText(f.Message))
			}
		}
		if len(s.Log) > 0 {
			// Upstream's messages are shown as text, in a block markdown
			// does not render.
			body.WriteString("\nUpstream's log:\n\n~~~\n")
			for _, l := range s.Log {
				fmt.Fprintf(&body, "%s %s\n", fsrepo.ShortCommit(l.Commit), strings.ReplaceAll(visible.Line(l.Summary), "~~~", "~ ~ ~"))
			}
			body.WriteString("~~~\n")
		}
	}
	head := "skillsync/vendor/" + branchPart(src)
	p := forge.Proposal{
		Base: base, Head: head, Files: files,
		Message: "skillsync: update the skills vendored from " + src,
		Title:   "skillsync: update the skills vendored from " + src,
		Body:    ui.secrets.Redact(body.String()),
		Marker:  fmt.Sprintf("<!-- skillsync:vendor-pr source=%s -->", branchPart(src)),
	}
	_, err = propose(ctx, ui, sink, p, sink.Request(), "the update from "+src)
	if errors.Is(err, forge.ErrNothingToPropose) {
		return nil // the base branch holds the update already
	}
	return err
}

// notBranch is what a branch name made of a source leaves out.
var notBranch = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// branchPart is src as a part of a branch name: "github.com-acme-skills".
func branchPart(src string) string {
	src = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(src, "https://"), "http://"), ".git")
	s := strings.Trim(notBranch.ReplaceAllString(src, "-"), "-.")
	for strings.Contains(s, "..") {
		s = strings.ReplaceAll(s, "..", ".")
	}
	if len(s) > 100 {
		s = s[:100]
	}
	// git refuses a branch ending in "." or ".lock".
	for strings.HasSuffix(s, ".") || strings.HasSuffix(s, ".lock") {
		s = strings.TrimSuffix(strings.TrimSuffix(s, "."), ".lock")
	}
	if s == "" {
		return "source"
	}
	return s
}

// snapFile is a file of the working tree as [snapshot] read it.
type snapFile struct {
	data []byte
	exec bool
}

// snapshot reads the regular files under each of rels (files or folders)
// of root, by path from root with slashes.
func snapshot(root string, rels []string) (map[string]snapFile, error) {
	out := map[string]snapFile{}
	for _, rel := range rels {
		err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(rel)), func(p string, d os.DirEntry, err error) error {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			r, err := filepath.Rel(root, p)
			out[filepath.ToSlash(r)] = snapFile{data: data, exec: info.Mode()&0o111 != 0}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// writeSnapshot makes the files under root those of want, where have is
// what root holds now: it writes the files of want that have lacks or
// holds otherwise, and removes those only have holds.
func writeSnapshot(root string, want, have map[string]snapFile) error {
	var errs []error
	for rel, f := range want {
		if h, ok := have[rel]; ok && bytes.Equal(h.data, f.data) && h.exec == f.exec {
			continue
		}
		mode := os.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		errs = append(errs, os.WriteFile(p, f.data, mode), os.Chmod(p, mode))
	}
	for rel := range have {
		if _, ok := want[rel]; !ok {
			errs = append(errs, os.Remove(filepath.Join(root, filepath.FromSlash(rel))))
		}
	}
	return errors.Join(errs...)
}

// newFindings are the security findings of the skill folder dir as after
// holds it that the folder as before held did not: those of the delta.
func newFindings(j *lint.Judge, dir string, before, after map[string]snapFile) []lint.Finding {
	files := func(snap map[string]snapFile) []lint.File {
		var out []lint.File
		for _, rel := range slices.Sorted(maps.Keys(snap)) {
			if in, ok := strings.CutPrefix(rel, dir+"/"); ok {
				out = append(out, lint.File{Path: in, Data: snap[rel].data})
			}
		}
		return out
	}
	key := func(f lint.Finding) string { return f.Rule + "\x00" + f.Path + "\x00" + f.Message + "\x00" + f.Match }
	old := map[string]bool{}
	for _, f := range j.Skill(files(before)) {
		old[key(f)] = true
	}
	var out []lint.Finding
	for _, f := range j.Skill(files(after)) {
		if !old[key(f)] {
			out = append(out, f)
		}
	}
	return out
}
