package reconciletest

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// Service is the space of reconcile.Service in memory: its skills, their
// files and agents, with no HTTP. It answers as space-api.md says for what
// reconcile asks of it, a 404 as a *remote.Error, and logs each call.
type Service struct {
	mu    sync.Mutex
	space string
	// Skills, in list order, and Files, by skill id then path, are the
	// space's; a Hook may change them.
	Skills []*remote.Skill
	Files  map[string]map[string]string
	agents []*remote.Agent
	calls  []string // "GET skill-id", "PATCH skill-id", ... in the order made
	clock  int      // moves updatedAt on every write
	// Hook, when set, sees each call as it is logged, before it is
	// answered: to fail or panic a chosen one.
	Hook func(call string)
}

// NewService is an empty space.
func NewService(space string) *Service {
	return &Service{space: space, Files: map[string]map[string]string{}}
}

// Add puts a skill in the space and returns it as a get answers it.
func (f *Service) Add(slug, instructions string, enabled bool) remote.Skill {
	f.mu.Lock()
	defer f.mu.Unlock()
	text := instructions
	s := &remote.Skill{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", len(f.Skills)+1), SpaceID: f.space,
		Slug: slug, Name: "Skill " + slug, Description: "About " + slug, Instructions: &text,
		Enabled: enabled, Source: remote.SourceManual, CreatedAt: f.now(), UpdatedAt: f.now()}
	f.Skills = append(f.Skills, s)
	return *s
}

func (f *Service) now() string {
	return fmt.Sprintf("2026-01-01T00:00:%02dZ", f.clock)
}

func (f *Service) log(format string, args ...any) {
	call := fmt.Sprintf(format, args...)
	f.calls = append(f.calls, call)
	if f.Hook != nil {
		f.Hook(call)
	}
}

// Calls are the calls made, in their order: "LIST skills", "GET id",
// "GET id/path", "PATCH id", "ENABLE id", "DISABLE id", "PUBLISH id".
func (f *Service) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

// Writes are the calls made that change the space, in their order.
func (f *Service) Writes() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(f.calls), func(c string) bool { return c[:4] == "GET " || c[:4] == "LIST" })
}

func (f *Service) notFound(method, path string) error {
	return &remote.Error{StatusCode: http.StatusNotFound, Method: method, Path: path, Message: "not found"}
}

func (f *Service) find(space, id string) (*remote.Skill, error) {
	if space != f.space {
		return nil, f.notFound(http.MethodGet, "/spaces/"+space)
	}
	for _, s := range f.Skills {
		if s.ID == id {
			return s, nil
		}
	}
	return nil, f.notFound(http.MethodGet, "/skills/"+id)
}

func (f *Service) BaseURL() string { return "memory://fake" }

func (f *Service) StreamSkills(ctx context.Context, space string, o remote.ListOptions) ([]remote.Skill, error) {
	f.mu.Lock()
	f.log("LIST skills")
	if space != f.space {
		f.mu.Unlock()
		return nil, f.notFound(http.MethodGet, "/spaces/"+space)
	}
	out := make([]remote.Skill, len(f.Skills))
	for i, s := range f.Skills {
		out[i] = *s
		out[i].Instructions = nil // list items have none
	}
	f.mu.Unlock()
	return out, nil
}

func (f *Service) StreamAgents(ctx context.Context, space string, o remote.ListOptions) ([]remote.Agent, error) {
	f.mu.Lock()
	f.log("LIST agents")
	out := make([]remote.Agent, len(f.agents))
	for i, a := range f.agents {
		out[i] = *a
	}
	f.mu.Unlock()
	return out, nil
}

func (f *Service) GetSkill(ctx context.Context, space, id string) (*remote.Skill, error) {
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

func (f *Service) GetSkillFile(ctx context.Context, space, id, path string) (*remote.SkillFile, error) {
	return f.GetSkillFileUpTo(ctx, space, id, path, 1<<62)
}

func (f *Service) GetSkillFileUpTo(ctx context.Context, space, id, path string, maxBytes int64) (*remote.SkillFile, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log("GET %s/%s", id, path)
	if _, err := f.find(space, id); err != nil {
		return nil, err
	}
	content, ok := f.Files[id][path]
	if !ok {
		return nil, f.notFound(http.MethodGet, "/skills/"+id+"/files/"+path)
	}
	if int64(len(content)) > maxBytes {
		return nil, fmt.Errorf("file %s: %w", path, remote.ErrTooLarge)
	}
	return &remote.SkillFile{Path: path, Content: content}, nil
}

// write applies change to the skill id and answers it.
func (f *Service) write(method, space, id string, change func(*remote.Skill) error) (*remote.Skill, error) {
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

func (f *Service) UpdateSkill(ctx context.Context, space, id string, u remote.SkillUpdate) (*remote.Skill, error) {
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

func (f *Service) EnableSkill(ctx context.Context, space, id string) (*remote.Skill, error) {
	return f.write("ENABLE", space, id, func(s *remote.Skill) error {
		active := 0
		for _, o := range f.Skills {
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

func (f *Service) DisableSkill(ctx context.Context, space, id string) (*remote.Skill, error) {
	return f.write("DISABLE", space, id, func(s *remote.Skill) error {
		s.Enabled = false
		return nil
	})
}

func (f *Service) PublishAgent(ctx context.Context, space, id string) (*remote.Agent, error) {
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
