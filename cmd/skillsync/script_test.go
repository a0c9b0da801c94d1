package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillsync/skillsync/reconcile/render"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script with what the commands print")

// TestMain makes the test binary skillsync (skillsync-with-a-bug,
// skillsync-stuck) when run under that name, as the scripts and the tests
// of whole processes run it: main, but retrying at once (see
// process.instantRetries).
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillsync":            func() { os.Exit(mainWith(true)) },
		"skillsync-with-a-bug": mainWithABug,
		"skillsync-stuck":      mainStuck,
	})
}

// writesStartedKey holds, in a script's values, the count of write
// requests that reached the emulator's slow-writes hook.
type writesStartedKey struct{}

// Tokens the emulator of every script accepts.
const (
	scriptToken   = "test-token-0123456789"
	readOnlyToken = "read-only-token-0123456789"
	// otherSpaceToken may read and write only space zz99, not demo.
	otherSpaceToken = "other-space-token-0123456789"
)

// TestScripts runs the end-to-end scripts of testdata/script. Each script
// gets its own emulator, seeded with the demo space and serving on
// loopback, with SKILLSYNC_BASE_URL, SKILLSYNC_SPACE and SKILLSYNC_TOKEN
// pointing at it, and a copy of the demo repository in $WORK/repo.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			e := remotetest.New()
			// The service's clock an hour behind this machine's: the
			// skills seeded now are not too fresh for --cache to trust.
			e.SetClock(func() time.Time { return time.Now().Add(-time.Hour) })
			if err := seedEmulator(e, ""); err != nil {
				return err
			}
			e.AddToken(scriptToken, remotetest.ReadWrite)
			e.AddToken(readOnlyToken, remotetest.ReadOnly)
			e.AddToken(otherSpaceToken, remotetest.ReadWrite, "zz99")
			srv, err := e.Start("127.0.0.1:0")
			if err != nil {
				return err
			}
			env.Defer(func() { srv.Close() })
			env.Values["emu"] = e
			if err := copyEmbedded(filepath.Join(env.WorkDir, "repo"), "testdata/demo/repo"); err != nil {
				return err
			}
			env.Setenv("EMULATOR_URL", srv.URL)
			env.Setenv("SKILLSYNC_BASE_URL", srv.URL)
			env.Setenv("SKILLSYNC_SPACE", demoSpace)
			env.Setenv("SKILLSYNC_TOKEN", scriptToken)
			env.Setenv("READ_ONLY_TOKEN", readOnlyToken)
			env.Setenv("OTHER_SPACE_TOKEN", otherSpaceToken)
			env.Setenv("NO_COLOR", "")
			// The source tree, for the files a script compares with.
			root, err := filepath.Abs(filepath.Join("..", ".."))
			if err != nil {
				return err
			}
			env.Setenv("SOURCE_ROOT", root)
			// A race-enabled binary sleeps a second at exit by default, to
			// let late reports through; over a hundred runs of skillsync
			// that is most of the time the scripts take.
			env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
			env.Values[writesStartedKey{}] = new(atomic.Int64)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"emu":          cmdEmu,
			"exits":        cmdExits,
			"freeport":     cmdFreeport,
			"refusedport":  cmdRefusedport,
			"await":        cmdAwait,
			"replace":      cmdReplace,
			"unescape":     cmdUnescape,
			"reverseplans": cmdReversePlans,
			"bigfile":      cmdBigFile,
			// vendor_test.go: upstream repositories of vendored skills.
			"gitcommit": cmdGitCommit,
			"gittag":    cmdGitTag,
		},
	})
}

// emuCharEscape is a \uXXXX or \UXXXXXXXX escape of emu's TEXT.
var emuCharEscape = regexp.MustCompile(`\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}`)

// emuText is the TEXT of emu edit and emu file: its words joined by
// spaces, \n a newline, \uXXXX and \UXXXXXXXX the character they name,
// so that a script shows the characters no one can see.
func emuText(words []string) string {
	text := strings.ReplaceAll(strings.Join(words, " "), `\n`, "\n")
	return emuCharEscape.ReplaceAllStringFunc(text, func(esc string) string {
		r, err := strconv.ParseUint(esc[2:], 16, 32)
		if err != nil {
			return esc
		}
		return string(rune(r))
	})
}

// cmdEmu changes or checks the script's emulated space (demo, or with
// -space ID another), as an edit in the app would:
//
//	emu copy-space ID             add space ID holding the skills of the space
//	emu disable SLUG | emu enable SLUG
//	emu edit SLUG instructions|name|description TEXT
//	                              (in TEXT, \n is a newline, \uXXXX and \UXXXXXXXX a character)
//	emu add SLUG NAME [enabled|disabled]
//	emu file SLUG PATH TEXT       write a supporting text file of a skill
//	emu fill N                    add N enabled unmanaged skills (filler-01, ...)
//	emu builtin N                 count N hidden built-in skills as active
//	emu active N                  assert N active skills
//	emu requests KEY N            assert N requests to endpoint KEY ("GET /skills/{id}", a
//	                              remotetest.Key* value), or to any endpoint for KEY "all"
//	emu writes N                  assert N write requests in all
//	emu latency DURATION
//	emu slow-writes DURATION      hold every write request that long before serving it
//	emu await-writes N            wait (up to 10s) until N write requests have arrived
//	emu skill SLUG FIELD VALUE    assert a field (enabled, name, description)
//	emu agent NAME FIELD VALUE    assert published / hasUnpublishedChanges
//	emu add-agent ID NAME draft|published|changed
//	                              add an agent, never published, published, or
//	                              published with a draft changed since
//	emu edit-agent NAME           make a draft change to an agent
//	emu embed NAME                enable embedding with no allowed domain
func cmdEmu(ts *testscript.TestScript, neg bool, args []string) {
	e := ts.Value("emu").(*remotetest.Emulator)
	space := demoSpace
	if len(args) > 1 && args[0] == "-space" {
		space, args = args[1], args[2:]
	}
	if len(args) == 0 {
		ts.Fatalf("usage: emu [-space ID] COMMAND ARGS...")
	}
	skill := func(slug string) remote.Skill {
		s, ok := e.SkillBySlug(space, slug)
		if !ok {
			ts.Fatalf("no skill %q in the emulated space", slug)
		}
		return s
	}
	agent := func(name string) remote.Agent {
		for _, a := range e.Agents(space) {
			if a.Name == name {
				return a
			}
		}
		ts.Fatalf("no agent %q in the emulated space", name)
		return remote.Agent{}
	}
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		ts.Check(err)
		return n
	}
	check := func(what string, got, want any) {
		ok := fmt.Sprint(got) == fmt.Sprint(want)
		if ok == neg {
			ts.Fatalf("%s = %v, want %s%v", what, got, map[bool]string{true: "not ", false: ""}[neg], want)
		}
	}
	switch args[0] {
	case "copy-space":
		// Another space holding what demo holds, as the staging
		// space of a production one would.
		e.AddSpace(remotetest.Space{ID: args[1]})
		for _, s := range e.Skills(space) {
			sd := remotetest.SkillSeed{Slug: s.Slug, Name: s.Name, Description: s.Description, Enabled: s.Enabled,
				Source: s.Source, SourceURL: s.SourceURL, Files: e.SkillFiles(space, s.ID)}
			if s.Instructions != nil {
				sd.Instructions = *s.Instructions
			}
			e.AddSkill(args[1], sd)
		}
	case "disable", "enable":
		s := skill(args[1])
		e.EditSkill(space, s.ID, func(sd *remotetest.SkillSeed) { sd.Enabled = args[0] == "enable" })
	case "edit":
		s := skill(args[1])
		text := emuText(args[3:])
		e.EditSkill(space, s.ID, func(sd *remotetest.SkillSeed) {
			switch args[2] {
			case "instructions":
				sd.Instructions = text
			case "name":
				sd.Name = text
			case "description":
				sd.Description = text
			default:
				ts.Fatalf("emu edit: unknown field %q", args[2])
			}
		})
	case "add":
		e.AddSkill(space, remotetest.SkillSeed{Slug: args[1], Name: args[2], Description: "Added by the test.",
			Instructions: "# " + args[2] + "\n", Enabled: len(args) < 4 || args[3] == "enabled"})
	case "file":
		s := skill(args[1])
		text := emuText(args[3:])
		e.EditSkill(space, s.ID, func(sd *remotetest.SkillSeed) {
			if sd.Files == nil {
				sd.Files = map[string]string{}
			}
			sd.Files[args[2]] = text
		})
	case "fill":
		for i := 1; i <= atoi(args[1]); i++ {
			e.AddSkill(space, remotetest.SkillSeed{Slug: fmt.Sprintf("filler-%02d", i), Name: fmt.Sprintf("Filler %02d", i),
				Description: "Added by the test.", Instructions: "# Filler\n", Enabled: true})
		}
	case "builtin":
		e.AddSpace(remotetest.Space{ID: space, BuiltinActive: atoi(args[1])})
	case "active":
		check("active skills", e.ActiveCount(space), atoi(args[1]))
	case "requests":
		check("requests to "+args[1], requestCount(ts, e, args[1]), atoi(args[2]))
	case "writes":
		n := 0
		for k, v := range e.Requests() {
			if !strings.HasPrefix(k, "GET ") {
				n += v
			}
		}
		check("write requests", n, atoi(args[1]))
	case "requests-list":
		var keys []string
		for k, v := range e.Requests() {
			keys = append(keys, fmt.Sprintf("%s=%d", k, v))
		}
		sort.Strings(keys)
		ts.Logf("%s", strings.Join(keys, "\n"))
	case "slow-writes":
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		started := ts.Value(writesStartedKey{}).(*atomic.Int64)
		e.SetOnRequest(func(r *http.Request) {
			if r.Method != http.MethodGet {
				started.Add(1)
				time.Sleep(d)
			}
		})
	case "await-writes":
		started := ts.Value(writesStartedKey{}).(*atomic.Int64)
		want := int64(atoi(args[1]))
		deadline := time.Now().Add(hangBound)
		for started.Load() < want {
			if time.Now().After(deadline) {
				ts.Fatalf("emu await-writes: %d write requests after %s, want %d", started.Load(), hangBound, want)
			}
			time.Sleep(5 * time.Millisecond)
		}
	case "latency":
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		e.SetFaults(remotetest.Faults{Latency: d})
	case "skill":
		s := skill(args[1])
		var got any
		switch args[2] {
		case "enabled":
			got = s.Enabled
		case "name":
			got = s.Name
		case "description":
			got = s.Description
		default:
			ts.Fatalf("emu skill: unknown field %q", args[2])
		}
		check(args[1]+" "+args[2], got, strings.Join(args[3:], " "))
	case "agent":
		a := agent(args[1])
		var got any
		switch args[2] {
		case "published":
			got = a.Published
		case "hasUnpublishedChanges":
			got = a.HasUnpublishedChanges
		default:
			ts.Fatalf("emu agent: unknown field %q", args[2])
		}
		check(args[1]+" "+args[2], got, args[3])
	case "add-agent":
		if len(args) != 4 {
			ts.Fatalf("usage: emu add-agent ID NAME draft|published|changed")
		}
		a := remote.Agent{ID: args[1], Name: args[2]}
		switch args[3] {
		case "draft":
		case "published":
			a.Published = true
		case "changed":
			a.Published, a.HasUnpublishedChanges = true, true
		default:
			ts.Fatalf("emu add-agent: unknown state %q", args[3])
		}
		e.AddAgent(space, a)
	case "edit-agent":
		a := agent(args[1])
		e.EditAgent(space, a.ID, func(ag *remote.Agent) { ag.Description += " (edited)" })
	case "embed":
		a := agent(args[1])
		e.EditAgent(space, a.ID, func(ag *remote.Agent) {
			ag.EmbedEnabled = true
			ag.EmbedOptions.DomainWhitelist = nil
		})
	default:
		ts.Fatalf("emu: unknown command %q", args[0])
	}
}

// cmdExits runs a program, as exec does, and asserts its exit code: exec
// alone tells success from failure, not 1 from 2 or 130.
//
//	exits CODE PROG [ARGS...]
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdBigFile makes a big file cheaply: SIZE bytes of FILE's content (if
// any) followed by zeros, written sparse, or with -text, SIZE bytes of
// lines of text.
//
//	bigfile [-text] FILE SIZE
func cmdBigFile(ts *testscript.TestScript, neg bool, args []string) {
	text := len(args) > 0 && args[0] == "-text"
	if text {
		args = args[1:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: bigfile [-text] FILE SIZE")
	}
	name := ts.MkAbs(args[0])
	size, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	if !text {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
		ts.Check(err)
		ts.Check(f.Close())
		ts.Check(os.Truncate(name, size))
		return
	}
	line := "A line of a long reference file.\n"
	data := []byte(strings.Repeat(line, int(size)/len(line)+1)[:size])
	ts.Check(os.WriteFile(name, data, 0o644))
}

// cmdFreeport sets VAR to a free loopback address (127.0.0.1:PORT), see
// [freeAddr].
//
//	freeport VAR
func cmdFreeport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	addr, err := freeAddr()
	ts.Check(err)
	ts.Setenv(args[0], addr)
}

// cmdRefusedport sets VAR to a loopback address that refuses connections
// until the script ends (see [holdRefusing]).
//
//	refusedport VAR
func cmdRefusedport(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: refusedport VAR")
	}
	addr, release, err := holdRefusing()
	ts.Check(err)
	ts.Defer(release)
	ts.Setenv(args[0], addr)
}

// cmdReplace replaces every OLD in FILE with NEW, as a hand editing a
// file would; OLD must occur.
//
//	replace FILE OLD NEW
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	if !strings.Contains(string(data), args[1]) {
		ts.Fatalf("%s does not hold %q", args[0], args[1])
	}
	ts.Check(os.WriteFile(path, []byte(strings.ReplaceAll(string(data), args[1], args[2])), 0o644))
}

// cmdUnescape rewrites a file with the Go escapes of its text (\u200b,
// \U000e0041) made the characters they stand for, so that a script can
// hold invisible characters a reader of it sees.
//
//	unescape FILE
func cmdUnescape(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: unescape FILE")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		u, err := strconv.Unquote(`"` + strings.ReplaceAll(line, `"`, `\"`) + `"`)
		ts.Check(err)
		out = append(out, u)
	}
	ts.Check(os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644))
}

// cmdReversePlans rewrites a saved plan of several targets with its
// targets in the reverse order, as a hand edit could.
//
//	reverseplans FILE
func cmdReversePlans(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: reverseplans FILE")
	}
	path := ts.MkAbs(args[0])
	f, err := os.Open(path)
	ts.Check(err)
	sps, err := render.ReadSavedPlans(f)
	f.Close()
	ts.Check(err)
	slices.Reverse(sps)
	var b bytes.Buffer
	ts.Check(render.WriteSavedPlans(&b, "v1", sps))
	ts.Check(os.WriteFile(path, b.Bytes(), 0o644))
}

// cmdAwait waits (up to hangBound) until something listens on the TCP address.
//
//	await ADDR
func cmdAwait(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: await ADDR")
	}
	deadline := time.Now().Add(hangBound)
	for {
		c, err := net.DialTimeout("tcp", args[0], time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("nothing listens on %s after %s: %v", args[0], hangBound, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// requestCount is the number of requests the emulator counted under key, a
// remotetest.Key* value, or in all for "all". An unknown key fails the
// script rather than counting zero, so that no assertion passes vacuously.
func requestCount(ts *testscript.TestScript, e *remotetest.Emulator, key string) int {
	known := []string{remotetest.KeyListSkills, remotetest.KeyGetSkill, remotetest.KeyUpdateSkill,
		remotetest.KeyEnableSkill, remotetest.KeyDisableSkill, remotetest.KeyGetFile, remotetest.KeyListAgents,
		remotetest.KeyPublishAgent, remotetest.KeyDeleteAgent, remotetest.KeyGetAsset, remotetest.KeyOther}
	reqs := e.Requests()
	if key == "all" {
		n := 0
		for _, v := range reqs {
			n += v
		}
		return n
	}
	if !slices.Contains(known, key) {
		ts.Fatalf("emu: unknown request key %q (known: %s, all)", key, strings.Join(known, ", "))
	}
	return reqs[key]
}
