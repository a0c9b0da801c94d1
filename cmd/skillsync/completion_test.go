package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// TestCompletionNeverRuns: asking for completions, wherever the flag is
// and whatever "--" precedes it, runs no command.
func TestCompletionNeverRuns(t *testing.T) {
	for _, args := range [][]string{
		{"plan", "--", completionFlag},
		{"apply", "--auto-approve", completionFlag},
		{"apply", "--auto-approve", "--", completionFlag},
		{"pull", "--", completionFlag},
		{"drift", completionFlag, "--"},
		{"demo", "-", completionFlag},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			e, dir := ciSetup(t)
			t.Chdir(dir)
			var requests atomic.Int32
			e.SetOnRequest(func(*http.Request) { requests.Add(1) })
			code, _, stderr := runCLI(t, args...)
			if code != 0 || stderr != "" {
				t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr)
			}
			if n := requests.Load(); n != 0 {
				t.Errorf("%d requests reached the space, want none", n)
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, ".skillsync", "journal")); len(entries) > 0 {
				t.Errorf("apply wrote a journal: %v", entries)
			}
		})
	}
}

func TestCompletionCandidates(t *testing.T) {
	tests := []struct {
		args      []string
		want, not []string // lines
		none      bool
	}{
		{args: []string{"plan"}, want: []string{"--base", "--out", "--detailed-exitcode", "--help"}, not: []string{"help", "h", "-h"}},
		{args: []string{"plan", "--de"}, want: []string{"--debug", "--detailed-exitcode"}, not: []string{"--base"}},
		{args: []string{"plan", "--dir", "x", "-"}, want: []string{"--base", "-h"}, not: []string{"--dir"}},
		{args: []string{"plan", "--", "-"}, want: []string{"--base"}},
		{args: nil, want: []string{"plan", "apply", "drift", "completion"}, not: []string{"h"}},
		{args: []string{"agents"}, want: []string{"list", "publish", "delete"}, not: []string{"h"}},
		{args: []string{"completion"}, want: []string{"bash", "zsh", "fish"}},
		{args: []string{"apply"}, none: true}, // a FILE: the shell's own
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, append(tt.args, completionFlag)...)
			if code != 0 {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			lines := strings.Fields(stdout)
			for _, w := range tt.want {
				if !slices.Contains(lines, w) {
					t.Errorf("candidates %q lack %q", lines, w)
				}
			}
			for _, n := range tt.not {
				if slices.Contains(lines, n) {
					t.Errorf("candidates %q hold %q", lines, n)
				}
			}
			if tt.none && len(lines) > 0 {
				t.Errorf("candidates %q, want none", lines)
			}
		})
	}
}

// TestBashCompletionScript runs the bash script against a stand-in
// skillsync that records how it is asked.
func TestBashCompletionScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	code, script, stderr := runCLI(t, "completion", "bash")
	if code != 0 {
		t.Fatalf("completion bash: exit %d, stderr:\n%s", code, stderr)
	}
	bin := t.TempDir()
	fake := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \"$ASKED\"\nprintf -- '--base\\n--out\\n'\n"
	if err := os.WriteFile(filepath.Join(bin, "skillsync"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		words     []string // the last is the word completed
		wantAsked string   // empty: the binary must not be run
		wantReply string
	}{
		{[]string{"skillsync", "plan", "--"}, "plan - --generate-bash-completion", "--base --out"},
		{[]string{"skillsync", "plan", "--o"}, "plan - --generate-bash-completion", "--out"},
		{[]string{"skillsync", "plan", ""}, "plan --generate-bash-completion", "--base --out"},
		{[]string{"skillsync", "pull", "--", ""}, "", ""},
		{[]string{"skillsync", "apply", "--", "-"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.words, " "), func(t *testing.T) {
			asked := filepath.Join(t.TempDir(), "asked")
			var words strings.Builder
			for _, w := range tt.words {
				words.WriteString(" '" + w + "'")
			}
			cmd := exec.Command("bash", "--noprofile", "--norc", "-c",
				script+"\nCOMP_WORDS=("+words.String()+")\nCOMP_CWORD="+
					strconv.Itoa(len(tt.words)-1)+"\n_skillsync_complete\necho \"${COMPREPLY[*]}\"\n")
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "ASKED="+asked)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != tt.wantReply {
				t.Errorf("COMPREPLY = %q, want %q", got, tt.wantReply)
			}
			data, _ := os.ReadFile(asked)
			if got := strings.TrimSpace(string(data)); got != tt.wantAsked {
				t.Errorf("skillsync was run as %q, want %q", got, tt.wantAsked)
			}
		})
	}
}

// TestZshCompletionScript checks what it can without zsh: the word being
// completed never reaches the binary, where "--" would end the flags.
func TestZshCompletionScript(t *testing.T) {
	_, script, _ := runCLI(t, "completion", "zsh")
	for _, bad := range []string{"${cur} --generate-bash-completion", "$cur --generate-bash-completion", `"$cur" --generate-bash-completion`} {
		if strings.Contains(script, bad) {
			t.Errorf("the zsh script passes the word completed to skillsync (%s):\n%s", bad, script)
		}
	}
	if !strings.Contains(script, `"$w" == "--"`) {
		t.Errorf("the zsh script does not stop at a typed --:\n%s", script)
	}
}
