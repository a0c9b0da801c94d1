package remotetest

import (
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/remote"
)

// agentForm holds the values of an agent's form and the field at fault.
type agentForm struct {
	Name, Description, SystemInstruction string
	SkillIDs                             []string
	EmbedEnabled                         bool
	Domains                              string // one per line
	ShowSources, AllowVoiceInput         bool
	AllowFileUpload                      bool
	ThemeMode                            string
	Field                                string
}

// agentData is an agent's page, or the new agent page (ID empty).
type agentData struct {
	Space, SpaceURL, ID, URL string
	Published, Unpublished   bool
	UpdatedAt                string
	Form                     agentForm
	Skills                   []skillOption
	Hidden                   []hiddenNote
}

// skillOption is a skill the agent may have attached; Missing when the
// agent names a skill the space does not have.
type skillOption struct {
	ID, Name, Slug   string
	Checked, Missing bool
}

func formOfAgent(a remote.Agent) agentForm {
	return agentForm{
		Name: a.Name, Description: a.Description, SystemInstruction: a.SystemInstruction,
		SkillIDs: slices.Clone(a.SkillIDs), EmbedEnabled: a.EmbedEnabled,
		Domains:     strings.Join(a.EmbedOptions.DomainWhitelist, "\n"),
		ShowSources: a.EmbedOptions.ShowSources, AllowVoiceInput: a.EmbedOptions.AllowVoiceInput,
		AllowFileUpload: a.EmbedOptions.AllowFileUpload, ThemeMode: a.EmbedOptions.ThemeMode,
	}
}

// sentAgentForm reads an agent's form as the browser sent it: an
// unchecked box is not sent at all.
func sentAgentForm(r *http.Request) agentForm {
	f := r.PostForm
	return agentForm{
		Name: f.Get("name"), Description: f.Get("description"), SystemInstruction: f.Get("systemInstruction"),
		SkillIDs: f["skill"], EmbedEnabled: f.Get("embedEnabled") != "",
		Domains:     f.Get("domains"),
		ShowSources: f.Get("showSources") != "", AllowVoiceInput: f.Get("allowVoiceInput") != "",
		AllowFileUpload: f.Get("allowFileUpload") != "", ThemeMode: f.Get("themeMode"),
	}
}

func (a *App) newAgentPage(w http.ResponseWriter, r *http.Request) {
	a.renderAgent(w, r, &agentForm{}, nil)
}

func (a *App) agentPage(w http.ResponseWriter, r *http.Request) {
	a.renderAgent(w, r, nil, nil)
}

// renderAgent shows an agent's page (the new agent page when the path has
// no id), with form, when not nil, filled as sent.
func (a *App) renderAgent(w http.ResponseWriter, r *http.Request, form *agentForm, refused *appError) {
	spaceID, id := r.PathValue("space"), r.PathValue("id")
	d, err := a.e.agentData(spaceID, id)
	if err != nil {
		a.failWith(w, err)
		return
	}
	if form != nil {
		d.Form = *form
	}
	for i := range d.Skills {
		d.Skills[i].Checked = slices.Contains(d.Form.SkillIDs, d.Skills[i].ID)
	}
	title := "New agent"
	if id != "" {
		title = "Agent " + visibleName(d.Form.Name)
	}
	a.show(w, r, "agent", page{
		Title:  title,
		Crumbs: []crumb{{"Spaces", AppPath}, {"Space " + spaceID, d.SpaceURL}},
		Data:   d,
	}, refused)
}

// agentData reads an agent (id "" for a new one) and the skills it may
// have attached.
func (e *Emulator) agentData(spaceID, id string) (agentData, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, err := e.appSpace(spaceID)
	if err != nil {
		return agentData{}, err
	}
	d := agentData{Space: spaceID, SpaceURL: spaceURL(spaceID), URL: spaceURL(spaceID) + "agents"}
	var attached []string
	if id != "" {
		ag, ok := sp.agents[id]
		if !ok {
			return agentData{}, refuse(http.StatusNotFound, "", "Space %s has no agent %q. Its agents are listed on the space's page.", spaceID, id)
		}
		d.ID, d.URL = id, agentURL(spaceID, id)
		d.Published, d.Unpublished, d.UpdatedAt = ag.draft.Published, ag.draft.HasUnpublishedChanges, ag.draft.UpdatedAt
		d.Form = formOfAgent(ag.draft)
		attached = ag.draft.SkillIDs
		d.Hidden = hiddenNotes("name", ag.draft.Name, "description", ag.draft.Description, "system instruction", ag.draft.SystemInstruction)
	}
	for _, sk := range sp.sortedSkills() {
		d.Skills = append(d.Skills, skillOption{ID: sk.ID, Name: sk.Name, Slug: sk.Slug})
	}
	for _, sid := range attached {
		if sk, ok := sp.skills[sid]; !ok || sk.Builtin {
			d.Skills = append(d.Skills, skillOption{ID: sid, Missing: true})
		}
	}
	return d, nil
}

// checkAgentForm holds a form to what an app would ask: a name, domains
// without spaces, attached skills of the space (or attached already).
func checkAgentForm(sp *space, f agentForm, attached []string) error {
	if strings.TrimSpace(f.Name) == "" {
		return refuse(http.StatusBadRequest, "name", "Name: an agent needs a name.")
	}
	for _, d := range domains(f.Domains) {
		if strings.ContainsAny(d, " \t") {
			return refuse(http.StatusBadRequest, "domains", "Allowed domains: %q holds a space; write one domain per line.", d)
		}
	}
	for _, id := range f.SkillIDs {
		if sk, ok := sp.skills[id]; (!ok || sk.Builtin) && !slices.Contains(attached, id) {
			return refuse(http.StatusBadRequest, "skills", "Skills: space %s has no skill %q.", sp.ID, id)
		}
	}
	return nil
}

// domains are the lines of a textarea, trimmed, blank ones left out.
func domains(s string) []string {
	out := []string{}
	for line := range strings.Lines(formText(s)) {
		if d := strings.TrimSpace(line); d != "" {
			out = append(out, d)
		}
	}
	return out
}

func (a *App) createAgent(w http.ResponseWriter, r *http.Request) bool {
	spaceID := r.PathValue("space")
	f := sentAgentForm(r)
	created, err := a.e.createAgent(spaceID, f)
	return finish(w, r, err, agentURL(spaceID, created.ID), "agent-created", func(ae *appError) {
		f.Field = ae.field
		a.renderAgent(w, r, &f, ae)
	})
}

// createAgent makes a draft agent, never published, with a new random id.
func (e *Emulator) createAgent(spaceID string, f agentForm) (remote.Agent, error) {
	e.mu.Lock()
	sp, err := e.appSpace(spaceID)
	if err == nil {
		err = checkAgentForm(sp, f, nil)
	}
	e.mu.Unlock()
	if err != nil {
		return remote.Agent{}, err
	}
	ag := remote.Agent{ID: newUUID()}
	applyAgentForm(&ag, f)
	return e.addAgent(spaceID, ag)
}

// applyAgentForm sets the fields of a that the form changes, and reports
// whether it changed any: a field whose value is the one the page showed
// is left as stored.
func applyAgentForm(a *remote.Agent, f agentForm) bool {
	changed := false
	text := func(dst *string, sent string, line bool) {
		same := unchangedText(sent, *dst)
		if line {
			same = unchangedLine(sent, *dst)
		}
		if !same {
			*dst, changed = formText(sent), true
		}
	}
	flag := func(dst *bool, v bool) {
		if *dst != v {
			*dst, changed = v, true
		}
	}
	text(&a.Name, f.Name, true)
	text(&a.Description, f.Description, false)
	text(&a.SystemInstruction, f.SystemInstruction, false)
	text(&a.EmbedOptions.ThemeMode, f.ThemeMode, true)
	// Attached skills keep their order; new ones follow. The same skills
	// as before make the same list.
	kept := slices.DeleteFunc(slices.Clone(a.SkillIDs), func(id string) bool { return !slices.Contains(f.SkillIDs, id) })
	for _, id := range f.SkillIDs {
		if !slices.Contains(kept, id) {
			kept = append(kept, id)
		}
	}
	if !slices.Equal(kept, a.SkillIDs) {
		a.SkillIDs, changed = kept, true
	}
	if ds := domains(f.Domains); !slices.Equal(ds, a.EmbedOptions.DomainWhitelist) {
		a.EmbedOptions.DomainWhitelist, changed = ds, true
	}
	flag(&a.EmbedEnabled, f.EmbedEnabled)
	flag(&a.EmbedOptions.ShowSources, f.ShowSources)
	flag(&a.EmbedOptions.AllowVoiceInput, f.AllowVoiceInput)
	flag(&a.EmbedOptions.AllowFileUpload, f.AllowFileUpload)
	return changed
}

func (a *App) saveAgent(w http.ResponseWriter, r *http.Request) bool {
	spaceID, id := r.PathValue("space"), r.PathValue("id")
	f := sentAgentForm(r)
	err := a.e.editAgentChecked(spaceID, id, func(sp *space, ag *remote.Agent) error {
		if err := checkAgentForm(sp, f, ag.SkillIDs); err != nil {
			return err
		}
		if !applyAgentForm(ag, f) {
			return errUnchanged
		}
		return nil
	})
	return finish(w, r, err, agentURL(spaceID, id), "agent-saved", func(ae *appError) {
		f.Field = ae.field
		a.renderAgent(w, r, &f, ae)
	})
}

// editAgentChecked is [Emulator.editAgent] with the space at hand, and an
// agent that is not there a page's error.
func (e *Emulator) editAgentChecked(spaceID, id string, f func(*space, *remote.Agent) error) error {
	e.mu.Lock()
	sp, err := e.appSpace(spaceID)
	e.mu.Unlock()
	if err != nil {
		return err
	}
	err = e.editAgent(spaceID, id, func(ag *remote.Agent) error { return f(sp, ag) })
	if err != nil && !errors.Is(err, errUnchanged) && !errors.As(err, new(*appError)) {
		return refuse(http.StatusNotFound, "", "Space %s has no agent %q: %v.", spaceID, id, err)
	}
	return err
}

func (a *App) publishAgent(w http.ResponseWriter, r *http.Request) bool {
	spaceID, id := r.PathValue("space"), r.PathValue("id")
	published, err := a.e.publishFromApp(spaceID, id)
	if err == nil && !published {
		redirect(w, r, agentURL(spaceID, id), "nothing-to-publish")
		return false
	}
	return finish(w, r, err, agentURL(spaceID, id), "published", func(ae *appError) {
		a.renderAgent(w, r, nil, ae)
	})
}

// publishFromApp publishes as the API does; false when there was nothing
// to publish.
func (e *Emulator) publishFromApp(spaceID, id string) (bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, err := e.appSpace(spaceID)
	if err != nil {
		return false, err
	}
	ag, ok := sp.agents[id]
	if !ok {
		return false, refuse(http.StatusNotFound, "", "Space %s has no agent %q.", spaceID, id)
	}
	if ag.draft.Published && !ag.draft.HasUnpublishedChanges {
		return false, nil
	}
	if err := e.publishDraft(ag); errors.Is(err, errEmbedWhitelist) {
		return false, refuse(http.StatusUnprocessableEntity, "domains",
			"Not published: embedding is on and no domain may embed the agent. Add an allowed domain, or turn embedding off, save, then publish.")
	} else if err != nil {
		return false, err
	}
	return true, nil
}
