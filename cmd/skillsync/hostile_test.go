package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/lineartest"
	"github.com/skillsync/skillsync/remote"
)

// TestStdoutScansEachWriteOnce: stdout is redacted a line at a time, and
// each write was searched for a newline together with all it held back:
// a table writer puts a line out a cell at a time, and an agent's name of
// 16,000 tabs (32 KB, of a 32 MiB answer) took 0.2 s, growing with its
// square. Only the bytes of each write are searched; the token, cut
// between writes, is still redacted.
func TestStdoutScansEachWriteOnce(t *testing.T) {
	const token = "a-token-of-some-length-0123456789"
	// writeLine writes a line of n cells and the token, 3 bytes at a time.
	writeLine := func(out io.Writer, n int) {
		ui := newUI(out, io.Discard, github.Env{})
		ui.secrets.Add("SKILLSYNC_TOKEN", token)
		line := strings.Repeat("cell\t", n) + token + "\n"
		for i := 0; i < len(line); i += 3 {
			fmt.Fprint(ui.stdout, line[i:min(i+3, len(line))])
		}
		ui.flush()
	}
	var out bytes.Buffer
	writeLine(&out, 20000)
	if strings.Contains(out.String(), token) || !strings.HasSuffix(out.String(), "[REDACTED]\n") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("a line written 3 bytes at a time came out as %d bytes ending %q", out.Len(), out.String()[max(0, out.Len()-40):])
	}
	lineartest.Time(t, 1000, func(n int) { writeLine(io.Discard, n) })
}

// BenchmarkAgentTableTabs lists an agent whose name holds n tabs, each a
// cell of the table.
func BenchmarkAgentTableTabs(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		agents := []remote.Agent{{ID: "0b5c2f2e-0000-4000-8000-000000000000", Name: strings.Repeat("a\t", n)}}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ui := newUI(io.Discard, io.Discard, github.Env{})
				writeAgentTable(ui, agents)
				ui.flush()
			}
		})
	}
}

// TestAgentTableKeepsItsRows: a tab or a newline in an agent's name (the
// space's text) neither starts a cell nor fakes a row of the table.
func TestAgentTableKeepsItsRows(t *testing.T) {
	var out bytes.Buffer
	ui := newUI(&out, io.Discard, github.Env{})
	writeAgentTable(ui, []remote.Agent{{ID: "0b5c2f2e-0000-4000-8000-000000000000", Name: "Support\tBot\n0b5c2f2e-ffff-4000-8000-000000000000  Fake  published"}})
	ui.flush()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[1], "Support⟦HT⟧Bot⟦LF⟧0b5c2f2e-ffff") {
		t.Errorf("the table of one agent is %d lines:\n%s", len(lines), out.String())
	}
}
