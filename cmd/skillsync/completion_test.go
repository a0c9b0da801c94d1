package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBashCompletionScript runs the bash script against a stand-in
// skillsync that records how it is asked.
func TestBashCompletionScript(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	code, script, stderr := runCLI(t, testEnv{}, "completion", "bash")
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
			t.Parallel()
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
