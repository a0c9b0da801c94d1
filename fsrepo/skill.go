package fsrepo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/lint"
	"github.com/skillsync/skillsync/spec"
)

// maxLinkHops bounds the symlinks followed from one file to the next inside
// a skill folder, so that a loop ends.
const maxLinkHops = 8

// IsBinary reports whether the file at name holding data is binary, as
// the loader classifies supporting files: by a NUL byte among its first
// sniffLen bytes, as git does, or by an extension of a binary format.
func IsBinary(name string, data []byte) bool {
	if skillmd.IsBinaryPath(name) {
		return true
	}
	if len(data) > sniffLen {
		data = data[:sniffLen]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// portHint is the hint of a name a checkout on Windows or macOS cannot hold.
const portHint = "rename it: git for Windows refuses to check out such a name, and a checkout on Windows or macOS holds one of two names that differ only in case"

// buildSkill makes the Skill of one folder of the skills folder, and
// checks it against the content rules at the levels c sets, and the
// security rules of c's judge, less what c's waivers accept; it returns
// the indices of the waivers that accepted a finding. It returns a nil
// Skill only for what is not a skill folder at all.
func buildSkill(skillsDir string, c checks, f *folder) (*Skill, diag.Diagnostics, nameInfo, []int) {
	dir := path.Join(skillsDir, f.slug)
	var ds diag.Diagnostics
	errf := func(p, code, hint, format string, args ...any) {
		ds = append(ds, diag.Diagnostic{Path: p, Severity: diag.SeverityError, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
	}
	warnf := func(p, code, hint, format string, args ...any) {
		ds = append(ds, diag.Diagnostic{Path: p, Severity: diag.SeverityWarning, Code: code, Message: fmt.Sprintf(format, args...), Hint: hint})
	}
	sk := &Skill{Slug: f.slug, Path: path.Join(dir, skillmd.FileName), Enabled: true}

	if f.isLink {
		errf(dir, "symlink-folder", "make it a real folder; skillsync never follows a symlinked skill folder",
			"skill folder %s is a symlink", visible.Quote(f.slug))
		sk.Invalid = true
		return sk, ds, nameInfo{}, nil
	}
	if !names.URLSafe(f.slug) {
		errf(dir, "slug-invalid", fmt.Sprintf("rename the folder to the skill's slug, such as %q", Slugify(f.slug)),
			"folder name %s is not a URL-safe slug: use letters, digits, '-', '.', '_' or '~'", visible.Quote(f.slug))
	}

	// A checkout on Windows or macOS must hold every name as written.
	if why := unportable(f.slug); why != "" {
		errf(dir, "path-unportable", portHint, "%s", why)
	}
	rels := make([]string, len(f.entries))
	for i, e := range f.entries {
		rels[i] = e.rel
	}
	sort.Strings(rels)
	twins := caseTwins(rels)
	for _, rel := range rels {
		if why := unportable(rel); why != "" {
			errf(path.Join(dir, rel), "path-unportable", portHint, "%s", why)
		} else if twin, ok := twins[rel]; ok {
			errf(path.Join(dir, rel), "path-unportable", portHint, "%s", twin.reason(""))
		}
	}

	byRel := make(map[string]*entry, len(f.entries))
	for i := range f.entries {
		byRel[f.entries[i].rel] = &f.entries[i]
	}
	fe := &folderEntries{byRel: byRel}
	skillMD := byRel[skillmd.FileName]
	if skillMD == nil {
		// Is it a folder of skills rather than a skill?
		nested := false
		for _, rel := range rels {
			if path.Base(rel) != skillmd.FileName {
				continue
			}
			nested = true
			sub := path.Dir(rel)
			errf(path.Join(dir, rel), "skill-nested",
				fmt.Sprintf("move %s to %s: each skill folder sits directly in %s and is named by its slug",
					path.Join(dir, sub), path.Join(skillsDir, path.Base(sub)), skillsDir),
				"skill is nested in %s, which is not a skill", dir)
		}
		if nested {
			return nil, ds, nameInfo{}, nil
		}
		hint := fmt.Sprintf("add %s/%s with the skill's frontmatter and instructions", dir, skillmd.FileName)
		for _, rel := range rels {
			if !strings.Contains(rel, "/") && strings.EqualFold(rel, skillmd.FileName) {
				hint = fmt.Sprintf("rename %s to %s (the name is case-sensitive)", rel, skillmd.FileName)
			}
		}
		errf(dir, "skill-md-missing", hint, "skill folder %s has no %s", visible.Quote(f.slug), skillmd.FileName)
		sk.Invalid = true
		return sk, ds, nameInfo{}, nil
	}

	var ni nameInfo
	var parsed *skillmd.Document // nil when SKILL.md is not read
	var raw []byte               // SKILL.md as stored; nil when not read
	if md, ok := fe.resolve(skillmd.FileName, dir, errf); ok && (md.large || len(md.data) > MaxSkillMDBytes) {
		size := md.size
		if !md.large {
			size = int64(len(md.data))
		}
		ds = append(ds, diag.Diagnostic{Path: sk.Path, Line: 1, Col: 1, Severity: diag.SeverityError, Code: "skill-md-too-large",
			Message: fmt.Sprintf("SKILL.md is %d bytes; the service takes at most %d characters of instructions, so it is not parsed",
				size, spec.MaxInstructionsLen),
			Hint: "keep the instructions short, and move reference material into supporting files that SKILL.md points to"})
	} else if ok {
		raw = md.data
		doc, pds := skillmd.Parse(sk.Path, md.data)
		sk.Name, sk.Description, sk.Enabled, sk.Instructions, sk.Extra = doc.Name, doc.Description, doc.Enabled, doc.Instructions, doc.Extra
		ds = append(ds, pds...)
		ni = nameInfo{doc.NameLine, doc.NameCol}
		parsed = doc
		if doc.NameOK && !names.SlugOf(f.slug, sk.Name) && names.URLSafe(f.slug) {
			slug := Slugify(sk.Name)
			// A skill's slug is made from its name once, when the skill
			// is created in the app; the API cannot create skills.
			hint := fmt.Sprintf("a new skill must be created in the app with a name that gives the slug %q (such as %q), "+
				"or the folder renamed to %q; ignore this if the skill was renamed after it was created",
				f.slug, strings.ReplaceAll(f.slug, "-", " "), slug)
			if Slugify(f.slug) != f.slug {
				hint = fmt.Sprintf("no name gives the slug %q, as slugs hold only a-z, 0-9 and '-': rename the folder to %q, "+
					"the slug the skill gets when it is created in the app with name %s", f.slug, slug, visible.Quote(sk.Name))
			}
			ds = append(ds, diag.Diagnostic{Path: sk.Path, Line: ni.line, Col: ni.col, Severity: diag.SeverityWarning, Code: "slug-mismatch",
				Message: fmt.Sprintf("folder name %q is not the slug the service would make from name %s: %q",
					f.slug, visible.Quote(sk.Name), slug),
				Hint: hint})
		}
	}

	for _, e := range f.entries {
		if e.rel == skillmd.FileName {
			continue
		}
		full := path.Join(dir, e.rel)
		if path.Base(e.rel) == skillmd.FileName {
			warnf(full, "skill-nested", fmt.Sprintf("skill folders sit directly in %s; move it there if it is a skill of its own", skillsDir),
				"nested %s is a supporting file of skill %s, not a skill", skillmd.FileName, visible.Quote(f.slug))
		}
		if err := spec.CheckFilePath(e.rel); err != nil {
			// The API neither reads nor writes such a file, so it is no
			// reason to refuse the skill: only its copy in the space
			// cannot be compared.
			warnf(full, "file-path-invalid",
				"rename it if the compared copy matters: the files endpoint takes letters, digits, '_', '-', '.' and '/'",
				"supporting file cannot be compared with its copy in the space: the files endpoint cannot address it: %s", skillmd.RuleMessage(err))
		}
		target, ok := fe.resolve(e.rel, dir, errf)
		if !ok {
			continue
		}
		sk.Files = append(sk.Files, supportingFile(e.rel, full, target, &ds))
	}
	sort.Slice(sk.Files, func(i, j int) bool { return sk.Files[i].Path < sk.Files[j].Path })
	if parsed != nil {
		content := make(map[string][]byte, len(sk.Files))
		for _, file := range sk.Files {
			content[file.Path] = file.Content
		}
		files := make([]lint.File, 0, len(f.entries))
		for _, e := range f.entries {
			files = append(files, lint.File{Path: e.rel, Data: content[e.rel]})
		}
		ds = lint.Check(c.lint, lint.Folder{Dir: dir, SkillMD: parsed, Files: files}, ds)
	}
	var waived []int
	if c.judge != nil {
		var fds diag.Diagnostics
		fds, waived = judgeFolder(c.judge, dir, raw, sk.Files, c.lint.Waivers)
		ds = append(ds, fds...)
	}
	sk.Invalid = ds.HasErrors()
	return sk, ds, ni, waived
}

// judgeFolder is what the security rules find in a skill folder under
// dir: its SKILL.md as stored (raw, nil when it was not read), well
// formed or not, and its text files; less the findings that a waiver
// accepts, whose indices it returns.
func judgeFolder(j *lint.Judge, dir string, raw []byte, files []File, waivers []lint.Waiver) (diag.Diagnostics, []int) {
	in := make([]lint.File, 0, len(files)+1)
	if raw != nil {
		in = append(in, lint.File{Path: skillmd.FileName, Data: raw})
	}
	for _, f := range files {
		if f.Content != nil {
			in = append(in, lint.File{Path: f.Path, Data: f.Content})
		}
	}
	var ds diag.Diagnostics
	var used []int
	slug := path.Base(dir)
	for _, f := range j.Skill(in) {
		i := slices.IndexFunc(waivers, func(w lint.Waiver) bool { return w.Accepts(slug, f) })
		if i < 0 {
			ds = append(ds, f.Diagnostic(dir))
		} else if !slices.Contains(used, i) {
			used = append(used, i)
		}
	}
	return ds, used
}

// supportingFile is the File at rel (full from the repository root) whose
// content is that of entry e, which rel is or links to. A text file over
// MaxCompareBytes is TooLarge: hashed, its content not kept.
func supportingFile(rel, full string, e *entry, ds *diag.Diagnostics) File {
	if e.large {
		binary := IsBinary(rel, e.head)
		return File{Path: rel, Size: e.size, SHA256: e.sha256, Binary: binary, TooLarge: !binary}
	}
	data := e.data
	sum := sha256.Sum256(data)
	file := File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
	switch {
	case IsBinary(rel, data):
		file.Binary = true
	case len(data) > MaxCompareBytes:
		file.TooLarge = true
	default:
		if !utf8.Valid(data) {
			line, col, b := diag.InvalidUTF8(data)
			*ds = append(*ds, diag.Diagnostic{Path: full, Line: line, Col: col, Severity: diag.SeverityError, Code: "text-not-utf8",
				Message: fmt.Sprintf("text file is not UTF-8 (byte 0x%02x)", b), Hint: "save the file as UTF-8"})
		}
		file.Content = data
	}
	return file
}

// folderEntries are the entries of a skill folder by their path in it,
// and the folders that hold them, listed once, the first time a symlink
// leads to no file.
type folderEntries struct {
	byRel map[string]*entry
	dirs  map[string]bool // nil until listed
}

// isDir reports whether p is a folder holding entries.
func (fe *folderEntries) isDir(p string) bool {
	if fe.dirs == nil {
		fe.dirs = map[string]bool{}
		for rel := range fe.byRel {
			// The folders of rel, deepest first, up to one listed
			// already, whose own are too.
			for i := strings.LastIndexByte(rel, '/'); i > 0 && !fe.dirs[rel[:i]]; i = strings.LastIndexByte(rel[:i], '/') {
				fe.dirs[rel[:i]] = true
			}
		}
	}
	return fe.dirs[p]
}

// resolve returns the entry of the file at rel, following symlinks that
// stay inside the skill folder. A symlink leading out of it is an error and
// is never followed: the service keeps each skill folder on its own.
func (fe *folderEntries) resolve(rel, dir string, errf func(p, code, hint, format string, args ...any)) (*entry, bool) {
	full := path.Join(dir, rel)
	cur := rel
	for hop := 0; ; hop++ {
		e := fe.byRel[cur]
		if e == nil {
			if fe.isDir(cur) {
				errf(full, "symlink-folder", "link the files one by one, or copy the folder",
					"symlink leads to folder %s; only links to files are read", visible.Quote(cur))
				return nil, false
			}
			errf(full, "symlink-dangling", "fix or remove the link", "symlink leads to %s, which does not exist", visible.Quote(cur))
			return nil, false
		}
		if !e.link {
			return e, true
		}
		if hop == maxLinkHops {
			errf(full, "symlink-loop", "fix or remove the link", "too many levels of symlinks")
			return nil, false
		}
		target := string(e.data)
		next := path.Join(path.Dir(cur), target)
		if path.IsAbs(target) || next == ".." || strings.HasPrefix(next, "../") || next == "." || strings.Contains(target, `\`) || (len(target) > 1 && target[1] == ':') {
			errf(full, "symlink-outside", "copy the file into the skill folder; the service keeps each skill folder on its own",
				"symlink leads outside the skill folder (to %s); it is not followed", visible.Quote(target))
			return nil, false
		}
		cur = next
	}
}

// nameInfo is where the name was written, for diagnostics about it that
// only the whole repository can tell (duplicates, the folder's slug).
type nameInfo struct{ line, col int }
