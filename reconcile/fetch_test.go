package reconcile

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

func localTextFile(path, content string) fsrepo.File {
	sum := sha256.Sum256([]byte(content))
	return fsrepo.File{Path: path, Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:]), Content: []byte(content)}
}

func localBinaryFile(path string) fsrepo.File {
	return fsrepo.File{Path: path, Size: 3, Binary: true, SHA256: strings.Repeat("0", 64)}
}

func TestFetchReadsWhatThePlannerNeedsAndNoMore(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	var desired []fsrepo.Skill
	for i := range 150 {
		slug := fmt.Sprintf("s-%03d", i)
		env.seed(slug, "body "+slug+"\n", i < 30, func(s *remotetest.SkillSeed) {
			if i == 0 {
				s.Files = map[string]string{"scripts/run.sh": "echo remote\n"}
				s.BinaryFiles = []string{"logo.png"}
			}
		})
		if i < 120 { // 30 stay unmanaged
			desired = append(desired, wantSkill(slug, "body "+slug+"\n", i < 30))
		}
	}
	desired[0].Files = []fsrepo.File{ // sorted by path, as fsrepo has them
		localTextFile("README.md", "absent remotely\n"),
		localBinaryFile("logo.png"),
		localTextFile("scripts/run.sh", "echo local\n"),
	}
	env.emu.AddAgent(envSpace, remote.Agent{Name: "A"})
	env.emu.ResetRequests()

	var mu sync.Mutex
	var last, calls, total int
	live, err := fetch.Space(t.Context(), env.client, envSpace, desiredRepo(desired...), fetch.Options{
		Parallelism: 5,
		Progress: func(done, n int) {
			mu.Lock()
			defer mu.Unlock()
			if done != last+1 {
				t.Errorf("progress went from %d to %d", last, done)
			}
			last, total = done, n
			calls++
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{
		remotetest.KeyListSkills: 2,   // ceil(150/100)
		remotetest.KeyGetSkill:   120, // managed only
		remotetest.KeyGetFile:    2,   // text files only
		remotetest.KeyListAgents: 1,
	}
	if got := env.emu.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
	if calls != 122 || total != 122 {
		t.Errorf("progress: %d calls, total %d; want 122", calls, total)
	}
	if len(live.Skills) != 150 || len(live.Agents) != 1 || live.Space != envSpace {
		t.Fatalf("live: %d skills, %d agents, space %q", len(live.Skills), len(live.Agents), live.Space)
	}
	withText := 0
	for _, s := range live.Skills {
		if s.Instructions != nil {
			withText++
			if *s.Instructions != "body "+s.Slug+"\n" {
				t.Errorf("%s: instructions %q", s.Slug, *s.Instructions)
			}
		}
	}
	if withText != 120 {
		t.Errorf("%d skills with instructions, want the 120 managed", withText)
	}
	files := live.Files[env.skill("s-000").ID]
	if got := files["scripts/run.sh"]; got == nil || *got != "echo remote\n" {
		t.Errorf("scripts/run.sh = %v", got)
	}
	if got, read := files["README.md"]; !read || got != nil {
		t.Errorf("README.md = %v, %v; want read and absent", got, read)
	}
	if _, read := files["logo.png"]; read {
		t.Error("a binary file was requested")
	}

	p := Compute(desiredRepo(desired...), live, Policy{})
	var statuses []string
	for _, f := range p.Files {
		statuses = append(statuses, f.Path+" "+f.Status)
	}
	if got := strings.Join(statuses, ", "); got != "README.md absent, logo.png unchecked, scripts/run.sh differs" {
		t.Errorf("file issues: %s", got)
	}
}

// TestFetchLargeFiles reads no file whole that is too large to compare: a
// text file over fsrepo.MaxCompareBytes in the repository is not asked
// for, and one in the space is not read past the limit; both are reported
// too large to compare, and neither fails the fetch.
func TestFetchLargeFiles(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	big := strings.Repeat("A line of a long reference file.\n", fsrepo.MaxCompareBytes/32+1)
	env.seed("a", "body\n", true, func(s *remotetest.SkillSeed) {
		s.Files = map[string]string{"big-there.md": big, "big-here.md": big, "small.md": "x\n"}
	})
	local := wantSkill("a", "body\n", true)
	local.Files = []fsrepo.File{
		{Path: "big-here.md", Size: int64(len(big)), SHA256: strings.Repeat("ab", 32), TooLarge: true},
		localTextFile("big-there.md", "x\n"),
		localTextFile("small.md", "x\n"),
	}
	env.emu.ResetRequests()
	live, err := fetch.Space(t.Context(), env.client, envSpace, desiredRepo(local), fetch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := env.emu.Requests()[remotetest.KeyGetFile]; got != 2 {
		t.Errorf("%d file reads, want 2: big-here.md is too large to compare, so not read", got)
	}
	id := env.skill("a").ID
	if _, read := live.Files[id]["big-there.md"]; read || !live.LargeFiles[id]["big-there.md"] {
		t.Errorf("big-there.md: in Files %t, in LargeFiles %t; want only in LargeFiles", read, live.LargeFiles[id]["big-there.md"])
	}
	p := Compute(desiredRepo(local), live, Policy{})
	var statuses []string
	for _, f := range p.Files {
		statuses = append(statuses, f.Path+" "+f.Status)
	}
	if got := strings.Join(statuses, ", "); got != "big-here.md too_large, big-there.md too_large" {
		t.Errorf("file issues: %s", got)
	}
}

func TestFetchErrors(t *testing.T) {
	t.Run("a failing read cancels the rest and names the skill", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		var desired []fsrepo.Skill
		for i := range 40 {
			slug := fmt.Sprintf("s-%02d", i)
			env.seed(slug, "x\n", true)
			desired = append(desired, wantSkill(slug, "x\n", true))
		}
		var once sync.Once
		env.emu.SetOnRequest(func(r *http.Request) {
			if r.Method == http.MethodGet && strings.Count(r.URL.Path, "/") == 6 { // a single skill
				once.Do(func() { env.emu.RemoveToken(envToken) })
			}
		})
		_, err := fetch.Space(t.Context(), env.client, envSpace, desiredRepo(desired...), fetch.Options{Parallelism: 2})
		if !remote.IsUnauthorized(err) || !strings.Contains(err.Error(), "reading skill s-") {
			t.Fatalf("Fetch = %v, want a 401 naming the skill", err)
		}
		if n := env.emu.Requests()[remotetest.KeyGetSkill]; n > 10 {
			t.Errorf("%d skills read after the first failure; the rest should be cancelled", n)
		}
	})
	t.Run("the list fails", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		env.emu.AddToken("other", remotetest.ReadWrite, "zz99")
		_, err := fetch.Space(t.Context(), env.clientWith("other"), envSpace, desiredRepo(), fetch.Options{})
		if !remote.IsForbidden(err) || !strings.Contains(err.Error(), "listing") {
			t.Errorf("Fetch = %v, want a 403 while listing", err)
		}
	})
	t.Run("a skill deleted between list and read is left out", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		env.seed("a", "x\n", true)
		env.seed("b", "x\n", true)
		var once sync.Once
		env.emu.SetOnRequest(func(r *http.Request) {
			if r.Method == http.MethodGet && strings.Count(r.URL.Path, "/") == 6 { // the first single-skill read
				once.Do(func() {
					env.emu.EditSkill(envSpace, env.skill("a").ID, func(s *remotetest.SkillSeed) { s.Builtin = true })
				})
			}
		})
		desired := desiredRepo(wantSkill("a", "x\n", true), wantSkill("b", "x\n", true))
		live, err := fetch.Space(t.Context(), env.client, envSpace, desired, fetch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(live.Skills) != 1 || live.Skills[0].Slug != "b" {
			t.Errorf("live skills = %+v", live.Skills)
		}
	})
}
