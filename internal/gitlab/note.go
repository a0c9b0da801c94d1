package gitlab

import (
	"context"
	"fmt"
	"strings"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/skillsync/skillsync/internal/mdcut"
)

// MaxNoteChars is the longest note GitLab accepts, and the longest issue
// description skillsync writes (GitLab's own limit there is a little
// more, 1,048,576).
const MaxNoteChars = 1_000_000

// A PlanNote is the plan note of one space, for [Client.SyncPlanNote].
type PlanNote struct {
	// Marker identifies the note: a hidden HTML comment on one line, the
	// markdown plan's first line (render.MarkdownMarker, one per
	// space), which the caller owns. A note is the marker's when its
	// first line is the marker, whole: a marker naming a target too
	// (<!-- skillsync:plan space=X target=NAME -->) is a note of its own.
	Marker string
	// Markdown is the body to post. It gets Marker prepended if it does
	// not start with it, and is cut with a note (linking the job, when
	// [Env.RunURL] is known) to fit GitLab's [MaxNoteChars].
	Markdown string
	// NoChanges says that the plan has nothing to review, and Markdown is
	// the few lines that say so (render.NoChangesMarkdown): they
	// replace an earlier plan's note, so that no stale plan stays up, but
	// no note is started for them. A plan with errors is never one with
	// no changes: its errors must be read.
	NoChanges bool
}

// What SyncPlanNote did.
const (
	NoteCreated   = "created"
	NoteUpdated   = "updated"
	NoteUnchanged = "unchanged" // the note already said it
	NoteSkipped   = "skipped"   // no changes, and no note to replace
)

// SyncPlanNote makes pn the plan note that pn.Marker identifies on merge
// request mr (its iid): it edits the note that starts with the marker in
// place, or adds it when there is none, so a merge request holds one plan
// note per marker however often it is pushed to. A plan with pn.NoChanges
// adds no note (tfcmt's skip-no-changes) and only replaces one that is
// there. It returns NoteCreated, NoteUpdated, NoteUnchanged or NoteSkipped,
// and the note's address when the project's is known (none when skipped).
func (c *Client) SyncPlanNote(ctx context.Context, mr int64, pn PlanNote) (action, url string, err error) {
	marker := pn.Marker
	body := c.fitBody(withMarker(marker, pn.Markdown), "plan")

	existing, err := c.findNote(ctx, mr, marker)
	if err != nil {
		return "", "", err
	}
	if existing != nil {
		if existing.Body == body {
			return NoteUnchanged, c.noteURL(mr, existing.ID), nil
		}
		got, _, err := c.gl.Notes.UpdateMergeRequestNote(c.project, mr, existing.ID, &gl.UpdateMergeRequestNoteOptions{Body: &body}, gl.WithContext(ctx))
		if err != nil {
			return "", "", c.wrap(err, notesWrite, mrName(mr), "updating the plan note on "+mrName(mr))
		}
		return NoteUpdated, c.noteURL(mr, got.ID), nil
	}
	if pn.NoChanges {
		return NoteSkipped, "", nil
	}
	got, _, err := c.gl.Notes.CreateMergeRequestNote(c.project, mr, &gl.CreateMergeRequestNoteOptions{Body: &body}, gl.WithContext(ctx))
	if err != nil {
		return "", "", c.wrap(err, notesWrite, mrName(mr), "commenting the plan on "+mrName(mr))
	}
	return NoteCreated, c.noteURL(mr, got.ID), nil
}

// findNote returns the oldest note of mr that skillsync posted for
// marker, reading every page: on a busy merge request the plan note is
// far from the end. A note is skillsync's when its first line is marker
// (skillsync writes it first) and it is by whom the token posts as: a
// reviewer quoting the marker must not have their note overwritten.
// GitLab's own notes ("added 1 commit") are skipped.
func (c *Client) findNote(ctx context.Context, mr int64, marker string) (*gl.Note, error) {
	opts := &gl.ListMergeRequestNotesOptions{
		ListOptions: gl.ListOptions{PerPage: 100},
		OrderBy:     gl.Ptr("created_at"),
		Sort:        gl.Ptr("asc"),
	}
	pages := func(p gl.PaginationOptionFunc) ([]*gl.Note, *gl.Response, error) {
		return c.gl.Notes.ListMergeRequestNotes(c.project, mr, opts, gl.WithContext(ctx), p)
	}
	for note, err := range scan(c, pages) {
		if err != nil {
			return nil, c.wrap(err, notesWrite, mrName(mr), "listing the notes of "+mrName(mr))
		}
		if note.System || !startsWith(note.Body, marker) {
			continue
		}
		ours, err := c.postedByUs(ctx, note.Author.ID)
		if err != nil {
			return nil, err
		}
		if ours {
			return note, nil
		}
	}
	return nil, nil
}

// noteURL is the address of note id on merge request mr, "" when the
// project's address is not known.
func (c *Client) noteURL(mr, id int64) string {
	if c.projectURL == "" {
		return ""
	}
	return fmt.Sprintf("%s/-/merge_requests/%d#note_%d", c.projectURL, mr, id)
}

// startsWith reports whether the first line of body is marker, so that
// the marker of a space and one that names a target of it too
// (<!-- skillsync:plan space=X target=NAME -->) never stand for each
// other.
func startsWith(body, marker string) bool {
	first, _, _ := strings.Cut(body, "\n")
	return strings.TrimSuffix(first, "\r") == marker
}

// withMarker puts marker on the first line of markdown unless it is there.
func withMarker(marker, markdown string) string {
	if startsWith(markdown, marker) {
		return markdown
	}
	return marker + "\n" + markdown
}

// fitBody cuts a body to GitLab's limit, saying so at the end, and where
// to read all of it: the job's log.
func (c *Client) fitBody(body, what string) string {
	where := "Run skillsync locally or read the job's log for all of it."
	if c.runURL != "" {
		where = "All of it is in the log of [the job that made it](" + c.runURL + ")."
	}
	note := fmt.Sprintf("\n\n> [!warning]\n> This %s was cut to fit GitLab's limit of %d characters. %s\n", what, MaxNoteChars, where)
	return mdcut.Cut(body, MaxNoteChars, note, mdcut.Runes)
}

func mrName(iid int64) string { return fmt.Sprintf("merge request !%d", iid) }
