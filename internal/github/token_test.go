package github_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestErrorsNeverShowTheToken: GitHub's error message and details that
// echo the token, spelt with escapes or folded, never get it into the
// error.
func TestErrorsNeverShowTheToken(t *testing.T) {
	const tok = "ghs_secret_token_123"
	for _, spelt := range []string{
		tok,
		"ghs%5Fsecret%5Ftoken%5F123",
		"ghs&#95;secret&#x5f;token&#95;123",
		`ghs\\_secret\\_token\\_123`, // markdown escapes, in JSON
		"GHS_SECRET_TOKEN_123",
		"ghs-secret-token-123",
	} {
		f := newFakeGitHub(t)
		f.seed(func(f *fakeGitHub) { f.add(&fakeIssue{State: "open", PR: true}) })
		f.fail = func(r *http.Request) (int, string) {
			return http.StatusUnprocessableEntity, `{"message":"Validation Failed for ` + spelt + `","errors":[{"resource":"IssueComment","code":"custom","field":"body","message":"token ` + spelt + ` seen"},{"field":"` + spelt + `","code":"invalid"}]}`
		}
		_, _, err := newClient(t, f).UpsertPlanComment(context.Background(), 1, markerAB, "plan")
		if err == nil || !strings.Contains(err.Error(), "Validation Failed for [REDACTED]") {
			t.Errorf("%s: error = %v, want GitHub's message with the token redacted", spelt, err)
		}
		if err != nil && strings.Contains(err.Error(), spelt) {
			t.Errorf("%s: the error shows the token: %v", spelt, err)
		}
	}
}
