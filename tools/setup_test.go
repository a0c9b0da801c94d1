// Tests of how action.yml gets skillsync: the release archive downloaded
// and checked when the action's ref is a release version, else a build
// from the action's source, cached. The composite's steps run in order as
// the runner runs them (if:, env:, outputs), with a local HTTP server
// standing in for the release downloads, and actions/cache and
// actions/setup-go stood in for by the test.
package tools

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// job is what a run of the action gets from its job.
type job struct {
	ref     string            // github.action_ref: "v1.2.3", "main", "" for uses: ./
	os      string            // RUNNER_OS; "" is Linux
	arch    string            // RUNNER_ARCH; "" is X64
	inputs  map[string]string // "command" defaults to plan
	env     []string          // more of the job's environment
	home    string            // HOME; "" is a new folder, as on a new runner
	cache   map[string]string // actions/cache: key -> saved folder; a miss saves here after the run
	path    string            // PATH; "" is the test's own
	until   string            // stop before the step with this id ("" runs all)
	noBuild bool              // fail the test if the action builds skillsync
}

// jobRun is what came of it.
type jobRun struct {
	exit    int
	log     string
	ran     []string // the steps run, by id, else by name
	outputs map[string]map[string]string
	temp    string // RUNNER_TEMP
	home    string
}

// runAction runs action.yml's steps in order as the runner does, each run:
// step by bash -eo pipefail with its env, stopping at the first that fails.
func runAction(t testing.TB, j job) jobRun {
	t.Helper()
	a := readAction(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	r := jobRun{temp: t.TempDir(), home: j.home, outputs: map[string]map[string]string{}}
	workspace := t.TempDir()
	if r.home == "" {
		r.home = t.TempDir()
	}
	quietGo(t, r.home)
	if j.os == "" {
		j.os = "Linux"
	}
	if j.arch == "" {
		j.arch = "X64"
	}
	if j.path == "" {
		j.path = os.Getenv("PATH")
	}
	if j.cache == nil {
		j.cache = map[string]string{}
	}
	inputs := map[string]string{"command": "plan"}
	for k, v := range j.inputs {
		inputs[k] = v
	}
	e := inputExprs(t, a, inputs)
	e["github.action_ref"] = j.ref
	e["github.action_repository"] = "skillsync/skillsync"
	e["github.event_name"] = "push"
	if j.ref == "" {
		e["github.action_repository"] = ""
	}

	base := []string{
		"PATH=" + j.path, "HOME=" + r.home, "RUNNER_TEMP=" + r.temp, "RUNNER_OS=" + j.os, "RUNNER_ARCH=" + j.arch,
		"GITHUB_ACTION_PATH=" + root, "GITHUB_STEP_SUMMARY=" + filepath.Join(r.temp, "summary.md"), "GITHUB_WORKSPACE=" + workspace,
		"FAKE_PLAN=" + goldenPlan(t),
		// Builds use the test's caches and never the network.
		"GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE"), "GOPROXY=off",
	}
	base = append(base, j.env...)

	type save struct{ key, path string }
	var saves []save
	var log strings.Builder
	for i, s := range a.Runs.Steps {
		id := s.ID
		if id == "" {
			id = s.Name
		}
		if j.until != "" && s.ID == j.until {
			break
		}
		if !e.cond(t, s.If) {
			continue
		}
		r.ran = append(r.ran, id)
		out := map[string]string{}
		switch {
		case strings.HasPrefix(s.Uses, "actions/cache@"):
			key := e.expand(t, s.With["key"])
			path := e.expand(t, s.With["path"])
			if rest, ok := strings.CutPrefix(path, "~/"); ok {
				path = filepath.Join(r.home, rest)
			}
			if key == "" || path == "" {
				t.Fatalf("actions/cache with key %q and path %q", key, path)
			}
			if dir, ok := j.cache[key]; ok {
				copyDir(t, dir, path)
				out["cache-hit"] = "true"
			} else {
				out["cache-hit"] = "false"
				saves = append(saves, save{key, path})
			}
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			// Nothing to set up here: the test's Go stays on PATH.
		case s.Uses != "":
			t.Fatalf("step %d uses %s: the test cannot stand in for it", i, s.Uses)
		default:
			if j.noBuild && strings.Contains(s.Run, "go build") {
				t.Errorf("step %q builds skillsync", id)
			}
			script := filepath.Join(r.temp, fmt.Sprintf("step%d.sh", i))
			if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
				t.Fatal(err)
			}
			output := filepath.Join(r.temp, fmt.Sprintf("output%d", i))
			env := slices.Clone(base)
			env = append(env, "GITHUB_OUTPUT="+output)
			for name, value := range s.Env {
				env = append(env, name+"="+e.expand(t, value))
			}
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
			cmd.Dir = workspace
			if s.Dir != "" {
				cmd.Dir = e.expand(t, s.Dir)
				if !filepath.IsAbs(cmd.Dir) {
					cmd.Dir = filepath.Join(workspace, cmd.Dir)
				}
			}
			cmd.Env = env
			b, err := cmd.CombinedOutput()
			log.Write(b)
			if data, err := os.ReadFile(output); err == nil {
				for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
					if k, v, ok := strings.Cut(line, "="); ok {
						out[k] = v
					}
				}
			}
			if ee, ok := err.(*exec.ExitError); ok {
				r.exit = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
		}
		r.outputs[id] = out
		for k, v := range out {
			e["steps."+s.ID+".outputs."+k] = v
		}
		if r.exit != 0 {
			break
		}
	}
	r.log = log.String()
	// actions/cache saves after a miss, at the end of a job that passed.
	if r.exit == 0 {
		for _, s := range saves {
			if _, err := os.Stat(s.path); err != nil {
				t.Errorf("actions/cache would save %s, which is not there", s.path)
				continue
			}
			dir := t.TempDir()
			copyDir(t, s.path, dir)
			j.cache[s.key] = dir
		}
	}
	return r
}

func goEnv(t testing.TB, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Skipf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

func copyDir(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// repository stands in for the action's repository on GitHub: releases as
// goreleaser publishes them (archives and checksums.txt) under
// /releases/download/VERSION/, and, when git is set, its tags (git's
// "dumb" HTTP protocol, served from the files of a bare repository).
type repository struct {
	mu       sync.Mutex
	releases map[string]map[string][]byte // version -> file name -> content
	git      string                       // a bare repository; "" for none
	got      []string                     // the release files asked for
}

// fakeRelease is the skillsync of an archive: it says it is version says
// and otherwise acts as fakeSkillsync.
func fakeRelease(says string) []byte {
	return []byte("#!/usr/bin/env bash\n" +
		`if [ "$1" = version ]; then echo "skillsync ` + says + ` (go1.26.8, test)"; exit 0; fi` + "\n" +
		strings.TrimPrefix(fakeSkillsync, "#!/usr/bin/env bash\n"))
}

// releaseFiles makes the archives of version for linux/amd64, linux/arm64,
// darwin/arm64 and windows/amd64, each holding a skillsync that says it is
// says, and their checksums.txt.
func releaseFiles(t testing.TB, version, says string) map[string][]byte {
	t.Helper()
	return paddedReleaseFiles(t, version, says, nil)
}

// paddedReleaseFiles is releaseFiles with pad after the end of each
// skillsync, to make archives of a real size.
func paddedReleaseFiles(t testing.TB, version, says string, pad []byte) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	var sums strings.Builder
	for _, p := range []string{"linux_amd64", "linux_arm64", "darwin_arm64", "windows_amd64"} {
		name := "skillsync_" + strings.TrimPrefix(version, "v") + "_" + p
		var data []byte
		if strings.HasPrefix(p, "windows") {
			name += ".zip"
			data = zipOf(t, map[string][]byte{"skillsync.exe": append(fakeRelease(says), pad...), "README.md": []byte("# skillsync\n")})
		} else {
			name += ".tar.gz"
			data = tarGzOf(t, map[string][]byte{"skillsync": append(fakeRelease(says), pad...), "README.md": []byte("# skillsync\n")})
		}
		files[name] = data
		sum := sha256.Sum256(data)
		fmt.Fprintf(&sums, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	files["checksums.txt"] = []byte(sums.String())
	return files
}

// newRepository holds release version of a skillsync that says it is it.
func newRepository(t testing.TB, versions ...string) *repository {
	t.Helper()
	rp := &repository{releases: map[string]map[string][]byte{}}
	for _, v := range versions {
		rp.releases[v] = releaseFiles(t, v, v)
	}
	return rp
}

// serve starts the server and returns the repository's URL.
func (rp *repository) serve(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/releases/download/"); ok {
			version, name, _ := strings.Cut(rest, "/")
			rp.mu.Lock()
			rp.got = append(rp.got, r.URL.Path)
			data, ok := rp.releases[version][name]
			rp.mu.Unlock()
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Write(data)
			return
		}
		if rp.git == "" {
			http.NotFound(w, r)
			return
		}
		http.FileServer(http.Dir(rp.git)).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (rp *repository) requests() []string {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return slices.Clone(rp.got)
}

func tarGzOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	}) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(files[name]))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(files[name])
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func zipOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range files {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestActionDownloadsRelease: at a release version, the action downloads
// the archive for the runner's OS and architecture, checks it against
// checksums.txt, and runs it; Go is neither looked for nor used.
func TestActionDownloadsRelease(t *testing.T) {
	rp := newRepository(t, "v1.2.3")
	url := rp.serve(t)
	for _, tc := range []struct {
		os, arch, archive, bin string
	}{
		{"Linux", "X64", "skillsync_1.2.3_linux_amd64.tar.gz", "skillsync"},
		{"Linux", "ARM64", "skillsync_1.2.3_linux_arm64.tar.gz", "skillsync"},
		{"macOS", "ARM64", "skillsync_1.2.3_darwin_arm64.tar.gz", "skillsync"},
		{"Windows", "X64", "skillsync_1.2.3_windows_amd64.zip", "skillsync.exe"},
	} {
		t.Run(tc.os+"/"+tc.arch, func(t *testing.T) {
			before := len(rp.requests())
			j := job{ref: "v1.2.3", os: tc.os, arch: tc.arch, env: []string{"SKILLSYNC_REPOSITORY_URL=" + url, "FAKE_EXIT=2"}, noBuild: true}
			if tc.os == "Windows" {
				// bash on Linux does not add .exe when running skillsync.
				j.until = "run"
			}
			r := runAction(t, j)
			if r.exit != 0 {
				t.Fatalf("exit %d\n%s", r.exit, r.log)
			}
			if got, want := rp.requests()[before:], []string{"/releases/download/v1.2.3/checksums.txt", "/releases/download/v1.2.3/" + tc.archive}; !slices.Equal(got, want) {
				t.Errorf("downloaded %q, want %q", got, want)
			}
			if slices.Contains(r.ran, "go") {
				t.Errorf("steps run %q: Go was looked for, with a release at hand", r.ran)
			}
			if _, err := os.Stat(filepath.Join(r.temp, tc.bin)); err != nil {
				t.Errorf("no %s in RUNNER_TEMP: %v", tc.bin, err)
			}
			if !strings.Contains(r.log, "skillsync v1.2.3 (") {
				t.Errorf("the log does not show the version downloaded:\n%s", r.log)
			}
			if j.until == "" && r.outputs["run"]["has-changes"] != "true" {
				t.Errorf("the downloaded skillsync did not run the plan: outputs %q\n%s", r.outputs["run"], r.log)
			}
		})
	}
}

// TestActionRefusesBadDownload: an archive that does not match its
// checksum, one that checksums.txt does not list, or one whose skillsync
// is another version is refused with an error naming the archive, and
// nothing runs: neither it nor a build in its place.
func TestActionRefusesBadDownload(t *testing.T) {
	const archive = "skillsync_1.2.3_linux_amd64.tar.gz"
	for _, tc := range []struct {
		name    string
		edit    func(files map[string][]byte)
		wantLog string
	}{
		{"checksum mismatch", func(files map[string][]byte) {
			files[archive] = append(files[archive], 0)
		}, "::error title=skillsync::" + archive + " does not match its SHA-256 in the checksums.txt of skillsync v1.2.3"},
		{"archive not in checksums.txt", func(files map[string][]byte) {
			files["checksums.txt"] = []byte(strings.ReplaceAll(string(files["checksums.txt"]), archive, "other.tar.gz"))
		}, "::error title=skillsync::the checksums.txt of skillsync v1.2.3 lists no " + archive},
		{"another version inside", func(files map[string][]byte) {
			maps.Copy(files, releaseFiles(t, "v1.2.3", "v1.2.2"))
		}, "::error title=skillsync::" + archive + " of skillsync v1.2.3 holds a skillsync that says it is 'skillsync v1.2.2 (go1.26.8, test)'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rp := newRepository(t, "v1.2.3")
			tc.edit(rp.releases["v1.2.3"])
			url := rp.serve(t)
			r := runAction(t, job{ref: "v1.2.3", env: []string{"SKILLSYNC_REPOSITORY_URL=" + url}, noBuild: true})
			if r.exit != 1 {
				t.Errorf("exit %d, want 1", r.exit)
			}
			if !strings.Contains(r.log, tc.wantLog) {
				t.Errorf("log without %q:\n%s", tc.wantLog, r.log)
			}
			if _, err := os.Stat(filepath.Join(r.temp, "skillsync")); err == nil {
				t.Error("the refused skillsync is left in RUNNER_TEMP")
			}
			if slices.Contains(r.ran, "run") {
				t.Errorf("steps run %q: skillsync ran", r.ran)
			}
		})
	}
}

// TestActionWithoutReleaseArchive: a release version with no archive for
// the runner's platform (32-bit ARM), or whose archive cannot be downloaded
// (the release is not published yet), is built from the action's source,
// which is the same code; so is a branch, a local action, and a major tag
// (v1) or a commit when the repository's tags cannot be read. Nothing is
// downloaded for those.
func TestActionWithoutReleaseArchive(t *testing.T) {
	rp := newRepository(t, "v1.2.3")
	url := rp.serve(t)
	for _, tc := range []struct {
		name, ref, arch string
		wantGet         []string
		wantLog         string
	}{
		{"no archive for the platform", "v1.2.3", "ARM", nil, "::notice title=skillsync::no release archive of skillsync is made for Linux/ARM: building v1.2.3 from the action's source"},
		{"the release is not there", "v1.2.4", "X64", []string{"/releases/download/v1.2.4/checksums.txt"}, "::warning title=skillsync::could not download skillsync v1.2.4 from " + url + "/releases/download/v1.2.4/skillsync_1.2.4_linux_amd64.tar.gz: building it from the action's source instead"},
		{"a branch", "main", "X64", nil, ""},
		{"a major tag", "v1", "X64", nil, ""},
		{"a commit", "2e61833c6f73ced1afccf7e743b8dc0507dc74ed", "X64", nil, ""},
		{"a local action", "", "X64", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(rp.requests())
			r := runAction(t, job{ref: tc.ref, arch: tc.arch, env: []string{"SKILLSYNC_REPOSITORY_URL=" + url}, until: "cache"})
			if r.exit != 0 {
				t.Fatalf("exit %d\n%s", r.exit, r.log)
			}
			if got := rp.requests()[before:]; !slices.Equal(got, tc.wantGet) {
				t.Errorf("asked the release server for %q, want %q", got, tc.wantGet)
			}
			if !slices.Contains(r.ran, "go") {
				t.Errorf("steps run %q: no build from source on its way", r.ran)
			}
			if !strings.Contains(r.log, tc.wantLog) {
				t.Errorf("log without %q:\n%s", tc.wantLog, r.log)
			}
		})
	}
}

// TestActionBuildsAndCaches builds skillsync from the action's source as a
// job would, then runs the action as the next job would, with the cache
// the first saved: the second restores the binary and builds nothing. A
// second use in the same job uses the binary as it is. A release version
// built from source says its version.
func TestActionBuildsAndCaches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillsync")
	}
	cache := map[string]string{}
	// 32-bit ARM has no release archive: the source build stands in.
	first := runAction(t, job{ref: "v1.2.3", arch: "ARM", cache: cache, until: "run"})
	if first.exit != 0 {
		t.Fatalf("exit %d\n%s", first.exit, first.log)
	}
	if len(cache) != 1 {
		t.Fatalf("the first job saved %d caches, want 1", len(cache))
	}
	key := first.outputs["go"]["key"]
	for _, part := range []string{"-Linux-ARM-", "-go" + first.outputs["go"]["version"] + "-", "-" + goEnv(t, "GOVERSION") + "-", "-v1.2.3-"} {
		if !strings.Contains(key, part) {
			t.Errorf("cache key %q without %q", key, part)
		}
	}
	if !slices.Contains(first.ran, "Build skillsync from the action's source") {
		t.Errorf("steps run %q: no build", first.ran)
	}
	checkVersion(t, filepath.Join(first.temp, "skillsync"), "skillsync v1.2.3 (")

	second := runAction(t, job{ref: "v1.2.3", arch: "ARM", cache: cache, until: "run", noBuild: true})
	if second.exit != 0 {
		t.Fatalf("exit %d\n%s", second.exit, second.log)
	}
	if second.outputs["cache"]["cache-hit"] != "true" {
		t.Errorf("the second job missed the cache: steps run %q, outputs %q", second.ran, second.outputs)
	}
	checkVersion(t, filepath.Join(second.temp, "skillsync"), "skillsync v1.2.3 (")

	// A second use in the job of the first finds the binary where the
	// first left it, with no cache to restore.
	again := runAction(t, job{ref: "v1.2.3", arch: "ARM", home: first.home, cache: map[string]string{}, until: "run", noBuild: true})
	if again.exit != 0 || again.outputs["go"]["ready"] != "true" || slices.Contains(again.ran, "cache") {
		t.Errorf("a second use in the same job: exit %d, steps run %q, outputs %q\n%s", again.exit, again.ran, again.outputs, again.log)
	}
	checkVersion(t, filepath.Join(again.temp, "skillsync"), "skillsync v1.2.3 (")

	// A branch is another binary (not stamped v1.2.3): another key.
	branch := runAction(t, job{ref: "main", home: first.home, cache: cache, until: "run"})
	if branch.exit != 0 {
		t.Fatalf("exit %d\n%s", branch.exit, branch.log)
	}
	if branch.outputs["go"]["key"] == key || branch.outputs["go"]["ready"] == "true" {
		t.Errorf("the build of a branch took the cached build of v1.2.3: key %q", branch.outputs["go"]["key"])
	}
	out, err := exec.Command(filepath.Join(branch.temp, "skillsync"), "version").Output()
	if err != nil || strings.Contains(string(out), "v1.2.3") {
		t.Errorf("skillsync built from a branch says %q (%v)", out, err)
	}
}

func checkVersion(t testing.TB, bin, want string) {
	t.Helper()
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), want) {
		t.Errorf("%s version: %q (%v), want %q...", bin, out, err, want)
	}
}

// TestActionCacheKeyFollowsSource: the cache key changes with any file of
// the action's source, so that a branch that moved is built anew.
func TestActionCacheKeyFollowsSource(t *testing.T) {
	a := readAction(t)
	i := slices.IndexFunc(a.Runs.Steps, func(s step) bool { return s.ID == "go" })
	if i < 0 {
		t.Fatal(`action.yml has no step with id "go"`)
	}
	src := t.TempDir()
	write := func(name, data string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	key := func() string {
		t.Helper()
		temp := t.TempDir()
		quietGo(t, temp)
		script := filepath.Join(temp, "go.sh")
		if err := os.WriteFile(script, []byte(a.Runs.Steps[i].Run), 0o644); err != nil {
			t.Fatal(err)
		}
		output := filepath.Join(temp, "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + temp, "GITHUB_ACTION_PATH=" + src, "GITHUB_OUTPUT=" + output,
			"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "VERSION="}
		if log, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v\n%s", err, log)
		}
		data, _ := os.ReadFile(output)
		for line := range strings.SplitSeq(string(data), "\n") {
			if k, ok := strings.CutPrefix(line, "key="); ok {
				return k
			}
		}
		t.Fatalf("no key in %q", data)
		return ""
	}
	write("go.mod", "module example.com/x\n\ngo 1.26.8\n")
	write("cmd/skillsync/main.go", "package main\n")
	k1 := key()
	if k := key(); k != k1 {
		t.Fatalf("the same source gives keys %q and %q", k1, k)
	}
	write("cmd/skillsync/main.go", "package main // edited\n")
	k2 := key()
	write("testdata/demo/skills/a/SKILL.md", "embedded\n")
	k3 := key()
	if k1 == k2 || k2 == k3 {
		t.Errorf("keys %q, %q, %q: an edit of the source kept the key", k1, k2, k3)
	}
	// What the action writes beside its source is no source.
	write(".git/HEAD", "ref: refs/heads/main\n")
	write(".skillsync/journal/x.jsonl", "{}\n")
	if k := key(); k != k3 {
		t.Errorf("a .git or .skillsync file changed the key")
	}
}

// TestActionBuildsFromSource keeps the action honest: Go comes from the
// action's own go.mod and skillsync is built from the action's checkout,
// both found through $GITHUB_ACTION_PATH (right in container jobs too).
func TestActionBuildsFromSource(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", a.Runs.Using)
	}
	var find *step
	var setup, build bool
	for i, s := range a.Runs.Steps {
		switch {
		case s.ID == "go":
			find = &a.Runs.Steps[i]
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			setup = s.With["go-version"] == "${{ steps.go.outputs.version }}"
		case strings.Contains(s.Run, "go build"):
			build = strings.Contains(s.Run, `cd "$GITHUB_ACTION_PATH"`) && strings.Contains(s.Run, "./cmd/skillsync")
		}
	}
	if find == nil || !setup || !build {
		t.Fatalf("step go: %v; setup-go with its version: %v; go build in $GITHUB_ACTION_PATH: %v", find != nil, setup, build)
	}

	// The step that finds Go reads the version from the action's go.mod
	// and tells whether the job's Go can build it (1.21 or later).
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for line := range strings.SplitSeq(string(gomod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			want = v
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, withGo := range []bool{true, false} {
		temp := t.TempDir()
		quietGo(t, temp)
		script := filepath.Join(temp, "find.sh")
		if err := os.WriteFile(script, []byte(find.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		path := "/usr/bin:/bin"
		if !withGo && (exists("/usr/bin/go") || exists("/bin/go")) {
			t.Log("go in /usr/bin or /bin: the case without Go is not run")
			continue
		}
		if withGo {
			goBin, err := exec.LookPath("go")
			if err != nil {
				t.Skip("no go on PATH")
			}
			path = filepath.Dir(goBin) + ":" + path
		}
		output := filepath.Join(temp, "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Env = []string{"PATH=" + path, "HOME=" + temp, "GITHUB_ACTION_PATH=" + root, "GITHUB_OUTPUT=" + output,
			"RUNNER_OS=Linux", "RUNNER_ARCH=X64", "VERSION="}
		if log, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("find Go (go on PATH: %v): %v\n%s", withGo, err, log)
		}
		data, _ := os.ReadFile(output)
		got := string(data)
		if !strings.Contains(got, "version="+want+"\n") || !strings.Contains(got, "usable="+map[bool]string{true: "true", false: "false"}[withGo]+"\n") {
			t.Errorf("go on PATH: %v: outputs %q, want version=%s and usable=%v", withGo, got, want, withGo)
		}
	}
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

// TestActionAgainstEmulator runs the action as a job would, from the build
// of its own source to skillsync plan against the emulator seeded with the
// demo space, and checks what a later step reads of it: the counts of the
// saved plan, the plan as printed, the markdown of the job summary.
func TestActionAgainstEmulator(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skillsync")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	// The action's own build, for the emulator; a local action (uses: ./).
	build := runAction(t, job{until: "run"})
	if build.exit != 0 {
		t.Fatalf("exit %d\n%s", build.exit, build.log)
	}
	url := startEmulator(t, filepath.Join(build.temp, "skillsync"), filepath.Join(root, "testdata/demo/space"))

	r := runAction(t, job{
		home: build.home, noBuild: true,
		inputs: map[string]string{"command": "plan", "working-directory": filepath.Join(root, "testdata/demo/repo"),
			"base-url": url, "token": "emulator-token"},
		env: []string{"GITHUB_ACTIONS=true"},
	})
	if r.exit != 0 {
		t.Fatalf("exit %d\n%s", r.exit, r.log)
	}
	out := r.outputs["run"]
	for k, want := range map[string]string{"exit-code": "2", "has-changes": "true", "to-update": "1", "to-enable": "1", "to-disable": "1"} {
		if out[k] != want {
			t.Errorf("output %s = %q, want %q", k, out[k], want)
		}
	}
	read := func(k string) string {
		data, err := os.ReadFile(out[k])
		if err != nil {
			t.Errorf("output %s: %v", k, err)
		}
		return string(data)
	}
	if text := read("plan-text"); !strings.Contains(text, "Plan: 1 to update, 1 to enable, 1 to disable.") {
		t.Errorf("plan-text holds:\n%s", text)
	}
	md := read("plan-markdown")
	if !strings.HasPrefix(md, "<!-- skillsync:plan space=demo -->") {
		t.Errorf("plan-markdown holds:\n%s", md)
	}
	summary, _ := os.ReadFile(filepath.Join(r.temp, "summary.md"))
	if string(summary) != md {
		t.Errorf("the job summary is not the markdown plan:\n%s", summary)
	}
	// The runner hides the value of ::add-mask:: and never prints the line.
	log := strings.ReplaceAll(r.log, "::add-mask::emulator-token", "")
	if strings.Contains(log+md+string(summary), "emulator-token") {
		t.Error("the token reached the log or the plan")
	}
}

// startEmulator serves the space seeded from seed on loopback until the
// test ends, and returns its address.
func startEmulator(t testing.TB, bin, seed string) string {
	t.Helper()
	cmd := exec.Command(bin, "emulator", "--seed", seed, "--token", "emulator-token")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://127.0.0.1:") {
		t.Fatalf("emulator printed %q (%v)", line, err)
	}
	return strings.TrimSpace(line)
}

// TestActionFindsReleaseOfRef: a major tag (v1), a minor tag (v1.2) or a
// commit is the release whose version tag names the same commit, found in
// the tags of the action's repository (git ls-remote); a release before a
// pre-release of the same commit. A ref no version tag shares builds.
func TestActionFindsReleaseOfRef(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	// Commits a, b, c; v1.2.3 (annotated, as releases are tagged) and
	// v1.3.0-rc.1 at a, v1 and v1.2 moved to a, v1.4.0-rc.1 at b, v2 at c.
	src := t.TempDir()
	gitIn := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	gitIn(src, "init", "-q", "-b", "main")
	commit := func(msg string) string {
		gitIn(src, "commit", "-q", "--allow-empty", "-m", msg)
		return gitIn(src, "rev-parse", "HEAD")
	}
	a := commit("a")
	gitIn(src, "tag", "-a", "v1.3.0-rc.1", "-m", "v1.3.0-rc.1")
	gitIn(src, "tag", "-a", "v1.2.3", "-m", "v1.2.3")
	gitIn(src, "tag", "v1")
	gitIn(src, "tag", "v1.2")
	b := commit("b")
	gitIn(src, "tag", "-a", "v1.4.0-rc.1", "-m", "v1.4.0-rc.1")
	c := commit("c")
	gitIn(src, "tag", "v2")
	bare := filepath.Join(t.TempDir(), "repo.git")
	gitIn(src, "clone", "-q", "--bare", src, bare)
	gitIn(bare, "update-server-info")

	rp := newRepository(t, "v1.2.3", "v1.4.0-rc.1")
	rp.git = bare
	url := rp.serve(t)
	for _, tc := range []struct {
		ref, want string // want: the release downloaded, "" for a build
	}{
		{"v1", "v1.2.3"},
		{"v1.2", "v1.2.3"},
		{a, "v1.2.3"},
		{b, "v1.4.0-rc.1"},
		{"v2", ""},
		{c, ""},
		{"v3", ""},
		{"main", ""},
	} {
		t.Run(tc.ref, func(t *testing.T) {
			before := len(rp.requests())
			r := runAction(t, job{ref: tc.ref, env: []string{"SKILLSYNC_REPOSITORY_URL=" + url, "FAKE_EXIT=2"}, until: "cache"})
			if r.exit != 0 {
				t.Fatalf("exit %d\n%s", r.exit, r.log)
			}
			var want []string
			if tc.want != "" {
				want = []string{"/releases/download/" + tc.want + "/checksums.txt", "/releases/download/" + tc.want + "/skillsync_" + strings.TrimPrefix(tc.want, "v") + "_linux_amd64.tar.gz"}
			}
			if got := rp.requests()[before:]; !slices.Equal(got, want) {
				t.Errorf("downloaded %q, want %q\n%s", got, want, r.log)
			}
			if got := r.outputs["download"]["installed"] == "true"; got != (tc.want != "") {
				t.Errorf("installed from the release: %v, want %v (steps run %q)", got, tc.want != "", r.ran)
			}
			if tc.want != "" && !strings.Contains(r.log, "skillsync "+tc.ref+" is release "+tc.want) {
				t.Errorf("the log does not say which release %s is:\n%s", tc.ref, r.log)
			}
		})
	}
}

// BenchmarkActionSetup measures what the action spends getting skillsync
// before it runs it, on this machine, the network left out:
//   - download: the release archive from a local server, checked and
//     unpacked: 7 MiB that do not compress, a little more than the real
//     linux/amd64 archive (6.2 MiB, of a 16 MiB binary);
//   - cached: the build of an earlier job restored from the cache (copied
//     here; actions/cache downloads it), after hashing the action's source.
//
// Run: cd tools && go test -run '^$' -bench BenchmarkActionSetup -benchtime 20x
func BenchmarkActionSetup(b *testing.B) {
	b.Run("download", func(b *testing.B) {
		pad := make([]byte, 7<<20)
		rand.Read(pad)
		rp := &repository{releases: map[string]map[string][]byte{"v1.2.3": paddedReleaseFiles(b, "v1.2.3", "v1.2.3", append([]byte("\n"), pad...))}}
		url := rp.serve(b)
		for b.Loop() {
			r := runAction(b, job{ref: "v1.2.3", env: []string{"SKILLSYNC_REPOSITORY_URL=" + url}, until: "run"})
			if r.exit != 0 || r.outputs["download"]["installed"] != "true" {
				b.Fatalf("exit %d, steps run %q\n%s", r.exit, r.ran, r.log)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		cache := map[string]string{}
		if r := runAction(b, job{ref: "main", cache: cache, until: "run"}); r.exit != 0 {
			b.Fatalf("exit %d\n%s", r.exit, r.log)
		}
		for b.Loop() {
			r := runAction(b, job{ref: "main", cache: cache, until: "run"})
			if r.exit != 0 || r.outputs["cache"]["cache-hit"] != "true" {
				b.Fatalf("exit %d, steps run %q\n%s", r.exit, r.ran, r.log)
			}
		}
	})
}
