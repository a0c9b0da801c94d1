package github

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/skillsync/skillsync/internal/mdcut"
)

// MaxStepSummaryBytes is the most a step's summary file may hold: GitHub
// shows an error instead of a larger summary.
const MaxStepSummaryBytes = 1 << 20

// ErrStepSummaryFull is returned when the step summary has no room left,
// not even for a note saying that something was left out.
var ErrStepSummaryFull = errors.New("the step summary is full (GitHub's limit is 1 MiB per step)")

// AppendStepSummary adds markdown to the job summary file at path (the
// value of $GITHUB_STEP_SUMMARY). When the file would pass
// [MaxStepSummaryBytes], it appends as many whole lines as fit and a note
// instead, so that the summary is shortened rather than lost.
func AppendStepSummary(path, markdown string) error {
	if path == "" {
		return errors.New("no step summary file: GITHUB_STEP_SUMMARY is not set (is this a GitHub Actions step?)")
	}
	if !strings.HasSuffix(markdown, "\n") {
		markdown += "\n"
	}
	var size int64
	switch fi, err := os.Stat(path); {
	case err == nil:
		size = fi.Size()
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("appending to the step summary: %w", err)
	}
	room := MaxStepSummaryBytes - int(size)
	note := "\n\n> [!WARNING]\n> The rest was cut to fit GitHub's limit of 1 MiB per step summary. Run skillsync locally or read the job's log for all of it.\n"
	if len(markdown) > room {
		if room < len(note) {
			return ErrStepSummaryFull
		}
		markdown = mdcut.Cut(markdown, room, note, mdcut.Bytes)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("appending to the step summary: %w", err)
	}
	if _, err := f.WriteString(markdown); err != nil {
		f.Close()
		return fmt.Errorf("appending to the step summary %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("appending to the step summary %s: %w", path, err)
	}
	return nil
}
