package remotetest

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// An endpoint of the spec. In the shape of its path "$" stands for the
// space, "*" for an id and "**" for a file's path (one segment or more).
type endpoint struct {
	method, shape string
	key           string // its request counter, which names it
	idField       string // the name of its id in errors; "" for a list
}

// write reports whether the endpoint changes anything, which a read-only
// token may not do: every endpoint but a GET does.
func (ep endpoint) write() bool { return ep.method != http.MethodGet }

// skillWrite reports whether the endpoint changes a skill, which the space's
// skills feature must be on for.
func (ep endpoint) skillWrite() bool { return ep.write() && ep.idField == "skillId" }

// list reports whether the endpoint reads a list, the only endpoints that
// take a query.
func (ep endpoint) list() bool { return ep.idField == "" }

// match is a request resolved against the spec's endpoints.
type match struct {
	endpoint                 // zero: unknown path or method
	allow           []string // methods of a known path, for 405
	space, id, file string   // raw path parameters
}

// route resolves a request path, taken as sent (still escaped): a
// percent-encoded character in a parameter breaks that parameter's rule.
func route(method, rawPath string) match {
	segs := strings.Split(rawPath, "/")
	if segs[0] != "" {
		return match{}
	}
	segs = segs[1:]
	var m match
	for _, ep := range []endpoint{
		{http.MethodGet, "api/v1/spaces/$/skills", KeyListSkills, ""},
		{http.MethodGet, "api/v1/spaces/$/skills/*", KeyGetSkill, "skillId"},
		{http.MethodPatch, "api/v1/spaces/$/skills/*", KeyUpdateSkill, "skillId"},
		{http.MethodPost, "api/v1/spaces/$/skills/*/enable", KeyEnableSkill, "skillId"},
		{http.MethodPost, "api/v1/spaces/$/skills/*/disable", KeyDisableSkill, "skillId"},
		{http.MethodGet, "api/v1/spaces/$/skills/*/files/**", KeyGetFile, "skillId"},
		{http.MethodGet, "api/v1/spaces/$/agents", KeyListAgents, ""},
		{http.MethodDelete, "api/v1/spaces/$/agents/*", KeyDeleteAgent, "agentId"},
		{http.MethodPost, "api/v1/spaces/$/agents/*/publish", KeyPublishAgent, "agentId"},
		{http.MethodGet, "api/kb/assets/$/*", KeyGetAsset, "assetId"},
	} {
		params, ok := matchShape(ep.shape, segs)
		if !ok {
			continue
		}
		if ep.method == method {
			params.endpoint = ep
			return params
		}
		m.space, m.id, m.file = params.space, params.id, params.file
		m.allow = append(m.allow, ep.method)
	}
	slices.Sort(m.allow)
	return m
}

// matchShape reports whether the path segments segs have the shape of a
// route, and reads its parameters. A trailing slash matches no shape, but
// inside a file's path, where its empty segment breaks the path rule.
func matchShape(shape string, segs []string) (match, bool) {
	var m match
	want := strings.Split(shape, "/")
	for i, w := range want {
		switch {
		case w == "**":
			m.file = strings.Join(segs[min(i, len(segs)):], "/")
			return m, m.file != ""
		case i >= len(segs):
			return match{}, false
		case w == "$":
			m.space = segs[i]
		case w == "*":
			m.id = segs[i]
		case w != segs[i]:
			return match{}, false
		}
	}
	return m, len(segs) == len(want) && segs[len(segs)-1] != ""
}

// ServeHTTP answers one request of the spec.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	e.mu.Lock()
	hook, logf := e.onRequest, e.logf
	e.mu.Unlock()
	if hook != nil {
		hook(r)
	}

	m := route(r.Method, r.URL.EscapedPath())
	e.mu.Lock()
	e.requests[cmp.Or(m.key, KeyOther)]++
	fault := e.drawFault()
	faults, answers := e.faults, e.answers
	now := e.clock.now()
	e.mu.Unlock()

	sw := &statusWriter{ResponseWriter: w, errors: answers.Errors, path: r.URL.EscapedPath(), now: now}
	defer func() {
		if logf == nil {
			return
		}
		status := strconv.Itoa(sw.status)
		if fault == faultDrop {
			status = "dropped"
		}
		logf("%s %s %s %s", r.Method, r.URL.RequestURI(), status, time.Since(start).Round(time.Microsecond))
	}()

	if faults.Latency > 0 {
		t := time.NewTimer(faults.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	switch fault {
	case faultDrop:
		if faults.DropAfterWrite {
			e.serve(newDiscardWriter(), r, m)
		}
		dropConnection(w)
		return
	case faultError500:
		writeError(sw, http.StatusInternalServerError, CodeInternal, "injected fault: internal error")
		return
	case faultError503:
		writeError(sw, http.StatusServiceUnavailable, CodeUnavailable, "injected fault: service unavailable")
		return
	case faultRateLimit:
		setRateLimitHeader(sw.Header(), answers.RateLimit, faults.RetryAfter, now)
		writeError(sw, http.StatusTooManyRequests, CodeRateLimited, "injected fault: too many requests")
		return
	}
	e.serve(sw, r, m)
}

// dropConnection closes the client's connection with no answer.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// serve runs the checks in a fixed order: route (404, 405), token (401),
// query, body and path parameters (400, 413, 415), token permission on
// the space (403), space (404), skills feature (403), the resource (404,
// 403 for a built-in skill), then the endpoint's own rules (409, 422).
func (e *Emulator) serve(w http.ResponseWriter, r *http.Request, m match) {
	if m.key == "" {
		if m.allow != nil {
			w.Header().Set("Allow", strings.Join(m.allow, ", "))
			writeError(w, http.StatusMethodNotAllowed, CodeMethodNotAllowed,
				fmt.Sprintf("method %s is not allowed here; allowed: %s", r.Method, strings.Join(m.allow, ", ")))
			return
		}
		writeError(w, http.StatusNotFound, CodeNotFound, "no such endpoint: "+r.URL.EscapedPath())
		return
	}

	tok, ok := e.authenticate(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Bearer realm="skills"`)
		writeError(w, http.StatusUnauthorized, CodeUnauthorized, "missing or unknown bearer token")
		return
	}

	limit, offset, err := parseQuery(r.URL.RawQuery, m.list())
	if err != nil {
		writeError(w, http.StatusBadRequest, CodeInvalidRequest, err.Error())
		return
	}
	var update *remote.SkillUpdate
	if status, code, err := checkBody(r, m.key, &update); err != nil {
		writeError(w, status, code, err.Error())
		return
	}
	if err := checkPathParams(m); err != nil {
		writeError(w, http.StatusBadRequest, CodeInvalidRequest, err.Error())
		return
	}
	if !tok.allows(m.space) {
		writeError(w, http.StatusForbidden, CodeForbidden, "the token has no access to space "+m.space)
		return
	}
	if m.write() && tok.Permission != ReadWrite {
		writeError(w, http.StatusForbidden, CodeForbidden, "the token is read-only")
		return
	}

	e.mu.Lock()
	defer e.mu.Unlock()
	e.landDue()
	sp, ok := e.spaces[m.space]
	if !ok {
		writeError(w, http.StatusNotFound, CodeNotFound, "space not found: "+m.space)
		return
	}
	if m.skillWrite() && sp.SkillsFeatureDisabled {
		writeError(w, http.StatusForbidden, CodeFeatureDisabled, "the skills feature is disabled in space "+m.space)
		return
	}
	if m.list() && e.answers.PageCap > 0 {
		limit = min(limit, e.answers.PageCap)
	}
	switch m.key {
	case KeyListSkills:
		all := sp.sortedSkills()
		items := []remote.Skill{}
		for _, sk := range paginate(all, limit, offset) {
			items = append(items, e.answers.Times.stamp(e.answers.Form.skill(sk.view(false)), inList))
		}
		writeJSON(w, http.StatusOK, e.answers.envelope(items, len(all), limit, offset))
	case KeyListAgents:
		all := sp.sortedAgents()
		items := []any{}
		for _, ag := range paginate(all, limit, offset) {
			items = append(items, e.answers.Agents.agentAnswer(ag.draft))
		}
		writeJSON(w, http.StatusOK, e.answers.envelope(items, len(all), limit, offset))
	case KeyGetSkill, KeyUpdateSkill, KeyEnableSkill, KeyDisableSkill, KeyGetFile:
		sk, ok := sp.skills[m.id]
		if !ok || (sk.Builtin && m.key != KeyUpdateSkill) {
			writeError(w, http.StatusNotFound, CodeNotFound, "skill not found: "+m.id)
			return
		}
		if sk.Builtin {
			writeError(w, http.StatusForbidden, CodeBuiltinSkill, "built-in skills cannot be updated")
			return
		}
		e.serveSkill(w, sp, sk, m, update)
	case KeyPublishAgent, KeyDeleteAgent:
		ag, ok := sp.agents[m.id]
		if !ok {
			writeError(w, http.StatusNotFound, CodeNotFound, "agent not found: "+m.id)
			return
		}
		if m.key == KeyDeleteAgent {
			delete(sp.agents, m.id)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		e.publish(w, ag)
	case KeyGetAsset:
		rec, ok := sp.assets[m.id]
		if !ok {
			writeError(w, http.StatusNotFound, CodeNotFound, "asset not found: "+m.id)
			return
		}
		writeRaw(w, http.StatusOK, rec)
	}
}

// serveSkill runs the single-skill endpoints; e.mu is held.
func (e *Emulator) serveSkill(w http.ResponseWriter, sp *space, sk *skill, m match, u *remote.SkillUpdate) {
	switch m.key {
	case KeyGetSkill:
		writeJSON(w, http.StatusOK, singleSkill(e.answers.Times.stamp(e.answers.Form.skill(sk.view(true)), inGet)))
	case KeyUpdateSkill, KeyEnableSkill, KeyDisableSkill:
		if e.answers.Write == WriteAccepted {
			// The checks of the write run when it lands: a queue answers
			// before it knows.
			e.pending = append(e.pending, pendingWrite{
				due:  e.clock.now().Add(e.answers.AcceptedAfter),
				land: func() { e.writeSkill(sp, sk, m.key, u) },
			})
			writeDone(w, WriteAccepted, remote.Skill{})
			return
		}
		if status, code, err := e.writeSkill(sp, sk, m.key, u); err != nil {
			writeError(w, status, code, err.Error())
			return
		}
		writeDone(w, e.answers.Write, e.answers.Times.stamp(e.answers.Form.skill(sk.view(true)), inWrite))
	case KeyGetFile:
		e.serveFile(w, sk, m.file)
	}
}

// writeSkill makes an update, enable or disable of sk; e.mu is held.
func (e *Emulator) writeSkill(sp *space, sk *skill, key string, u *remote.SkillUpdate) (int, string, error) {
	switch key {
	case KeyUpdateSkill:
		if u.Name != nil {
			sk.Name = *u.Name
		}
		if u.Description != nil {
			sk.Description = *u.Description
		}
		if u.Instructions != nil {
			sk.Instructions = e.faults.Newline.apply(*u.Instructions)
			sk.Unreadable = false
		}
		sk.updatedAt = e.clock.tick()
		sp.sorted = nil
	case KeyEnableSkill:
		// The errors table's 409 sets no condition on the skill (the
		// state table shows it only from enabled = false): at the limit,
		// an enabled skill is refused too, the stricter reading.
		if n := sp.activeCount(); n >= spec.MaxActiveSkills {
			return http.StatusConflict, CodeActiveLimit,
				fmt.Errorf("space %s already has %d active skills (maximum %d)", sp.ID, n, spec.MaxActiveSkills)
		}
		if sk.Enabled {
			break // already enabled: nothing changes
		}
		sk.Enabled = true
		e.stateChanged(sp, sk)
		e.observeActive(sp.ID)
	case KeyDisableSkill:
		if sk.Enabled {
			sk.Enabled = false
			e.stateChanged(sp, sk)
		}
	}
	return 0, "", nil
}

// stateChanged moves sk's updatedAt after an enable or disable, unless
// [Answers.StateKeepsTime] says the service leaves it; e.mu is held.
func (e *Emulator) stateChanged(sp *space, sk *skill) {
	if !e.answers.StateKeepsTime {
		sk.updatedAt = e.clock.tick()
		sp.sorted = nil
	}
}

// serveFile answers a read of a file of sk; e.mu is held.
func (e *Emulator) serveFile(w http.ResponseWriter, sk *skill, file string) {
	if file == skillFileName {
		if sk.Unreadable {
			writeError(w, http.StatusNotFound, CodeNotFound, "SKILL.md cannot be read")
			return
		}
		writeJSON(w, http.StatusOK, remote.SkillFile{Path: file, Content: e.answers.Form.text(sk.renderSkillFile())})
		return
	}
	if c, ok := sk.Files[file]; ok {
		writeJSON(w, http.StatusOK, remote.SkillFile{Path: file, Content: e.answers.Form.text(c)})
		return
	}
	if slices.Contains(sk.BinaryFiles, file) {
		writeError(w, http.StatusNotFound, CodeNotFound, "not a text file: "+file+" (only text files are readable)")
		return
	}
	writeError(w, http.StatusNotFound, CodeNotFound, "file not found: "+file)
}

// publish copies an agent's draft over its published version; e.mu is
// held.
func (e *Emulator) publish(w http.ResponseWriter, ag *agent) {
	if err := e.publishDraft(ag); err != nil {
		writeError(w, http.StatusUnprocessableEntity, CodeEmbedWhitelist, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, e.answers.Agents.agentAnswer(ag.draft))
}

// errEmbedWhitelist refuses to publish an embeddable draft that no domain
// may embed.
var errEmbedWhitelist = errors.New("the draft has embedEnabled true and an empty embedOptions.domainWhitelist")

// publishDraft is a publish, for the API and the app alike: nothing when
// there is nothing to publish, else the draft copied over the published
// version; e.mu is held.
func (e *Emulator) publishDraft(ag *agent) error {
	if ag.draft.Published && !ag.draft.HasUnpublishedChanges {
		return nil
	}
	if ag.draft.EmbedEnabled && len(ag.draft.EmbedOptions.DomainWhitelist) == 0 {
		return errEmbedWhitelist
	}
	ag.updatedAt = e.clock.tick()
	ag.draft.Published = true
	ag.draft.HasUnpublishedChanges = false
	ag.draft.UpdatedAt = formatTime(ag.updatedAt)
	p := cloneAgent(ag.draft)
	ag.published = &p
	ag.publishedUnseen = false
	return nil
}

func (e *Emulator) authenticate(r *http.Request) (TokenInfo, bool) {
	h := r.Header.Values("Authorization")
	if len(h) != 1 {
		return TokenInfo{}, false
	}
	tok, ok := strings.CutPrefix(h[0], "Bearer ")
	if !ok || tok == "" {
		return TokenInfo{}, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.tokens[tok]
	return t, ok
}

// parseQuery accepts limit and offset on the list endpoints and nothing
// anywhere else.
func parseQuery(raw string, list bool) (limit, offset int, err error) {
	limit, offset = spec.DefaultPageLimit, 0
	if raw == "" {
		return limit, offset, nil
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return 0, 0, fmt.Errorf("malformed query string: %v", err)
	}
	for name, vals := range q {
		if !list || (name != "limit" && name != "offset") {
			return 0, 0, fmt.Errorf("unknown query parameter %q", name)
		}
		if len(vals) != 1 {
			return 0, 0, fmt.Errorf("query parameter %q given %d times", name, len(vals))
		}
		n, ok := parseUint(vals[0])
		switch {
		case name == "limit" && (!ok || n < 1 || n > spec.MaxPageLimit):
			return 0, 0, fmt.Errorf("limit must be an integer from 1 to %d (got %q)", spec.MaxPageLimit, vals[0])
		case name == "offset" && !ok:
			return 0, 0, fmt.Errorf("offset must be an integer 0 or more (got %q)", vals[0])
		case name == "limit":
			limit = n
		default:
			offset = n
		}
	}
	return limit, offset, nil
}

// parseUint accepts decimal digits only: no sign, no space, no fraction.
// The spec bounds an offset only below; any value up to 18 digits (what an
// int64 surely holds) is taken, and past the end of the list gives an
// empty page.
func parseUint(s string) (int, bool) {
	if s == "" || len(s) > 18 || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// checkBody reads the body. Update takes a JSON object of known fields of
// the right types; every other endpoint takes no body at all, and a
// Content-Type of JSON with an empty body is refused as a JSON parser
// would (Fastify's default, for one).
func checkBody(r *http.Request, key string, update **remote.SkillUpdate) (int, string, error) {
	body, err := bounded.ReadAll(r.Body, maxBodyBytes)
	if _, ok := errors.AsType[*bounded.TooLargeError](err); ok {
		return http.StatusRequestEntityTooLarge, CodeTooLarge, fmt.Errorf("body larger than %d bytes", maxBodyBytes)
	}
	if err != nil {
		return http.StatusBadRequest, CodeInvalidRequest, fmt.Errorf("reading body: %v", err)
	}
	ct := r.Header.Get("Content-Type")
	isJSON := false
	if ct != "" {
		mt, params, err := mime.ParseMediaType(ct)
		if err == nil && mt == contentTypeJSON {
			cs, ok := params["charset"]
			isJSON = !ok || strings.EqualFold(cs, "utf-8")
		}
	}
	if key != KeyUpdateSkill {
		if len(body) > 0 {
			return http.StatusBadRequest, CodeInvalidRequest, errors.New("this endpoint takes no body")
		}
		if isJSON && r.Method != http.MethodGet {
			return http.StatusBadRequest, CodeInvalidRequest,
				errors.New("body cannot be empty when Content-Type is application/json; send no Content-Type with no body")
		}
		return 0, "", nil
	}
	if len(body) > 0 && !isJSON {
		return http.StatusUnsupportedMediaType, CodeUnsupportedMedia,
			fmt.Errorf("Content-Type must be application/json (got %q)", ct)
	}
	if len(body) == 0 {
		return http.StatusBadRequest, CodeInvalidRequest, errors.New("body required: a JSON object")
	}
	u, err := decodeUpdate(body)
	if err != nil {
		return http.StatusBadRequest, CodeInvalidRequest, err
	}
	if err := remote.CheckUpdate(*u); err != nil {
		return http.StatusBadRequest, CodeInvalidRequest, err
	}
	if u.Name != nil {
		if err := checkASCIIName(*u.Name); err != nil {
			return http.StatusBadRequest, CodeInvalidRequest, err
		}
	}
	*update = u
	return 0, "", nil
}

// checkASCIIName is the emulator's strict reading of "letters" in the name
// rule: ASCII letters only (see the package doc).
func checkASCIIName(name string) error {
	for _, r := range name {
		if r >= utf8.RuneSelf {
			return fmt.Errorf("name may contain only ASCII letters, digits, spaces and hyphens (found %q)", r)
		}
	}
	return nil
}

// decodeUpdate decodes an update body strictly: valid UTF-8, one JSON
// object, no unknown, duplicate or differently-cased keys, string values
// only (null included is refused).
func decodeUpdate(body []byte) (*remote.SkillUpdate, error) {
	if !utf8.Valid(body) {
		return nil, errors.New("body is not valid UTF-8")
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	t, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("body is not valid JSON: %v", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("body must be a JSON object")
	}
	u := new(remote.SkillUpdate)
	seen := make(map[string]bool)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("body is not valid JSON: %v", err)
		}
		key := t.(string)
		if seen[key] {
			return nil, fmt.Errorf("field %q given twice", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("body is not valid JSON: %v", err)
		}
		var dst **string
		switch key {
		case "name":
			dst = &u.Name
		case "description":
			dst = &u.Description
		case "instructions":
			dst = &u.Instructions
		default:
			return nil, fmt.Errorf("unknown field %q (allowed: name, description, instructions)", key)
		}
		if len(raw) == 0 || raw[0] != '"' {
			return nil, fmt.Errorf("field %q must be a string", key)
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("field %q: %v", key, err)
		}
		*dst = &s
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, fmt.Errorf("body is not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("body must hold exactly one JSON object")
	}
	return u, nil
}

func checkPathParams(m match) error {
	check := spec.CheckShortSpaceID
	if m.key == KeyEnableSkill {
		check = spec.CheckSpaceID // the one endpoint that takes both forms
	}
	if err := check(m.space); err != nil {
		return err
	}
	if m.list() {
		return nil
	}
	if err := spec.CheckUUID(m.idField, m.id); err != nil {
		return err
	}
	if m.key == KeyGetFile {
		return spec.CheckFilePath(m.file)
	}
	return nil
}

// paginate is the page of all at offset, of limit items at most; an offset
// past the end gives none.
func paginate[T any](all []T, limit, offset int) []T {
	if offset >= len(all) {
		return nil
	}
	return all[offset:min(offset+limit, len(all))]
}

// statusWriter remembers the status for the log, and what an error body
// needs to take the style [Answers] asks for.
type statusWriter struct {
	http.ResponseWriter
	status int
	errors ErrorStyle
	path   string
	now    time.Time
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// discardWriter takes the answer of a request whose connection is then
// dropped.
type discardWriter struct{ h http.Header }

func newDiscardWriter() *discardWriter               { return &discardWriter{h: make(http.Header)} }
func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}
