package fsrepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkLoad10000 loads and validates a working tree of 10,000 skills,
// each with a 5 KB body and two supporting files. The target is under 2 s
// and 300 MB on a 2-core machine; peak-RSS-MB is the whole process's.
func BenchmarkLoad10000(b *testing.B) { benchLoad10000(b, "space: ab12\n") }

// BenchmarkLoad10000Lint is BenchmarkLoad10000 with every lint rule on, at
// warning: what the rules cost.
func BenchmarkLoad10000Lint(b *testing.B) {
	cfg := "space: ab12\nlint:\n  rules:\n"
	for _, r := range Rules {
		cfg += "    " + r.Code + ": warning\n"
	}
	benchLoad10000(b, cfg)
}

func benchLoad10000(b *testing.B, config string) {
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, ConfigFile), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	const n = 10000
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
		for p, data := range map[string][]byte{SkillFile: []byte(md), "scripts/run.sh": script, "reference.md": ref} {
			if err := os.WriteFile(filepath.Join(dir, p), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		repo, ds, err := Load(ctx, root, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(repo.Skills) != n || ds.HasErrors() {
			b.Fatalf("%d skills, %d diagnostics: %v", len(repo.Skills), len(ds), ds[:min(3, len(ds))])
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Maxrss is in KB on Linux
	}
	b.ReportMetric(n, "skills/op")
}

// BenchmarkReferencedFiles finds the references of a 5 KB body of prose,
// code and links, as validate (lint) and pull do for every skill.
func BenchmarkReferencedFiles(b *testing.B) {
	var s strings.Builder
	for i := range 20 {
		fmt.Fprintf(&s, "Follow the steps below carefully, as step %d of the guide says. See [the guide](references/guide-%d.md).\n", i, i)
		fmt.Fprintf(&s, "Run `python scripts/step_%d.py --input data.json` and check the output.\n", i)
		if i%5 == 0 {
			s.WriteString("```bash\npython scripts/run.py https://example.com/x.md ../up.py ${DIR}/x.py\n```\n")
		}
	}
	text := s.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ReferencedFiles(text, "my-skill")
	}
}
