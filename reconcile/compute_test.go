package reconcile

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
)

// Fixtures: a local skill and its remote twin start equal; options make
// them differ.

func ptr[T any](v T) *T { return &v }

func id(slug string) string { return reconciletest.ID(slug) }

func local(slug string, opts ...func(*fsrepo.Skill)) fsrepo.Skill {
	return reconciletest.Local(slug, opts...)
}

func live(slug string, opts ...func(*remote.Skill)) remote.Skill {
	return reconciletest.Live(slug, opts...)
}

func disabled(s *fsrepo.Skill)       { reconciletest.Disabled(s) }
func remoteDisabled(s *remote.Skill) { reconciletest.RemoteDisabled(s) }

func withFiles(files ...fsrepo.File) func(*fsrepo.Skill) { return reconciletest.WithFiles(files...) }

func textFile(path, content string) fsrepo.File { return reconciletest.TextFile(path, content) }

func largeFile(path string) fsrepo.File { return reconciletest.LargeFile(path) }

func repo(skills ...fsrepo.Skill) *fsrepo.Repo { return reconciletest.Repo(skills...) }

func binaryFile(path, content string) fsrepo.File {
	f := textFile(path, content)
	f.Binary, f.Content = true, nil
	return f
}

func many(prefix string, n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("%s%02d", prefix, i)
	}
	return s
}

func codes(ps []Problem) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}

func slugsOf(p *Plan) []string {
	out := []string{}
	for _, c := range p.Changes {
		out = append(out, c.Slug+":"+actionsOf(c))
	}
	return out
}

func actionsOf(c Change) string {
	s := make([]string, len(c.Actions))
	for i, a := range c.Actions {
		s[i] = string(a)
	}
	return strings.Join(s, "+")
}

// computeCase is a case of [TestCompute].
type computeCase struct {
	name    string
	desired *fsrepo.Repo
	live    *Live
	policy  Policy
	// Expectations; a nil slice is not checked.
	changes  []string // "slug:action+action"
	errors   []string // problem codes
	warnings []string
	check    func(t *testing.T, p *Plan)
}

func TestCompute(t *testing.T) {
	tests := []computeCase{
		{
			name:    "in sync",
			desired: repo(local("a"), local("b")),
			live:    &Live{Space: "ab12", Skills: []remote.Skill{live("a"), live("b")}},
			changes: []string{}, errors: []string{}, warnings: []string{},
			check: func(t *testing.T, p *Plan) {
				if p.HasChanges() || p.HasErrors() {
					t.Error("HasChanges or HasErrors on a plan in sync")
				}
				if p.Summary != (Summary{ActiveBefore: 2, ActiveAfter: 2}) {
					t.Errorf("summary %+v", p.Summary)
				}
			},
		},
		{
			name:    "canonically equal instructions are no change",
			desired: repo(local("a")),
			live: &Live{Skills: []remote.Skill{live("a", func(s *remote.Skill) {
				s.Instructions = ptr("\uFEFF\r\n  \r\n# a\r\n\r\nDo the a thing.  \r\n\r\n\t\n")
			})}},
			changes: []string{}, errors: []string{}, warnings: []string{},
		},
		{
			name:    "trailing newline trimmed by the server is no change",
			desired: repo(local("a")),
			live:    &Live{Skills: []remote.Skill{live("a", func(s *remote.Skill) { s.Instructions = ptr("# a\n\nDo the a thing.") })}},
			changes: []string{},
		},
		{
			name:    "name",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Name = "Renamed" })),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{"a:update"}, errors: []string{}, warnings: []string{},
			check: func(t *testing.T, p *Plan) {
				c := p.Changes[0]
				if !reflect.DeepEqual(c.Fields, []string{FieldName}) || c.Before.Name != "Skill a" || c.After.Name != "Renamed" {
					t.Errorf("change %+v", c)
				}
				if c.Diff() != "" || c.ID != id("a") || c.Path != "skills/a/SKILL.md" || c.UpdatedAt == "" || c.LiveHash == "" {
					t.Errorf("change %+v", c)
				}
				if c.After.Instructions != c.Before.Instructions {
					t.Error("After.Instructions should be the remote's when instructions do not change")
				}
				if p.Summary.Update != 1 {
					t.Errorf("summary %+v", p.Summary)
				}
			},
		},
		{
			name:    "an empty name or description keeps the remote one",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Name, s.Description = "", "" })),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{}, errors: []string{},
		},
		{
			name:    "description",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Description = "New description." })),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{"a:update"},
			check: func(t *testing.T, p *Plan) {
				c := p.Changes[0]
				if !reflect.DeepEqual(c.Fields, []string{FieldDescription}) || c.After.Description != "New description." {
					t.Errorf("change %+v", c)
				}
			},
		},
		{
			name:    "instructions",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Instructions = "# a\n\nDo the a thing well.\n" })),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{"a:update"}, warnings: []string{},
			check: func(t *testing.T, p *Plan) {
				c := p.Changes[0]
				if !reflect.DeepEqual(c.Fields, []string{FieldInstructions}) {
					t.Errorf("fields %v", c.Fields)
				}
				want := "--- live/a/SKILL.md\n+++ skills/a/SKILL.md\n@@ -1,3 +1,3 @@\n # a\n \n-Do the a thing.\n+Do the a thing well.\n"
				if c.Diff() != want {
					t.Errorf("diff\n%s\nwant\n%s", c.Diff(), want)
				}
				if *c.After.Instructions != "# a\n\nDo the a thing well.\n" {
					t.Errorf("after %q", *c.After.Instructions)
				}
			},
		},
		{
			name:    "null instructions are a change",
			desired: repo(local("a")),
			live:    &Live{Skills: []remote.Skill{live("a", func(s *remote.Skill) { s.Instructions = nil })}},
			changes: []string{"a:update"}, errors: []string{}, warnings: []string{CodeNullInstructions},
			check: func(t *testing.T, p *Plan) {
				c := p.Changes[0]
				if c.Before.Instructions != nil || c.After.Instructions == nil || !strings.Contains(c.Diff(), "@@ -0,0 +1,3 @@") {
					t.Errorf("change %+v", c)
				}
			},
		},
		{
			name:    "enable",
			desired: repo(local("a")),
			live:    &Live{Skills: []remote.Skill{live("a", remoteDisabled)}},
			changes: []string{"a:enable"},
			check: func(t *testing.T, p *Plan) {
				c := p.Changes[0]
				if !reflect.DeepEqual(c.Fields, []string{FieldEnabled}) || c.Before.Enabled || !c.After.Enabled {
					t.Errorf("change %+v", c)
				}
				if p.Summary != (Summary{Enable: 1, ActiveBefore: 0, ActiveAfter: 1}) {
					t.Errorf("summary %+v", p.Summary)
				}
			},
		},
		{
			name:    "disable",
			desired: repo(local("a", disabled)),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{"a:disable"},
			check: func(t *testing.T, p *Plan) {
				if p.Summary != (Summary{Disable: 1, ActiveBefore: 1, ActiveAfter: 0}) {
					t.Errorf("summary %+v", p.Summary)
				}
			},
		},
		{
			name:    "update and disable",
			desired: repo(local("a", disabled, func(s *fsrepo.Skill) { s.Name = "A" })),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{"a:update+disable"},
			check: func(t *testing.T, p *Plan) {
				if got := p.Changes[0].Fields; !reflect.DeepEqual(got, []string{FieldName, FieldEnabled}) {
					t.Errorf("fields %v", got)
				}
			},
		},
		{
			name:    "missing is an error by default",
			desired: repo(local("a"), local("new")),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{}, errors: []string{CodeMissing}, warnings: []string{},
			check: func(t *testing.T, p *Plan) {
				want := []MissingSkill{{Slug: "new", Path: "skills/new/SKILL.md", Name: "Skill new", Severity: SeverityError,
					Todo: `create a skill named "new" in the app, so that the slug the service makes from the name is new ("Skill new" would give skill-new), then plan again: apply renames it to "Skill new"`}}
				if !reflect.DeepEqual(p.Missing, want) {
					t.Errorf("missing %+v", p.Missing)
				}
				if p.Errors[0].Path != "skills/new/SKILL.md" || p.Errors[0].Slug != "new" {
					t.Errorf("error %+v", p.Errors[0])
				}
			},
		},
		{
			name:    "missing is a warning with missing: warn",
			desired: repo(local("new")),
			live:    &Live{},
			policy:  Policy{Missing: config.MissingWarn},
			errors:  []string{}, warnings: []string{CodeMissing},
			check: func(t *testing.T, p *Plan) {
				if len(p.Missing) != 1 || p.Missing[0].Severity != SeverityWarning {
					t.Errorf("missing %+v", p.Missing)
				}
			},
		},
		{
			name:    "missing hints at a slug differing in case",
			desired: repo(local("pdf")),
			live:    &Live{Skills: []remote.Skill{live("PDF")}},
			errors:  []string{CodeMissing},
			check: func(t *testing.T, p *Plan) {
				if !strings.Contains(p.Errors[0].Hint, `"PDF"`) {
					t.Errorf("hint %q", p.Errors[0].Hint)
				}
			},
		},
		{
			name:    "ambiguous slug",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Name = "Changed" })),
			live: &Live{Skills: []remote.Skill{
				live("a", func(s *remote.Skill) { s.ID = "id-a2" }),
				live("a"),
			}},
			changes: []string{}, errors: []string{CodeAmbiguous},
			check: func(t *testing.T, p *Plan) {
				if !strings.Contains(p.Errors[0].Message, "id-a, id-a2") {
					t.Errorf("message %q", p.Errors[0].Message)
				}
				if len(p.Unmanaged) != 0 {
					t.Errorf("unmanaged %+v", p.Unmanaged)
				}
			},
		},
		{
			name:    "the same skill listed twice is not ambiguous",
			desired: repo(local("a")),
			live:    &Live{Skills: []remote.Skill{live("a"), live("a")}},
			changes: []string{}, errors: []string{},
			check: func(t *testing.T, p *Plan) {
				if p.Summary.ActiveBefore != 1 {
					t.Errorf("summary %+v", p.Summary)
				}
			},
		},
		{
			name:    "built-in match",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Name = "Changed" })),
			live:    &Live{Skills: []remote.Skill{live("a", func(s *remote.Skill) { s.Source = "builtin" })}},
			changes: []string{}, errors: []string{CodeBuiltin},
		},
		{
			name:    "imported skill updated warns",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Name = "Changed" })),
			live: &Live{Skills: []remote.Skill{live("a", func(s *remote.Skill) {
				s.Source, s.SourceURL = remote.SourceGitHub, ptr("https://github.com/o/r")
			})}},
			changes: []string{"a:update"}, warnings: []string{CodeImported},
		},
		{
			name:    "imported skill not updated does not warn",
			desired: repo(local("a")),
			live:    &Live{Skills: []remote.Skill{live("a", func(s *remote.Skill) { s.Source = remote.SourceGitHub })}},
			changes: []string{}, warnings: []string{},
		},
		{
			name:    "a name the service would reject",
			desired: repo(local("a", func(s *fsrepo.Skill) { s.Name = "bad name!" })),
			live:    &Live{Skills: []remote.Skill{live("a")}},
			changes: []string{"a:update"}, errors: []string{CodeInvalid},
		},
		{
			name:    "unmanaged are ignored by default",
			desired: repo(local("a")),
			live:    &Live{Skills: []remote.Skill{live("z"), live("a"), live("y", remoteDisabled)}},
			changes: []string{}, errors: []string{},
			check: func(t *testing.T, p *Plan) {
				want := []UnmanagedSkill{
					{Slug: "y", ID: "id-y", Name: "Skill y", Source: "manual", Enabled: false},
					{Slug: "z", ID: "id-z", Name: "Skill z", Source: "manual", Enabled: true},
				}
				if !reflect.DeepEqual(p.Unmanaged, want) {
					t.Errorf("unmanaged %+v", p.Unmanaged)
				}
			},
		},
		{
			name:    "unmanaged: disable",
			desired: repo(local("a")),
			live:    &Live{Skills: []remote.Skill{live("z"), live("a"), live("y", remoteDisabled)}},
			policy:  Policy{Unmanaged: config.UnmanagedDisable},
			changes: []string{"z:disable"}, errors: []string{},
			check: func(t *testing.T, p *Plan) {
				c := p.Changes[0]
				if !c.Unmanaged || c.Path != "" || c.After.Enabled || !c.Before.Enabled {
					t.Errorf("change %+v", c)
				}
				if len(p.Unmanaged) != 2 || p.Unmanaged[0].Disable || !p.Unmanaged[1].Disable {
					t.Errorf("unmanaged %+v", p.Unmanaged)
				}
				if p.Summary != (Summary{Disable: 1, ActiveBefore: 2, ActiveAfter: 1}) {
					t.Errorf("summary %+v", p.Summary)
				}
			},
		},
		{
			name: "over 40 active names the enables",
			desired: func() *fsrepo.Repo {
				r := repo(local("new1"), local("new2"))
				for _, s := range many("on", 39) {
					r.Skills = append(r.Skills, local(s))
				}
				return r
			}(),
			live: func() *Live {
				l := &Live{Skills: []remote.Skill{live("new1", remoteDisabled), live("new2", remoteDisabled)}}
				for _, s := range many("on", 39) {
					l.Skills = append(l.Skills, live(s))
				}
				return l
			}(),
			changes: []string{"new1:enable", "new2:enable"}, errors: []string{CodeActiveLimit},
			check: func(t *testing.T, p *Plan) {
				e := p.Errors[0]
				if !reflect.DeepEqual(e.Skills, []string{"new1", "new2"}) || !strings.Contains(e.Message, "new1, new2") || !strings.Contains(e.Message, "41") {
					t.Errorf("error %+v", e)
				}
				if p.Summary.ActiveBefore != 39 || p.Summary.ActiveAfter != 41 {
					t.Errorf("summary %+v", p.Summary)
				}
			},
		},
		{
			name: "exactly 40 active is fine",
			desired: func() *fsrepo.Repo {
				r := repo(local("new1"))
				for _, s := range many("on", 39) {
					r.Skills = append(r.Skills, local(s))
				}
				return r
			}(),
			live: func() *Live {
				l := &Live{Skills: []remote.Skill{live("new1", remoteDisabled)}}
				for _, s := range many("on", 39) {
					l.Skills = append(l.Skills, live(s))
				}
				return l
			}(),
			changes: []string{"new1:enable"}, errors: []string{},
		},
		disableCase("disabling 40% of 10 managed is refused", 10, 4, Policy{}, []string{CodeDisableGuard}, []string{}),
		disableCase("disabling 40% of 10 managed with --force warns", 10, 4, Policy{Force: true}, []string{}, []string{CodeDisableGuard}),
		disableCase("disabling 30% of 10 managed is fine", 10, 3, Policy{}, []string{}, []string{}),
		disableCase("disabling 5 of 9 managed is fine", 9, 5, Policy{}, []string{}, []string{}),
		disableCase("maxDisablePercent raised", 10, 5, Policy{MaxDisablePercent: ptr(50)}, []string{}, []string{}),
		disableCase("maxDisablePercent 0 forbids any disable", 10, 1, Policy{MaxDisablePercent: ptr(0)}, []string{CodeDisableGuard}, []string{}),
		{
			// A wrong skillsDir with "unmanaged: disable" makes every remote
			// skill unmanaged; the guard must stop that plan.
			name:    "unmanaged disables of the whole space are refused",
			desired: repo(),
			live: func() *Live {
				l := &Live{}
				for _, s := range many("u", 12) {
					l.Skills = append(l.Skills, live(s))
				}
				return l
			}(),
			policy: Policy{Unmanaged: config.UnmanagedDisable},
			changes: func() []string {
				var c []string
				for _, s := range many("u", 12) {
					c = append(c, s+":disable")
				}
				return c
			}(),
			errors: []string{CodeDisableGuard},
		},
		{
			name: "supporting files",
			desired: repo(local("a", withFiles(
				textFile("absent.md", "x\n"),
				binaryFile("logo.png", "\x89PNG"),
				binaryFile("same.png", "\x89PNG same"),
				textFile("differs.md", "one\ntwo\n"),
				textFile("same-crlf.md", "one\ntwo\n"),
				textFile("unread.md", "x\n"),
			)), local("new", withFiles(textFile("ignored.md", "x")))),
			live: &Live{
				Skills: []remote.Skill{live("a")},
				Files: map[string]map[string]*string{id("a"): {
					"absent.md":    nil,
					"same.png":     ptr("\x89PNG same"),
					"differs.md":   ptr("one\n2\n"),
					"same-crlf.md": ptr("one\r\ntwo\r\n"),
				}},
			},
			policy:  Policy{Missing: config.MissingWarn},
			changes: []string{}, errors: []string{},
			check: func(t *testing.T, p *Plan) {
				var got []string
				for _, f := range p.Files {
					got = append(got, f.Slug+"/"+f.Path+":"+f.Status)
				}
				want := []string{"a/absent.md:absent", "a/logo.png:unchecked", "a/differs.md:differs", "a/unread.md:unchecked"}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("files %v, want %v", got, want)
				}
				if d := p.Files[2].Diff; !strings.Contains(d, "-2\n+two\n") || !strings.Contains(d, "+++ skills/a/differs.md") {
					t.Errorf("file diff %q", d)
				}
				if p.HasChanges() {
					t.Error("file issues are not changes: apply cannot act on them")
				}
			},
		},
		{
			name: "supporting files too large to compare",
			desired: repo(local("a", withFiles(
				largeFile("big-here.md"),
				textFile("big-there.md", "x\n"),
				textFile("small.md", "x\n"),
			))),
			live: &Live{
				Skills:     []remote.Skill{live("a")},
				Files:      map[string]map[string]*string{id("a"): {"small.md": ptr("x\n")}},
				LargeFiles: map[string]map[string]bool{id("a"): {"big-there.md": true}},
			},
			changes: []string{}, errors: []string{},
			check: func(t *testing.T, p *Plan) {
				var got []string
				for _, f := range p.Files {
					got = append(got, f.Path+": "+f.Status+": "+f.Detail)
					if f.Diff != "" {
						t.Errorf("%s has a diff", f.Path)
					}
				}
				want := []string{
					"big-here.md: too_large: too large to compare: 3145728 bytes, over the 1048576 compared",
					"big-there.md: too_large: too large to compare: the space's copy is over 1048576 bytes",
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("files %q, want %q", got, want)
				}
				if p.HasDrift() {
					t.Error("a file too large to compare is not drift: whether it differs is unknown")
				}
			},
		},
		{
			name:    "agents of a change, and a disable taking a skill from an agent",
			desired: repo(local("a", disabled), local("b", func(s *fsrepo.Skill) { s.Name = "B" }), local("c")),
			live: &Live{
				Skills: []remote.Skill{live("a"), live("b"), live("c")},
				Agents: []remote.Agent{
					{ID: "ag2", Name: "Writer", SkillIDs: []string{id("b"), id("a")}},
					{ID: "ag1", Name: "Support", SkillIDs: []string{id("a"), id("a")}},
					{ID: "ag3", Name: "Other", SkillIDs: []string{id("c")}},
				},
			},
			changes: []string{"a:disable", "b:update"}, warnings: []string{CodeAgentUsesDisabled, CodeAgentUsesDisabled},
			check: func(t *testing.T, p *Plan) {
				if want := []AgentRef{{"ag1", "Support"}, {"ag2", "Writer"}}; !reflect.DeepEqual(p.Changes[0].Agents, want) {
					t.Errorf("agents of a %+v", p.Changes[0].Agents)
				}
				if want := []AgentRef{{"ag2", "Writer"}}; !reflect.DeepEqual(p.Changes[1].Agents, want) {
					t.Errorf("agents of b %+v", p.Changes[1].Agents)
				}
				if p.Warnings[0].Agent != "ag1" || p.Warnings[0].Slug != "a" {
					t.Errorf("warning %+v", p.Warnings[0])
				}
			},
		},
		{
			name:    "publish",
			desired: repo(),
			live: &Live{Agents: []remote.Agent{
				{ID: "ag1", Name: "Never published"},
				{ID: "ag2", Name: "Edited", Published: true, HasUnpublishedChanges: true},
				{ID: "ag3", Name: "Clean", Published: true},
				{ID: "ag4", Name: "Twin"},
				{ID: "ag5", Name: "Twin"},
				{ID: "ag6", Name: "Embed", EmbedEnabled: true},
				{ID: "ag7", Name: "Embed ok", EmbedEnabled: true, EmbedOptions: remote.EmbedOptions{DomainWhitelist: []string{"example.com"}}},
				{ID: "ag8", Name: "Embed clean", Published: true, EmbedEnabled: true},
			}},
			policy: Policy{PublishAgents: []string{"Never published", "ag2", "Clean", "Twin", "nobody", "Embed", "ag7", "Embed clean", "ag1"}},
			errors: []string{CodeAgentAmbiguous, CodeAgentUnknown, CodeEmbedWhitelist},
			check: func(t *testing.T, p *Plan) {
				var got []string
				for _, a := range p.Publish {
					got = append(got, a.ID)
				}
				if want := []string{"ag2", "ag6", "ag7", "ag1"}; !reflect.DeepEqual(got, want) {
					t.Errorf("publish %v, want %v", got, want)
				}
				if !p.HasChanges() || p.Summary.Publish != 4 {
					t.Errorf("HasChanges %v, summary %+v", p.HasChanges(), p.Summary)
				}
			},
		},
		{
			name:    "changes are sorted by slug whatever the input order",
			desired: repo(local("c", disabled), local("a", disabled), local("b", disabled)),
			live:    &Live{Skills: []remote.Skill{live("b"), live("zz"), live("c"), live("a")}},
			policy:  Policy{Unmanaged: config.UnmanagedDisable},
			changes: []string{"a:disable", "b:disable", "c:disable", "zz:disable"},
		},
		{
			name:    "nil inputs",
			changes: []string{}, errors: []string{}, warnings: []string{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Compute(tt.desired, tt.live, tt.policy)
			if tt.changes != nil {
				if got := slugsOf(p); !reflect.DeepEqual(got, tt.changes) {
					t.Errorf("changes %v, want %v", got, tt.changes)
				}
			}
			if tt.errors != nil {
				if got := codes(p.Errors); !reflect.DeepEqual(got, tt.errors) {
					t.Errorf("errors %v, want %v: %+v", got, tt.errors, p.Errors)
				}
			}
			if tt.warnings != nil {
				if got := codes(p.Warnings); !reflect.DeepEqual(got, tt.warnings) {
					t.Errorf("warnings %v, want %v: %+v", got, tt.warnings, p.Warnings)
				}
			}
			if tt.check != nil && !t.Failed() {
				tt.check(t, p)
			}
			if p.Changes == nil || p.Errors == nil || p.Files == nil {
				t.Errorf("plan not normalized: %+v", p)
			}
			// Pure: the same inputs give the same plan.
			if again := Compute(tt.desired, tt.live, tt.policy); !reflect.DeepEqual(p, again) {
				t.Error("two Computes of the same inputs differ")
			}
		})
	}
}

// disableCase is a space of managed, enabled skills of which the
// repository disables some.
func disableCase(name string, managed, disables int, p Policy, errors, warnings []string) computeCase {
	r, l := repo(), &Live{}
	var changes []string
	for i, slug := range many("s", managed) {
		ls := local(slug)
		if i < disables {
			ls.Enabled = false
			changes = append(changes, slug+":disable")
		}
		r.Skills = append(r.Skills, ls)
		l.Skills = append(l.Skills, live(slug))
	}
	return computeCase{name: name, desired: r, live: l, policy: p, changes: changes, errors: errors, warnings: warnings,
		check: func(t *testing.T, p *Plan) {
			for _, pr := range append(p.Errors, p.Warnings...) {
				if len(pr.Skills) != disables {
					t.Errorf("problem names %v, want the %d disables", pr.Skills, disables)
				}
			}
		}}
}

// TestDescriptionFinalNewlines: a description that differs only by final
// newlines ("description: |" in the space's SKILL.md, trimmed locally) is
// no change; any other difference is.
func TestDescriptionFinalNewlines(t *testing.T) {
	l := local("a", func(s *fsrepo.Skill) { s.Description = "Line one.\nLine two." })
	same := live("a", func(s *remote.Skill) { s.Description = "Line one.\nLine two.\n" })
	if p := Compute(repo(l), &Live{Skills: []remote.Skill{same}}, Policy{}); p.HasChanges() {
		t.Errorf("a final newline planned a change: %+v", p.Changes)
	}
	other := live("a", func(s *remote.Skill) { s.Description = "Line one.\nLine 2.\n" })
	if p := Compute(repo(l), &Live{Skills: []remote.Skill{other}}, Policy{}); len(p.Changes) != 1 || !p.Changes[0].Changes(FieldDescription) {
		t.Errorf("a changed line planned %+v, want a description change", p.Changes)
	}
}

// TestMissingTodo: a missing skill's error says which name to type in the
// app, since the service makes the slug from it.
func TestMissingTodo(t *testing.T) {
	for _, tc := range []struct{ slug, name, want string }{
		{"brand-voice", "Brand Voice",
			`create a skill named "Brand Voice" in the app (the service makes its slug, brand-voice, from the name), then plan again`},
		{"pdf", "PDF tools",
			`create a skill named "pdf" in the app, so that the slug the service makes from the name is pdf ("PDF tools" would give pdf-tools), then plan again: apply renames it to "PDF tools"`},
		{"My_Skill", "My skill",
			`no name gives the slug My_Skill (the service makes lowercase letters, digits and hyphens): rename the folder to my-skill, then create a skill named "My skill" in the app`},
	} {
		if got := missingTodo(tc.slug, tc.name); got != tc.want {
			t.Errorf("missingTodo(%q, %q) =\n%s\nwant\n%s", tc.slug, tc.name, got, tc.want)
		}
	}
}
