package vendored

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/skillsync/skillsync/internal/lineartest"
)

// gitCLI runs git in dir, failing t on an error.
func gitCLI(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=up", "-c", "user.email=up@example.com"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// serveGitCLI serves the repositories under dir over git's smart HTTP
// protocol on loopback, through git http-backend, as a forge does; it
// returns the base URL (a repository dir/NAME is at base/NAME).
func serveGitCLI(t testing.TB, dir string) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	ts := httptest.NewServer(&cgi.Handler{Path: git, Args: []string{"http-backend"}, Root: "/",
		Env: []string{"GIT_PROJECT_ROOT=" + dir, "GIT_HTTP_EXPORT_ALL=1"}})
	t.Cleanup(ts.Close)
	return ts.URL
}

// bombUpstream makes dir/up, an upstream whose main branch holds the pdf
// skill, then a second commit adding big/zeros.bin, size bytes of zeros
// outside the skill's folder: a few kilobytes of pack per megabyte. It
// returns the two commits.
func bombUpstream(t testing.TB, dir string, size int64) (before, after string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	up := filepath.Join(dir, "up")
	gitCLI(t, dir, "init", "-q", "-b", "main", up)
	for name, content := range map[string]string{"SKILL.md": pdfSkill, "forms.md": "# Forms\n"} {
		if err := os.MkdirAll(filepath.Join(up, "skills", "pdf"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(up, "skills", "pdf", name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitCLI(t, up, "add", ".")
	gitCLI(t, up, "commit", "-q", "-m", "the pdf skill")
	before = gitCLI(t, up, "rev-parse", "HEAD")
	big := filepath.Join(up, "big", "zeros.bin")
	if err := os.MkdirAll(filepath.Dir(big), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, size); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	gitCLI(t, up, "add", ".")
	gitCLI(t, up, "commit", "-q", "-m", "zeros")
	after = gitCLI(t, up, "rev-parse", "HEAD")
	if err := os.Remove(big); err != nil {
		t.Fatal(err)
	}
	return before, after
}

// TestFetchBounded: a small upstream over http holding a large file of
// zeros, even outside the folder vendored, was inflated in memory whole
// by add and outdated (a 2 GiB file made them peak at 11.7 GB, and
// outdated then said "current"). Each object's declared size is bounded
// as the pack is read: the fetch is refused, saying why, in a few
// megabytes.
func TestFetchBounded(t *testing.T) {
	const size = 2 * MaxFileBytes
	dir := t.TempDir()
	before, after := bombUpstream(t, dir, size)
	source := serveGitCLI(t, dir) + "/up"
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the fetches go
	wantErr := fmt.Sprintf("holds an object of %d bytes", size)
	check := func(what string, err error, alloc uint64) {
		t.Helper()
		t.Logf("%s: %v; %d KB allocated", what, err, alloc>>10)
		if err == nil || !strings.Contains(err.Error(), wantErr) || !strings.Contains(err.Error(), "local clone") {
			t.Errorf("%s: %v, want an error saying %q and what to do", what, err, wantErr)
		}
		if alloc > size/2 {
			t.Errorf("%s allocated %d MB for a file of %d MB of zeros", what, alloc>>20, size>>20)
		}
	}

	root := newRoot(t)
	var err error
	alloc := lineartest.Allocated(func() {
		_, err = Add(context.Background(), root, AddOptions{Source: source, Path: "skills/pdf", Ref: after})
	})
	check("add", err, alloc)
	if _, err := os.Stat(filepath.Join(root, "skills", "pdf")); !os.IsNotExist(err) {
		t.Errorf("add wrote the folder: %v", err)
	}

	// Vendored before the zeros came: outdated fetches the new commit.
	gitCLI(t, filepath.Join(dir, "up"), "branch", "-q", "v1", before)
	root = newRoot(t)
	if _, err := Add(context.Background(), root, AddOptions{Source: source, Path: "skills/pdf", Ref: "v1"}); err != nil {
		t.Fatal(err)
	}
	gitCLI(t, filepath.Join(dir, "up"), "branch", "-q", "-f", "v1", after)
	var rep *Report
	alloc = lineartest.Allocated(func() { rep, err = Outdated(context.Background(), root, OutdatedOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if st := rep.Skills[0]; st.State != StateError {
		t.Errorf("outdated: %+v, want an error", st)
	} else {
		check("outdated", fmt.Errorf("%s", st.Error), alloc)
	}
	if es, err := os.ReadDir(tmp); err != nil || len(es) > 0 {
		t.Errorf("left in the temporary folder: %v %v", es, err)
	}
}

// BenchmarkFetchBomb vendors from an upstream holding a file of zeros
// outside the folder vendored, 2 GiB unless SKILLSYNC_BOMB_MIB says how
// many MiB: over http on loopback (git http-backend), refused, and from the
// same repository on disk (a local source), vendored. peak-RSS-MB is the
// whole process's: run one at a time. The upstream is made once, with git,
// which takes a while for 2 GiB.
//
//	go test ./vendored -run '^$' -bench 'FetchBomb/http' -benchtime 3x
//	go test ./vendored -run '^$' -bench 'FetchBomb/local' -benchtime 3x
func BenchmarkFetchBomb(b *testing.B) {
	size := int64(2 << 30)
	if s := os.Getenv("SKILLSYNC_BOMB_MIB"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			b.Fatalf("SKILLSYNC_BOMB_MIB: %v", err)
		}
		size = n << 20
	}
	dir := b.TempDir()
	_, after := bombUpstream(b, dir, size)
	base := serveGitCLI(b, dir)
	for _, src := range []struct{ name, source string }{{"http", base + "/up"}, {"local", filepath.Join(dir, "up")}} {
		b.Run(src.name, func(b *testing.B) {
			for b.Loop() {
				root := b.TempDir()
				if err := os.WriteFile(filepath.Join(root, "skillsync.yaml"), []byte("space: ab12\n"), 0o644); err != nil {
					b.Fatal(err)
				}
				_, err := Add(context.Background(), root, AddOptions{Source: src.source, Path: "skills/pdf", Ref: after})
				if refused := err != nil && strings.Contains(err.Error(), "holds an object of"); refused != (src.name == "http") || !refused && err != nil {
					b.Fatalf("add: %v", err)
				}
			}
			var ru syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
				b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Maxrss is in KB on Linux
			}
		})
	}
}

// packOf is a pack declaring count objects, holding entries (each an
// object's header and its deflated content) and no checksum.
func packOf(count uint32, entries ...[]byte) []byte {
	b := []byte{'P', 'A', 'C', 'K', 0, 0, 0, 2, byte(count >> 24), byte(count >> 16), byte(count >> 8), byte(count)}
	for _, e := range entries {
		b = append(b, e...)
	}
	return b
}

// packEntry is an object of type typ (3 a blob, 6 an offset delta, whose
// base is the object just before) declaring size, holding data deflated.
func packEntry(typ byte, size int, data []byte) []byte {
	h := []byte{typ<<4 | byte(size&0x0f)}
	for size >>= 4; size > 0; size >>= 7 {
		h[len(h)-1] |= 0x80
		h = append(h, byte(size&0x7f))
	}
	if typ == 6 {
		h = append(h, 1) // the base is 1 byte back: only read, never followed here
	}
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(data)
	w.Close()
	return append(h, z.Bytes()...)
}

// TestCheckPack: a pack is refused for an object declaring more than a
// vendored file holds, a delta making one, or more objects than a fetch
// holds, before the rest is read.
func TestCheckPack(t *testing.T) {
	src := Source{Spec: "https://example.com/up", url: "https://example.com/up"}
	varint := func(n int) []byte {
		var b []byte
		for ; n >= 0x80; n >>= 7 {
			b = append(b, byte(n)|0x80)
		}
		return append(b, byte(n))
	}
	delta := func(target int) []byte { return append(varint(10), varint(target)...) }
	blob := packEntry(3, 5, []byte("hello"))
	for _, tc := range []struct {
		name string
		pack []byte
		want string // "" for none
	}{
		{"a blob and a delta", packOf(2, blob, packEntry(6, 3, delta(12))), ""},
		{"a blob too large", packOf(2, packEntry(3, MaxFileBytes+1, nil), blob), fmt.Sprintf("holds an object of %d bytes", MaxFileBytes+1)},
		{"a delta making one too large", packOf(2, blob, packEntry(6, 5, delta(MaxFileBytes+1))), fmt.Sprintf("holds an object of %d bytes", MaxFileBytes+1)},
		{"too many objects", packOf(MaxFetchObjects+1, blob), fmt.Sprintf("a pack of %d objects, more than the %d", MaxFetchObjects+1, MaxFetchObjects)},
		{"a delta cut short", packOf(2, blob, packEntry(6, 1, []byte{0x80})), "cannot be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkPack(bytes.NewReader(tc.pack), src)
			var limit *fetchLimitError
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("checkPack: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("checkPack: %v, want an error saying %q", err, tc.want)
			case tc.want != "" && tc.want != "cannot be read" && !errors.As(err, &limit):
				t.Errorf("checkPack: %v is not a fetchLimitError: a fetch by id would be tried again in full", err)
			}
		})
	}
}
