package remotetest

import (
	"bytes"
	"crypto/rand"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/spec"
)

// AppPath is where [App] serves its pages; every other path is the API's.
const AppPath = "/app/"

// maxFormBytes bounds a form's body: a file of a few MiB, with room for
// its percent-encoding.
const maxFormBytes = 16 << 20

//go:embed app/*.html
var appTemplates embed.FS

// App stands in for the service's web app beside the API: pages under
// [AppPath] list the spaces, their skills and agents, and forms create and
// edit them as a person in the app would. Its edits go through the same
// code as [Emulator.EditSkill] and [Emulator.EditAgent], so they move
// updatedAt alike and are what a drift check then finds. Every other path
// is served by the emulator's API, unchanged, but "/", which leads to the
// app.
//
// The pages are plain HTML forms that need no JavaScript. A form is
// accepted only from a page of the same origin, and pages answer only on
// a loopback host name, so that no other page a browser on the machine
// opens can drive them.
type App struct {
	e        *Emulator
	onChange func()
	cop      *http.CrossOriginProtection
	pages    map[string]*template.Template
	mux      *http.ServeMux
}

// NewApp returns the app of e. onChange, when not nil, is called after
// every write that succeeded, through the app's forms or the API (a
// 2xx answer to any method but GET), for instance to save the state.
func NewApp(e *Emulator, onChange func()) *App {
	a := &App{
		e:        e,
		onChange: onChange,
		cop:      http.NewCrossOriginProtection(),
		pages:    parsePages(),
		mux:      http.NewServeMux(),
	}
	a.routes()
	return a
}

// Start serves the app and the API on the loopback address addr, as
// [Emulator.Start] does.
func (a *App) Start(addr string) (*Server, error) { return serve(addr, a) }

// ServeHTTP serves a page of the app, or passes the request to the API.
func (a *App) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		http.Redirect(w, r, AppPath, http.StatusFound)
	case p == strings.TrimSuffix(AppPath, "/") || strings.HasPrefix(p, AppPath):
		a.servePage(w, r)
	case a.onChange != nil && r.Method != http.MethodGet:
		sw := &statusWriter{ResponseWriter: w}
		a.e.ServeHTTP(sw, r)
		if sw.status >= 200 && sw.status < 300 {
			a.onChange()
		}
	default:
		a.e.ServeHTTP(w, r)
	}
}

// servePage guards every page: a loopback host name only (a page of
// another site that a DNS name rebinds to 127.0.0.1 is refused), and
// headers that keep the pages out of frames and free of scripts.
func (a *App) servePage(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
	host := r.Host
	if hh, _, err := net.SplitHostPort(host); err == nil {
		host = hh
	}
	if !origin.IsLoopbackHost(host) {
		http.Error(w, "the emulator's app answers only on a loopback host name: open it at http://127.0.0.1:PORT/app/ or http://localhost:PORT/app/", http.StatusForbidden)
		return
	}
	a.mux.ServeHTTP(w, r)
}

func (a *App) routes() {
	m := a.mux
	m.HandleFunc("GET /app/{$}", a.spacesPage)
	m.HandleFunc("GET /app/spaces/{space}/{$}", a.spacePage)
	m.HandleFunc("POST /app/spaces/{space}/skills", a.form(a.createSkill))
	m.HandleFunc("GET /app/spaces/{space}/skills/{slug}", a.skillPage)
	m.HandleFunc("POST /app/spaces/{space}/skills/{slug}", a.form(a.saveSkill))
	m.HandleFunc("POST /app/spaces/{space}/skills/{slug}/enable", a.form(a.toggleSkill(true)))
	m.HandleFunc("POST /app/spaces/{space}/skills/{slug}/disable", a.form(a.toggleSkill(false)))
	m.HandleFunc("GET /app/spaces/{space}/skills/{slug}/file", a.filePage)
	m.HandleFunc("POST /app/spaces/{space}/skills/{slug}/file", a.form(a.saveFile))
	m.HandleFunc("POST /app/spaces/{space}/skills/{slug}/file/delete", a.form(a.deleteFile))
	m.HandleFunc("GET /app/spaces/{space}/agents/new", a.newAgentPage)
	m.HandleFunc("POST /app/spaces/{space}/agents", a.form(a.createAgent))
	m.HandleFunc("GET /app/spaces/{space}/agents/{id}", a.agentPage)
	m.HandleFunc("POST /app/spaces/{space}/agents/{id}", a.form(a.saveAgent))
	m.HandleFunc("POST /app/spaces/{space}/agents/{id}/publish", a.form(a.publishAgent))
	m.HandleFunc("/app/", func(w http.ResponseWriter, r *http.Request) {
		a.fail(w, http.StatusNotFound, "There is no page at %s.", r.URL.Path)
	})
}

// form guards a form's handler: the request must come from a page of this
// origin (Sec-Fetch-Site, Origin), and its body is bounded. A change that succeeds is reported to onChange.
func (a *App) form(h func(http.ResponseWriter, *http.Request) bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := a.cop.Check(r); err != nil {
			a.fail(w, http.StatusForbidden, "Refused: this form was sent from another site or page (%v). Open the app at its own address and send the form from there.", err)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
		if err := r.ParseForm(); err != nil {
			if errors.As(err, new(*http.MaxBytesError)) {
				a.fail(w, http.StatusRequestEntityTooLarge, "The form is larger than %d MiB.", maxFormBytes>>20)
				return
			}
			a.fail(w, http.StatusBadRequest, "The form could not be read: %v.", err)
			return
		}
		if h(w, r) && a.onChange != nil {
			a.onChange()
		}
	}
}

// page is what every template gets.
type page struct {
	Title  string
	Crumbs []crumb
	Notice string // what the last change did, after a redirect
	Error  string // why the form sent was refused
	Data   any
}

type crumb struct{ Name, URL string }

// render writes a page whole, or a plain error when its template fails.
func (a *App) render(w http.ResponseWriter, status int, name string, p page) {
	var buf bytes.Buffer
	if err := a.pages[name].ExecuteTemplate(&buf, "layout", p); err != nil {
		http.Error(w, "rendering the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// show renders a page after a GET, with the notice of the redirect that
// led there, or after a refused form, with why it was refused and the
// status that says so.
func (a *App) show(w http.ResponseWriter, r *http.Request, name string, p page, refused *appError) {
	status := http.StatusOK
	p.Notice = notice(r)
	if refused != nil {
		p.Notice, p.Error, status = "", refused.msg, refused.status
	}
	a.render(w, status, name, p)
}

// finish ends a form the emulator took or refused. Refused, the page is
// shown again by again; otherwise the browser goes to to, with the notice
// of done, or of "unchanged" when the form changed nothing. It reports
// whether the form changed anything.
func finish(w http.ResponseWriter, r *http.Request, err error, to, done string, again func(*appError)) bool {
	switch {
	case errors.Is(err, errUnchanged):
		done = "unchanged"
	case err != nil:
		again(asAppError(err))
		return false
	}
	redirect(w, r, to, done)
	return err == nil
}

// fail answers with a page that says what went wrong and what to do.
func (a *App) fail(w http.ResponseWriter, status int, format string, args ...any) {
	a.render(w, status, "error", page{
		Title:  http.StatusText(status),
		Crumbs: []crumb{{"Spaces", AppPath}},
		Error:  fmt.Sprintf(format, args...),
	})
}

// failWith answers with the page of a lookup's error.
func (a *App) failWith(w http.ResponseWriter, err error) {
	ae := asAppError(err)
	a.fail(w, ae.status, "%s", ae.msg)
}

// redirect ends a form that succeeded: the browser gets the page anew
// (POST-redirect-GET), with done naming the notice it shows.
func redirect(w http.ResponseWriter, r *http.Request, to, done string) {
	sep := "?"
	if strings.Contains(to, "?") {
		sep = "&"
	}
	http.Redirect(w, r, to+sep+"done="+url.QueryEscape(done), http.StatusSeeOther)
}

// notice is what a page says after a redirect, by its done parameter.
// Only these texts are shown, so a link cannot put words on a page.
func notice(r *http.Request) string {
	return map[string]string{
		"created":            "Skill created.",
		"created-disabled":   "Skill created, disabled: the space already has 40 active skills.",
		"saved":              "Saved.",
		"unchanged":          "Nothing to save: the form is as it was.",
		"enabled":            "Enabled.",
		"disabled":           "Disabled.",
		"file-saved":         "File saved.",
		"file-deleted":       "File deleted.",
		"agent-created":      "Agent created. It is a draft until it is published.",
		"agent-saved":        "Draft saved. Publish it to make it live.",
		"published":          "Published.",
		"nothing-to-publish": "Nothing to publish: the published version is the draft.",
	}[r.URL.Query().Get("done")]
}

func spaceURL(space string) string { return AppPath + "spaces/" + url.PathEscape(space) + "/" }

func skillURL(space, slug string) string {
	return spaceURL(space) + "skills/" + url.PathEscape(slug)
}

func agentURL(space, id string) string { return spaceURL(space) + "agents/" + url.PathEscape(id) }

func fileURL(space, slug, path string) string {
	return skillURL(space, slug) + "/file?path=" + url.QueryEscape(path)
}

// newUUID is a random version 4 UUID, as the service gives what it
// creates.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// formText is a textarea's value as the app stores it: browsers send line
// ends as CRLF, and the app, reading the field from script, gets LF.
func formText(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// unchangedText reports whether sent, a textarea's value, is what the
// browser sends for stored left as it was: a textarea turns every CR and
// CRLF into LF and a NUL into U+FFFD. Such a field is left as stored, so
// that saving a form changes only what was edited.
func unchangedText(sent, stored string) bool {
	shown := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\x00", "\uFFFD").Replace(stored)
	return formText(sent) == shown
}

// unchangedLine is unchangedText for a one-line input, which drops line
// ends from its value.
func unchangedLine(sent, stored string) bool {
	return sent == strings.NewReplacer("\r", "", "\n", "", "\x00", "\uFFFD").Replace(stored)
}

// parsePages parses each page's template with the layout. The templates
// are part of the binary: an error is a bug, caught by any test of a page.
func parsePages() map[string]*template.Template {
	base := template.Must(template.New("").Funcs(template.FuncMap{"shown": shown}).ParseFS(appTemplates, "app/layout.html"))
	pages := make(map[string]*template.Template)
	for _, name := range []string{"spaces", "space", "skill", "file", "agent", "error"} {
		pages[name] = template.Must(template.Must(base.Clone()).ParseFS(appTemplates, "app/"+name+".html"))
	}
	return pages
}

// spaceRow is a line of the first page.
type spaceRow struct {
	ID, URL                     string
	FeatureDisabled             bool
	Skills, Active, Max, Agents int
}

func (a *App) spacesPage(w http.ResponseWriter, r *http.Request) {
	a.render(w, http.StatusOK, "spaces", page{Title: "Spaces", Notice: notice(r), Data: a.e.spaceRows()})
}

func (e *Emulator) spaceRows() []spaceRow {
	e.mu.Lock()
	defer e.mu.Unlock()
	var rows []spaceRow
	for _, id := range slices.Sorted(maps.Keys(e.spaces)) {
		sp := e.spaces[id]
		rows = append(rows, spaceRow{
			ID: id, URL: spaceURL(id), FeatureDisabled: sp.SkillsFeatureDisabled,
			Skills: len(sp.sortedSkills()), Active: sp.activeCount(), Max: spec.MaxActiveSkills, Agents: len(sp.agents),
		})
	}
	return rows
}
