package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
)

// watchOptions are the settings of drift --watch.
type watchOptions struct {
	drift    driftOptions
	interval time.Duration
	listen   string // --listen: health and metrics; "" for none
	selfHeal bool   // --self-heal: apply over the app's edits
	format   string // of the apply view of --self-heal
}

// minInterval is the shortest --interval: a round lists every target's
// skills, one request per 100 of them: 256 requests or more for 256 targets.
const minInterval = 100 * time.Millisecond

// A watcher runs the rounds of drift --watch. Each round lists each
// target's skills; only a target whose list or desired state moved since
// its last plan is planned again (through the cache), then
// reported, notified, proposed and healed as a scheduled drift would.
type watcher struct {
	e       *env
	o       watchOptions
	metrics *watchMetrics
	// targets are what the last rounds learned of each target, by name
	// ("" for the one target of a skillsync.yaml without targets).
	targets map[string]*watchedTarget
}

// A watchedTarget is what the rounds know of one target.
type watchedTarget struct {
	client  *remote.Client
	probe   string // the list of its skills, as last planned
	desired string // its desired state, as last planned
	drift   bool   // its last plan found drift
}

func newWatcher(e *env, o watchOptions) *watcher {
	m := &watchMetrics{started: time.Now()}
	for i := range m.values {
		m.values[i] = map[string]float64{}
	}
	return &watcher{e: e, o: o, metrics: m, targets: map[string]*watchedTarget{}}
}

// runWatch runs rounds every o.interval until ctx ends (SIGINT, SIGTERM),
// then stops the metrics server and returns nil: stopping is how a watch
// ends. A round that fails is reported; the next one tries again.
func runWatch(ctx context.Context, e *env, o watchOptions) error {
	if o.interval < minInterval {
		return withHint(fmt.Errorf("--%s %s is too short", flagInterval, o.interval), "use %s or more, such as --%s 1m", minInterval, flagInterval)
	}
	if o.drift.out != "" {
		return withHint(errors.New("--out and --watch together: a watch has no last plan to save"), "leave out --out")
	}
	if o.drift.planning.cache == "" {
		// An unchanged skill is read once for the whole watch.
		dir, err := os.MkdirTemp("", "skillsync-watch-cache-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		o.drift.planning.cache = dir
	}
	w := newWatcher(e, o)
	if o.listen != "" {
		ln, err := net.Listen("tcp", o.listen)
		if err != nil {
			return withHint(fmt.Errorf("--%s: %w", flagListen, err), "choose a free address, such as --%s :9090", flagListen)
		}
		srv := &http.Server{Handler: w.metrics.handler(o.interval), ReadHeaderTimeout: 10 * time.Second}
		// Serve ends with ErrServerClosed when the watch stops.
		go srv.Serve(ln)
		defer func() {
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			srv.Shutdown(sctx)
		}()
		e.ui.infof("health on http://%s/healthz, metrics on http://%s/metrics", ln.Addr(), ln.Addr())
	}
	e.ui.infof("watching every %s; stop with Ctrl-C or SIGTERM", o.interval)
	t := time.NewTicker(o.interval)
	defer t.Stop()
	for {
		if err := w.round(ctx); err != nil && ctx.Err() == nil {
			reportAlso(e.ui, err)
		}
		select {
		case <-ctx.Done():
			e.ui.infof("stopped watching")
			return nil
		case <-t.C:
		}
	}
}

// round lists each target's skills and plans those that moved; a target
// in sync or unmoved costs one request per 100 of its skills.
func (w *watcher) round(ctx context.Context) error {
	e, planning := w.e, w.o.drift.planning
	w.metrics.add(metricRounds, "", 1)
	_, repo, _, _, err := loadRepo(ctx, e.ui, planning, false)
	if err != nil {
		w.metrics.add(metricErrors, "", 1)
		return err
	}
	ts, err := planning.targets(repo)
	if err != nil {
		w.metrics.add(metricErrors, "", 1)
		return err
	}
	probes := make([]string, len(ts))
	desired := make([]string, len(ts))
	// Every page of every target shares one bound.
	var g errgroup.Group
	lo := remote.ListOptions{Parallelism: planning.conn.parallelism, Limiter: fetch.NewBudget(planning.conn.parallelism)}
	for i, t := range ts {
		wt := w.targets[t.Name]
		if wt == nil {
			wt = &watchedTarget{}
			w.targets[t.Name] = wt
		}
		policy, _ := json.Marshal(t.Policy) // strings, numbers and lists: never fails
		desired[i] = reconcile.DesiredHash(repo.ForTarget(t.Name)) + "\x00" + string(policy)
		if wt.client == nil {
			if wt.client, err = connect(e, planning.conn, t); err != nil {
				return err
			}
		}
		bug.Go(&g, func() error {
			w.metrics.add(metricProbes, t.Name, 1)
			skills, err := wt.client.StreamSkills(ctx, t.Space, lo)
			if err != nil {
				w.metrics.add(metricErrors, t.Name, 1)
				return fmt.Errorf("reading %s: %w", t.where(), err)
			}
			probes[i] = probeKey(skills)
			return nil
		})
	}
	probeErr := g.Wait()
	var moved []string
	for i, t := range ts {
		wt := w.targets[t.Name]
		if probes[i] != "" && (probes[i] != wt.probe || desired[i] != wt.desired) {
			moved = append(moved, t.Name)
		}
	}
	if len(moved) == 0 {
		w.metrics.done(time.Now(), probeErr == nil)
		return probeErr
	}
	if len(ts) > 1 {
		planning.conn.flags.targets = moved
		e.ui.infof("%s: %s moved", time.Now().UTC().Format(time.TimeOnly), strings.Join(moved, ", "))
	} else {
		e.ui.infof("%s: %s moved", time.Now().UTC().Format(time.TimeOnly), ts[0].where())
	}
	err = w.plan(ctx, planning)
	if err == nil {
		for i, t := range ts {
			if slices.Contains(moved, t.Name) {
				w.targets[t.Name].probe, w.targets[t.Name].desired = probes[i], desired[i]
			}
		}
	}
	w.metrics.done(time.Now(), err == nil && probeErr == nil)
	return errors.Join(probeErr, err)
}

// plan is a scheduled drift of the targets planning selects: the report,
// the issue, the pull request, the notifications, and with --self-heal
// the apply.
func (w *watcher) plan(ctx context.Context, planning planningOptions) error {
	e, o := w.e, w.o.drift
	runs, err := makePlans(ctx, e, planning, false)
	if err != nil {
		w.metrics.add(metricErrors, "", 1)
		notifyFailure(ctx, e, planning, notify.PlanError, err)
		return err
	}
	for _, r := range runs {
		w.metrics.add(metricPlans, r.target.Name, 1)
	}
	if err := o.view.plans(runs); err != nil {
		return err
	}
	errs := []error{publishPlans(ctx, e, o.github, runs, "drift")}
	if o.propose {
		errs = append(errs, proposeDrifts(ctx, e, o.github, o.prBase, runs))
	}
	var heal []*planRun
	for _, r := range runs {
		wt := w.targets[r.target.Name]
		if r.err != nil || r.plan.Drift().Status == reconcile.DriftError {
			w.metrics.add(metricErrors, r.target.Name, 1)
			continue
		}
		drift := r.plan.HasDrift()
		if wt.drift && !drift {
			r.resolved = true
		}
		wt.drift = drift
		w.metrics.set(metricDrift, r.target.Name, boolGauge(drift))
		w.metrics.set(metricDriftedSkills, r.target.Name, float64(len(driftedSkills(r.plan))))
		if w.o.selfHeal && r.plan.HasChanges() && !r.plan.HasErrors() {
			heal = append(heal, r)
		}
	}
	notifyPlans(ctx, e, runs, "drift")
	if len(heal) > 0 {
		// Apply's own rules hold: errors, the disable guard and the
		// active limit stop a target; every change is journaled.
		out, err := applyRuns(ctx, e.ui, newApplyView(e.ui, w.o.format, planning.color), heal, "", true)
		notifyApply(ctx, e, out)
		for _, oc := range out {
			if oc.status == targetApplied {
				w.metrics.add(metricSelfHeals, oc.run.target.Name, 1)
			}
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// probeKey is what the list of a space's skills says of its changes:
// the id, update time and state of each. The state is there because the
// API does not say whether an enable or disable moves updatedAt.
func probeKey(skills []remote.Skill) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(skills)))
	for _, s := range skills {
		fmt.Fprintf(&b, "\x00%s\x01%s\x01%t", s.ID, s.UpdatedAt, s.Enabled)
	}
	return b.String()
}

func boolGauge(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// watchMetrics are the counters and gauges of a watch, served in the
// Prometheus text format by [watchMetrics.handler].
type watchMetrics struct {
	mu      sync.Mutex
	values  [len(metrics)]map[string]float64 // by metric, by target
	last    time.Time                        // the end of the last round that succeeded
	started time.Time
}

// A metric is one of the series of [metrics]. Only its constants name
// one, so every metric a watch counts is one it serves.
type metric int

const (
	metricRounds metric = iota
	metricProbes
	metricPlans
	metricErrors
	metricSelfHeals
	metricDrift
	metricDriftedSkills
	metricLastSuccess // served from watchMetrics.last
)

// metrics are the name, type and help of each metric, in the order served.
var metrics = [...]struct{ name, kind, help string }{
	metricRounds:        {"skillsync_watch_rounds_total", "counter", "Rounds started."},
	metricProbes:        {"skillsync_watch_probes_total", "counter", "Lists of a space's skills read (one request per 100 skills), by target."},
	metricPlans:         {"skillsync_watch_plans_total", "counter", "Targets planned because their space or desired state moved."},
	metricErrors:        {"skillsync_watch_errors_total", "counter", "Failed reads, loads and plans, by target (\"\" for the repository)."},
	metricSelfHeals:     {"skillsync_watch_self_heals_total", "counter", "Applies made by --self-heal, by target."},
	metricDrift:         {"skillsync_watch_drift", "gauge", "1 when the target's space differed from git at its last plan."},
	metricDriftedSkills: {"skillsync_watch_drifted_skills", "gauge", "Skills by which the target's space differed from git at its last plan."},
	metricLastSuccess:   {"skillsync_watch_last_success_timestamp_seconds", "gauge", "When the last round that succeeded ended."},
}

func (m *watchMetrics) add(which metric, target string, d float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.values[which][target] += d
}

func (m *watchMetrics) set(which metric, target string, v float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.values[which][target] = v
}

// done records the end of a round.
func (m *watchMetrics) done(at time.Time, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ok {
		m.last = at
	}
}

// handler serves /metrics, and /healthz: 200 while a round succeeded in
// the last three intervals (or the watch started less than that ago),
// 503 otherwise.
func (m *watchMetrics) handler(interval time.Duration) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		m.mu.Lock()
		since := m.last
		if since.IsZero() {
			since = m.started
		}
		m.mu.Unlock()
		if age := time.Since(since); age > 3*interval+30*time.Second {
			http.Error(w, fmt.Sprintf("no round succeeded for %s", age.Round(time.Second)), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		m.mu.Lock()
		defer m.mu.Unlock()
		for i, h := range metrics {
			fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", h.name, h.help, h.name, h.kind)
			if metric(i) == metricLastSuccess {
				if !m.last.IsZero() {
					fmt.Fprintf(w, "%s %d\n", h.name, m.last.Unix())
				}
				continue
			}
			byTarget := m.values[i]
			for _, t := range slices.Sorted(maps.Keys(byTarget)) {
				// Target names are [A-Za-z0-9_.-]: nothing to escape.
				fmt.Fprintf(w, "%s{target=%q} %s\n", h.name, t, strconv.FormatFloat(byTarget[t], 'g', -1, 64))
			}
		}
	})
	return mux
}
