package gitlabtest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/skillsync/skillsync/internal/gitlab/gitlabtest"
)

// TestListIssuesFilters: GET /projects/:id/issues filters as GitLab does
// by state, labels, author and search (title and description, or in=).
func TestListIssuesFilters(t *testing.T) {
	f := gitlabtest.New(t)
	f.AddIssue(gitlabtest.Issue{Title: "skillsync: drift in space ab12", Description: "<!-- skillsync:drift space=ab12 -->\nreport", Labels: []string{"skillsync-drift"}})
	f.AddIssue(gitlabtest.Issue{AuthorID: 5, Title: "Drift?", Description: "asks about space ab12"})
	f.AddIssue(gitlabtest.Issue{Title: "old", Description: "space ab12", State: "closed"})
	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"state=opened", []int64{2, 1}}, // newest first
		{"state=all&sort=asc", []int64{1, 2, 3}},
		{"labels=skillsync-drift", []int64{1}},
		{"author_id=77&state=all&sort=asc", []int64{1, 3}},
		{"search=ASKS+About&sort=asc", []int64{2}},
		{"search=drift&in=title&sort=asc", []int64{1, 2}},
		{"search=skillsync%3Adrift+space%3Dab12&in=description", []int64{1}},
	} {
		req, _ := http.NewRequest("GET", f.URL+"/projects/"+url.PathEscape(gitlabtest.ProjectPath)+"/issues?"+tc.query, nil)
		req.Header.Set("PRIVATE-TOKEN", gitlabtest.Token)
		resp, err := f.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got []struct{ IID int64 }
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		var iids []int64
		for _, is := range got {
			iids = append(iids, is.IID)
		}
		if !slices.Equal(iids, tc.want) {
			t.Errorf("%s: issues %v, want %v", tc.query, iids, tc.want)
		}
	}
}
