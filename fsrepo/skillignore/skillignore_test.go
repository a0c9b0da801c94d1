package skillignore

import "testing"

func TestExcludes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		repoWide []string
		ignores  map[string][]byte
		excluded []string
		kept     []string
	}{
		{name: "evals by default",
			excluded: []string{"evals/evals.json", "evals/files/input.csv", ".skillignore", "scripts/.skillignore"},
			kept:     []string{"SKILL.md", "evals.md", "references/evals/x.md", "reference.md"}},
		{name: "repository-wide patterns", repoWide: []string{"*.wip.md", "fixtures/"},
			excluded: []string{"notes.wip.md", "docs/a.wip.md", "fixtures/a.json", "scripts/fixtures/b.json"},
			kept:     []string{"notes.md", "fixtures.md"}},
		{name: "a folder's .skillignore, comments and CRLF",
			ignores:  map[string][]byte{".skillignore": []byte("# team scratch\r\n\r\ndrafts/\r\n/TODO.md\r\n")},
			excluded: []string{"drafts/a.md", "TODO.md"},
			kept:     []string{"docs/TODO.md", "draft.md"}},
		{name: "a nested .skillignore covers its folder only",
			ignores:  map[string][]byte{"scripts/.skillignore": []byte("*.log\n")},
			excluded: []string{"scripts/run.log", "scripts/sub/run.log"},
			kept:     []string{"run.log"}},
		{name: "a later pattern takes evals back in", ignores: map[string][]byte{".skillignore": []byte("!evals/\n")},
			kept: []string{"evals/evals.json"}},
		{name: "the deeper file wins", repoWide: []string{"*.md"},
			ignores:  map[string][]byte{"docs/.skillignore": []byte("!keep.md\n")},
			excluded: []string{"a.md", "docs/other.md"},
			kept:     []string{"docs/keep.md"}},
		{name: "SKILL.md is never excluded", repoWide: []string{"*.md", "SKILL.md"},
			excluded: []string{"nested/SKILL.md"},
			kept:     []string{"SKILL.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := New(tc.repoWide, tc.ignores)
			for _, p := range tc.excluded {
				if !m.Excludes(p) {
					t.Errorf("%s is kept, want it excluded", p)
				}
			}
			for _, p := range tc.kept {
				if m.Excludes(p) {
					t.Errorf("%s is excluded, want it kept", p)
				}
			}
		})
	}
}

func TestCheck(t *testing.T) {
	for _, p := range []string{"*.wip.md", "fixtures/", "!evals/keep.json", "/TODO.md", "**/tmp"} {
		if err := Check(p); err != nil {
			t.Errorf("Check(%q) = %v, want nil", p, err)
		}
	}
	for _, p := range []string{"", "/", "!", "[abc", "docs/[x"} {
		if err := Check(p); err == nil {
			t.Errorf("Check(%q) = nil, want an error", p)
		}
	}
}
