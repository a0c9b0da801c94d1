package github_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/github/githubtest"
)

// TestErrorsNeverShowTheToken: GitHub's error message and details that
// echo the token, as it is or escaped, never get it into the error.
func TestErrorsNeverShowTheToken(t *testing.T) {
	const tok = githubtest.Token // spelt out below
	for _, spelt := range []string{
		tok,
		"ghs%5Ffake%5Ftoken%5F0123456789",
		"ghs&#95;fake&#x5f;token&#95;0123456789",
		`ghs\\_fake\\_token\\_0123456789`, // markdown escapes, in JSON
	} {
		f := githubtest.New(t)
		f.AddIssue(githubtest.Issue{State: "open", PR: true})
		f.FailAll(http.StatusUnprocessableEntity, `{"message":"Validation Failed for `+spelt+`","errors":[{"resource":"IssueComment","code":"custom","field":"body","message":"token `+spelt+` seen"},{"field":"`+spelt+`","code":"invalid"}]}`)
		_, _, err := upsert(newClient(t, f), context.Background(), 1, markerAB, "plan")
		if err == nil || !strings.Contains(err.Error(), "Validation Failed for [REDACTED]") {
			t.Errorf("%s: error = %v, want GitHub's message with the token redacted", spelt, err)
		}
		if err != nil && strings.Contains(err.Error(), spelt) {
			t.Errorf("%s: the error shows the token: %v", spelt, err)
		}
	}
}
