package lint

import (
	"bytes"
	"cmp"
	"fmt"
	"math/bits"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/visible"
)

// A File is a file of a skill folder: its path within the folder,
// slash-separated, and its content as stored.
type File struct {
	Path string
	Data []byte
}

// Options are what a [Judge] knows beyond its rules.
type Options struct {
	// Secrets are the secrets this process holds, by the name of the
	// variable that holds each (SKILLSYNC_TOKEN -> its value). A skill
	// holding one is an error that names the variable, never the value.
	Secrets map[string]string
}

// A Judge holds the rules, and the secrets of the process. It is safe for
// concurrent use. Its expressions compile when a text first needs them.
type Judge struct {
	dets    []detector
	leaks   []leakRule
	leakCfg leakGlobal
	// ac finds in one pass every anchor of the detectors, every keyword
	// of the secret rules, every literal of the prefilters and every mark
	// of the process's secrets; wakes[pattern] lists what each wakes.
	ac    *automaton
	wakes [][]wake
	// detPre and leakPre are the prefilters of the detectors and of the
	// secret rules, by index; need[i] is the group of dets[i].need, or -1.
	detPre, leakPre []prefilter
	need            []int
	groups          int
	// oneByte[g], when not empty, holds the literals of group g, each a
	// single byte, so ASCII: a byte is too common to find in the
	// automaton, so [scan.has] looks for it in the text.
	oneByte []string
	secrets []knownSecret
	// gated[i] says that secrets[i] is in a text only if the automaton
	// found one of its marks there.
	gated []bool
	// scratches holds *scratch, the memory of scans done before.
	scratches sync.Pool
	topics    wordIndex // of securityTopics
}

// A wake is what an occurrence of a pattern of the automaton concerns;
// anchor is the pattern's index among the anchors of dets[i].
type wake struct {
	kind   wakeKind
	anchor uint16
	i      int32
}

type wakeKind uint8

const (
	wakeDetector wakeKind = iota // an anchor of dets[i]
	wakeLeak                     // a keyword of leaks[i]
	wakeGroup                    // a literal of group i
	wakeSecret                   // a mark of secrets[i]
)

// New makes the Judge of the rules and of the secrets in opts.
func New(opts Options) *Judge {
	j := &Judge{dets: detectors(), topics: newWordIndex(securityTopics())}
	anchorDetectors(j.dets)
	j.leaks, j.leakCfg = loadLeakRules()
	for name, v := range opts.Secrets {
		if v != "" {
			j.secrets = append(j.secrets, newKnownSecret(name, v))
		}
	}
	sort.Slice(j.secrets, func(a, b int) bool { return j.secrets[a].name < j.secrets[b].name })
	j.ac = j.buildAutomaton()
	return j
}

// anchorDetectors makes the expressions of detectors tried at an anchor
// match there, and compiles their prefixes.
func anchorDetectors(dets []detector) {
	for i := range dets {
		if d := &dets[i]; !d.window {
			d.re = mustCompile(`^(?:` + d.re.String() + `)`)
		}
		if d := &dets[i]; d.prefix != "" {
			d.pre = mustCompile(`(?:` + d.prefix + `)$`)
		}
	}
}

// buildAutomaton gathers the patterns of the automaton and what each
// wakes, and makes the prefilters.
func (j *Judge) buildAutomaton() *automaton {
	ids := map[string]int{}
	var patterns []string
	add := func(p string, w wake) {
		id, ok := ids[p]
		if !ok {
			id = len(patterns)
			ids[p] = id
			patterns = append(patterns, p)
			j.wakes = append(j.wakes, nil)
		}
		j.wakes[id] = append(j.wakes[id], w)
	}
	groupIDs := map[string]int{}
	group := func(lits []string) int {
		key := strings.Join(lits, "\x00")
		if g, ok := groupIDs[key]; ok {
			return g
		}
		g := j.groups
		j.groups++
		groupIDs[key] = g
		j.oneByte = append(j.oneByte, "")
		if !slices.ContainsFunc(lits, func(l string) bool { return len(l) != 1 }) {
			j.oneByte[g] = strings.Join(lits, "")
			return g
		}
		for _, l := range lits {
			add(l, wake{kind: wakeGroup, i: int32(g)})
		}
		return g
	}
	// whole says that every stretch of text the prefilter tests holds
	// the anchor that woke the rule whole: a group of which each anchor
	// holds a literal then always passes, and is left out.
	prefilterOf := func(d derivation, anchors []string, whole bool) prefilter {
		var p prefilter
		if d.runLen > 0 {
			// A token's run is the better test, and costs the
			// automaton nothing.
			p.runSet, p.runLen = d.runSet(), d.runLen
			return p
		}
		for _, lits := range d.groups {
			if !subset(lits, anchors) && !(whole && implied(lits, anchors)) { // anchors are there already
				p.groups = append(p.groups, group(lits))
			}
		}
		return p
	}
	j.detPre = make([]prefilter, len(j.dets))
	j.need = make([]int, len(j.dets))
	for i, d := range j.dets {
		for k, a := range d.anchors {
			add(a, wake{kind: wakeDetector, anchor: uint16(k), i: int32(i)})
		}
		// A window holds its anchors; a try at an anchor tests the text
		// from it to the detector's reach.
		_, after := d.reach()
		whole := d.window || !slices.ContainsFunc(d.anchors, func(a string) bool { return len(a) > after })
		derived := detectorDerivation(d.re.String())
		j.detPre[i] = prefilterOf(derived, d.anchors, whole)
		if d.window {
			j.detPre[i].setStarts(derived.branches)
		} else {
			j.detPre[i].lines = lineTests(derived.branches, d.anchors)
		}
		j.need[i] = -1
		if len(d.need) > 0 {
			j.need[i] = group(d.need)
		}
	}
	j.leakPre = make([]prefilter, len(j.leaks))
	for i, l := range j.leaks {
		for _, k := range l.keywords {
			add(k, wake{kind: wakeLeak, i: int32(i)})
		}
		j.leakPre[i] = prefilterOf(l.derived, l.keywords, true)
	}
	j.gated = make([]bool, len(j.secrets))
	for i, k := range j.secrets {
		if j.gated[i] = k.gateable(); j.gated[i] {
			for _, m := range k.foldedMarks() {
				add(m, wake{kind: wakeSecret, i: int32(i)})
			}
		}
	}
	// An anchor of a detector tried at it, or a keyword of a secret
	// rule, wakes nothing inside a word.
	wordOnly := make([]bool, len(patterns))
	for id, ws := range j.wakes {
		wordOnly[id] = !slices.ContainsFunc(ws, func(w wake) bool {
			return w.kind != wakeLeak && (w.kind != wakeDetector || j.dets[w.i].window)
		})
	}
	return newAutomaton(patterns, wordOnly)
}

// lineTests are the line tests of a try at each of anchors of an
// expression split into branches: a branch that may start at the anchor
// takes part, with its steps, and its groups but those the anchor holds.
func lineTests(branches []branch, anchors []string) []lineTest {
	classes := map[string]*[256]bool{}
	var tests []lineTest
	some := false
	for _, a := range anchors {
		var t lineTest
		for _, b := range branches {
			if !b.mayStart(a) {
				continue
			}
			var tb testBranch
			for _, g := range b.lines {
				if !slices.ContainsFunc(g.lits, func(l string) bool { return strings.Contains(a, l) }) {
					tb.lines = append(tb.lines, g)
				}
			}
			for _, st := range b.steps {
				if st.class != "" && classes[st.class] == nil {
					classes[st.class] = rangeSet(st.class)
				}
				tb.steps = append(tb.steps, testStep{strs: st.strs, class: classes[st.class]})
			}
			if len(tb.lines) == 0 && len(tb.steps) == 0 {
				t = nil // a branch with no test passes every try
				break
			}
			t = append(t, tb)
		}
		tests = append(tests, t)
		some = some || t != nil
	}
	if !some {
		return nil
	}
	return tests
}

// subset reports whether every literal of lits is one of words.
func subset(lits, words []string) bool {
	for _, l := range lits {
		found := false
		for _, w := range words {
			found = found || l == w
		}
		if !found {
			return false
		}
	}
	return true
}

// implied reports whether each of anchors holds one of lits.
func implied(lits, anchors []string) bool {
	for _, a := range anchors {
		if !slices.ContainsFunc(lits, func(l string) bool { return strings.Contains(a, l) }) {
			return false
		}
	}
	return len(anchors) > 0
}

// Skill judges the files of one skill folder: SKILL.md whole (frontmatter
// and body, well formed or not) and every other text file, a document or
// a script whatever bytes it holds; other binary files are skipped. Findings come sorted by path, line and column.
func (j *Judge) Skill(files []File) []Finding {
	about := false
	for _, f := range files {
		if f.Path == "SKILL.md" {
			about = j.aboutAttacks(f.Data)
		}
	}
	var out []Finding
	for _, f := range files {
		out = append(out, j.file(f.Path, f.Data, about)...)
	}
	sortFindings(out)
	return out
}

func (j *Judge) file(p string, data []byte, about bool) []Finding {
	// SKILL.md, the instructions the space gets, a document or a script
	// (by its extension or its #! line) is judged whatever bytes it holds:
	// a model and a shell read past NUL bytes.
	if !skillmd.IsTextPath(p) && !bytes.HasPrefix(data, []byte("#!")) && isBinary(data) {
		return nil
	}
	// raw shares data's memory, which the caller does not change while
	// it is judged: nothing a finding keeps may hold a piece of raw.
	raw := unsafe.String(unsafe.SliceData(data), len(data))
	s := j.scan(p, raw, "", 0, about)
	if len(s.out) > 0 {
		// Hashed only for what it found: most files have nothing to waive.
		h := ContentHash(data)
		for i := range s.out {
			s.out[i].Hash = h
		}
	}
	return s.out
}

// aboutAttacks reports whether the head of a SKILL.md (its name,
// description and title) presents the skill as security work: a
// scanner, a red team's or a pentester's guide, a course on attacks.
func (j *Judge) aboutAttacks(skillMD []byte) bool {
	sc := j.takeScratch()
	defer j.scratches.Put(sc)
	head := newText(string(skillHead(skillMD[:min(len(skillMD), 1024)])), &sc.text).fold
	return j.topics.firstAtWordStart(head)
}

// A wordIndex finds in one pass over a text where each of up to 64 words
// of two bytes or more first occurs.
type wordIndex struct {
	words []string
	// first[c] (second[c]) has bit k set when the first (second) byte of
	// words[k] is c.
	first, second [256]uint64
}

func newWordIndex(words []string) wordIndex {
	if len(words) > 64 {
		panic("lint: a wordIndex holds 64 words at most")
	}
	x := wordIndex{words: words}
	for k, w := range words {
		x.first[w[0]] |= 1 << k
		x.second[w[1]] |= 1 << k
	}
	return x
}

// firstAtWordStart reports whether the first occurrence in b of one of
// the words starts a word of b.
func (x *wordIndex) firstAtWordStart(b []byte) bool {
	var seen uint64 // the words whose first occurrence is behind
	for i := 0; i+1 < len(b); i++ {
		for m := x.first[b[i]] & x.second[b[i+1]] &^ seen; m != 0; m &= m - 1 {
			k := bits.TrailingZeros64(m)
			if w := x.words[k]; len(w) <= len(b)-i && string(b[i:i+len(w)]) == w {
				if wordStart(b, i) {
					return true
				}
				seen |= 1 << k
			}
		}
	}
	return false
}

// skillHead is the frontmatter of a SKILL.md and its first heading: what
// says what the skill is, before its commands begin.
func skillHead(b []byte) []byte {
	i := 0
	if bytes.HasPrefix(b, []byte("---")) {
		if end := bytes.Index(b[3:], []byte("\n---")); end >= 0 {
			i = 3 + end + 4
		}
	}
	for i < len(b) {
		nl := bytes.IndexByte(b[i:], '\n')
		if nl < 0 {
			return b
		}
		line := bytes.TrimSpace(b[i : i+nl])
		i += nl + 1
		if bytes.HasPrefix(line, []byte("#")) {
			return b[:i]
		}
		if len(line) > 0 && !bytes.HasPrefix(line, []byte("---")) {
			return b[:i] // text before any heading: it presents the skill too
		}
	}
	return b
}

// securityTopics are the stems of words by which a skill says it is
// about security.
func securityTopics() []string {
	return []string{"security", "pentest", "penetration test", "red team", "red-team", "redteam", "offensive", "ctf", "forensic",
		"incident response", "threat", "malware", "vulnerabilit", "exploit", "hacking", "hacker", "osint", "siem",
		"prompt injection", "sql injection", "code injection", "command injection", "guardrail", "jailbreak", "attack",
		"firewall", "intrusion", "privilege escalation", "安全", "入侵", "攻击", "漏洞", "注入", "检测"}
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(a, b int) bool {
		x, y := fs[a], fs[b]
		if x.Path != y.Path {
			return x.Path < y.Path
		}
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		if x.Col != y.Col {
			return x.Col < y.Col
		}
		return x.Rule < y.Rule
	})
}

// isBinary reports whether data is not text: mostly NUL bytes and
// invalid UTF-8 in its first 8 KiB. A few NUL bytes leave a text a text,
// as a model and a shell read past them.
func isBinary(data []byte) bool {
	head := data[:min(len(data), 8192)]
	bad := bytes.Count(head, []byte{0})
	for i := 0; i < len(head); {
		if head[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 && len(head)-i >= utf8.UTFMax {
			bad++
		}
		i += n
	}
	return bad*10 > len(head)
}

// maxDepth bounds how deep decoded text is decoded and judged again.
const maxDepth = 2

// A scan is the judging of one text: a file, or what a blob or hidden
// characters of a file decode to.
type scan struct {
	j     *Judge
	path  string
	t     *text
	fold  []byte
	hash  string
	depth int
	// aboutAttacks says the skill presents itself as security work:
	// what it finds that documentation may explain is lowered.
	aboutAttacks bool
	// work counts the bytes expressions were run over, decoded text's
	// included: what a test of linearity measures.
	work  int
	out   []Finding
	spans []span // of out, in fold
	// lits lists where the literals of each prefilter group occur, and
	// marked which secrets' marks occur: see [scan.findLiterals].
	lits   [][]literal
	marked []bool
	sc     *scratch
}

// A scratch is the memory a scan works in, which no finding keeps; a
// scan owns it until it is done.
type scratch struct {
	text   textBuf
	hits   []hit
	cur    [][2]int
	done   []int
	order  []int
	lits   [][]literal
	marked []bool
}

// resize is s with n elements, reusing its memory when it has room; the
// elements are not cleared.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// A span is where a finding lies in fold, and what may change its
// severity.
type span struct {
	start, end int
	doc        bool // documentation about attacks lowers it
	hidden     bool // it lies in markup no reader sees: never lowered
	prose      bool // words of instruction, which code and quotes make data
}

// takeScratch is memory for a scan, to put back in j.scratches when the
// scan is done.
func (j *Judge) takeScratch() *scratch {
	if sc, ok := j.scratches.Get().(*scratch); ok {
		return sc
	}
	return &scratch{}
}

func (j *Judge) scan(p, raw, hash string, depth int, about bool) *scan {
	sc := j.takeScratch()
	// Nothing keeps the text or the state of its scan once it is judged:
	// their memory serves the next.
	defer j.scratches.Put(sc)
	t := newText(raw, &sc.text)
	s := &scan{j: j, path: p, t: t, fold: t.fold, hash: hash, depth: depth, aboutAttacks: about, sc: sc}
	s.hiddenUnicode()
	s.detect()
	s.offscreen()
	s.knownSecrets()
	s.payloads()
	if isMarkup(p) {
		s.hiddenMarkdown()
	}
	s.disguises()
	s.documentation()
	s.accents()
	if depth == 0 {
		s.redactSecrets()
	}
	return s
}

// disguises raises to an error a finding whose words hide characters no
// one sees, or letters that only look Latin: an honest text has no reason
// to disguise what another rule found in it.
func (s *scan) disguises() {
	for i := range s.out {
		sp := &s.spans[i]
		if sp.start < 0 || s.out[i].Severity == SeverityError {
			continue
		}
		if disguised(s.t.raw[s.t.rawOff(sp.start):s.t.rawEnd(sp.end)]) {
			sp.hidden = true // never lowered as documentation
			s.out[i].Severity = SeverityError
			s.out[i].Message += " (disguised with invisible or look-alike characters)"
		}
	}
}

// disguised reports whether s holds an invisible character or a letter
// that folds to ASCII (fullwidth, mathematical, Cyrillic or Greek
// look-alikes); curly quotes, dashes and non-breaking spaces are ordinary
// typography.
func disguised(s string) bool {
	for _, r := range s {
		if r < 0x80 || r >= 0x2010 && r <= 0x201f || r == 0xa0 || r == 0x2212 {
			continue
		}
		if visible.KindOf(r) != visible.KindNone {
			return true
		}
		if _, ok := lookAlike(r); ok {
			return true
		}
		var buf [8]byte
		if out := foldRune(buf[:0], r); len(out) == 1 && out[0] < 0x80 && out[0] > ' ' {
			return true
		}
	}
	return false
}

// redactSecrets keeps the process's secrets out of what findings show,
// however a match or decoded text spells them.
func (s *scan) redactSecrets() {
	for i := range s.out {
		f := &s.out[i]
		for _, k := range s.j.secrets {
			f.Match = k.r.Redact(f.Match)
			f.Decoded = k.r.Redact(f.Decoded)
			f.Message = k.r.Redact(f.Message)
		}
	}
}

func isMarkup(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx", ".html", ".htm", ".txt", "":
		return true
	}
	return false
}

// add records a finding of rule over fold[start:end]; sp says what may
// change its severity.
func (s *scan) add(rule string, sev Severity, start, end int, decoded, msg string, sp span) {
	rs, re := s.t.rawOff(start), s.t.rawEnd(end)
	s.addRaw(rule, sev, rs, re, decoded, msg)
	sp.start, sp.end = start, end
	s.spans[len(s.spans)-1] = sp
}

// addRaw records a finding over raw[rs:re]; its span is empty, so it is
// neither lowered nor raised.
func (s *scan) addRaw(rule string, sev Severity, rs, re int, decoded, msg string) {
	line, col := s.t.pos(rs)
	// The match shows without the line break a pattern took in at its end.
	match := s.t.raw[rs:re]
	if m := strings.TrimRight(match, "\r\n"); m != "" {
		match = m
	}
	s.out = append(s.out, Finding{
		Rule: rule, Severity: sev, Path: s.path, Line: line, Col: col,
		Message: msg, Match: strings.Clone(excerpt(match)), Decoded: shorten(decoded, maxExcerpt), Hash: s.hash,
	})
	s.spans = append(s.spans, span{start: -1, end: -1})
}

// maxPerRule is the most findings of one rule reported for one text: the
// first ones say what there is to say, and a hostile file must not make
// the work grow with their number.
const maxPerRule = 20

// maxExcerpt is the most characters of matched or decoded text a finding
// shows.
const maxExcerpt = 200

// excerpt is s as it is, cut to maxExcerpt characters: renderers show
// what no one can see in it.
func excerpt(s string) string {
	return shorten(s, maxExcerpt)
}

func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// window widens fold[lo:hi] to whole lines, by up to 240 bytes each way.
func (s *scan) window(lo, hi int) (int, int) {
	lo, hi = max(lo, 0), min(hi, len(s.fold))
	if i := bytes.LastIndexByte(s.fold[max(lo-240, 0):lo], '\n'); i >= 0 {
		lo = max(lo-240, 0) + i + 1
	}
	if i := bytes.IndexByte(s.fold[hi:min(hi+240, len(s.fold))], '\n'); i >= 0 {
		hi += i
	}
	return lo, hi
}

// detect runs the detectors and secret rules that anchors woke. A
// detector whose expression starts with its anchor is tried at each
// occurrence only, anchored there; the others (and the secret rules) run
// over the windows around their anchors, merged where they overlap. Each
// try and each window is bounded, so the work is linear in the text; a
// try or window that lacks what every match holds is skipped.
func (s *scan) detect() {
	if len(s.fold) == 0 {
		return
	}
	sc := s.scratch()
	hits := s.j.ac.appendHits(sc.hits[:0], s.fold)
	sc.hits = hits
	if len(hits) == 0 {
		return
	}
	s.findLiterals(hits)
	nd := len(s.j.dets)
	cur := resize(sc.cur, nd+len(s.j.leaks)) // the window each target has open
	for i := range cur {
		cur[i] = [2]int{-1, -1}
	}
	done := resize(sc.done, nd) // where each anchored detector's last match ended
	clear(done)
	order := sc.order[:0] // windowed targets in the order their first window opened
	defer func() { sc.cur, sc.done, sc.order = cur, done, order }()
	flush := func(target int) {
		w := cur[target]
		if w[0] < 0 {
			return
		}
		if target < nd {
			s.runDetector(target, w[0], w[1])
		} else if s.leakPasses(target-nd, w[0], w[1]) {
			s.runLeak(&s.j.leaks[target-nd], w[0], w[1])
		}
	}
	for _, h := range hits {
		for _, wk := range s.j.wakes[h.PatternID] {
			if wk.kind != wakeDetector && wk.kind != wakeLeak {
				continue
			}
			target := int(wk.i)
			// Secret rules' expressions reach a little before their
			// keyword and a token's length after it.
			before, after, lines := 64, 256, false
			if wk.kind == wakeDetector {
				d := &s.j.dets[target]
				if !d.window {
					if h.Start >= done[target] && wordStart(s.fold, h.Start) {
						if end := s.tryAt(target, int(wk.anchor), h.Start); end > 0 {
							done[target] = end
						}
					}
					continue
				}
				before, after = d.reach()
				lines = d.lines
			} else {
				if !wordStart(s.fold, h.Start) || s.j.leaks[target].assigned && !assignmentAfter(s.fold, h.End) {
					continue // a keyword inside a word, or with no value given it
				}
				target += nd
			}
			lo, hi := max(h.Start-before, 0), min(h.End+after, len(s.fold))
			if lines {
				lo, hi = s.window(lo, hi)
			}
			w := &cur[target]
			switch {
			case w[0] < 0:
				order = append(order, target)
				*w = [2]int{lo, hi}
			case lo <= w[1]:
				w[1] = max(w[1], hi)
			default:
				flush(target)
				*w = [2]int{lo, hi}
			}
		}
	}
	for _, target := range order {
		flush(target)
	}
}

// scratch is the memory of the scan, made if it has none.
func (s *scan) scratch() *scratch {
	if s.sc == nil {
		s.sc = &scratch{}
	}
	return s.sc
}

// A literal is an occurrence in fold of a literal of a prefilter's group.
// Those of a group are kept in the order they end; maxStart is the
// latest start of those up to this one.
type literal struct {
	end, maxStart int
}

// findLiterals records where the literals of each group occur, and
// which secrets of the process may be in the text.
func (s *scan) findLiterals(hits []hit) {
	for _, h := range hits {
		for _, wk := range s.j.wakes[h.PatternID] {
			switch wk.kind {
			case wakeGroup:
				if s.lits == nil {
					s.lits = resize(s.scratch().lits, s.j.groups)
					for g := range s.lits {
						s.lits[g] = s.lits[g][:0]
					}
					s.sc.lits = s.lits
				}
				l := &s.lits[wk.i]
				ms := h.Start
				if n := len(*l); n > 0 {
					ms = max(ms, (*l)[n-1].maxStart)
				}
				*l = append(*l, literal{h.End, ms})
			case wakeSecret:
				if s.marked == nil {
					s.marked = resize(s.scratch().marked, len(s.j.secrets))
					clear(s.marked)
					s.sc.marked = s.marked
				}
				s.marked[wk.i] = true
			}
		}
	}
}

// has reports whether a literal of group g lies within fold[lo:hi].
func (s *scan) has(g, lo, hi int) bool {
	if set := s.j.oneByte[g]; set != "" {
		return bytes.ContainsAny(s.fold[lo:hi], set)
	}
	if s.lits == nil {
		return false
	}
	l := s.lits[g]
	// The last literal ending by hi, and the latest start up to it.
	k := sort.Search(len(l), func(k int) bool { return l[k].end > hi }) - 1
	return k >= 0 && l[k].maxStart >= lo
}

// leakPasses reports whether the raw text of fold[lo:hi] may hold a
// match of leaks[i]: its literals, and a run as long as its token.
func (s *scan) leakPasses(i, lo, hi int) bool {
	p := &s.j.leakPre[i]
	if !s.passes(p, lo, hi) {
		return false
	}
	return p.runSet == nil || hasRun(s.t.raw[s.t.rawOff(lo):s.t.rawEnd(hi)], p.runSet, p.runLen)
}

// passes reports whether fold[lo:hi] holds a literal of each group of p.
func (s *scan) passes(p *prefilter, lo, hi int) bool {
	for _, g := range p.groups {
		if !s.has(g, lo, hi) {
			return false
		}
	}
	return true
}

// assignmentAfter reports whether an assignment (=, :, =>, a comma)
// follows fold[i] within the reach of gitleaks' assignment rules.
func assignmentAfter(fold []byte, i int) bool {
	return bytes.ContainsAny(fold[i:min(i+48, len(fold))], "=:>,")
}

// wordStart reports whether fold[i] starts a word: an anchor inside a
// longer word ("let" in "delete") is no occurrence.
func wordStart(fold []byte, i int) bool {
	if i == 0 || !isWordByte(fold[i]) {
		return true
	}
	return !isWordByte(fold[i-1])
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c >= 0x80
}

// tryAt matches the anchored detector dets[t] at fold[i], where its
// anchor k lies, and returns where its match ends, or 0.
func (s *scan) tryAt(t, k, i int) int {
	d := &s.j.dets[t]
	_, after := d.reach()
	end := min(i+after, len(s.fold))
	if g := s.j.need[t]; g >= 0 && !s.has(g, i, min(i+160, end)) {
		return 0
	}
	if p := &s.j.detPre[t]; !s.passes(p, i, end) || p.lines != nil && !p.lines[k].holds(s.fold[i:end]) {
		return 0
	}
	s.work += end - i
	m := d.re.FindSubmatchIndex(s.fold[i:end])
	if m == nil {
		return 0
	}
	// The prefix, searched backwards over the line, costs more than the
	// expression anchored here: it runs only when that matched.
	start := i
	if d.pre != nil {
		lo := max(i-240, 0)
		if nl := bytes.LastIndexByte(s.fold[lo:i], '\n'); nl >= 0 {
			lo += nl + 1
		}
		s.work += i - lo
		pm := d.pre.FindIndex(s.fold[lo:i])
		if pm == nil {
			return 0
		}
		start = lo + pm[0]
	}
	for k := range m {
		if m[k] >= 0 {
			m[k] += i
		}
	}
	m[0] = start
	s.report(d, m)
	return m[1]
}

func (s *scan) runDetector(t, lo, hi int) {
	p := &s.j.detPre[t]
	if !s.passes(p, lo, hi) {
		return
	}
	d := &s.j.dets[t]
	s.work += hi - lo
	var ms [][]int
	if at := d.re.atLine(); at != nil {
		ms = allAtLines(at, s.fold[lo:hi])
	} else if p.starts != nil {
		ms = allAtStarts(d.re, p, s.fold[lo:hi])
	} else {
		ms = d.re.FindAllSubmatchIndex(s.fold[lo:hi], -1)
	}
	for _, m := range ms {
		for k := range m {
			if m[k] >= 0 {
				m[k] += lo
			}
		}
		s.report(d, m)
	}
}

// allAtLines returns what FindAllSubmatchIndex(b, -1) returns for an
// expression whose matches start at line starts, at being it anchored at
// its input's start: it tries at each line start only.
func allAtLines(at *regexp.Regexp, b []byte) [][]int {
	var ms [][]int
	prev := -1 // where the last match ended
	for p := 0; p <= len(b); {
		from := p // the next try starts at the first line start after from
		if m := at.FindSubmatchIndex(b[p:]); m != nil && (m[1] > 0 || p != prev) {
			for k := range m {
				if m[k] >= 0 {
					m[k] += p
				}
			}
			ms = append(ms, m)
			prev, from = m[1], m[1]
		}
		if from > p && b[from-1] == '\n' {
			p = from
			continue
		}
		nl := bytes.IndexByte(b[from:], '\n')
		if nl < 0 {
			return ms
		}
		p = from + nl + 1
	}
	return ms
}

// allAtStarts returns what e.FindAllSubmatchIndex(b, -1) returns, b
// being folded text and every match of e starting with one of p.starts:
// it tries e only where one of them occurs, anchored there, with the
// byte before as what e's assertions see before the match.
func allAtStarts(e *expression, p *prefilter, b []byte) [][]int {
	var ms [][]int
	for i := 0; i < len(b); i++ {
		if !p.first[b[i]] || !slices.ContainsFunc(p.starts, func(s string) bool { return bytes.HasPrefix(b[i:], []byte(s)) }) {
			continue
		}
		var m []int
		if i == 0 {
			m = e.anchored().FindSubmatchIndex(b)
		} else if m = e.behind().FindSubmatchIndex(b[i-1:]); m != nil {
			// A string of p.starts begins a character, so the one
			// before it, as behind reads it, is the byte before i.
			for k := range m {
				if m[k] >= 0 {
					m[k] += i - 1
				}
			}
			m[0] = i
		}
		if m != nil {
			ms = append(ms, m)
			i = m[1] - 1 // every match holds a string of p.starts, so is not empty
		}
	}
	return ms
}

// report records the match m of d, unless a finding of its rule covers it.
func (s *scan) report(d *detector, m []int) {
	if s.seen(d.rule, m[0]) {
		return
	}
	v := verdict{d.sev, d.msg, ""}
	if d.refine != nil {
		if v = d.refine(s, m); v.sev == 0 {
			return
		}
		v.msg = cmp.Or(v.msg, d.msg)
	}
	s.add(d.rule, v.sev, m[0], m[1], v.decoded, v.msg, span{doc: !d.noDoc, prose: d.prose})
}

// seen reports whether a finding of rule already covers fold[start], or
// the rule has reported as many findings in this text as one shows.
func (s *scan) seen(rule string, start int) bool {
	count := 0
	for i := len(s.out) - 1; i >= 0; i-- {
		if s.out[i].Rule == rule {
			if count++; count >= maxPerRule {
				return true
			}
		}
		if s.out[i].Rule == rule && s.spans[i].start <= start && start < s.spans[i].end {
			return true
		}
	}
	return false
}

// group is the text of submatch k of m in fold, or "".
func (s *scan) group(m []int, k int) string {
	if 2*k+1 >= len(m) || m[2*k] < 0 {
		return ""
	}
	return string(s.fold[m[2*k]:m[2*k+1]])
}

// hiddenUnicode reports the runs of invisible characters, and judges again
// what they spell.
func (s *scan) hiddenUnicode() {
	if s.t.plain {
		return // printable ASCII hides nothing
	}
	for _, r := range visible.Runs(s.t.raw) {
		sev, what := SeverityWarning, r.Main().String()
		switch {
		case r.Has(visible.KindStack):
			// A warning, unless the letters it smears read as an attack.
		case r.Has(visible.KindTag):
			sev = SeverityError
		case r.Decoded != "":
			sev = SeverityError
		case r.Has(visible.KindVariation) && r.Count >= 2:
			sev = SeverityError
		case r.Has(visible.KindZeroWidth) && r.Count >= 3:
			sev = SeverityError
		case r.Has(visible.KindBidi) && !r.Has(visible.KindZeroWidth) && bidiOverride(s.t.raw[r.Start:r.End]):
			sev = SeverityError
		case r.Main() == visible.KindSoftHyphen || r.Main() == visible.KindSeparator:
			sev = SeverityNote
		}
		if s.aboutAttacks && r.Decoded == "" && !r.Has(visible.KindTag) {
			sev = sev.lower() // a security skill's sample of what hides text
		}
		msg := fmt.Sprintf("%d %s no one can see", r.Count, what)
		switch {
		case r.Has(visible.KindStack):
			msg = fmt.Sprintf("%d combining marks stacked on %s smear it past reading", r.Count, visible.Quote(shorten(r.Decoded, 80)))
			if inner := s.judgeDecoded(r.Decoded); inner != "" {
				msg += "; without them, " + inner
				sev = SeverityError
			}
		case r.Decoded != "":
			msg = fmt.Sprintf("%d %s no one can see spell %s", r.Count, what, visible.Quote(shorten(r.Decoded, 80)))
			if inner := s.judgeDecoded(r.Decoded); inner != "" {
				msg += "; decoded, " + inner
			}
		}
		s.addRaw(RuleHiddenUnicode, sev, r.Start, r.End, r.Decoded, msg)
	}
}

// bidiOverride reports whether s holds an embedding, override or isolate,
// not just a mark.
func bidiOverride(s string) bool {
	for _, r := range s {
		if r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return true
		}
	}
	return false
}

// judgeDecoded judges text decoded from s's text, and describes its most
// severe finding, or returns "" if it has none.
func (s *scan) judgeDecoded(decoded string) string {
	if s.depth >= maxDepth {
		return ""
	}
	inner := s.j.scan(s.path, decoded, s.hash, s.depth+1, s.aboutAttacks)
	s.work += inner.work
	var best *Finding
	for i := range inner.out {
		f := &inner.out[i]
		if best == nil || f.Severity > best.Severity {
			best = f
		}
	}
	if best == nil || best.Severity < SeverityWarning {
		return ""
	}
	return fmt.Sprintf("%s [%s]", best.Message, best.Rule)
}

// knownSecrets reports each secret of the process that the text holds,
// by the name of its variable.
func (s *scan) knownSecrets() {
	for i, k := range s.j.secrets {
		if s.j.gated[i] && (s.marked == nil || !s.marked[i]) {
			continue // none of its marks, so none of its spellings
		}
		if off, ok := k.find(s.t.raw, s.fold); ok {
			line, col := s.t.pos(off)
			s.out = append(s.out, Finding{
				Rule: RuleKnownSecret, Severity: SeverityError, Path: s.path, Line: line, Col: col,
				Message: fmt.Sprintf("holds the value of %s, a secret of this process", k.name),
				Match:   "[" + k.name + "]", Hash: s.hash,
			})
			s.spans = append(s.spans, span{start: -1, end: -1})
		}
	}
}

// gateable reports whether the automaton may stand in for the first test
// of [knownSecret.find]: the secret is ASCII, so a text holding it holds
// its first mark in the folded text.
func (k knownSecret) gateable() bool {
	for i := 0; i < len(k.v); i++ {
		if k.v[i] >= 0x80 {
			return false
		}
	}
	return len(k.marks) > 0 && strings.Contains(strings.ToLower(k.v), k.marks[0])
}

// foldedMarks are what the folded text holds wherever [knownSecret.find]
// may find the secret: its marks lowered, and escapes that may spell it.
func (k knownSecret) foldedMarks() []string {
	ms := []string{`\u00`, "&#", "%25"}
	for _, m := range k.marks {
		ms = append(ms, strings.ToLower(m))
	}
	return ms
}

// lineOf is the text of the line of fold holding fold[i].
func (s *scan) lineOf(i int) []byte {
	lo := bytes.LastIndexByte(s.fold[:i], '\n') + 1
	hi := bytes.IndexByte(s.fold[i:], '\n')
	if hi < 0 {
		return s.fold[lo:]
	}
	return s.fold[lo : i+hi]
}

// around is fold from n bytes before start to n bytes after end.
func (s *scan) around(start, end, n int) []byte {
	return s.fold[max(start-n, 0):min(end+n, len(s.fold))]
}
