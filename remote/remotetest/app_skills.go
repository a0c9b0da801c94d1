package remotetest

import (
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// appError is a form refused: the status to answer, the field at fault
// ("" for none) and what to do, in words for the page.
type appError struct {
	status int
	field  string
	msg    string
}

func (e *appError) Error() string { return e.msg }

func refuse(status int, field, format string, args ...any) *appError {
	return &appError{status: status, field: field, msg: fmt.Sprintf(format, args...)}
}

// errUnchanged ends an edit that would change nothing: nothing is written
// and updatedAt stays.
var errUnchanged = errors.New("unchanged")

// asAppError gives the status, field and message of err for the page.
func asAppError(err error) *appError {
	if ae, ok := errors.AsType[*appError](err); ok {
		return ae
	}
	return refuse(http.StatusInternalServerError, "", "%v", err)
}

func featureOff(sp *space) error {
	if sp.SkillsFeatureDisabled {
		return refuse(http.StatusForbidden, "", "The skills feature is disabled in space %s: its skills cannot be changed.", sp.ID)
	}
	return nil
}

func activeLimit(sp *space) error {
	n := sp.activeCount()
	if n < spec.MaxActiveSkills {
		return nil
	}
	builtin := ""
	if b := sp.BuiltinActive + countBuiltinEnabled(sp); b > 0 {
		builtin = fmt.Sprintf(" (%d of them built in)", b)
	}
	return refuse(http.StatusConflict, "", "Space %s already has %d active skills%s, the most a space may have: disable another skill first.", sp.ID, n, builtin)
}

func countBuiltinEnabled(sp *space) int {
	n := 0
	for _, sk := range sp.skills {
		if sk.Builtin && sk.Enabled {
			n++
		}
	}
	return n
}

// checkSkillName holds a name typed in the app to the rule the API
// applies to an update's name (the emulator's strict reading, ASCII).
func checkSkillName(name string) error {
	if err := spec.CheckName(name); err != nil {
		return refuse(http.StatusBadRequest, "name", "Name: %v.", err)
	}
	if err := checkASCIIName(name); err != nil {
		return refuse(http.StatusBadRequest, "name", "Name: %v.", err)
	}
	return nil
}

func checkSkillText(description, instructions string) error {
	if err := spec.CheckDescription(description); err != nil {
		return refuse(http.StatusBadRequest, "description", "Description: %v.", err)
	}
	if err := spec.CheckInstructions(instructions); err != nil {
		return refuse(http.StatusBadRequest, "instructions", "Instructions: %v.", err)
	}
	return nil
}

// spaceData is the space page.
type spaceData struct {
	ID              string
	URL             string
	FeatureDisabled bool
	Active, Builtin int
	Max             int
	Skills          []skillRow
	Agents          []agentRow
	New             skillForm // the new skill form, as sent when refused
}

type skillRow struct {
	Name, Slug, URL, UpdatedAt string
	Enabled                    bool
}

type agentRow struct {
	Name, URL, UpdatedAt   string
	Published, Unpublished bool
	Skills                 int
}

// skillForm holds the values of a skill's form and the field at fault.
type skillForm struct {
	Name, Description, Instructions string
	Field                           string
}

func (a *App) spacePage(w http.ResponseWriter, r *http.Request) {
	a.renderSpace(w, r, skillForm{}, nil)
}

// renderSpace shows the space page; refused, when not nil, is why the form
// sent from it was refused.
func (a *App) renderSpace(w http.ResponseWriter, r *http.Request, form skillForm, refused *appError) {
	id := r.PathValue("space")
	d, err := a.e.spaceData(id)
	if err != nil {
		a.failWith(w, err)
		return
	}
	d.New = form
	a.show(w, r, "space", page{Title: "Space " + id, Crumbs: []crumb{{"Spaces", AppPath}}, Data: d}, refused)
}

func (e *Emulator) spaceData(id string) (spaceData, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, err := e.appSpace(id)
	if err != nil {
		return spaceData{}, err
	}
	d := spaceData{
		ID: id, URL: spaceURL(id), FeatureDisabled: sp.SkillsFeatureDisabled,
		Active: sp.activeCount(), Builtin: sp.BuiltinActive + countBuiltinEnabled(sp), Max: spec.MaxActiveSkills,
	}
	for _, sk := range sp.sortedSkills() {
		d.Skills = append(d.Skills, skillRow{Name: sk.Name, Slug: sk.Slug, URL: skillURL(id, sk.Slug), UpdatedAt: formatTime(sk.updatedAt), Enabled: sk.Enabled})
	}
	for _, ag := range sp.sortedAgents() {
		d.Agents = append(d.Agents, agentRow{
			Name: ag.draft.Name, URL: agentURL(id, ag.draft.ID), UpdatedAt: ag.draft.UpdatedAt,
			Published: ag.draft.Published, Unpublished: ag.draft.HasUnpublishedChanges, Skills: len(ag.draft.SkillIDs),
		})
	}
	return d, nil
}

// appSpace finds a space for a page or a form; e.mu is held.
func (e *Emulator) appSpace(id string) (*space, error) {
	sp, ok := e.spaces[id]
	if !ok {
		return nil, refuse(http.StatusNotFound, "", "There is no space %q. The spaces are listed on the first page.", id)
	}
	return sp, nil
}

// appSkill finds a user skill of a space by slug for a page or a form;
// e.mu is held.
func (e *Emulator) appSkill(spaceID, slug string) (*space, *skill, error) {
	sp, err := e.appSpace(spaceID)
	if err != nil {
		return nil, nil, err
	}
	sk, ok := sp.userSkill(slug)
	if !ok {
		return nil, nil, refuse(http.StatusNotFound, "", "Space %s has no skill with the slug %q. Its skills are listed on the space's page.", spaceID, slug)
	}
	return sp, sk, nil
}

// userSkill finds a user-created skill by slug; e.mu is held. Built-in
// skills are not the app's to show.
func (sp *space) userSkill(slug string) (*skill, bool) {
	for _, sk := range sp.skills {
		if sk.Slug == slug && !sk.Builtin {
			return sk, true
		}
	}
	return nil, false
}

func (a *App) createSkill(w http.ResponseWriter, r *http.Request) bool {
	spaceID := r.PathValue("space")
	f := skillForm{
		Name:         r.PostForm.Get("name"),
		Description:  formText(r.PostForm.Get("description")),
		Instructions: formText(r.PostForm.Get("instructions")),
	}
	created, err := a.e.createSkill(spaceID, f)
	done := "created"
	if !created.Enabled {
		done = "created-disabled"
	}
	return finish(w, r, err, skillURL(spaceID, created.Slug), done, func(ae *appError) {
		f.Field = ae.field
		a.renderSpace(w, r, f, ae)
	})
}

// createSkill makes a skill as the app does: the slug made from the name
// (see [SkillSeed]), a new random id, enabled unless the space already
// has 40 active skills.
func (e *Emulator) createSkill(spaceID string, f skillForm) (remote.Skill, error) {
	if err := checkSkillName(f.Name); err != nil {
		return remote.Skill{}, err
	}
	if err := checkSkillText(f.Description, f.Instructions); err != nil {
		return remote.Skill{}, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, err := e.appSpace(spaceID)
	if err != nil {
		return remote.Skill{}, err
	}
	if err := featureOff(sp); err != nil {
		return remote.Skill{}, err
	}
	return e.addSkillLocked(sp, SkillSeed{
		ID: newUUID(), Name: f.Name, Description: f.Description, Instructions: f.Instructions,
		Enabled: sp.activeCount() < spec.MaxActiveSkills, Files: map[string]string{},
	})
}

// skillData is the skill page.
type skillData struct {
	Space, SpaceURL, URL string
	Skill                remote.Skill
	Instructions         string // "" when unreadable
	Unreadable           bool
	Edit                 skillForm // the edit form's values
	Files                []fileRow
	Binary               []string
	NewFile              fileForm
	Agents               []agentRow
	Hidden               []hiddenNote
	FeatureDisabled      bool
	Active, Max          int
	CanEnable            bool
}

type fileRow struct {
	Path, URL string
	Size      int
	Hidden    string
}

// fileForm holds the values of a file's form.
type fileForm struct {
	Path, Content string
	Field         string
}

func (a *App) skillPage(w http.ResponseWriter, r *http.Request) {
	a.renderSkill(w, r, nil, nil, nil)
}

// renderSkill shows a skill's page, with the edit form (edit) or the new
// file form (file) filled as sent when refused says why it was refused.
func (a *App) renderSkill(w http.ResponseWriter, r *http.Request, edit *skillForm, file *fileForm, refused *appError) {
	spaceID, slug := r.PathValue("space"), r.PathValue("slug")
	d, err := a.e.skillData(spaceID, slug)
	if err != nil {
		a.failWith(w, err)
		return
	}
	if edit != nil {
		d.Edit = *edit
	}
	if file != nil {
		d.NewFile = *file
	}
	a.show(w, r, "skill", page{
		Title:  "Skill " + visibleName(d.Skill.Name),
		Crumbs: []crumb{{"Spaces", AppPath}, {"Space " + spaceID, d.SpaceURL}},
		Data:   d,
	}, refused)
}

func (e *Emulator) skillData(spaceID, slug string) (skillData, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, sk, err := e.appSkill(spaceID, slug)
	if err != nil {
		return skillData{}, err
	}
	d := skillData{
		Space: spaceID, SpaceURL: spaceURL(spaceID), URL: skillURL(spaceID, slug),
		Skill: sk.view(false), Unreadable: sk.Unreadable,
		Edit:            skillForm{Name: sk.Name, Description: sk.Description},
		Binary:          slices.Clone(sk.BinaryFiles),
		FeatureDisabled: sp.SkillsFeatureDisabled,
		Active:          sp.activeCount(), Max: spec.MaxActiveSkills,
	}
	d.CanEnable = d.Active < d.Max
	if !sk.Unreadable {
		d.Instructions = sk.Instructions
	}
	d.Edit.Instructions = d.Instructions
	for _, p := range slices.Sorted(maps.Keys(sk.Files)) {
		if p == skillFileName {
			continue
		}
		d.Files = append(d.Files, fileRow{Path: p, URL: fileURL(spaceID, slug, p), Size: len(sk.Files[p]), Hidden: hiddenSummary(sk.Files[p])})
	}
	for _, ag := range sp.sortedAgents() {
		if slices.Contains(ag.draft.SkillIDs, sk.ID) {
			d.Agents = append(d.Agents, agentRow{Name: ag.draft.Name, URL: agentURL(spaceID, ag.draft.ID)})
		}
	}
	d.Hidden = hiddenNotes("name", sk.Name, "description", sk.Description, "instructions", d.Instructions)
	return d, nil
}

func (a *App) saveSkill(w http.ResponseWriter, r *http.Request) bool {
	spaceID, slug := r.PathValue("space"), r.PathValue("slug")
	f := skillForm{
		Name:         r.PostForm.Get("name"),
		Description:  r.PostForm.Get("description"),
		Instructions: r.PostForm.Get("instructions"),
	}
	err := a.e.editBySlug(spaceID, slug, func(_ *space, s *SkillSeed) error {
		changed := false
		if !unchangedLine(f.Name, s.Name) {
			if err := checkSkillName(f.Name); err != nil {
				return err
			}
			s.Name, changed = f.Name, true
		}
		if !unchangedText(f.Description, s.Description) {
			s.Description, changed = formText(f.Description), true
		}
		if s.Unreadable && f.Instructions != "" || !s.Unreadable && !unchangedText(f.Instructions, s.Instructions) {
			s.Instructions, s.Unreadable, changed = formText(f.Instructions), false, true
		}
		if !changed {
			return errUnchanged
		}
		return checkSkillText(s.Description, s.Instructions)
	})
	return finish(w, r, err, skillURL(spaceID, slug), "saved", func(ae *appError) {
		f.Field = ae.field
		a.renderSkill(w, r, &f, nil, ae)
	})
}

// editBySlug is [Emulator.editSkill] of the user skill with that slug, in
// a space whose skills feature is on.
func (e *Emulator) editBySlug(spaceID, slug string, f func(*space, *SkillSeed) error) error {
	e.mu.Lock()
	_, sk, err := e.appSkill(spaceID, slug)
	e.mu.Unlock()
	if err != nil {
		return err
	}
	// The id found is looked up again under the lock: a skill deleted
	// meanwhile is an error, never a panic.
	err = e.editSkill(spaceID, sk.ID, func(sp *space, s *SkillSeed) error {
		if err := featureOff(sp); err != nil {
			return err
		}
		return f(sp, s)
	})
	if err != nil && !errors.Is(err, errUnchanged) && !errors.As(err, new(*appError)) {
		return refuse(http.StatusNotFound, "", "Space %s has no skill with the slug %q any more.", spaceID, slug)
	}
	return err
}

func (a *App) toggleSkill(enable bool) func(http.ResponseWriter, *http.Request) bool {
	return func(w http.ResponseWriter, r *http.Request) bool {
		spaceID, slug := r.PathValue("space"), r.PathValue("slug")
		back := skillURL(spaceID, slug)
		if r.PostForm.Get("return") == "space" {
			back = spaceURL(spaceID)
		}
		done := "disabled"
		if enable {
			done = "enabled"
		}
		err := a.e.editBySlug(spaceID, slug, func(sp *space, s *SkillSeed) error {
			if s.Enabled == enable {
				return errUnchanged
			}
			if enable {
				if err := activeLimit(sp); err != nil {
					return err
				}
			}
			s.Enabled = enable
			return nil
		})
		if errors.Is(err, errUnchanged) {
			redirect(w, r, back, done) // the skill is as asked: say so
			return false
		}
		return finish(w, r, err, back, done, func(ae *appError) {
			if r.PostForm.Get("return") == "space" {
				a.renderSpace(w, r, skillForm{}, ae)
			} else {
				a.renderSkill(w, r, nil, nil, ae)
			}
		})
	}
}

// fileData is a file's page.
type fileData struct {
	Space, Slug, SkillURL, URL string
	Form                       fileForm
	Hidden                     []hiddenNote
	FeatureDisabled            bool
}

func (a *App) filePage(w http.ResponseWriter, r *http.Request) {
	a.renderFile(w, r, r.URL.Query().Get("path"), nil, nil)
}

func (a *App) renderFile(w http.ResponseWriter, r *http.Request, path string, form *fileForm, refused *appError) {
	spaceID, slug := r.PathValue("space"), r.PathValue("slug")
	d, err := a.e.skillData(spaceID, slug)
	if err != nil {
		a.failWith(w, err)
		return
	}
	content, ok := a.e.skillFile(spaceID, slug, path)
	if !ok {
		a.fail(w, http.StatusNotFound, "Skill %s of space %s has no text file %q. Its files are listed on the skill's page.", slug, spaceID, path)
		return
	}
	fd := fileData{
		Space: spaceID, Slug: slug, SkillURL: d.URL, URL: skillURL(spaceID, slug) + "/file",
		Form: fileForm{Path: path, Content: content}, FeatureDisabled: d.FeatureDisabled,
		Hidden: hiddenNotes(path, content),
	}
	if form != nil {
		fd.Form = *form
	}
	a.show(w, r, "file", page{
		Title:  "File " + path,
		Crumbs: []crumb{{"Spaces", AppPath}, {"Space " + spaceID, d.SpaceURL}, {"Skill " + slug, d.URL}},
		Data:   fd,
	}, refused)
}

func (e *Emulator) skillFile(spaceID, slug, path string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, sk, err := e.appSkill(spaceID, slug)
	if err != nil || path == skillFileName {
		return "", false
	}
	c, ok := sk.Files[path]
	return c, ok
}

func checkFilePath(path string, s *SkillSeed) error {
	if err := spec.CheckFilePath(path); err != nil {
		return refuse(http.StatusBadRequest, "path", "Path: %v.", err)
	}
	if path == skillFileName {
		return refuse(http.StatusBadRequest, "path", "SKILL.md is made of the skill's name, description and instructions: edit them on the skill's page.")
	}
	if slices.Contains(s.BinaryFiles, path) {
		return refuse(http.StatusConflict, "path", "%s is a binary file, which the app cannot edit: delete it first to put a text file there.", path)
	}
	return nil
}

// saveFile adds a text file (the form's "new" field set) or changes one.
func (a *App) saveFile(w http.ResponseWriter, r *http.Request) bool {
	spaceID, slug := r.PathValue("space"), r.PathValue("slug")
	isNew := r.PostForm.Get("new") != ""
	f := fileForm{Path: r.PostForm.Get("path"), Content: r.PostForm.Get("content")}
	err := a.e.editBySlug(spaceID, slug, func(_ *space, s *SkillSeed) error {
		if err := checkFilePath(f.Path, s); err != nil {
			return err
		}
		old, exists := s.Files[f.Path]
		switch {
		case isNew && exists:
			return refuse(http.StatusConflict, "path", "The skill already has a file %s: open it from the list of files to change it.", f.Path)
		case !isNew && !exists:
			return refuse(http.StatusNotFound, "path", "The skill has no file %s any more.", f.Path)
		case !isNew && unchangedText(f.Content, old):
			return errUnchanged
		}
		if s.Files == nil {
			s.Files = map[string]string{}
		}
		s.Files[f.Path] = formText(f.Content)
		return nil
	})
	if errors.Is(err, errUnchanged) {
		redirect(w, r, fileURL(spaceID, slug, f.Path), "unchanged") // back to the file
		return false
	}
	return finish(w, r, err, skillURL(spaceID, slug), "file-saved", func(ae *appError) {
		f.Field = ae.field
		if isNew {
			a.renderSkill(w, r, nil, &f, ae)
		} else {
			a.renderFile(w, r, f.Path, &f, ae)
		}
	})
}

func (a *App) deleteFile(w http.ResponseWriter, r *http.Request) bool {
	spaceID, slug := r.PathValue("space"), r.PathValue("slug")
	path := r.PostForm.Get("path")
	err := a.e.editBySlug(spaceID, slug, func(_ *space, s *SkillSeed) error {
		if _, ok := s.Files[path]; ok && path != skillFileName {
			delete(s.Files, path)
			return nil
		}
		if i := slices.Index(s.BinaryFiles, path); i >= 0 {
			s.BinaryFiles = slices.Delete(s.BinaryFiles, i, i+1)
			return nil
		}
		return refuse(http.StatusNotFound, "", "The skill has no file %q to delete.", path)
	})
	return finish(w, r, err, skillURL(spaceID, slug), "file-deleted", func(ae *appError) {
		a.renderSkill(w, r, nil, nil, ae)
	})
}
