package reconcile

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile/diff"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// Live is the state of a space as [fetch.Space] reads it, what [Compute]
// plans against.
type Live = fetch.Live

// Policy is how [Compute] treats what the repository does not say. Its
// values are those of skillsync.yaml, checked when it is read.
type Policy struct {
	Unmanaged string // config.UnmanagedIgnore (default) or config.UnmanagedDisable
	Missing   string // config.MissingError (default) or config.MissingWarn
	// MaxDisablePercent is the share of skills in play a plan may disable;
	// nil means config.DefaultMaxDisablePercent, and 0 forbids any disable
	// (maxDisablePercent: 0 in skillsync.yaml).
	MaxDisablePercent *int
	Force             bool // allow disabling more than MaxDisablePercent
	PublishAgents     []string
	// Ignore are the differences never planned nor reported as drift
	// (skillsync.yaml's ignore:): a field a rule covers keeps its live
	// value, and counts as it is live (an ignored enabled state counts
	// toward the active limit as the space has it).
	Ignore []config.IgnoreRule
	// Descriptions sets the budget and overlap check of the active
	// skills (skillsync.yaml's descriptions:); defaults where unset.
	Descriptions config.Descriptions
}

// Ignores reports whether p's ignore rules cover field f of skill slug.
func (p Policy) Ignores(slug, f string) bool {
	return slices.ContainsFunc(p.Ignore, func(r config.IgnoreRule) bool { return r.Covers(slug, f) })
}

// PolicyFromConfig returns the policy skillsync.yaml sets, with defaults for
// what it leaves out. Force is never set by config.
func PolicyFromConfig(c config.Config) Policy {
	p := Policy{
		Unmanaged:         c.Unmanaged,
		Missing:           c.Missing,
		MaxDisablePercent: &c.MaxDisablePercent,
		PublishAgents:     append([]string(nil), c.Agents.Publish...),
		Ignore:            append([]config.IgnoreRule(nil), c.Ignore...),
		Descriptions:      c.Descriptions,
	}
	return p.withDefaults()
}

func (p Policy) withDefaults() Policy {
	p.Unmanaged = cmp.Or(p.Unmanaged, config.UnmanagedIgnore)
	p.Missing = cmp.Or(p.Missing, config.MissingError)
	if p.MaxDisablePercent == nil {
		d := config.DefaultMaxDisablePercent
		p.MaxDisablePercent = &d
	}
	return p
}

// minGuardedSkills is the number of managed skills from which the disable
// guard applies: below it, one disable is already a large share.
const minGuardedSkills = 10

// Compute plans what apply must do to make the live space match the desired
// state, under policy p. It is a pure function: no requests, no files, and
// the same inputs always give the same plan, sorted by slug.
//
// Local skills match remote skills by slug. Everything the API cannot do
// (create a skill, write a file, update a built-in) is listed in the plan,
// as an error or a warning, never dropped.
func Compute(desired *fsrepo.Repo, live *Live, p Policy) *Plan {
	if desired == nil {
		desired = &fsrepo.Repo{}
	}
	if live == nil {
		live = &Live{}
	}
	p = p.withDefaults()
	pl := &Plan{
		Space:       cmp.Or(live.Space, desired.Config.Space),
		Commit:      desired.Commit,
		Dirty:       desired.Dirty,
		DesiredHash: DesiredHash(desired),
	}
	c := planner{plan: pl, live: live, policy: p}
	c.index()
	c.skills(desired)
	c.unmanaged()
	c.activeLimit()
	c.describeSpace()
	c.disableGuard()
	c.agentImpact()
	c.publish()
	c.summarize()
	pl.Normalize()
	return pl
}

// planner holds the state of one [Compute].
type planner struct {
	plan   *Plan
	live   *Live
	policy Policy

	bySlug map[string][]remote.Skill // live skills, deduplicated by id
	slugs  []string                  // keys of bySlug, sorted
	// folded is the least slug of the space by its case folded
	// ([names.FoldCase]), where a folder missing from the space looks
	// for a slug it misspells in case.
	folded  map[string]string
	managed map[string]bool // slugs the repository holds
	matched int             // managed skills with exactly one remote twin
}

func (c *planner) errorf(pr Problem, format string, args ...any) {
	pr.Message = fmt.Sprintf(format, args...)
	c.plan.Errors = append(c.plan.Errors, pr)
}

func (c *planner) warnf(pr Problem, format string, args ...any) {
	pr.Message = fmt.Sprintf(format, args...)
	c.plan.Warnings = append(c.plan.Warnings, pr)
}

func (c *planner) index() {
	c.bySlug = map[string][]remote.Skill{}
	c.managed = map[string]bool{}
	seen := map[string]bool{}
	for _, s := range c.live.Skills {
		if seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		c.bySlug[s.Slug] = append(c.bySlug[s.Slug], s)
	}
	for _, ss := range c.bySlug {
		slices.SortFunc(ss, func(a, b remote.Skill) int { return cmp.Compare(a.ID, b.ID) })
	}
	c.slugs = slices.Sorted(maps.Keys(c.bySlug))
	c.folded = make(map[string]string, len(c.slugs))
	for _, slug := range c.slugs {
		if k := names.FoldCase(slug); c.folded[k] == "" {
			c.folded[k] = slug
		}
	}
}

// knownSource reports whether source is one the spec lists for user skills.
// Empty counts as known: some servers and fixtures leave it out.
func knownSource(source string) bool {
	switch source {
	case "", remote.SourceManual, remote.SourceUpload, remote.SourceGitHub, remote.SourceAIGenerated:
		return true
	}
	return false
}

func (c *planner) skills(desired *fsrepo.Repo) {
	local := append([]fsrepo.Skill(nil), desired.Skills...)
	sort.SliceStable(local, func(i, j int) bool { return local[i].Slug < local[j].Slug })
	for _, ls := range local {
		c.managed[ls.Slug] = true
		remotes := c.bySlug[ls.Slug]
		switch {
		case len(remotes) == 0:
			c.missing(ls)
		case len(remotes) > 1:
			ids := make([]string, len(remotes))
			for i, r := range remotes {
				ids[i] = r.ID
			}
			c.errorf(Problem{Code: CodeAmbiguous, Slug: ls.Slug, Path: ls.Path,
				Hint: "the service should keep slugs unique; ask its administrators which skill to keep"},
				"%s matches %d remote skills with the same slug (%s); skillsync will not guess which to change",
				ls.Slug, len(remotes), strings.Join(ids, ", "))
		case !knownSource(remotes[0].Source):
			c.errorf(Problem{Code: CodeBuiltin, Slug: ls.Slug, Path: ls.Path,
				Hint: "rename the folder, or remove it from the repository"},
				"%s matches a skill with source %s, which is not a user skill the API can update",
				ls.Slug, visible.Quote(remotes[0].Source))
		default:
			c.matched++
			c.managedSkill(ls, remotes[0])
		}
	}
}

func (c *planner) missing(ls fsrepo.Skill) {
	sev := SeverityError
	report := c.errorf
	if c.policy.Missing == config.MissingWarn {
		sev, report = SeverityWarning, c.warnf
	}
	todo := missingTodo(ls.Slug, ls.Name)
	if slug, ok := c.folded[names.FoldCase(ls.Slug)]; ok {
		todo = fmt.Sprintf("the space has a skill with slug %s; slugs match case-sensitively, so rename the folder", visible.Quote(slug))
	}
	c.plan.Missing = append(c.plan.Missing, MissingSkill{Slug: ls.Slug, Path: ls.Path, Name: ls.Name, Severity: sev, Todo: todo})
	report(Problem{Code: CodeMissing, Slug: ls.Slug, Path: ls.Path, Hint: todo},
		"the space has no skill with slug %q, and the API cannot create one", ls.Slug)
}

// missingTodo says how to make the skill slug, named name, exist: the
// API cannot create skills, and the service makes a new skill's slug from
// the name typed in the app (see [fsrepo.Slugify]), so the name to type is
// one that gives the folder's slug.
func missingTodo(slug, name string) string {
	if fsrepo.Slugify(name) == slug {
		return fmt.Sprintf("create a skill named %s in the app (the service makes its slug, %s, from the name), then plan again", visible.Quote(name), slug)
	}
	if typed := strings.ReplaceAll(slug, "-", " "); fsrepo.Slugify(typed) == slug {
		return fmt.Sprintf("create a skill named %q in the app, so that the slug the service makes from the name is %s (%s would give %s), then plan again: apply renames it to %s",
			typed, slug, visible.Quote(name), fsrepo.Slugify(name), visible.Quote(name))
	}
	return fmt.Sprintf("no name gives the slug %s (the service makes lowercase letters, digits and hyphens): rename the folder to %s, then create a skill named %s in the app",
		slug, fsrepo.Slugify(name), visible.Quote(name))
}

// managedSkill plans one local skill against its remote twin.
func (c *planner) managedSkill(ls fsrepo.Skill, rs remote.Skill) {
	ch := unchanged(rs)
	ch.Path = ls.Path
	want := spec.Canonical(ls.Instructions)
	differ := spec.Differ(ch.Before, DesiredFields(ls, ch.Before))
	changes := func(f string) bool { return slices.Contains(differ, f) && !c.policy.Ignores(ls.Slug, f) }
	if changes(FieldName) {
		ch.Fields = append(ch.Fields, FieldName)
		ch.After.Name = ls.Name
	}
	if changes(FieldDescription) {
		ch.Fields = append(ch.Fields, FieldDescription)
		ch.After.Description = ls.Description
	}
	if rs.Instructions == nil {
		c.warnf(Problem{Code: CodeNullInstructions, Slug: ls.Slug, Path: ls.Path},
			"the space could not read the SKILL.md of %s (instructions are null); apply rewrites it from the repository", ls.Slug)
	}
	if changes(FieldInstructions) {
		ch.Fields = append(ch.Fields, FieldInstructions)
		ch.After.Instructions = &want
	}
	if len(ch.Fields) > 0 {
		ch.Actions = append(ch.Actions, ActionUpdate)
		// The body checked is the one apply sends.
		upd, _ := updateBody(&ch)
		if err := remote.CheckUpdate(upd); err != nil {
			c.errorf(Problem{Code: CodeInvalid, Slug: ls.Slug, Path: ls.Path}, "%s: the service would reject the update: %v", ls.Slug, err)
		}
		if rs.Source == remote.SourceGitHub {
			where := ""
			if rs.SourceURL != nil && *rs.SourceURL != "" {
				where = " from " + *rs.SourceURL
			}
			c.warnf(Problem{Code: CodeImported, Slug: ls.Slug, Path: ls.Path,
				Hint: "change the skill at its source too, or stop importing it"},
				"%s was imported%s; a re-import may overwrite this update", ls.Slug, where)
		}
	}
	if changes(FieldEnabled) {
		ch.Fields = append(ch.Fields, FieldEnabled)
		ch.After.Enabled = ls.Enabled
		if ls.Enabled {
			ch.Actions = append(ch.Actions, ActionEnable)
		} else {
			ch.Actions = append(ch.Actions, ActionDisable)
		}
	}
	c.files(ls, rs)
	if len(ch.Actions) > 0 {
		c.plan.Changes = append(c.plan.Changes, ch)
	}
}

// unchanged is a change of the remote skill rs that changes nothing yet:
// After is Before, and the skill as planned against is recorded.
func unchanged(rs remote.Skill) Change {
	st := StateOf(rs)
	return Change{Slug: rs.Slug, ID: rs.ID, Before: st, After: st, UpdatedAt: rs.UpdatedAt, LiveHash: LiveHash(rs)}
}

// skillPath is the SKILL.md of a skill: p, or SLUG/SKILL.md when the
// skill has none.
func skillPath(slug, p string) string {
	return cmp.Or(p, path.Join(slug, skillmd.FileName))
}

// DesiredFields are the fields ls asks of a skill whose fields are now
// live. An empty name or description in the repository leaves the live
// one: the service would reject it, and fsrepo reports it.
func DesiredFields(ls fsrepo.Skill, live SkillState) spec.Fields {
	f := ls.Fields()
	f.Name = cmp.Or(f.Name, live.Name)
	f.Description = cmp.Or(f.Description, live.Description)
	return f
}

// StateOf is the state of a skill as the service answers it.
func StateOf(rs remote.Skill) SkillState {
	return SkillState{Name: rs.Name, Description: rs.Description, Instructions: rs.Instructions, Enabled: rs.Enabled}
}

// files compares the supporting files of a skill with their remote copies.
// Text is compared in canonical form, as instructions are, so that a
// checkout's line endings do not count as a difference.
func (c *planner) files(ls fsrepo.Skill, rs remote.Skill) {
	remoteFiles := c.live.Files[rs.ID]
	for _, f := range ls.Files {
		got, read := remoteFiles[f.Path]
		issue := FileIssue{Slug: ls.Slug, Path: f.Path, RepoPath: path.Join(path.Dir(skillPath(ls.Slug, ls.Path)), f.Path)}
		switch {
		case !read && f.Binary:
			issue.Status = FileUnchecked
			issue.Detail = "binary, which the API can neither read nor write"
		case f.TooLarge:
			issue.Status = FileTooLarge
			issue.Detail = fmt.Sprintf("too large to compare: %d bytes, over the %d compared", f.Size, fsrepo.MaxCompareBytes)
		case c.live.LargeFiles[rs.ID][f.Path]:
			issue.Status = FileTooLarge
			issue.Detail = fmt.Sprintf("too large to compare: the space's copy is over %d bytes", fsrepo.MaxCompareBytes)
		case !read:
			issue.Status = FileUnchecked
			issue.Detail = "not read from the space, so not compared"
		case got == nil:
			issue.Status = FileAbsent
			issue.Detail = "absent from the space"
		case f.Binary || f.Content == nil:
			sum := sha256.Sum256([]byte(*got))
			if hex.EncodeToString(sum[:]) == f.SHA256 {
				continue
			}
			issue.Status = FileDiffers
			issue.Detail = "differs from the copy in the space"
		default:
			remoteText, localText := spec.Canonical(*got), spec.Canonical(string(f.Content))
			if spec.SameText(remoteText) == spec.SameText(localText) {
				continue
			}
			issue.Status = FileDiffers
			issue.Detail = "differs from the copy in the space"
			issue.Diff = diff.Unified(path.Join("live", ls.Slug, f.Path), issue.RepoPath, remoteText, localText)
		}
		c.plan.Files = append(c.plan.Files, issue)
	}
}

// unmanaged lists the remote skills the repository does not hold, and
// disables them under policy unmanaged: disable.
func (c *planner) unmanaged() {
	disable := c.policy.Unmanaged == config.UnmanagedDisable
	for _, slug := range c.slugs {
		if c.managed[slug] {
			continue
		}
		for _, rs := range c.bySlug[slug] {
			u := UnmanagedSkill{Slug: rs.Slug, ID: rs.ID, Name: rs.Name, Source: rs.Source, Enabled: rs.Enabled}
			if disable && rs.Enabled && knownSource(rs.Source) && !c.policy.Ignores(rs.Slug, FieldEnabled) {
				u.Disable = true
				ch := unchanged(rs)
				ch.Actions = []Action{ActionDisable}
				ch.Fields = []string{FieldEnabled}
				ch.Unmanaged = true
				ch.After.Enabled = false
				c.plan.Changes = append(c.plan.Changes, ch)
			}
			c.plan.Unmanaged = append(c.plan.Unmanaged, u)
		}
	}
	slices.SortStableFunc(c.plan.Changes, func(a, b Change) int {
		return cmp.Or(cmp.Compare(a.Slug, b.Slug), cmp.Compare(a.ID, b.ID))
	})
}

// activeLimit checks the active count after apply against the service's
// limit, naming the enables that push it over.
func (c *planner) activeLimit() {
	before := ActiveCount(c.live.Skills)
	after := before
	var enables []string
	for _, ch := range c.plan.Changes {
		switch {
		case ch.Has(ActionEnable):
			after++
			enables = append(enables, ch.Slug)
		case ch.Has(ActionDisable):
			after--
		}
	}
	c.plan.Summary.ActiveBefore, c.plan.Summary.ActiveAfter = before, after
	if after > spec.MaxActiveSkills && len(enables) > 0 {
		over := after - spec.MaxActiveSkills
		c.errorf(Problem{Code: CodeActiveLimit, Skills: enables,
			Hint: fmt.Sprintf("set enabled: false on %d of them, or disable other skills", min(over, len(enables)))},
			"%d skills would be active after apply, %d over the limit of %d, by enabling %s",
			after, over, spec.MaxActiveSkills, strings.Join(enables, ", "))
	}
}

// ActiveCount counts the enabled skills of a list, each id once, as
// [Compute] counts Summary.ActiveBefore.
func ActiveCount(skills []remote.Skill) int {
	seen := make(map[string]bool, len(skills))
	n := 0
	for _, s := range skills {
		if s.Enabled && !seen[s.ID] {
			n++
		}
		seen[s.ID] = true
	}
	return n
}

// disableGuard refuses to disable a large share of the managed skills at
// once, the signature of a wrong folder or a bad merge, unless forced.
func (c *planner) disableGuard() {
	// Unmanaged disables count too, against every skill in play: with
	// "unmanaged: disable", a wrong skillsDir makes every remote skill
	// unmanaged, and the guard is what stops that plan from switching the
	// whole space off.
	var disables []string
	inPlay := c.matched
	for _, ch := range c.plan.Changes {
		if ch.Has(ActionDisable) {
			disables = append(disables, ch.Slug)
		}
	}
	for _, u := range c.plan.Unmanaged {
		if u.Disable {
			inPlay++
		}
	}
	if inPlay < minGuardedSkills {
		return
	}
	pct := *c.policy.MaxDisablePercent
	if len(disables)*100 <= pct*inPlay {
		return
	}
	pr := Problem{Code: CodeDisableGuard, Skills: disables}
	msg := "the plan disables %d of %d skills (%s), more than maxDisablePercent %d%%"
	args := []any{len(disables), inPlay, strconv.Itoa(len(disables)*100/inPlay) + "%", pct}
	if c.policy.Force {
		c.warnf(pr, msg+"; allowed by --force", args...)
		return
	}
	pr.Hint = "if this is intended, apply with --force or raise maxDisablePercent in skillsync.yaml; if not, check skillsDir and the unmanaged policy"
	c.errorf(pr, msg, args...)
}

// agentImpact names, on each change, the agents whose draft holds the
// skill, and warns when a disable takes a skill from an agent.
func (c *planner) agentImpact() {
	bySkill := map[string][]AgentRef{}
	for _, a := range c.live.Agents {
		seen := map[string]bool{}
		for _, id := range a.SkillIDs {
			if !seen[id] {
				seen[id] = true
				bySkill[id] = append(bySkill[id], AgentRef{ID: a.ID, Name: a.Name})
			}
		}
	}
	for i := range c.plan.Changes {
		ch := &c.plan.Changes[i]
		ch.Agents = slices.SortedFunc(slices.Values(bySkill[ch.ID]), func(a, b AgentRef) int {
			return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
		})
		if !ch.Has(ActionDisable) {
			continue
		}
		for _, a := range ch.Agents {
			c.warnf(Problem{Code: CodeAgentUsesDisabled, Slug: ch.Slug, Path: ch.Path, Agent: a.ID},
				"agent %s uses %s, which this plan disables; the agent stops loading it", visible.Quote(a.Name), ch.Slug)
		}
	}
}

// publish resolves agents.publish to agents, and plans a publish for each
// whose draft is not what is published.
func (c *planner) publish() {
	done := map[string]bool{}
	refs := map[string]bool{} // a ref said twice is one agent, or one error
	for _, ref := range c.policy.PublishAgents {
		if refs[ref] {
			continue
		}
		refs[ref] = true
		a, err := FindAgent(c.live.Agents, ref)
		var amb *AgentAmbiguousError
		switch {
		case errors.As(err, &amb):
			c.errorf(Problem{Code: CodeAgentAmbiguous, Hint: "name the agent by id in agents.publish"},
				"agents.publish names %s, which %d agents are called (%s)", visible.Quote(ref), len(amb.IDs), strings.Join(amb.IDs, ", "))
			continue
		case err != nil:
			c.errorf(Problem{Code: CodeAgentUnknown, Hint: "list the agents with `skillsync agents list`"},
				"agents.publish names %s, which is neither the id nor the name of an agent in the space", visible.Quote(ref))
			continue
		}
		if done[a.ID] || !NeedsPublish(a) {
			continue
		}
		done[a.ID] = true
		if CheckPublish(a) != nil {
			c.errorf(Problem{Code: CodeEmbedWhitelist, Agent: a.ID,
				Hint: "add the domains allowed to embed the agent in the app, or turn off embedding"},
				"agent %s has embedding enabled and no allowed domain; the service refuses to publish it", visible.Quote(a.Name))
		}
		c.plan.Publish = append(c.plan.Publish, AgentPublish{
			ID: a.ID, Name: a.Name, Published: a.Published,
			HasUnpublishedChanges: a.HasUnpublishedChanges, UpdatedAt: a.UpdatedAt,
		})
	}
	slices.SortStableFunc(c.plan.Publish, func(a, b AgentPublish) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.ID, b.ID))
	})
}

func (c *planner) summarize() {
	s := &c.plan.Summary
	for _, ch := range c.plan.Changes {
		if ch.Has(ActionUpdate) {
			s.Update++
		}
		if ch.Has(ActionEnable) {
			s.Enable++
		}
		if ch.Has(ActionDisable) {
			s.Disable++
		}
	}
	s.Publish = len(c.plan.Publish)
}

// LiveHash is a digest of the fields of a remote skill that a plan depends
// on. Apply of a saved plan compares it with the skill re-read, to refuse a
// plan the space has moved away from.
func LiveHash(s remote.Skill) string {
	h := sha256.New()
	field := func(v string) { fmt.Fprintf(h, "%d:%s;", len(v), v) }
	field(s.ID)
	field(s.Slug)
	field(s.Name)
	field(s.Description)
	field(strconv.FormatBool(s.Enabled))
	if s.Instructions == nil {
		field("null")
	} else {
		field("text")
		field(*s.Instructions)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// DesiredHash is a digest of the desired state: every field of every skill
// that planning reads, supporting files included. Two repositories with the
// same hash plan the same.
func DesiredHash(r *fsrepo.Repo) string {
	h := sha256.New()
	field := func(v string) { fmt.Fprintf(h, "%d:%s;", len(v), v) }
	skills := append([]fsrepo.Skill(nil), r.Skills...)
	sort.SliceStable(skills, func(i, j int) bool { return skills[i].Slug < skills[j].Slug })
	for _, s := range skills {
		field(s.Slug)
		field(s.Name)
		field(s.Description)
		field(strconv.FormatBool(s.Enabled))
		field(spec.Canonical(s.Instructions))
		for _, f := range s.Files {
			field(f.Path)
			field(f.SHA256)
		}
	}
	// The policy of skillsync.yaml too: what apply does to unmanaged
	// skills, which disables it allows, which agents it publishes.
	c := r.Config
	field("policy")
	field(c.Unmanaged)
	field(c.Missing)
	field(strconv.Itoa(c.MaxDisablePercent))
	field(strconv.Itoa(len(c.Agents.Publish)))
	for _, a := range c.Agents.Publish {
		field(a)
	}
	// Ignore rules only when there are some: a repository without them
	// hashes as it did before they existed, so its saved plans still apply.
	if len(c.Ignore) > 0 {
		field("ignore")
		for _, r := range c.Ignore {
			field(strconv.Itoa(len(r.Skills)))
			for _, p := range r.Skills {
				field(p.Glob)
			}
			field(strings.Join(r.Fields, ","))
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
