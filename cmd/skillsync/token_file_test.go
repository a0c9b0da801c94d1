package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestTokenFileRead: a token file is read as an editor or a shell writes
// it (a byte order mark, a final newline), and one that cannot hold a
// token is refused in seconds, saying what is wrong with it: a FIFO or a
// device is not read at all, two lines are not one token.
func TestTokenFileRead(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	for _, tc := range []struct {
		name    string
		content string // written to a file, unless path is set
		path    string
		code    int
		stderr  string // what stderr must hold
	}{
		{"bom and crlf", "\ufeff" + scriptToken + "\r\n", "", exitOK, ""},
		{"blank lines around", "\n  " + scriptToken + "  \n\n", "", exitOK, ""},
		{"two lines", scriptToken + "\nhttps://tenant.example.com\n", "", exitError, "holds 2 lines; it must hold the token alone, on one line"},
		{"too large", strings.Repeat("x", 1<<20), "", exitError, "more than the limit of"},
		{"fifo", "", fifo, exitError, "is not a regular file"},
		{"device", "", "/dev/zero", exitError, "is not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, dir, env := ciSetup(t)
			delete(env, "SKILLSYNC_TOKEN")
			path := tc.path
			if path == "" {
				path = filepath.Join(t.TempDir(), "token")
				if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--token-file", path)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, want %d and stderr holding %q; stdout:\n%s\nstderr:\n%s", code, tc.code, tc.stderr, stdout, stderr)
			}
			if tc.code == exitError && !strings.Contains(stderr, path) {
				t.Errorf("the error does not name %s:\n%s", path, stderr)
			}
			if strings.Contains(stderr, "base URL") || strings.Contains(stderr, "base-url") {
				t.Errorf("a hint about the base URL for a token file:\n%s", stderr)
			}
			if strings.Contains(stdout+stderr, scriptToken) {
				t.Errorf("the token is shown:\n%s\n%s", stdout, stderr)
			}
		})
	}
}
