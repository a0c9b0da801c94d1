package fsrepo

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/lineartest"
)

// zeros reads as n zero bytes, holding none of them.
func zeros(n int64) io.Reader { return io.LimitReader(zeroReader{}, n) }

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// textLines reads as n bytes of lines of text.
func textLines(n int64) io.Reader {
	line := []byte("A line of a long reference file, as a skill may have.\n")
	return io.LimitReader(&repeatReader{line: line}, n)
}

type repeatReader struct {
	line []byte
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		c := copy(p[n:], r.line[r.off:])
		n += c
		r.off = (r.off + c) % len(r.line)
	}
	return n, nil
}

func sha256Of(t *testing.T, r io.Reader) string {
	t.Helper()
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// sparse makes a file of size bytes that starts with head and holds zeros
// after it, which cost no disk and no time to write.
func sparse(t *testing.T, name, head string, size int64) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(name, size); err != nil {
		t.Fatal(err)
	}
}

func writeFrom(t testing.TB, name string, r io.Reader) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, r); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

const validMD = "---\nname: Big\ndescription: Holds big files.\n---\n\n# Big\n"

// checkTooLargeSkillMD checks that the diagnostic of a SKILL.md over
// MaxSkillMDBytes is the only one of that file: the file was not parsed.
func checkTooLargeSkillMD(t *testing.T, repo *Repo, ds diag.Diagnostics, size int64) {
	t.Helper()
	p := "skills/huge/SKILL.md"
	var got []diag.Diagnostic
	for _, d := range ds {
		if d.Path == p {
			got = append(got, d)
		}
	}
	want := fmt.Sprintf("%s:1:1: error: SKILL.md is %d bytes; the service takes at most 50000 characters of instructions, so it is not parsed", p, size)
	if len(got) != 1 || got[0].String() != want || got[0].Code != "skill-md-too-large" {
		t.Errorf("diagnostics of %s = %v, want only %q", p, got, want)
	}
	for _, sk := range repo.Skills {
		if sk.Slug == "huge" && !sk.Invalid {
			t.Errorf("skill huge is valid: %+v", sk)
		}
	}
}

// checkLargeFiles checks the supporting files of skill "big": a text file
// over MaxCompareBytes, hashed but not held, and a big binary file.
func checkLargeFiles(t *testing.T, repo *Repo, textSum, binSum string, textSize, binSize int64) {
	t.Helper()
	var big *Skill
	for i := range repo.Skills {
		if repo.Skills[i].Slug == "big" {
			big = &repo.Skills[i]
		}
	}
	if big == nil || len(big.Files) != 2 {
		t.Fatalf("skill big: %+v", big)
	}
	bin, text := big.Files[0], big.Files[1]
	if bin.Path != "data/zeros.bin" || !bin.Binary || bin.TooLarge || bin.Content != nil || bin.Size != binSize || bin.SHA256 != binSum {
		t.Errorf("binary file: %s binary=%t tooLarge=%t %d bytes held, size %d, sha256 %s; want data/zeros.bin, binary, %d bytes, sha256 %s",
			bin.Path, bin.Binary, bin.TooLarge, len(bin.Content), bin.Size, bin.SHA256, binSize, binSum)
	}
	if text.Path != "reference.md" || text.Binary || !text.TooLarge || text.Content != nil || text.Size != textSize || text.SHA256 != textSum {
		t.Errorf("text file: %s binary=%t tooLarge=%t %d bytes held, size %d, sha256 %s; want reference.md, too large, %d bytes, sha256 %s",
			text.Path, text.Binary, text.TooLarge, len(text.Content), text.Size, text.SHA256, textSize, textSum)
	}
}

// TestLoadLargeFiles loads a working tree with a SKILL.md far over the
// service's limits and supporting files far over MaxCompareBytes: the
// SKILL.md is a diagnostic, never parsed; all of them are hashed as a
// stream and their content is not kept.
func TestLoadLargeFiles(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeAll(t, root, map[string]string{config.FileName: "space: ab12\n", "skills/big/SKILL.md": validMD})
	const mdSize, binSize, textSize = 10 << 20, 64 << 20, 2*MaxCompareBytes + 7
	sparse(t, filepath.Join(root, "skills/huge/SKILL.md"), validMD, mdSize)
	sparse(t, filepath.Join(root, "skills/big/data/zeros.bin"), "", binSize)
	writeFrom(t, filepath.Join(root, "skills/big/reference.md"), textLines(textSize))
	textSum, binSum := sha256Of(t, textLines(textSize)), sha256Of(t, zeros(binSize))

	for _, inGit := range []bool{false, true} {
		t.Run(map[bool]string{false: "outside git", true: "in git"}[inGit], func(t *testing.T) {
			if inGit {
				gitInit(t, root)
				commitAll(t, root, "big files")
			}
			var (
				repo *Repo
				ds   diag.Diagnostics
				err  error
			)
			n := lineartest.Allocated(func() { repo, ds, err = Load(ctx, root, LoadOptions{}) })
			if err != nil {
				t.Fatal(err)
			}
			checkTooLargeSkillMD(t, repo, ds, mdSize)
			checkLargeFiles(t, repo, textSum, binSum, textSize, binSize)
			if n > 16<<20 {
				t.Errorf("loading allocated %d MB; the big files were read whole", n>>20)
			}
			// The big files' git hashes, the SKILL.md's too, made as a
			// stream, are git's own: the working tree is as committed.
			if inGit && repo.Dirty {
				t.Errorf("the working tree, as committed, is dirty")
			}
		})
	}
}

// TestLoadRevisionLargeBlobs loads a commit whose blobs inflate far past
// what they take in git: a SKILL.md of 200 MB of zeros (200 KB as a git
// object) is a diagnostic, never parsed nor inflated whole; it and the big
// supporting files are hashed as a stream. Both as loose objects and
// packed.
func TestLoadRevisionLargeBlobs(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeAll(t, root, map[string]string{config.FileName: "space: ab12\n", "skills/big/SKILL.md": validMD})
	gitInit(t, root)
	const mdSize, binSize, textSize = 200 << 20, 32 << 20, 2*MaxCompareBytes + 7
	// Blobs of zeros compress a thousandfold: the commit's objects take
	// under a megabyte.
	sparse(t, filepath.Join(root, "skills/huge/SKILL.md"), validMD, mdSize)
	sparse(t, filepath.Join(root, "skills/big/data/zeros.bin"), "", binSize)
	writeFrom(t, filepath.Join(root, "skills/big/reference.md"), textLines(textSize))
	commitAll(t, root, "big blobs")
	if err := os.RemoveAll(filepath.Join(root, "skills")); err != nil {
		t.Fatal(err) // only the commit holds them
	}
	textSum, binSum := sha256Of(t, textLines(textSize)), sha256Of(t, zeros(binSize))

	for _, packed := range []bool{false, true} {
		t.Run(map[bool]string{false: "loose", true: "packed"}[packed], func(t *testing.T) {
			if packed {
				gitRun(t, root, "-c", "core.bigFileThreshold=1m", "repack", "-a", "-d", "-q")
			}
			var (
				repo *Repo
				ds   diag.Diagnostics
				err  error
			)
			n := lineartest.Allocated(func() { repo, ds, err = Load(ctx, root, LoadOptions{Ref: "HEAD"}) })
			if err != nil {
				t.Fatal(err)
			}
			checkTooLargeSkillMD(t, repo, ds, mdSize)
			checkLargeFiles(t, repo, textSum, binSum, textSize, binSize)
			if n > 16<<20 {
				t.Errorf("loading allocated %d MB; a blob was inflated whole", n>>20)
			}
		})
	}
}

// TestLoadLargeConfig refuses a skillsync.yaml over maxConfigBytes without
// reading it, from the working tree and from a commit.
func TestLoadLargeConfig(t *testing.T) {
	root := t.TempDir()
	sparse(t, filepath.Join(root, config.FileName), "space: ab12\n#", 64<<20)
	writeAll(t, root, map[string]string{"skills/big/SKILL.md": validMD})
	want := "skillsync.yaml is 67108864 bytes, more than the 1048576 a config file may be"
	if _, err := config.Read(root); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("ReadConfig: %v, want %q", err, want)
	}
	gitInit(t, root)
	commitAll(t, root, "big config")
	var err error
	n := lineartest.Allocated(func() { _, _, err = Load(context.Background(), root, LoadOptions{Ref: "HEAD"}) })
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load HEAD: %v, want %q", err, want)
	}
	if n > 16<<20 {
		t.Errorf("loading allocated %d MB; the config was read whole", n>>20)
	}
}

// TestReadContentChanged reads files whose length is not the size they
// were found to have: each is an error, never a short or long content.
func TestReadContentChanged(t *testing.T) {
	for _, tt := range []struct {
		name    string
		content io.Reader
		size    int64
	}{
		{"small, shrunk", strings.NewReader("abc"), 4},
		{"small, grown", strings.NewReader("abcde"), 4},
		{"large, shrunk", textLines(maxKeptBytes + 10), maxKeptBytes + 11},
		{"large, grown", textLines(maxKeptBytes + 12), maxKeptBytes + 11},
		{"large, shrunk below the sniffed head", strings.NewReader("abc"), maxKeptBytes + 11},
	} {
		var e entry
		if err := readContent(tt.content, tt.size, &e, nil); err != errChanged {
			t.Errorf("%s: error %v, want %v", tt.name, err, errChanged)
		}
	}
}
