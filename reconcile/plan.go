package reconcile

import (
	"fmt"
	"path"
	"slices"

	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/reconcile/diff"
	"github.com/skillsync/skillsync/spec"
)

// An Action is one thing apply does to a skill.
type Action string

// Actions of a [Change]. Apply runs them in phases across the whole plan:
// every disable, then every update, then every enable, so the active count
// never passes the limit midway.
const (
	ActionUpdate  Action = "update"
	ActionEnable  Action = "enable"
	ActionDisable Action = "disable"
)

// Fields of a skill a [Change] can name in [Change.Fields], in the order
// they are listed: those [spec.Differ] compares.
const (
	FieldName         = spec.FieldName
	FieldDescription  = spec.FieldDescription
	FieldInstructions = spec.FieldInstructions
	FieldEnabled      = spec.FieldEnabled
)

// Statuses of a [FileIssue].
const (
	// FileDiffers: the space holds the file with other content.
	FileDiffers = "differs"
	// FileAbsent: the space does not hold the file.
	FileAbsent = "absent"
	// FileUnchecked: the file could not be read through the API (binary
	// files never can), so whether the space matches is unknown.
	FileUnchecked = "unchecked"
	// FileTooLarge: the repository's copy or the space's is a text file
	// over fsrepo.MaxCompareBytes, which is not held in memory to be
	// compared, so whether the space matches is unknown.
	FileTooLarge = "too_large"
)

// Severities of a [MissingSkill], from the missing policy.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Codes of a [Problem], stable for scripts and tests.
const (
	CodeMissing           = "missing"             // local skill with no remote twin
	CodeAmbiguous         = "ambiguous"           // two remote skills share the slug
	CodeBuiltin           = "builtin"             // the remote twin is not a user skill
	CodeInvalid           = "invalid"             // a value the service would reject
	CodeActiveLimit       = "active-limit"        // more than 40 active after apply
	CodeDisableGuard      = "disable-guard"       // too many managed skills disabled
	CodeNullInstructions  = "null-instructions"   // the service could not read a SKILL.md
	CodeImported          = "imported"            // the skill came from a code-hosting import
	CodeAgentUsesDisabled = "agent-uses-disabled" // an agent uses a skill the plan disables
	CodeAgentUnknown      = "agent-unknown"       // agents.publish names no agent
	CodeAgentAmbiguous    = "agent-ambiguous"     // agents.publish names several agents
	CodeEmbedWhitelist    = "embed-whitelist"     // publishing an embed with no allowed domain
)

// Plan is what apply would do to a space to make it match a repository, and
// what it cannot do. It is plain data: [Compute] makes it, package
// reconcile/render shows it, and it survives that package's JSON round
// trip (a saved plan) so a reviewed plan can be applied later. What can be
// made from it again is not held: the diff of a change's instructions is
// made when it is shown ([Change.Diff]).
//
// Slices are never nil in a plan made by [Compute] or read back from a
// saved plan, so the JSON form always has arrays, never null. The JSON
// renderer writes the fields one by one, in this order: a field added here
// is added there too.
type Plan struct {
	// Target is the name of the target of skillsync.yaml planned; "" for
	// the one space of a skillsync.yaml without targets.
	Target string `json:"target"`
	Space  string `json:"space"`
	Commit string `json:"commit"`          // the repository commit planned from; "" outside git
	Dirty  bool   `json:"dirty,omitempty"` // the working tree differed from Commit
	// DesiredHash identifies the desired state planned from (see
	// [DesiredHash]), so a saved plan can be matched to its repository.
	DesiredHash string `json:"desired_hash"`
	// Findings are what the security rules found in the skills the plan
	// changes, in the repository and in what the space holds, shown
	// above the plan; an error among them is also in Errors. Left out of
	// the JSON form when there are none.
	Findings []Finding `json:"findings,omitempty"`

	Changes   []Change         `json:"changes"` // sorted by slug, then id
	Unmanaged []UnmanagedSkill `json:"unmanaged"`
	Missing   []MissingSkill   `json:"missing"`
	Files     []FileIssue      `json:"files"`
	Publish   []AgentPublish   `json:"publish"`
	Errors    []Problem        `json:"errors"`
	Warnings  []Problem        `json:"warnings"`
	Summary   Summary          `json:"summary"`
	// Descriptions is what the AI sees of the active skills together:
	// the description budget and the overlapping pairs.
	Descriptions *Descriptions `json:"descriptions"`
}

// CodeSecurity is the code of the plan error that error-level findings
// of the security rules make.
const CodeSecurity = "security"

// A Finding is what a security rule found in a skill: in a file of the
// repository, or in what the space holds (an edit typed into the app).
type Finding struct {
	Slug string `json:"slug"`
	Rule string `json:"rule"`
	// Severity is "error", "warning" or "note".
	Severity string `json:"severity"`
	// InSpace says the finding is in the space's copy of the skill (its
	// name, description and instructions), not in the repository.
	InSpace bool `json:"in_space,omitempty"`
	// Path is the file of the repository, or for a finding in the space
	// the skill's SKILL.md as the space would write it; Line and Col are
	// in it.
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Match   string `json:"match"`
	Decoded string `json:"decoded,omitempty"`
	Hash    string `json:"hash,omitempty"`
	Hint    string `json:"hint,omitempty"`
}

// A Change is what apply does to one remote skill. Skills with no change are
// not in a plan.
//
// A change does not hold the diff of its instructions: [Change.Diff] makes
// it from Before and After when it is shown, and the JSON form carries it
// as "diff", after "after". A plan of a thousand
// rewritten skills would otherwise hold every instruction twice more, as
// diff lines.
type Change struct {
	Slug string `json:"slug"`
	ID   string `json:"id"`
	// Path is the SKILL.md the desired state comes from, relative to the
	// repository root; "" for an unmanaged skill.
	Path    string   `json:"path,omitempty"`
	Actions []Action `json:"actions"` // in the order update, enable, disable
	// Fields names the fields that change: name, description, instructions,
	// enabled, in that order. Apply sends exactly these.
	Fields []string `json:"fields"`
	// Before is the skill as listed; After is what the space will hold after
	// apply (Before with Fields replaced). After.Instructions is canonical
	// when instructions change.
	Before SkillState `json:"before"`
	After  SkillState `json:"after"`
	// Agents are the agents whose draft holds the skill, sorted by name.
	Agents []AgentRef `json:"agents"`
	// Unmanaged marks the disable of a skill that is not in the repository
	// (policy unmanaged: disable).
	Unmanaged bool `json:"unmanaged,omitempty"`
	// Origin says where a change comes from ("pr" or "drift") when the
	// caller splits a plan that way; "" when it does not.
	Origin string `json:"origin,omitempty"`
	// DriftFields are, in a change of origin "pr", the fields the pull
	// request did not change: they differ because the space was edited.
	// Merging applies them too, so reviewers are told which they are.
	DriftFields []string `json:"drift_fields,omitempty"`
	// UpdatedAt and LiveHash ([LiveHash]) are the skill as planned against;
	// apply of a saved plan refuses the change if either moved.
	UpdatedAt string `json:"updated_at"`
	LiveHash  string `json:"live_hash"`
}

// Has reports whether c includes action a.
func (c *Change) Has(a Action) bool { return slices.Contains(c.Actions, a) }

// Diff returns the unified diff of the canonical instructions, before to
// after, between "live/SLUG/SKILL.md" and the SKILL.md of the repository;
// "" when they do not change. It is made on each call, from Before and
// After: it takes as long as the diff does (see [diff.Unified]).
func (c *Change) Diff() string {
	return diff.Unified(c.DiffInput())
}

// DiffInput is what [Change.Diff] diffs: the names of the two sides and
// their texts, both "" when the instructions do not change.
func (c *Change) DiffInput() (oldName, newName, before, after string) {
	oldName, newName = path.Join("live", c.Slug, skillmd.FileName), skillPath(c.Slug, c.Path)
	if !c.Changes(FieldInstructions) || c.After.Instructions == nil {
		return oldName, newName, "", ""
	}
	if c.Before.Instructions != nil {
		before = spec.Canonical(*c.Before.Instructions)
	}
	return oldName, newName, before, *c.After.Instructions
}

// Changes reports whether c changes field f.
func (c *Change) Changes(f string) bool { return slices.Contains(c.Fields, f) }

// SkillState is the fields of a skill that skillsync manages, as a plan
// and a journal record them and [spec.Differ] compares them. Its
// Instructions are nil for an unmanaged skill whose instructions were not
// fetched, too.
type SkillState = spec.Fields

// AgentRef names an agent.
type AgentRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// UnmanagedSkill is a remote skill with no folder in the repository.
type UnmanagedSkill struct {
	Slug    string `json:"slug"`
	ID      string `json:"id"`
	Name    string `json:"name"`
	Source  string `json:"source"`
	Enabled bool   `json:"enabled"`
	// Disable is true when the plan disables the skill (policy unmanaged:
	// disable); the disable is then also a [Change].
	Disable bool `json:"disable"`
}

// MissingSkill is a skill folder with no remote twin. The API cannot create
// skills, so apply cannot make it exist.
type MissingSkill struct {
	Slug     string `json:"slug"`
	Path     string `json:"path"` // the SKILL.md, relative to the repository root
	Name     string `json:"name"`
	Severity string `json:"severity"` // "error" or "warning", from the missing policy
	// Todo says what to do in the app: the name to create the skill
	// with, so that the slug the service makes from it is the folder's.
	Todo string `json:"todo"`
}

// FileIssue is a supporting file whose remote copy differs from the
// repository's or is absent. The API cannot write files: apply leaves them.
type FileIssue struct {
	Slug     string `json:"slug"`
	Path     string `json:"path"`           // relative to the skill folder, as the files endpoint names it
	RepoPath string `json:"repo_path"`      // relative to the repository root, for annotations
	Status   string `json:"status"`         // FileDiffers, FileAbsent, FileUnchecked or FileTooLarge
	Detail   string `json:"detail"`         // why, in words
	Diff     string `json:"diff,omitempty"` // remote to local, for differing text files
}

// AgentPublish is an agent that agents.publish lists and whose draft is not
// what is published, so apply publishes it.
type AgentPublish struct {
	ID                    string `json:"id"`
	Name                  string `json:"name"`
	Published             bool   `json:"published"`
	HasUnpublishedChanges bool   `json:"has_unpublished_changes"`
	UpdatedAt             string `json:"updated_at"`
	// Origin, in a plan split by origin, is OriginPR when the pull
	// request added the agent to agents.publish, OriginDrift when the base
	// listed it already (its draft was changed in the app).
	Origin string `json:"origin,omitempty"`
}

// A Problem is an error (apply refuses the plan) or a warning.
type Problem struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"` // what to do about it
	Slug    string `json:"slug,omitempty"`
	Path    string `json:"path,omitempty"` // a file of the repository, for annotations
	Line    int    `json:"line,omitempty"` // the line in Path, when known
	// Skills are the slugs involved, such as the enables that push the
	// active count over the limit.
	Skills []string `json:"skills,omitempty"`
	Agent  string   `json:"agent,omitempty"` // agent id
}

// Summary counts the actions of a plan.
//
// The active counts are of the skills the API lists. Built-in skills are not
// listed, so if the space counts some of them as active, an enable may still
// be refused with 409 at apply though the plan stays under the limit.
type Summary struct {
	Update       int `json:"update"`
	Enable       int `json:"enable"`
	Disable      int `json:"disable"`
	Publish      int `json:"publish"`
	ActiveBefore int `json:"active_before"`
	ActiveAfter  int `json:"active_after"`
}

// HasChanges reports whether applying p would change the space.
func (p *Plan) HasChanges() bool {
	return len(p.Changes) > 0 || len(p.Publish) > 0
}

// Validate rejects what apply could misread in a plan: a change with no
// skill id or no action, an action or field this version does not know, a
// change that both enables and disables, instructions set to null, a
// publish with no agent id. [Compute] never makes such a plan; a saved plan
// edited by hand may be one, and its reader and [Apply] both refuse it
// with this one check, since apply must never guess what a plan asks for.
func (p *Plan) Validate() error {
	for _, c := range p.Changes {
		if c.ID == "" {
			return fmt.Errorf("change of %q has no id", c.Slug)
		}
		if len(c.Actions) == 0 {
			return fmt.Errorf("change of %q has no actions", c.Slug)
		}
		for _, a := range c.Actions {
			if !slices.Contains([]Action{ActionUpdate, ActionEnable, ActionDisable}, a) {
				return fmt.Errorf("change of %q: unknown action %q", c.Slug, a)
			}
		}
		if c.Has(ActionEnable) && c.Has(ActionDisable) {
			return fmt.Errorf("change of %q both enables and disables", c.Slug)
		}
		for _, f := range c.Fields {
			if !slices.Contains([]string{FieldName, FieldDescription, FieldInstructions, FieldEnabled}, f) {
				return fmt.Errorf("change of %q: unknown field %q", c.Slug, f)
			}
		}
		if c.Changes(FieldInstructions) && c.After.Instructions == nil {
			return fmt.Errorf("change of %q updates instructions to null", c.Slug)
		}
	}
	for _, a := range p.Publish {
		if a.ID == "" {
			return fmt.Errorf("publish of agent %q has no id", a.Name)
		}
	}
	return nil
}

// HasErrors reports whether p has errors; apply refuses such a plan.
func (p *Plan) HasErrors() bool {
	return len(p.Errors) > 0
}

// Normalize makes nil slices empty, so the JSON form has [] rather than null
// and a decoded plan equals the one encoded.
func (p *Plan) Normalize() {
	p.Changes = orEmpty(p.Changes)
	for i := range p.Changes {
		c := &p.Changes[i]
		c.Actions = orEmpty(c.Actions)
		c.Fields = orEmpty(c.Fields)
		c.Agents = orEmpty(c.Agents)
	}
	p.Unmanaged = orEmpty(p.Unmanaged)
	p.Missing = orEmpty(p.Missing)
	p.Files = orEmpty(p.Files)
	p.Publish = orEmpty(p.Publish)
	p.Errors = orEmpty(p.Errors)
	p.Warnings = orEmpty(p.Warnings)
}

// orEmpty is s, or an empty slice when s is nil.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
