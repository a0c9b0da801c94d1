package fsrepo

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
	"golang.org/x/sync/errgroup"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/frontmatter"
	"github.com/skillsync/skillsync/lint"
)

// benchSkills is the size of the repositories the load benchmarks read.
const benchSkills = 10000

// BenchmarkLoad10000 loads and validates a working tree of 10,000 skills,
// each with a 5 KB body and two supporting files, outside git. The target
// is under 2 s and 300 MB on a 2-core machine; peak-RSS-MB is the whole
// process's.
func BenchmarkLoad10000(b *testing.B) {
	root := b.TempDir()
	writeBenchSkills(b, root, "space: ab12\n", benchSkills)
	benchLoad(b, root, LoadOptions{}, false)
}

// BenchmarkLoad10000Lint is BenchmarkLoad10000 with every lint rule on, at
// warning: what the rules cost.
func BenchmarkLoad10000Lint(b *testing.B) {
	cfg := "space: ab12\nlint:\n  rules:\n"
	for _, r := range lint.Rules {
		cfg += "    " + r.Name + ": warning\n"
	}
	root := b.TempDir()
	writeBenchSkills(b, root, cfg, benchSkills)
	benchLoad(b, root, LoadOptions{}, false)
}

// BenchmarkValidate10000 is what validate does in CI: Load of the working
// tree of a commit of 10,000 skills, with the lint rules on by default and
// the check that the skills folder is as committed. Its "load" figure over
// BenchmarkValidateFloor10000's is the overhead of the load; "security"
// adds the security rules, as validate runs them, whose cost is lint's.
func BenchmarkValidate10000(b *testing.B) {
	root := b.TempDir()
	writeBenchSkills(b, root, "space: ab12\n", benchSkills)
	gitRun(b, root, "init", "-q", "-b", "main")
	gitRun(b, root, "add", "-A")
	gitRun(b, root, "commit", "-q", "-m", "skills")
	gitRun(b, root, "repack", "-a", "-d", "-q") // objects in a pack, as in a clone
	b.Run("load", func(b *testing.B) { benchLoad(b, root, LoadOptions{}, true) })
	judge := func(config.Config) *lint.Judge { return lint.New(lint.Options{}) }
	b.Run("security", func(b *testing.B) { benchLoad(b, root, LoadOptions{Judge: judge}, true) })
}

// BenchmarkValidateFloor10000 is the least any validate of the files of
// BenchmarkValidate10000 does: list each skill folder and read every file
// in it, cut SKILL.md's frontmatter and decode its YAML with yaml.v3, on
// one goroutine a CPU (at least 4, as Load), and nothing else.
func BenchmarkValidateFloor10000(b *testing.B) {
	root := b.TempDir()
	writeBenchSkills(b, root, "space: ab12\n", benchSkills)
	dir := filepath.Join(root, "skills")
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		des, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		var g errgroup.Group
		var next atomic.Int64
		for range max(runtime.GOMAXPROCS(0), 4) {
			g.Go(func() error {
				for i := next.Add(1) - 1; i < int64(len(des)); i = next.Add(1) - 1 {
					if err := readFloor(filepath.Join(dir, des[i].Name()), true); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
}

// readFloor reads every file under dir, and decodes the YAML of the
// frontmatter of SKILL.md when top: BenchmarkValidateFloor10000's work.
func readFloor(dir string, top bool) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, de := range des {
		p := filepath.Join(dir, de.Name())
		if de.IsDir() {
			if err := readFloor(p, false); err != nil {
				return err
			}
			continue
		}
		data, err := readFile(p)
		if err != nil {
			return err
		}
		if top && de.Name() == skillmd.FileName {
			var doc yaml.Node
			if err := yaml.Unmarshal(frontmatter.Parse(data).Block, &doc); err != nil {
				return err
			}
		}
	}
	return nil
}

// readFile is os.ReadFile with the open of readWorkFile, which spares
// the poller's syscall: the same system calls as Load's reads.
func readFile(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, data)
	if err != io.ErrUnexpectedEOF {
		return nil, fmt.Errorf("%s: %d bytes, %d read: %v", name, fi.Size(), n, err)
	}
	return data[:n], nil
}

// writeBenchSkills writes skillsync.yaml holding cfg and n skills under
// root, each with a 5 KB body and two supporting files.
func writeBenchSkills(b *testing.B, root, cfg string, n int) {
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	line := strings.Repeat("Follow the steps below carefully. ", 2) + "\n" // 69 bytes
	body := strings.Repeat(line, 5*1024/len(line))
	script := []byte(strings.Repeat("echo step\n", 100))
	ref := []byte(strings.Repeat("# Reference\n\nDetails of the API.\n", 60))
	for i := range n {
		dir := filepath.Join(root, "skills", fmt.Sprintf("skill-%05d", i))
		if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
			b.Fatal(err)
		}
		md := fmt.Sprintf("---\nname: Skill %05d\ndescription: Does task number %d. Use when the user asks for task %d.\nlicense: MIT\n---\n\n# Skill %d\n\n%s",
			i, i, i, i, body)
		for p, data := range map[string][]byte{skillmd.FileName: []byte(md), "scripts/run.sh": script, "reference.md": ref} {
			if err := os.WriteFile(filepath.Join(dir, p), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchLoad loads the working tree at root with opts; it must be valid,
// and committed when inGit.
func benchLoad(b *testing.B, root string, opts LoadOptions, inGit bool) {
	ctx := context.Background()
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		repo, ds, err := Load(ctx, root, opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(repo.Skills) != benchSkills || ds.HasErrors() {
			b.Fatalf("%d skills, %d diagnostics: %v", len(repo.Skills), len(ds), ds[:min(3, len(ds))])
		}
		if inGit && (repo.Commit == "" || repo.Dirty) {
			b.Fatalf("commit %q, dirty %t: want a clean checkout", repo.Commit, repo.Dirty)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Maxrss is in KB on Linux
	}
	b.ReportMetric(benchSkills, "skills/op")
}

// cpuTime is the CPU time the process has used, in user and system mode:
// on a machine shared with other work, a steadier measure than the time
// elapsed.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
