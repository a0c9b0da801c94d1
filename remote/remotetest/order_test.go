package remotetest

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"github.com/skillsync/skillsync/remote"
)

// TestListOrderFollowsEveryChange lists the space after every kind of
// change a skill can undergo: each must show in the list order at once,
// though the emulator keeps the order between changes rather than sorting
// the space for every page.
func TestListOrderFollowsEveryChange(t *testing.T) {
	f := newFixture(t)
	var want []string // most recently updated first
	front := func(id string) {
		want = slices.DeleteFunc(want, func(x string) bool { return x == id })
		want = slices.Insert(want, 0, id)
	}
	for i := range 5 {
		s := seedSkill(fmt.Sprintf("skill %d", i))
		s.Enabled = i%2 == 0
		front(f.e.AddSkill(testSpace, s).ID)
	}
	check := func(after string) {
		t.Helper()
		r := f.req(http.MethodGet, "/api/v1/spaces/ab12/skills?limit=100")
		f.mustStatus(r, 200, "list after "+after)
		var p remote.Page[remote.Skill]
		r.json(t, &p)
		var got []string
		for _, s := range p.Data {
			got = append(got, s.ID)
		}
		if !slices.Equal(got, want) || p.Total != len(want) {
			t.Errorf("after %s: order %v (total %d), want %v", after, got, p.Total, want)
		}
	}
	check("adding")
	check("listing again")

	f.mustStatus(f.patch(skillPath(testSpace, want[4]), `{"description":"new"}`), 200, "update")
	front(want[4])
	check("an update")

	off := want[4] // added disabled
	f.mustStatus(f.req(http.MethodPost, skillPath(testSpace, off, "enable")), 200, "enable")
	front(off)
	check("an enable")

	on := want[slices.IndexFunc(want[1:], func(id string) bool {
		s, _ := f.e.Skill(testSpace, id)
		return s.Enabled
	})+1]
	f.mustStatus(f.req(http.MethodPost, skillPath(testSpace, on, "disable")), 200, "disable")
	front(on)
	check("a disable")

	f.e.EditSkill(testSpace, want[2], func(*SkillSeed) {})
	front(want[2])
	check("an edit in the app")

	f.e.EditSkill(testSpace, want[1], func(s *SkillSeed) { s.Builtin = true })
	want = slices.Delete(want, 1, 2)
	check("a skill turned built-in")

	f.e.DeleteSkill(testSpace, want[0])
	want = want[1:]
	check("a deletion")

	front(f.e.AddSkill(testSpace, seedSkill("late")).ID)
	check("adding again")
}
