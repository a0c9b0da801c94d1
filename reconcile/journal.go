package reconcile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillsync/skillsync/remote"
)

// StateDir is the folder of a repository where skillsync keeps what it
// writes for itself (journals); it holds a .gitignore of "*" so that none of
// it is ever committed.
const StateDir = ".skillsync"

// OutcomeStarted is the outcome of the journal line [Apply] writes, and
// syncs, before it sends a mutation: the request and the before it may
// overwrite, on disk before the service can act on it. The line of the
// outcome (applied or failed) follows once the answer is in.
//
// A started line with no outcome line after it for the same space, skill
// (or agent) and action means the request may have been applied: the
// process ended while it was in flight (killed, or the machine went down),
// and the service may or may not have made the change. [Unfinished] finds
// such lines; its Before can restore what the change overwrote.
const OutcomeStarted Outcome = "started"

// JournalEntry is one line of a journal. Every mutation [Apply] attempts
// has two: one with outcome [OutcomeStarted] before the request is sent,
// and one with its outcome after, whatever it is. A failed request may
// still have taken effect (the answer can be lost after the write), so
// failures are journaled too.
//
// An update apply did not send, because the skill read right before it
// had changed in the space since the plan, has one line of its own, with
// outcome [OutcomeSkipped], the skill as read in Before and no Request:
// it changed nothing, so [Unfinished] and [PlanRestore] pass over it.
type JournalEntry struct {
	// Time is when the line was written: just before the request for a
	// started line, when the answer came for the others; RFC 3339 in UTC.
	Time  time.Time `json:"time"`
	Space string    `json:"space"`
	// Slug and ID name the skill; for a publish, Slug is the agent's name
	// and ID its id.
	Slug   string `json:"slug"`
	ID     string `json:"id"`
	Action Action `json:"action"`
	// Request is the body of an update: exactly the fields sent. Enable,
	// disable and publish have none.
	Request *remote.SkillUpdate `json:"request,omitempty"`
	// Before is, for an update, the skill as read right before the
	// request: the text it replaced, so that it can be restored; for an
	// enable or disable, the skill as planned against. None for a publish.
	Before *SkillState `json:"before,omitempty"`
	// After is the skill as the response showed it; none for a started
	// line, when the request failed, or for a publish.
	After    *SkillState `json:"after,omitempty"`
	Outcome  Outcome     `json:"outcome"`
	Error    string      `json:"error,omitempty"`    // why the request failed
	Mismatch string      `json:"mismatch,omitempty"` // how the response differed from the request
}

// A Journal is an append-only file of [JournalEntry] lines, one JSON object
// a line, each synced to disk before [Journal.Write] returns: the started
// line of a mutation before its request is sent, its outcome line before
// the step is reported. It is safe for concurrent use.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
	err  error // the first write error; later writes fail with it
}

// ErrStateDirLink is returned (wrapped, naming the link) by [OpenJournal]
// for a journal inside a [StateDir] folder when that folder, a folder
// between it and the journal, the journal or the folder's .gitignore is a
// symbolic link.
var ErrStateDirLink = errors.New("is a symbolic link")

// OpenJournal opens path for appending, creating it and its parent folders.
// When path lies inside a [StateDir] folder, that folder gets a .gitignore
// of "*" if it has none.
//
// Inside a StateDir folder, nothing is written through a symbolic link: a
// .skillsync committed as a link, even one pointing inside the repository,
// would put the journal and the .gitignore wherever it points. Such a path
// is refused, before any folder or file is made, with [ErrStateDirLink].
func OpenJournal(path string) (*Journal, error) {
	dir := filepath.Dir(path)
	state, err := checkStateDir(path)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating journal folder: %w", err)
	}
	if state != "" {
		if err := ignoreStateDir(state); err != nil {
			return nil, err
		}
	}
	if torn, err := endsTorn(path); err != nil {
		return nil, fmt.Errorf("opening journal: %w", err)
	} else if torn {
		// Lines appended after a torn one would make it damage in the
		// middle of the file, which restore refuses.
		return nil, fmt.Errorf("journal %s ends with a line cut short (a crash while writing it?): name another journal file, and restore from this one first if need be", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening journal: %w", err)
	}
	return &Journal{f: f, path: path}, nil
}

// endsTorn reports whether the file at path exists, is not empty and does
// not end with a newline: its last write was cut short.
func endsTorn(path string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 || !fi.Mode().IsRegular() {
		return false, err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, fi.Size()-1); err != nil {
		return false, err
	}
	return last[0] != '\n', nil
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
	state := ""
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if filepath.Base(d) == StateDir {
			state = d
			break
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
	rel, err := filepath.Rel(state, abs)
	if err != nil {
		return "", nil
	}
	check := []string{state, filepath.Join(state, ".gitignore")}
	p := state
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		check = append(check, p)
	}
	for _, p := range check {
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

// ignoreStateDir writes state/.gitignore, unless there is one.
func ignoreStateDir(state string) error {
	gi := filepath.Join(state, ".gitignore")
	// O_EXCL: an existing file is kept, and no link is followed.
	f, err := os.OpenFile(gi, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return nil
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

// DefaultJournalPath is where apply journals by default:
// root/.skillsync/journal/<UTC time>.jsonl, the time to the millisecond in
// a form every file system accepts.
func DefaultJournalPath(root string, now time.Time) string {
	name := now.UTC().Format("20060102T150405.000Z") + ".jsonl"
	return filepath.Join(root, StateDir, "journal", name)
}

// Path returns the file the journal writes to.
func (j *Journal) Path() string { return j.path }

// Write appends e as one line and syncs the file, so that a line reported
// written survives a crash.
func (j *Journal) Write(e JournalEntry) error {
	line, err := json.Marshal(e)
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
func (j *Journal) Close() error {
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

// ReadJournal reads every entry of a journal, in file order: started lines
// and outcome lines alike (see [OutcomeStarted]; [Unfinished] pairs them).
// On a line that does not parse it returns the entries before it with an
// error naming the line: a [*TornJournalError] when it is the last line (a
// crash or a full disk cut its write short), which a reader may accept.
func ReadJournal(r io.Reader) ([]JournalEntry, error) {
	var out []JournalEntry
	var bad error // a line that is not an entry: torn if no whole line follows
	badLine := 0
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if bad != nil {
				return out, bad // damage in the middle, not a write cut short
			}
			var e JournalEntry
			// Unknown keys are allowed: a later version may add some.
			if derr := json.Unmarshal(line, &e); derr != nil {
				bad, badLine = fmt.Errorf("journal line %d: %w", n, derr), n
			} else {
				out = append(out, e)
			}
		}
		if errors.Is(err, io.EOF) {
			if bad != nil {
				return out, &TornJournalError{Line: badLine, Err: bad}
			}
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("reading journal: %w", err)
		}
	}
}

// A TornJournalError is returned by [ReadJournal] when only the last line
// of the journal is not an entry: a write cut short by a crash or a full
// disk. The entries before it are returned with it, whole.
type TornJournalError struct {
	Line int // the torn line
	Err  error
}

func (e *TornJournalError) Error() string {
	return fmt.Sprintf("the last line of the journal is cut short: %v", e.Err)
}

func (e *TornJournalError) Unwrap() error { return e.Err }

// Unfinished returns the started entries of es (in the order of
// [ReadJournal]) that no outcome line follows: mutations whose request may
// have been applied, the process having ended before their answer was
// journaled. An outcome line closes the latest open started line of the
// same space, id, slug and action, so a journal appended by several applies
// pairs each apply's lines with each other.
func Unfinished(es []JournalEntry) []JournalEntry {
	type key struct {
		space, id, slug string
		action          Action
	}
	open := make(map[key][]int) // indexes into es of started lines, oldest first
	for i, e := range es {
		if e.Outcome == OutcomeSkipped {
			continue // no request: nothing it could close
		}
		k := key{e.Space, e.ID, e.Slug, e.Action}
		if e.Outcome == OutcomeStarted {
			open[k] = append(open[k], i)
			continue
		}
		if n := len(open[k]); n > 0 {
			open[k] = open[k][:n-1]
		}
	}
	var idx []int
	for _, is := range open {
		idx = append(idx, is...)
	}
	slices.Sort(idx)
	var out []JournalEntry
	for _, j := range idx {
		out = append(out, es[j])
	}
	return out
}
