package main

import (
	"bytes"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestApplyInterruptedBeforeNextTarget: Ctrl-C while the last step of the
// first target is in flight lets that step end, and the next target is
// not started: it says so, and has no journal.
func TestApplyInterruptedBeforeNextTarget(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	twoTargets(t, e, dir, env)
	ctx, interrupt := context.WithCancel(t.Context())
	defer interrupt()
	// Staging's plan has three steps: the third is its last.
	var mu sync.Mutex
	writes := 0
	e.SetOnRequest(func(r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method != http.MethodGet && strings.Contains(r.URL.Path, "/spaces/st01/") {
			if writes++; writes == 3 {
				interrupt()
			}
		}
	})
	var out, errOut bytes.Buffer
	code := run(ctx, []string{"skillsync", "apply", "--auto-approve", "--parallelism", "1", "--dir", dir}, env.process(nil, &out, &errOut))
	if code != exitInterrupted || !strings.Contains(errOut.String(), "skillsync: error: interrupted") {
		t.Errorf("exit %d, want %d and an error saying interrupted; stderr:\n%s", code, exitInterrupted, &errOut)
	}
	if !strings.Contains(out.String(), "Apply: 3 applied, 0 failed, 0 skipped.") {
		t.Errorf("staging's last step did not end:\n%s", &out)
	}
	if !strings.Contains(out.String(), "1 not started (production)") || strings.Contains(out.String(), "failed (production)") {
		t.Errorf("production is not said to be not started:\n%s", &out)
	}
	if strings.Contains(out.String(), "Applying target production") {
		t.Errorf("production was started:\n%s", &out)
	}
	journals, _ := filepath.Glob(filepath.Join(dir, ".skillsync", "journal", "*-production.jsonl"))
	if len(journals) != 0 {
		t.Errorf("production has a journal: %v", journals)
	}
}
