package remote

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// listSpace serves the skills list of a space whose items are kept most
// recently updated first, and lets a test change them between page requests.
type listSpace struct {
	mu      sync.Mutex
	items   []map[string]any
	hidden  int                       // counted in total but never listed
	maxPage int                       // the service's own cap on page size, if any
	capAt   func(offset int) int      // the cap at an offset, if any (overrides maxPage)
	before  func(s *listSpace, n int) // called before the n-th page request (1-based)
	queries []string
	clock   int
}

func newListSpace(n int) *listSpace {
	s := &listSpace{}
	for i := range n {
		s.items = append(s.items, s.item(i))
	}
	return s
}

func itemID(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", i) }

func (s *listSpace) item(i int) map[string]any {
	it := skillObject(itemID(i), i)
	it["updatedAt"] = fmt.Sprintf("v%d", s.clock)
	s.clock++
	return it
}

// touch edits the item at index i, which moves it to the front.
func (s *listSpace) touch(i int) {
	it := s.items[i]
	s.items = slices.Delete(s.items, i, i+1)
	it["updatedAt"] = fmt.Sprintf("v%d", s.clock)
	s.clock++
	s.items = slices.Insert(s.items, 0, it)
}

func (s *listSpace) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries = append(s.queries, r.URL.RawQuery)
	if s.before != nil {
		s.before(s, len(s.queries))
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	if s.maxPage > 0 {
		limit = min(limit, s.maxPage)
	}
	if s.capAt != nil {
		limit = min(limit, s.capAt(offset))
	}
	total := len(s.items) + s.hidden
	page := []map[string]any{}
	if offset < len(s.items) {
		page = s.items[offset:min(offset+limit, len(s.items))]
	}
	writeJSON(w, 200, map[string]any{"data": page, "total": total, "limit": limit, "offset": offset, "hasMore": offset+limit < total})
}

func (s *listSpace) ids() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for _, it := range s.items {
		ids = append(ids, it["id"].(string)+" "+it["updatedAt"].(string))
	}
	return ids
}

// listCase is a space that a list pass reads while a test changes it.
type listCase struct {
	name         string
	n            int
	hidden       int
	maxPage      int
	before       func(s *listSpace, n int)
	wantRequests int
}

// TestListAllSkills reads lists that shift under the client, one page
// after another and with the pages read ahead in parallel: either way the
// result is the list as the server holds it in the end, after one more
// pass per shift.
func TestListAllSkills(t *testing.T) {
	for _, par := range []int{0, 4} {
		t.Run(fmt.Sprintf("parallelism=%d", par), func(t *testing.T) {
			for _, tt := range listCases() {
				t.Run(tt.name, func(t *testing.T) { testListAll(t, tt, par) })
			}
		})
	}
}

func listCases() []listCase {
	return []listCase{
		{name: "empty", n: 0, wantRequests: 1},
		{name: "one page", n: 7, wantRequests: 1},
		{name: "exactly one full page", n: 100, wantRequests: 1},
		{name: "250 items in 3 pages", n: 250, wantRequests: 3},
		{
			name: "an item of page 2 moves to the front after page 1",
			n:    250,
			before: func(s *listSpace, n int) {
				if n == 2 {
					s.touch(150)
				}
			},
			wantRequests: 6,
		},
		{
			name: "an item of page 3 moves to the front after page 2",
			n:    250,
			before: func(s *listSpace, n int) {
				if n == 3 {
					s.touch(220)
				}
			},
			wantRequests: 6,
		},
		{
			name: "an item of page 1 is deleted after page 1, so page 2 skips one",
			n:    250,
			before: func(s *listSpace, n int) {
				if n == 2 {
					s.items = slices.Delete(s.items, 5, 6)
				}
			},
			wantRequests: 6,
		},
		{
			name: "an item is created after page 2",
			n:    250,
			before: func(s *listSpace, n int) {
				if n == 3 {
					s.items = slices.Insert(s.items, 0, s.item(999))
				}
			},
			wantRequests: 6,
		},
		{
			name: "edits during two passes",
			n:    150,
			before: func(s *listSpace, n int) {
				if n == 2 || n == 4 {
					s.touch(149)
				}
			},
			wantRequests: 6,
		},
		{
			name:         "a service that caps pages at 40",
			n:            250,
			maxPage:      40,
			wantRequests: 7,
		},
		{
			name:    "a capped service whose order shifts",
			n:       250,
			maxPage: 40,
			before: func(s *listSpace, n int) {
				if n == 4 {
					s.touch(200)
				}
			},
			wantRequests: 14,
		},
		{
			name:         "a total that counts unlisted items is trusted once stable",
			n:            250,
			hidden:       3,
			wantRequests: 6,
		},
	}
}

// testListAll lists tt's space with par pages in flight (0: ListAllSkills,
// one after another).
func testListAll(t *testing.T, tt listCase, par int) {
	s := newListSpace(tt.n)
	s.hidden = tt.hidden
	s.maxPage = tt.maxPage
	s.before = tt.before
	srv := serve(t, s.ServeHTTP)
	c := newClient(t, srv.URL, nil)
	got, err := listSkills(t, c, par)
	if err != nil {
		t.Fatalf("error: %v", err)
	}
	if got == nil {
		t.Fatal("nil slice")
	}
	var gotIDs []string
	for _, sk := range got {
		gotIDs = append(gotIDs, sk.ID+" "+sk.UpdatedAt)
	}
	if want := s.ids(); !slices.Equal(gotIDs, want) {
		t.Errorf("got %d skills, want %d in the server's order\n got %v\nwant %v", len(gotIDs), len(want), head(gotIDs), head(want))
	}
	if len(s.queries) != tt.wantRequests {
		t.Errorf("%d requests, want %d: %v", len(s.queries), tt.wantRequests, s.queries)
	}
	for i, q := range s.queries {
		if !strings.HasPrefix(q, "limit=100&offset=") {
			t.Errorf("query %d = %q, want pages of 100", i, q)
		}
	}
	if tt.wantRequests == 3 {
		want := []string{"limit=100&offset=0", "limit=100&offset=100", "limit=100&offset=200"}
		queries := slices.Clone(s.queries)
		if par > 1 {
			slices.Sort(queries[1:]) // the pages after the first arrive in any order
		}
		if !slices.Equal(queries, want) {
			t.Errorf("queries = %v, want %v", s.queries, want)
		}
	}
}

func head(s []string) []string { return s[:min(len(s), 3)] }

func TestListAllGivesUp(t *testing.T) {
	tests := []struct {
		name   string
		handle http.HandlerFunc
		want   string
	}{
		{
			name: "the order never settles",
			handle: func() http.HandlerFunc {
				s := newListSpace(250)
				s.before = func(s *listSpace, n int) { s.touch(len(s.items) - 1) }
				return s.ServeHTTP
			}(),
			want: "listing the skills of space ab12: the list kept changing while it was paged (5 passes",
		},
		{
			name: "hasMore on empty pages",
			handle: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, map[string]any{"data": []any{}, "total": 5, "hasMore": true})
			},
			want: "an empty page claimed more items",
		},
		{
			name: "hasMore forever",
			handle: func(w http.ResponseWriter, r *http.Request) {
				offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
				writeJSON(w, 200, map[string]any{"data": []any{skillObject(itemID(offset), 1)}, "total": 5, "hasMore": true})
			},
			want: "more pages than the total allows",
		},
	}
	for _, tt := range tests {
		for _, par := range []int{0, 8} {
			t.Run(fmt.Sprintf("%s/parallelism=%d", tt.name, par), func(t *testing.T) {
				srv := serve(t, tt.handle)
				_, err := listSkills(t, newClient(t, srv.URL, nil), par)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error = %v, want one containing %q", err, tt.want)
				}
				if n := srv.count(); n > 50 {
					t.Errorf("%d requests", n)
				}
			})
		}
	}
}

// listSkills lists the skills with ListAllSkills (par 0) or StreamSkills
// with par pages in flight.
func listSkills(t *testing.T, c *Client, par int) ([]Skill, error) {
	if par == 0 {
		return c.StreamSkills(t.Context(), space, ListOptions{})
	}
	return c.StreamSkills(t.Context(), space, ListOptions{Parallelism: par})
}

func TestListAllError(t *testing.T) {
	s := newListSpace(250)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("offset") == "100" {
			writeJSON(w, 403, map[string]string{"message": "no access"})
			return
		}
		s.ServeHTTP(w, r)
	})
	_, err := newClient(t, srv.URL, nil).StreamSkills(t.Context(), space, ListOptions{})
	if !IsForbidden(err) || !strings.Contains(err.Error(), "GET /api/v1/spaces/ab12/skills?limit=100&offset=100: 403 Forbidden: no access") {
		t.Errorf("error = %v", err)
	}
}

func TestListAllAgents(t *testing.T) {
	var agents []any
	for i := range 150 {
		a := agentObject(itemID(i))
		a["updatedAt"] = fmt.Sprint(1000 - i)
		agents = append(agents, a)
	}
	var mu sync.Mutex
	requests := 0
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		requests++
		if requests == 2 {
			// Agent 120 is edited: it moves to the front.
			a := agents[120]
			agents = append([]any{a}, slices.Delete(agents, 120, 121)...)
		}
		offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
		end := min(offset+100, len(agents))
		writeJSON(w, 200, map[string]any{"data": agents[offset:end], "total": len(agents), "limit": 100, "offset": offset, "hasMore": end < len(agents)})
	})
	got, err := newClient(t, srv.URL, nil).StreamAgents(t.Context(), space, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 150 || got[0].ID != itemID(120) || requests != 4 {
		t.Errorf("got %d agents, first %s, after %d requests; want 150, %s, 4", len(got), got[0].ID, requests, itemID(120))
	}
	if p := srv.requests()[0].Path; p != "/api/v1/spaces/ab12/agents" {
		t.Errorf("path = %s", p)
	}
}

// TestListAllLyingServer pages through services whose envelope lies: each
// must end in a clear error after a number of requests that follows from
// the first page's total, not after paging for as long as the lie lasts.
func TestListAllLyingServer(t *testing.T) {
	// fresh answers a page of 100 items never seen before.
	var mu sync.Mutex
	next := 0
	fresh := func() []any {
		mu.Lock()
		defer mu.Unlock()
		page := make([]any, 100)
		for i := range page {
			page[i] = skillObject(itemID(next), next)
			next++
		}
		return page
	}
	tests := []struct {
		name        string
		handle      http.HandlerFunc
		want        string
		maxRequests int
	}{
		{
			name: "hasMore forever and a total of a billion",
			handle: func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 200, map[string]any{"data": fresh(), "total": 1_000_000_000, "limit": 100, "hasMore": true})
			},
			want:        "the service counts 1000000000 skills, more than the 100000 a list may hold",
			maxRequests: 1,
		},
		{
			name: "new items on every page, the total growing faster than they are read",
			handle: func(w http.ResponseWriter, r *http.Request) {
				offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
				total := 300 + offset*offset
				writeJSON(w, 200, map[string]any{"data": fresh(), "total": total, "limit": 100, "offset": offset, "hasMore": true})
			},
			// 3 pages for the first page's total, 2 of slack, then the error.
			want:        "the service sent more pages than the 300 skills its first page counted allow (5 pages)",
			maxRequests: 6,
		},
		{
			name: "more items on a page than asked for",
			handle: func(w http.ResponseWriter, r *http.Request) {
				data := append(fresh(), fresh()...)
				writeJSON(w, 200, map[string]any{"data": data, "total": 400, "limit": 100, "hasMore": true})
			},
			want:        "the page at offset 0 holds 200 skills, more than the 100 asked for",
			maxRequests: 1,
		},
	}
	for _, tt := range tests {
		for _, par := range []int{0, 8} {
			t.Run(fmt.Sprintf("%s/parallelism=%d", tt.name, par), func(t *testing.T) {
				var srv *recorder
				srv = serve(t, func(w http.ResponseWriter, r *http.Request) {
					if srv.count() > 100*tt.maxRequests {
						// A client that would page on forever fails the test
						// rather than hang it.
						writeJSON(w, 400, map[string]string{"message": "the test server stops here"})
						return
					}
					tt.handle(w, r)
				})
				_, err := listSkills(t, newClient(t, srv.URL, nil), par)
				if err == nil || !strings.Contains(err.Error(), "listing the skills of space ab12: "+tt.want) {
					t.Errorf("error = %v, want one containing %q", err, tt.want)
				}
				if n := srv.count(); n > tt.maxRequests {
					t.Errorf("%d requests, want at most %d", n, tt.maxRequests)
				}
			})
		}
	}
}

func TestPageBudget(t *testing.T) {
	for _, tt := range []struct {
		total, pageSize, want int
		err                   string
	}{
		{total: 0, pageSize: 0, want: 1 + listPageSlack},
		{total: 1, pageSize: 100, want: 1 + listPageSlack},
		{total: 100, pageSize: 100, want: 1 + listPageSlack},
		{total: 101, pageSize: 100, want: 2 + listPageSlack},
		{total: 250, pageSize: 40, want: 7 + listPageSlack},
		{total: 250, pageSize: 1, want: 100 + listPageSlack},
		{total: 5000, pageSize: 1, want: 500 + listPageSlack}, // one item a page is no reason for 5,000 requests
		{total: maxListTotal, pageSize: 100, want: maxListTotal/100 + listPageSlack},
		{total: maxListTotal + 1, pageSize: 100, err: "the service counts 100001 agents, more than the 100000 a list may hold"},
	} {
		got, err := pageBudget("agents", tt.total, tt.pageSize)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("pageBudget(%d, %d) error = %v, want %q", tt.total, tt.pageSize, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("pageBudget(%d, %d) = %d, %v; want %d", tt.total, tt.pageSize, got, err, tt.want)
		}
	}
}

// countingLimiter is a Limiter of n slots that records the most ever held.
type countingLimiter struct {
	slots            chan struct{}
	mu               sync.Mutex
	held, most, uses int
}

func newCountingLimiter(n int) *countingLimiter {
	return &countingLimiter{slots: make(chan struct{}, n)}
}

func (l *countingLimiter) Acquire(ctx context.Context) error {
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held++
	l.uses++
	l.most = max(l.most, l.held)
	return nil
}

func (l *countingLimiter) Release() {
	l.mu.Lock()
	l.held--
	l.mu.Unlock()
	<-l.slots
}

// TestStreamSkillsReadsPagesTogether lists 1,000 skills with 4 pages in
// flight: once the first page has given the total, the other nine are
// asked for together, four at a time, each inside the caller's limiter.
func TestStreamSkillsReadsPagesTogether(t *testing.T) {
	const n, par = 1000, 4
	s := newListSpace(n)
	var (
		mu               sync.Mutex
		inFlight, most   int
		together         = make(chan struct{}) // closed once par pages are in flight at once
		togetherOnce     sync.Once
		firstPageArrived bool
	)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inFlight++
		most = max(most, inFlight)
		if inFlight == par {
			togetherOnce.Do(func() { close(together) })
		}
		first := !firstPageArrived
		firstPageArrived = true
		mu.Unlock()
		defer func() {
			mu.Lock()
			inFlight--
			mu.Unlock()
		}()
		if !first {
			// Hold every page after the first until par of them are in
			// flight at once: a client reading them one after another
			// fails here rather than passing slowly.
			select {
			case <-together:
			case <-time.After(5 * time.Second):
				writeJSON(w, 400, map[string]string{"message": "the pages were not asked for together"})
				return
			}
		}
		s.ServeHTTP(w, r)
	})
	lim := newCountingLimiter(par)
	got, err := newClient(t, srv.URL, nil).StreamSkills(t.Context(), space, ListOptions{Parallelism: par, Limiter: lim})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Errorf("%d skills, want %d", len(got), n)
	}
	if requests := srv.count(); requests != 10 {
		t.Errorf("%d requests, want 10", requests)
	}
	if most != par || lim.most > par || lim.uses != 10 || lim.held != 0 {
		t.Errorf("%d pages in flight at most, the limiter held %d at most, acquired %d times, %d still held; want %d, <= %d, 10, 0",
			most, lim.most, lim.uses, lim.held, par, par)
	}
}

// TestStreamSkillsPagesOfVaryingSizes lists services whose later pages
// are not the size of the first, so that the offsets its size gives are
// wrong: the pages read ahead are dropped where they stop lining up, and
// the rest of the pass is read one page after another, as ListAllSkills
// reads it.
func TestStreamSkillsPagesOfVaryingSizes(t *testing.T) {
	for _, tt := range []struct {
		name             string
		first, later     int // page sizes the service applies
		wantRequests     int
		wantLaterQueries []string
	}{
		// 100, then 60 at 100 (read ahead with 200), then 160 and 220.
		{"later pages shorter", 100, 60, 5, []string{"offset=100", "offset=160", "offset=200", "offset=220"}},
		// 40, then 100 at 40 (read ahead with 80 ... 240), then 140 and 240.
		{"later pages longer", 40, 100, 9, []string{"offset=120", "offset=140", "offset=160", "offset=200", "offset=240", "offset=240", "offset=40", "offset=80"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newListSpace(250)
			s.capAt = func(offset int) int {
				if offset == 0 {
					return tt.first
				}
				return tt.later
			}
			srv := serve(t, s.ServeHTTP)
			got, err := newClient(t, srv.URL, nil).StreamSkills(t.Context(), space, ListOptions{Parallelism: 8})
			if err != nil {
				t.Fatal(err)
			}
			var gotIDs []string
			for _, sk := range got {
				gotIDs = append(gotIDs, sk.ID+" "+sk.UpdatedAt)
			}
			if want := s.ids(); !slices.Equal(gotIDs, want) {
				t.Errorf("got %d skills, want the %d of the server in its order", len(gotIDs), len(want))
			}
			var later []string
			for _, q := range s.queries[1:] {
				later = append(later, strings.TrimPrefix(q, "limit=100&"))
			}
			slices.Sort(later)
			if len(s.queries) != tt.wantRequests || !slices.Equal(later, tt.wantLaterQueries) {
				t.Errorf("%d requests, after the first %v; want %d, %v", len(s.queries), later, tt.wantRequests, tt.wantLaterQueries)
			}
		})
	}
}

// TestStreamSkillsPageError fails the listing with the error of a page
// read ahead, and stops asking for the others.
func TestStreamSkillsPageError(t *testing.T) {
	s := newListSpace(2000)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("offset") {
		case "0":
		case "100":
			writeJSON(w, 403, map[string]string{"message": "no access"})
			return
		default:
			// Answered only if the client has not given up by then.
			select {
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Second):
			}
		}
		s.ServeHTTP(w, r)
	})
	lim := newCountingLimiter(2)
	_, err := newClient(t, srv.URL, nil).StreamSkills(t.Context(), space, ListOptions{Parallelism: 2, Limiter: lim})
	if !IsForbidden(err) || !strings.Contains(err.Error(), "GET /api/v1/spaces/ab12/skills?limit=100&offset=100: 403 Forbidden: no access") {
		t.Errorf("error = %v", err)
	}
	// Page 1, the failed page 2, and page 3 if it left before the
	// failure was known: a page 4 was asked for after it.
	if n := srv.count(); n < 2 || n > 3 {
		t.Errorf("%d requests, want 2 or 3: the pages after the failed one were still asked for", n)
	}
	if lim.held != 0 {
		t.Errorf("%d slots of the limiter still held", lim.held)
	}
}
