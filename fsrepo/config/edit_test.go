package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSetTargetEnabled: the edit changes or adds the lines of the slugs
// alone; comments, order and the other targets stay as written.
func TestSetTargetEnabled(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		states         map[string]bool
	}{
		{
			name: "no enabled yet",
			in: `# our spaces
targets:
  staging:   # the first
    space: st01
    exclude:
      - beta-*   # not there
  prod: {space: pr01}
`,
			states: map[string]bool{"sql-style": false, "brand-voice": true},
			want: `# our spaces
targets:
  staging:   # the first
    space: st01
    exclude:
      - beta-*   # not there
    enabled:
      brand-voice: true
      sql-style: false
  prod: {space: pr01}
`,
		},
		{
			name: "a value changed, a key added",
			in: `targets:
  staging:
    enabled:
      sql-style: true # for now
    space: st01
  prod:
    space: pr01
`,
			states: map[string]bool{"sql-style": false, "code-review": false},
			want: `targets:
  staging:
    enabled:
      sql-style: false # for now
      code-review: false
    space: st01
  prod:
    space: pr01
`,
		},
		{
			name:   "a flow target",
			in:     "targets:\n  staging: {space: st01}   # one line\n  prod: {space: pr01}\n",
			states: map[string]bool{"sql-style": false},
			want:   "targets:\n  staging: {space: st01, enabled: {sql-style: false}}   # one line\n  prod: {space: pr01}\n",
		},
		{
			name:   "a block scalar last",
			in:     "targets:\n  staging:\n    space: st01\n    baseURL: >-\n      http://x\n\n      .example\n\n  prod:\n    space: pr01\n",
			states: map[string]bool{"a": false},
			want:   "targets:\n  staging:\n    space: st01\n    baseURL: >-\n      http://x\n\n      .example\n    enabled:\n      a: false\n\n  prod:\n    space: pr01\n",
		},
		{
			name:   "a block scalar keeping its last newlines",
			in:     "targets:\n  staging:\n    space: st01\n    baseURL: |+ # the one\n      http://x\n\n  prod:\n    space: pr01\n",
			states: map[string]bool{"a": false},
			want:   "targets:\n  staging:\n    space: st01\n    baseURL: |+ # the one\n      http://x\n\n    enabled:\n      a: false\n  prod:\n    space: pr01\n",
		},
		{
			name:   "an empty enabled",
			in:     "targets:\n  staging:\n    enabled:   # to come\n    space: st01\n",
			states: map[string]bool{"b": true, "a": false},
			want:   "targets:\n  staging:\n    enabled:   # to come\n      a: false\n      b: true\n    space: st01\n",
		},
		{
			name:   "a null enabled",
			in:     "targets:\n  staging:\n    space: st01\n    enabled: ~ # none\n",
			states: map[string]bool{"a": false},
			want:   "targets:\n  staging:\n    space: st01\n    enabled: {a: false} # none\n",
		},
		{
			name:   "an empty enabled in a flow target",
			in:     "targets:\n  staging: {enabled: , space: st01}\n",
			states: map[string]bool{"a": false},
			want:   "targets:\n  staging: {enabled: {a: false}, space: st01}\n",
		},
		{
			name:   "braces in quoted strings",
			in:     "targets:\n  staging: {space: st01, exclude: [\"a}\\\"}\", 'b}''}', it's]}  # {c}\n",
			states: map[string]bool{"sql-style": false},
			want:   "targets:\n  staging: {space: st01, exclude: [\"a}\\\"}\", 'b}''}', it's], enabled: {sql-style: false}}  # {c}\n",
		},
		{
			name:   "a flow enabled",
			in:     "targets:\n  staging:\n    space: st01\n    enabled: {b: true, a: false}\n",
			states: map[string]bool{"a": true, "c": false},
			want:   "targets:\n  staging:\n    space: st01\n    enabled: {b: true, a: true, c: false}\n",
		},
		{
			name:   "the last line without a newline",
			in:     "targets:\n  staging:\n    space: st01",
			states: map[string]bool{"a": false},
			want:   "targets:\n  staging:\n    space: st01\n    enabled:\n      a: false\n",
		},
	} {
		// A file of CRLF lines keeps them, the lines added too.
		crlf := strings.NewReplacer("\n", "\r\n")
		for _, eol := range []struct{ name, in, want string }{
			{tc.name, tc.in, tc.want},
			{tc.name + " CRLF", crlf.Replace(tc.in), crlf.Replace(tc.want)},
		} {
			t.Run(eol.name, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, FileName), []byte(eol.in), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := SetTargetEnabled(dir, "staging", tc.states); err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(filepath.Join(dir, FileName))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != eol.want {
					t.Errorf("got\n%q\nwant\n%q", got, eol.want)
				}
				if fi, _ := os.Stat(filepath.Join(dir, FileName)); fi.Mode().Perm() != 0o600 {
					t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
				}
			})
		}
	}

	// What it cannot edit as text is left alone, with an error saying so.
	dir := t.TempDir()
	in := "base: &b {space: st01}\ntargets:\n  staging: *b\n"
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := SetTargetEnabled(dir, "staging", map[string]bool{"a": true}); !errors.Is(err, ErrNotEditable) {
		t.Errorf("alias: %v, want ErrNotEditable", err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, FileName)); string(got) != in {
		t.Errorf("the file changed to\n%s", got)
	}
}

// TestSetTargetEnabledShared: an edit never reaches what another target or
// the top level reads, such as a mapping or value an anchor shares; the
// file is then left alone, with an error saying why.
func TestSetTargetEnabledShared(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"an anchored enabled", "baseURL: http://x\ntargets:\n  prod:\n    space: pr01\n    enabled: &e\n      beta: true\n  st:\n    space: st01\n    enabled: *e\n"},
		{"an anchored flow enabled", "targets:\n  prod: {space: pr01, enabled: &e {beta: true}}\n  st: {space: st01, enabled: *e}\n"},
		{"an aliased enabled", "targets:\n  st:\n    space: st01\n    enabled: &e\n      beta: true\n  prod:\n    space: pr01\n    enabled: *e\n"},
		{"an anchored target", "targets:\n  prod: &p\n    space: pr01\n  st:\n    space: st01\n"},
		{"an anchored value", "targets:\n  prod:\n    space: pr01\n    enabled:\n      alpha: &off false\n  st:\n    space: st01\n    enabled: {alpha: *off}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			err := SetTargetEnabled(dir, "prod", map[string]bool{"alpha": true})
			if !errors.Is(err, ErrNotEditable) {
				t.Errorf("error %v, want ErrNotEditable", err)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, FileName)); string(got) != tc.in {
				t.Errorf("the file changed to\n%s", got)
			}
		})
	}
}

// TestCheckTargetEdit: an edit reads back only if the target's enabled
// states alone changed, as asked.
func TestCheckTargetEdit(t *testing.T) {
	const before = "baseURL: http://x\ntargets:\n  prod:\n    space: pr01\n  st:\n    space: st01\n"
	states := map[string]bool{"alpha": false}
	for _, tc := range []struct{ name, after, err string }{
		{"as asked", "baseURL: http://x\ntargets:\n  prod:\n    space: pr01\n    enabled: {alpha: false}\n  st:\n    space: st01\n", ""},
		{"another target too", "baseURL: http://x\ntargets:\n  prod:\n    space: pr01\n    enabled: {alpha: false}\n  st:\n    space: st01\n    enabled: {alpha: false}\n", "targets.st"},
		{"the top level too", "baseURL: http://y\ntargets:\n  prod:\n    space: pr01\n    enabled: {alpha: false}\n  st:\n    space: st01\n", "shared settings"},
		{"another field of the target", "baseURL: http://x\ntargets:\n  prod:\n    space: pr02\n    enabled: {alpha: false}\n  st:\n    space: st01\n", "targets.prod"},
		{"not the state asked", "baseURL: http://x\ntargets:\n  prod:\n    space: pr01\n    enabled: {alpha: true}\n  st:\n    space: st01\n", "targets.prod"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkTargetEdit([]byte(before), []byte(tc.after), "prod", states)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error %v, want one naming %s", err, tc.err)
			}
		})
	}
}

// FuzzSetTargetEnabled checks that no skillsync.yaml makes the edit panic,
// and that an edit it makes reads back as asked.
func FuzzSetTargetEnabled(f *testing.F) {
	for _, seed := range []string{
		"targets:\n  staging:\n    space: st01\n",
		"targets:\n  staging: {space: st01, exclude: [\"a}\"]}\n",
		"targets:\n  staging:\n    enabled: {a: true}\n    space: st01\n",
		"targets:\n  staging:\n    space: st01\n    enabled:\n",
		"targets:\n  staging:\n    space: st01\n    baseURL: >-\n      x\n",
		"targets:\r\n  staging:\r\n    space: st01\r\n",
		"targets:\r  staging:\r    space: st01\r",
		"targets:\n  staging:\u2028    space: st01\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		states := map[string]bool{"a": false, "b": true}
		out, err := setTargetEnabled(data, "staging", states)
		if err != nil {
			return
		}
		if _, err := Parse(data); err != nil {
			return
		}
		if err := checkTargetEdit(data, out, "staging", states); err != nil && !errors.Is(err, ErrNotEditable) && !strings.Contains(err.Error(), "would not read back") {
			t.Errorf("%q: %v", out, err)
		}
	})
}

// TestSetTargetEnabledSymlinkedConfig: a skillsync.yaml that is a symlink
// to a file of the repository stays a link, and the file it points to is
// edited; one that points outside the repository (which Read never
// reads) is refused, and nothing changes.
func TestSetTargetEnabledSymlinkedConfig(t *testing.T) {
	const in = "targets:\n  staging: {space: st01}\n  prod:\n    space: pr01\n"
	const want = "targets:\n  staging: {space: st01}\n  prod:\n    space: pr01\n    enabled:\n      sql-style: false\n"
	states := map[string]bool{"sql-style": false}

	// link writes in at dir/name and links root/skillsync.yaml to target.
	link := func(root, dir, name, target string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, FileName)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	root := t.TempDir()
	link(root, filepath.Join(root, "config"), "skillsync.yaml", filepath.Join("config", "skillsync.yaml"))
	if err := SetTargetEnabled(root, "prod", states); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(root, FileName)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink: %v, %v", FileName, fi, err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "config", "skillsync.yaml")); string(got) != want {
		t.Errorf("the file the link points to:\n%s\nwant:\n%s", got, want)
	}
	if es, _ := os.ReadDir(filepath.Join(root, "config")); len(es) != 1 {
		t.Errorf("config folder holds %d files, want the one: %v", len(es), es)
	}

	root, outside := t.TempDir(), t.TempDir()
	link(root, outside, "skillsync.yaml", filepath.Join(outside, "skillsync.yaml"))
	err := SetTargetEnabled(root, "prod", states)
	if err == nil || !strings.Contains(err.Error(), "symlink to a file outside the repository") {
		t.Errorf("SetTargetEnabled = %v, want it refused", err)
	}
	if fi, err := os.Lstat(filepath.Join(root, FileName)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symlink: %v, %v", FileName, fi, err)
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "skillsync.yaml")); string(got) != in {
		t.Errorf("the file outside changed:\n%s", got)
	}
}
