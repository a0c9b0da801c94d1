// Package journal keeps the journal of an apply on disk and reads it back:
// a [File] of JSON lines that apply writes through
// [reconcile.JournalWriter], restore ([PlanRestore]) undoing what one apply
// changed, and the writes the service accepted but did not show yet
// ([RecentAccepted]), which apply must not send again.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/reconcile"
)

// StateDir is the folder of a repository where skillsync keeps what it
// writes for itself (journals); it holds a .gitignore of "*" so that none of
// it is ever committed.
const StateDir = ".skillsync"

// A File is an append-only file of [reconcile.JournalEntry] lines, one
// JSON object a line, each synced to disk before [File.Write] returns: the
// started line of a mutation before its request is sent, its outcome line
// before the step is reported. It is safe for concurrent use.
type File struct {
	// Secrets, when set, names the secrets of this process a text holds.
	// No line holds one: such a text is withheld (see
	// [reconcile.JournalEntry]'s Withheld), and restore says so.
	Secrets func(text string) []string

	mu   sync.Mutex
	f    *os.File
	path string
	err  error // the first write error; later writes fail with it
}

// ErrStateDirLink is returned (wrapped, naming the link) by [Open]
// for a journal inside a [StateDir] folder when that folder, a folder
// between it and the journal, the journal or the folder's .gitignore is a
// symbolic link.
var ErrStateDirLink = errors.New("is a symbolic link")

// Open opens path for appending, creating it and its parent folders.
// When path lies inside a [StateDir] folder, that folder gets a .gitignore
// of "*" if it has none; one there that does not ignore the journal gets
// a line that does.
//
// Inside a StateDir folder, nothing is written through a symbolic link: a
// .skillsync committed as a link, even one pointing inside the repository,
// would put the journal and the .gitignore wherever it points. Such a path
// is refused, before any folder or file is made, with [ErrStateDirLink].
func Open(path string) (*File, error) {
	dir := filepath.Dir(path)
	state, err := checkStateDir(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating journal folder: %w", err)
	}
	if state != "" {
		if err := ignoreStateDir(state, path); err != nil {
			return nil, err
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening journal: %w", err)
	}
	if err := checkEnd(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return &File{f: f, path: path}, nil
}

// checkEnd refuses to append to a journal that restore could not read
// back: one over MaxBytes, or one whose last line was cut short, as lines
// after it would put the damage in the middle of the file.
func checkEnd(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("opening journal: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	if fi.Size() > MaxBytes {
		return fmt.Errorf("journal %s is %d bytes already, more than %s, the most restore reads: name another journal file", path, fi.Size(), bounded.Size(MaxBytes))
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return fmt.Errorf("opening journal: %w", err)
	}
	if last[0] != '\n' {
		return fmt.Errorf("journal %s ends with a line cut short (a crash while writing it?): name another journal file, and restore from this one first if need be", path)
	}
	return nil
}

// checkStateDir returns the nearest StateDir folder at or above the folder
// of path ("" when there is none), after checking that no part of the way
// from it down to path, nor its .gitignore, is a symbolic link. Parts that
// do not exist yet are made later as real folders and files.
func checkStateDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", nil // only a convenience; the journal itself still works
	}
	state := filepath.Dir(abs)
	way := []string{abs} // from path up to state, state's .gitignore last
	for filepath.Base(state) != StateDir {
		if filepath.Dir(state) == state {
			return "", nil
		}
		way = append(way, state)
		state = filepath.Dir(state)
	}
	way = append(way, state, filepath.Join(state, ".gitignore"))
	for _, p := range way {
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return "", fmt.Errorf("checking the journal's folder: %w", err)
		case fi.Mode()&fs.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			return "", fmt.Errorf("%s %w (to %s): skillsync writes journals only into a real %s folder, never where a link points", p, ErrStateDirLink, to, StateDir)
		}
	}
	return state, nil
}

// maxGitignoreBytes is the most read of a .skillsync/.gitignore: a real
// one is a few lines.
const maxGitignoreBytes = 1 << 20

// ignoreStateDir writes state/.gitignore, ignoring all, unless there is
// one; one there that does not ignore the journal at path keeps its lines
// and gets one that does. A journal holds every text apply replaced: it is
// never to be committed, and apply goes on rather than fail for it.
func ignoreStateDir(state, path string) error {
	gi := filepath.Join(state, ".gitignore")
	// O_EXCL: an existing file is kept, and no link is followed.
	f, err := os.OpenFile(gi, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return ignoreJournal(gi, state, path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", gi, err)
	}
	_, err = f.WriteString("# written by skillsync: journals and state, never committed\n*\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", gi, err)
	}
	return nil
}

// ignoreJournal adds to gi, the .gitignore of state, a line that ignores
// the journal at path, unless a line of it does: the journal's folder in
// state (journal/ for apply's own), or the journal itself.
func ignoreJournal(gi, state, path string) error {
	rel, err := filepath.Rel(state, path)
	if err != nil {
		return nil // not below state: checkStateDir found it above path
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	f, err := os.OpenFile(gi, os.O_RDWR|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("reading %s: %w", gi, err)
	}
	defer f.Close()
	data, err := bounded.ReadAll(f, maxGitignoreBytes)
	var tl *bounded.TooLargeError
	if errors.As(err, &tl) {
		return fmt.Errorf("%s is more than %d bytes, which skillsync does not read: make it ignore the journals (a line '*' does)", gi, maxGitignoreBytes)
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", gi, err)
	}
	var patterns []gitignore.Pattern
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line != "" && !strings.HasPrefix(line, "#") {
			patterns = append(patterns, gitignore.ParsePattern(line, nil))
		}
	}
	if gitignore.NewMatcher(patterns).Match(parts, false) {
		return nil
	}
	add := "/" + parts[0]
	if len(parts) > 1 {
		add += "/"
	}
	lead := ""
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lead = "\n"
	}
	if _, err := f.WriteString(lead + "# added by skillsync: journals hold every text apply replaces, never committed\n" + add + "\n"); err != nil {
		return fmt.Errorf("writing %s: %w", gi, err)
	}
	return f.Close()
}

// TargetPath is where apply journals target by default:
// root/.skillsync/journal/<UTC time>-<target>.jsonl, the time to the
// millisecond in a form every file system accepts, so that the targets of
// one apply, which start one after another, each have a journal of their
// own; <UTC time>.jsonl for target "", the one space of a skillsync.yaml
// without targets.
func TargetPath(root string, now time.Time, target string) string {
	name := now.UTC().Format("20060102T150405.000Z")
	if target != "" {
		name += "-" + target
	}
	return filepath.Join(root, StateDir, "journal", name+".jsonl")
}

// Path returns the file the journal writes to.
func (j *File) Path() string { return j.path }

// Write appends e as one line, without any text that holds a secret, and
// syncs the file, so that a line reported written survives a crash.
func (j *File) Write(e reconcile.JournalEntry) error {
	line, err := json.Marshal(withhold(e, j.Secrets))
	if err != nil {
		return fmt.Errorf("encoding journal entry: %w", err)
	}
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	if j.f == nil {
		return errors.New("journal is closed")
	}
	if _, err := j.f.Write(line); err != nil {
		j.err = fmt.Errorf("writing journal %s: %w", j.path, err)
		return j.err
	}
	if err := j.f.Sync(); err != nil {
		j.err = fmt.Errorf("syncing journal %s: %w", j.path, err)
		return j.err
	}
	return nil
}

// Close closes the file. Closing a nil or closed journal does nothing.
func (j *File) Close() error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}
