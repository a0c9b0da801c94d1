package reconcile

import "testing"

func TestUnfinished(t *testing.T) {
	// Two applies appended to one journal: the first was killed while the
	// update of b was in flight, the second updated b again.
	in := `{"time":"2026-01-02T03:04:05Z","space":"ab12","slug":"a","id":"1","action":"update","request":{"name":"A"},"outcome":"started"}
{"time":"2026-01-02T03:04:06Z","space":"ab12","slug":"a","id":"1","action":"update","request":{"name":"A"},"outcome":"applied"}
{"time":"2026-01-02T03:04:07Z","space":"ab12","slug":"b","id":"2","action":"update","request":{"name":"B"},"before":{"name":"Old B","description":"d","instructions":"old\n","enabled":true},"outcome":"started"}
{"time":"2026-01-02T04:00:00Z","space":"ab12","slug":"c","id":"3","action":"disable","outcome":"started"}
{"time":"2026-01-02T04:00:01Z","space":"ab12","slug":"c","id":"3","action":"disable","outcome":"failed","error":"409 Conflict"}
{"time":"2026-01-02T04:00:02Z","space":"ab12","slug":"b","id":"2","action":"update","request":{"name":"B"},"outcome":"started"}
{"time":"2026-01-02T04:00:03Z","space":"ab12","slug":"b","id":"2","action":"update","request":{"name":"B"},"outcome":"applied"}
{"time":"2026-01-02T04:00:04Z","space":"ab12","slug":"d","id":"4","action":"enable","outcome":"started"}
`
	es := decodeLines(t, in)
	if len(es) != 8 {
		t.Fatalf("%d entries, want 8", len(es))
	}
	got := Unfinished(es)
	if len(got) != 2 || got[0].Slug != "b" || got[0].Time != es[2].Time || got[1].Slug != "d" {
		t.Fatalf("Unfinished = %+v, want the first apply's update of b and the enable of d", got)
	}
	if got[0].Before == nil || *got[0].Before.Instructions != "old\n" {
		t.Errorf("the unfinished update lost the text it may have overwritten: %+v", got[0].Before)
	}
	if Unfinished(es[:2]) != nil {
		t.Error("Unfinished of a journal whose every line has its outcome is not empty")
	}
}
