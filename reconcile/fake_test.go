package reconcile

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// fakeService is a [Service] in memory: a space of skills, their files and
// agents, with no HTTP. It answers as space-api.md says for what
// reconcile asks of it, a 404 as a *remote.Error, and logs each call.
type fakeService struct {
	mu     sync.Mutex
	space  string
	skills []*remote.Skill              // in list order
	files  map[string]map[string]string // by skill id, then path
	agents []*remote.Agent
	calls  []string // "GET skill-id", "PATCH skill-id", ... in the order made
	clock  int      // moves updatedAt on every write
	// hook, when set, sees each call as it is logged, before it is
	// answered: to fail or panic a chosen one.
	hook func(call string)
}

func newFakeService(space string) *fakeService {
	return &fakeService{space: space, files: map[string]map[string]string{}}
}

// add puts a skill in the space and returns it as a get answers it.
func (f *fakeService) add(slug, instructions string, enabled bool) remote.Skill {
	f.mu.Lock()
	defer f.mu.Unlock()
	text := instructions
	s := &remote.Skill{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", len(f.skills)+1), SpaceID: f.space,
		Slug: slug, Name: "Skill " + slug, Description: "About " + slug, Instructions: &text,
		Enabled: enabled, Source: remote.SourceManual, CreatedAt: f.now(), UpdatedAt: f.now()}
	f.skills = append(f.skills, s)
	return *s
}

func (f *fakeService) now() string {
	return fmt.Sprintf("2026-01-01T00:00:%02dZ", f.clock)
}

func (f *fakeService) log(format string, args ...any) {
	call := fmt.Sprintf(format, args...)
	f.calls = append(f.calls, call)
	if f.hook != nil {
		f.hook(call)
	}
}

func (f *fakeService) writes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(f.calls), func(c string) bool { return c[:4] == "GET " || c[:4] == "LIST" })
}

func (f *fakeService) notFound(method, path string) error {
	return &remote.Error{StatusCode: http.StatusNotFound, Method: method, Path: path, Message: "not found"}
}

func (f *fakeService) find(space, id string) (*remote.Skill, error) {
	if space != f.space {
		return nil, f.notFound(http.MethodGet, "/spaces/"+space)
	}
	for _, s := range f.skills {
		if s.ID == id {
			return s, nil
		}
	}
	return nil, f.notFound(http.MethodGet, "/skills/"+id)
}

func (f *fakeService) BaseURL() string { return "memory://fake" }

func (f *fakeService) StreamSkills(ctx context.Context, space string, o remote.ListOptions[remote.Skill]) ([]remote.Skill, error) {
	f.mu.Lock()
	f.log("LIST skills")
	if space != f.space {
		f.mu.Unlock()
		return nil, f.notFound(http.MethodGet, "/spaces/"+space)
	}
	out := make([]remote.Skill, len(f.skills))
	for i, s := range f.skills {
		out[i] = *s
		out[i].Instructions = nil // list items have none
	}
	f.mu.Unlock()
	if o.OnPage != nil {
		o.OnPage(slices.Clone(out)) // one page
	}
	return out, nil
}

func (f *fakeService) StreamAgents(ctx context.Context, space string, o remote.ListOptions[remote.Agent]) ([]remote.Agent, error) {
	f.mu.Lock()
	f.log("LIST agents")
	out := make([]remote.Agent, len(f.agents))
	for i, a := range f.agents {
		out[i] = *a
	}
	f.mu.Unlock()
	if o.OnPage != nil {
		o.OnPage(slices.Clone(out))
	}
	return out, nil
}

func (f *fakeService) GetSkill(ctx context.Context, space, id string) (*remote.Skill, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log("GET %s", id)
	s, err := f.find(space, id)
	if err != nil {
		return nil, err
	}
	cp := *s
	return &cp, nil
}

func (f *fakeService) GetSkillFile(ctx context.Context, space, id, path string) (*remote.SkillFile, error) {
	return f.GetSkillFileUpTo(ctx, space, id, path, 1<<62)
}

func (f *fakeService) GetSkillFileUpTo(ctx context.Context, space, id, path string, maxBytes int64) (*remote.SkillFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log("GET %s/%s", id, path)
	if _, err := f.find(space, id); err != nil {
		return nil, err
	}
	content, ok := f.files[id][path]
	if !ok {
		return nil, f.notFound(http.MethodGet, "/skills/"+id+"/files/"+path)
	}
	if int64(len(content)) > maxBytes {
		return nil, fmt.Errorf("file %s: %w", path, remote.ErrTooLarge)
	}
	return &remote.SkillFile{Path: path, Content: content}, nil
}

// write applies change to the skill id and answers it.
func (f *fakeService) write(method, space, id string, change func(*remote.Skill) error) (*remote.Skill, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log("%s %s", method, id)
	s, err := f.find(space, id)
	if err != nil {
		return nil, err
	}
	if err := change(s); err != nil {
		return nil, err
	}
	f.clock++
	s.UpdatedAt = f.now()
	cp := *s
	return &cp, nil
}

func (f *fakeService) UpdateSkill(ctx context.Context, space, id string, u remote.SkillUpdate) (*remote.Skill, error) {
	return f.write("PATCH", space, id, func(s *remote.Skill) error {
		if u.Name != nil {
			s.Name = *u.Name
		}
		if u.Description != nil {
			s.Description = *u.Description
		}
		if u.Instructions != nil {
			text := *u.Instructions
			s.Instructions = &text
		}
		return nil
	})
}

func (f *fakeService) EnableSkill(ctx context.Context, space, id string) (*remote.Skill, error) {
	return f.write("ENABLE", space, id, func(s *remote.Skill) error {
		active := 0
		for _, o := range f.skills {
			if o.Enabled && o.ID != id {
				active++
			}
		}
		if active >= spec.MaxActiveSkills {
			return &remote.Error{StatusCode: http.StatusConflict, Method: http.MethodPost, Path: "/skills/" + id + "/enable", Message: "too many active skills"}
		}
		s.Enabled = true
		return nil
	})
}

func (f *fakeService) DisableSkill(ctx context.Context, space, id string) (*remote.Skill, error) {
	return f.write("DISABLE", space, id, func(s *remote.Skill) error {
		s.Enabled = false
		return nil
	})
}

func (f *fakeService) PublishAgent(ctx context.Context, space, id string) (*remote.Agent, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log("PUBLISH %s", id)
	for _, a := range f.agents {
		if a.ID == id {
			a.Published, a.HasUnpublishedChanges = true, false
			cp := *a
			return &cp, nil
		}
	}
	return nil, f.notFound(http.MethodPost, "/agents/"+id+"/publish")
}
