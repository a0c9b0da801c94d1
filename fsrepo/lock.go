package fsrepo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
)

// LockFile is the file beside skillsync.yaml that records where each
// vendored skill came from.
const LockFile = "skillsync.lock"

// LockVersion is the version of skillsync.lock's format this skillsync
// reads and writes.
const LockVersion = 1

// Lock is skillsync.lock: one entry per vendored skill, sorted by slug.
type Lock struct {
	Skills []LockedSkill
}

// LockedSkill is where a vendored skill folder came from.
type LockedSkill struct {
	Slug   string `yaml:"slug" json:"slug"`           // the folder in the skills folder
	Source string `yaml:"source" json:"source"`       // an https URL, or a local path (relative to the repository root, or absolute)
	Path   string `yaml:"path,omitempty" json:"path"` // the folder in the source repository, slash-separated; "" for its root
	Ref    string `yaml:"ref,omitempty" json:"ref"`   // the branch, tag or commit asked for; "" for the source's HEAD
	Commit string `yaml:"commit" json:"commit"`       // the commit the folder was copied from
	Hash   string `yaml:"hash" json:"hash"`           // [FolderHash] of the folder at Commit
	// Local is the [FolderHash] of the folder as vendor update left it,
	// when the merge kept local edits; "" when it left upstream's files.
	// A folder that still hashes so is not modified locally.
	Local string `yaml:"local,omitempty" json:"local,omitempty"`
	Line  int    `yaml:"-" json:"-"` // the entry's first line in skillsync.lock; 0 when not read from it
	Lines int    `yaml:"-" json:"-"` // how many lines the entry takes there
}

// Entry returns the entry of slug.
func (l Lock) Entry(slug string) (LockedSkill, bool) {
	for _, e := range l.Skills {
		if e.Slug == slug {
			return e, true
		}
	}
	return LockedSkill{}, false
}

// Set adds e, or replaces the entry of its slug, keeping the entries
// sorted by slug.
func (l *Lock) Set(e LockedSkill) {
	e.Line, e.Lines = 0, 0
	for i := range l.Skills {
		if l.Skills[i].Slug == e.Slug {
			l.Skills[i] = e
			return
		}
	}
	l.Skills = append(l.Skills, e)
	sort.SliceStable(l.Skills, func(i, j int) bool { return l.Skills[i].Slug < l.Skills[j].Slug })
}

// lockHeader opens every skillsync.lock that skillsync writes.
const lockHeader = "# skillsync.lock: where each vendored skill came from, written by skillsync vendor.\n" +
	"# hash: sha256 over the sha256sum lines of the folder's files, sorted (see the README: Vendoring).\n"

// Marshal is the content of skillsync.lock for l: the same lock always
// gives the same bytes, entries sorted by slug, fields in a fixed order.
func (l Lock) Marshal() []byte {
	skills := append([]LockedSkill(nil), l.Skills...)
	sort.SliceStable(skills, func(i, j int) bool { return skills[i].Slug < skills[j].Slug })
	doc := struct {
		Version int           `yaml:"version"`
		Skills  []LockedSkill `yaml:"skills"`
	}{LockVersion, skills}
	if doc.Skills == nil {
		doc.Skills = []LockedSkill{}
	}
	var b bytes.Buffer
	b.WriteString(lockHeader)
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		panic("fsrepo: encoding the lock: " + err.Error()) // strings and an int always encode
	}
	enc.Close()
	return b.Bytes()
}

// maxLockBytes is the largest skillsync.lock that is read, well above
// the lock of thousands of vendored skills.
const maxLockBytes = 4 << 20

// ReadLock reads root/skillsync.lock. A repository without one has an
// empty lock. Every problem of its content is a [diag.Diagnostic] at its line,
// and then the lock returned is empty; the error is for I/O.
func ReadLock(root string) (Lock, diag.Diagnostics, error) {
	name := filepath.Join(root, LockFile)
	fi, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return Lock{}, nil, nil
	}
	if err != nil {
		return Lock{}, nil, fmt.Errorf("reading %s: %w", LockFile, err)
	}
	if !fi.Mode().IsRegular() {
		return Lock{}, diag.Diagnostics{{Path: LockFile, Severity: diag.SeverityError, Code: "lock-invalid",
			Message: LockFile + " is not a regular file (a symlink is never followed)",
			Hint:    "make it the file that skillsync vendor writes"}}, nil
	}
	data, err := bounded.ReadFile(name, maxLockBytes)
	var tl *bounded.TooLargeError
	if errors.As(err, &tl) {
		return Lock{}, diag.Diagnostics{lockDiag(0, "%s is over %d bytes and is not read", LockFile, maxLockBytes)}, nil
	}
	if err != nil {
		return Lock{}, nil, fmt.Errorf("reading %s: %w", LockFile, err)
	}
	l, ds := ParseLock(data)
	return l, ds, nil
}

func lockDiag(line int, format string, args ...any) diag.Diagnostic {
	return diag.Diagnostic{Path: LockFile, Line: line, Col: min(line, 1), Severity: diag.SeverityError, Code: "lock-invalid",
		Message: fmt.Sprintf(format, args...),
		Hint:    LockFile + " is written by skillsync vendor: restore it from git, or fix the line by hand"}
}

var lockKeys = []string{"slug", "source", "path", "ref", "commit", "hash", "local"}

// ParseLock parses the content of skillsync.lock strictly: an unknown or
// missing key, a malformed value, a slug given twice and a version other
// than [LockVersion] are diagnostics at their line, and then the lock
// returned is empty.
func ParseLock(data []byte) (Lock, diag.Diagnostics) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		var ds diag.Diagnostics
		for _, pr := range yamlnode.Problems(err, strings.Split(string(data), "\n")) {
			ds = append(ds, lockDiag(pr.Line, "%s", pr.WithHint()))
		}
		return Lock{}, ds
	}
	var ds diag.Diagnostics
	fail := func(line int, format string, args ...any) { ds = append(ds, lockDiag(line, format, args...)) }
	if len(doc.Content) == 0 {
		fail(0, "%s is empty; it needs a version and a list of skills", LockFile)
		return Lock{}, ds
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		fail(root.Line, "%s must be a mapping with the keys version and skills", LockFile)
		return Lock{}, ds
	}
	var l Lock
	seen := map[string]bool{} // the known keys read
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if seen[k.Value] {
			fail(k.Line, "duplicate key %s", visible.Quote(k.Value))
			continue
		}
		switch k.Value {
		case "version":
			seen[k.Value] = true
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" {
				fail(v.Line, "version must be a whole number, not %s", yamlnode.Describe(v))
			} else if v.Value != fmt.Sprint(LockVersion) {
				fail(v.Line, "version %s is not one this skillsync reads (it reads version %d): it was written by another skillsync; use that one, or a newer one", v.Value, LockVersion)
			}
		case "skills":
			seen[k.Value] = true
			if v.Kind != yaml.SequenceNode {
				fail(v.Line, "skills must be a list, not %s", yamlnode.Describe(v))
				continue
			}
			for j, item := range v.Content {
				e, ok := parseLockEntry(item, fail)
				if !ok {
					continue
				}
				e.Line = item.Line
				end := lineCount(data)
				if j+1 < len(v.Content) {
					end = v.Content[j+1].Line - 1
				} else if i+2 < len(root.Content) && root.Content[i+2].Line > item.Line {
					end = root.Content[i+2].Line - 1
				}
				e.Lines = max(end-item.Line+1, 1)
				if prev, dup := l.Entry(e.Slug); dup {
					fail(item.Line, "skill %s is given twice (first at line %d)", visible.Quote(e.Slug), prev.Line)
					continue
				}
				l.Skills = append(l.Skills, e)
			}
		default:
			fail(k.Line, "unknown key %s; known keys: version, skills", visible.Quote(k.Value))
		}
	}
	if !seen["version"] {
		fail(root.Line, "no version: %s begins with \"version: %d\"", LockFile, LockVersion)
	}
	if len(ds) > 0 {
		return Lock{}, ds
	}
	sort.SliceStable(l.Skills, func(i, j int) bool { return l.Skills[i].Slug < l.Skills[j].Slug })
	return l, nil
}

func lineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// parseLockEntry reads one item of the skills list.
func parseLockEntry(item *yaml.Node, fail func(int, string, ...any)) (LockedSkill, bool) {
	if item.Kind != yaml.MappingNode {
		fail(item.Line, "each skill must be a mapping of %s, not %s", strings.Join(lockKeys, ", "), yamlnode.Describe(item))
		return LockedSkill{}, false
	}
	vals := map[string]*yaml.Node{}
	ok := true
	for i := 0; i+1 < len(item.Content); i += 2 {
		k, v := item.Content[i], item.Content[i+1]
		switch {
		case !slices.Contains(lockKeys, k.Value):
			fail(k.Line, "unknown key %s; known keys: %s", visible.Quote(k.Value), strings.Join(lockKeys, ", "))
			ok = false
		case vals[k.Value] != nil:
			fail(k.Line, "duplicate key %s", visible.Quote(k.Value))
			ok = false
		case v.Kind != yaml.ScalarNode || v.Tag == "!!null":
			fail(v.Line, "%s must be a single value, not %s", k.Value, yamlnode.Describe(v))
			ok = false
		default:
			vals[k.Value] = v
		}
	}
	if !ok {
		return LockedSkill{}, false
	}
	for _, k := range []string{"slug", "source", "commit", "hash"} {
		if vals[k] == nil || vals[k].Value == "" {
			fail(item.Line, "the skill has no %s", k)
			ok = false
		}
	}
	if !ok {
		return LockedSkill{}, false
	}
	get := func(k string) string {
		if v := vals[k]; v != nil {
			return v.Value
		}
		return ""
	}
	// Each check below reports at the line of a key that is present: slug,
	// commit and hash are required above, local and path checked when given.
	e := LockedSkill{Slug: get("slug"), Source: get("source"), Path: get("path"), Ref: get("ref"), Commit: get("commit"), Hash: get("hash"), Local: get("local")}
	if err := CheckFolderName(e.Slug); err != nil {
		fail(vals["slug"].Line, "slug %s: %v", visible.Quote(e.Slug), err)
		ok = false
	}
	if !commitID.MatchString(e.Commit) {
		fail(vals["commit"].Line, "commit %s is not a commit id: 40 lowercase hexadecimal digits", visible.Quote(e.Commit))
		ok = false
	}
	if !folderHash.MatchString(e.Hash) {
		fail(vals["hash"].Line, "hash %s is not %s followed by 64 lowercase hexadecimal digits", visible.Quote(e.Hash), hashPrefix)
		ok = false
	}
	if e.Local != "" && !folderHash.MatchString(e.Local) {
		fail(vals["local"].Line, "local %s is not %s followed by 64 lowercase hexadecimal digits", visible.Quote(e.Local), hashPrefix)
		ok = false
	}
	if p := e.Path; p != "" && (path.Clean(p) != p || path.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, `\`)) {
		fail(vals["path"].Line, "path %s must be a folder inside the source repository, written with '/'", visible.Quote(p))
		ok = false
	}
	return e, ok
}

// commitID is a git commit id, as skillsync.lock records it.
var commitID = regexp.MustCompile(`^[0-9a-f]{40}$`)

// folderHash is a [FolderHash], as skillsync.lock records it.
var folderHash = regexp.MustCompile(`^` + hashPrefix + `[0-9a-f]{64}$`)

// WriteLock writes l to root/skillsync.lock, atomically (a temporary file
// renamed over it). It never writes through a symlink.
func WriteLock(root string, l Lock) error {
	if fi, err := os.Lstat(filepath.Join(root, LockFile)); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("writing %s: it is not a regular file (a symlink is never written through)", LockFile)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return fmt.Errorf("writing %s: %w", LockFile, err)
	}
	defer r.Close()
	return writeFile(r, write{dir: ".", rel: LockFile, data: l.Marshal(), mode: 0o644})
}

// CheckFolderName says why slug cannot be the name of a skill folder that
// skillsync writes, or returns nil: a URL-safe slug (letters, digits, '-',
// '.', '_', '~'), not beginning with '.', at most 255 bytes.
func CheckFolderName(slug string) error {
	switch {
	case !names.URLSafe(slug):
		return errors.New("a skill folder's name must be a URL-safe slug: letters, digits, '-', '.', '_' or '~'")
	case strings.HasPrefix(slug, "."):
		return errors.New("a folder name beginning with '.' is not read as a skill")
	case len(slug) > maxNameBytes:
		return errors.New(tooLong("folder", slug))
	}
	return nil
}

// checkVendored compares each folder that lock names with the lock: a
// folder gone is an error at the lock's line, and one whose files differ
// from those vendored a warning.
func checkVendored(skillsDir string, lock Lock, folders []*folder) diag.Diagnostics {
	bySlug := make(map[string]*folder, len(folders))
	for _, f := range folders {
		bySlug[f.slug] = f
	}
	var ds diag.Diagnostics
	for _, e := range lock.Skills {
		dir := path.Join(skillsDir, e.Slug)
		from := e.Source
		if e.Path != "" {
			from += " (" + e.Path + ")"
		}
		f := bySlug[e.Slug]
		if f == nil {
			lines := fmt.Sprintf("line %d", e.Line)
			if e.Lines > 1 {
				lines = fmt.Sprintf("lines %d-%d", e.Line, e.Line+e.Lines-1)
			}
			ds = append(ds, diag.Diagnostic{Path: LockFile, Line: e.Line, Col: 1, Severity: diag.SeverityError, Code: "vendored-missing",
				Message: fmt.Sprintf("skill %s vendored from %s has no folder: %s is gone", visible.Quote(e.Slug), from, dir),
				Hint:    fmt.Sprintf("restore the folder (git checkout -- %s), or delete its entry (%s) from %s", dir, lines, LockFile)})
			continue
		}
		if f.isLink {
			continue // an error of its own
		}
		if vendoredAs(f.entries, e.Hash) || e.Local != "" && vendoredAs(f.entries, e.Local) {
			continue
		}
		// A lock written before development files were excluded hashed
		// them too.
		if len(f.excluded) > 0 && vendoredAs(append(slices.Clip(f.entries), f.excluded...), e.Hash) {
			continue
		}
		since := "vendored"
		if e.Local != "" {
			since = "vendor update merged it"
		}
		ds = append(ds, diag.Diagnostic{Path: dir, Severity: diag.SeverityWarning, Code: "vendored-modified",
			Message: fmt.Sprintf("modified locally since %s from %s@%s", since, from, ShortCommit(e.Commit)),
			Hint: fmt.Sprintf("edits are kept: the next skillsync vendor update %s that brings upstream's changes merges them in and records the result in %s, which ends this warning; git checkout -- %s drops them",
				e.Slug, LockFile, dir)})
	}
	return ds
}

// vendoredAs reports whether entries hash to hash, as written or as git
// stores them: checked out with CRLF, as git for Windows does.
func vendoredAs(entries []entry, hash string) bool {
	return folderHashOf(entries, false) == hash || folderHashOf(entries, true) == hash
}

// ShortCommit is commit hash c as messages show it: its first 12
// characters.
func ShortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}
