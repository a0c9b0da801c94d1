package github

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/skillsync/skillsync/internal/bounded"
)

// DefaultAPIURL is the REST API of github.com; GitHub Enterprise Server
// workflows get theirs in GITHUB_API_URL.
const DefaultAPIURL = "https://api.github.com"

// MaxEventBytes is the largest event payload read: GitHub caps the payload
// of an event at 25 MB, so a larger file at GITHUB_EVENT_PATH is not one
// GitHub wrote, and reading it whole could exhaust memory.
const MaxEventBytes = 25 << 20

// Env is what a GitHub Actions step knows about where it runs, read once
// from its environment by [ReadEnv].
type Env struct {
	// Token authenticates API calls. It is never printed, not even in errors.
	Token string
	// Repository is "owner/name".
	Repository string
	// APIURL is the REST API's root, DefaultAPIURL unless GITHUB_API_URL says
	// otherwise.
	APIURL string
	// EventPath is the JSON payload of the event that started the run.
	EventPath string
	// Ref is the ref the run is for: refs/pull/N/merge for a pull request.
	Ref string
	// StepSummary is the path of $GITHUB_STEP_SUMMARY, empty outside Actions.
	StepSummary string
	// Actions reports GITHUB_ACTIONS=true: annotations are understood.
	Actions bool
	// RunURL is the page of the workflow run, whose log and job summary
	// hold the whole plan: GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID,
	// empty outside Actions or when any of them is malformed. A plan cut
	// to fit a comment links it.
	RunURL string
}

var (
	repositoryRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)
	pullRefRE    = regexp.MustCompile(`^refs/pull/([0-9]+)/(?:merge|head)$`)
	runIDRE      = regexp.MustCompile(`^[0-9]{1,20}$`)
)

// DefaultServerURL is github.com; GitHub Enterprise Server workflows get
// theirs in GITHUB_SERVER_URL.
const DefaultServerURL = "https://github.com"

// ReadEnv reads the variables that the runner sets for every step. getenv
// is os.Getenv in production and a map lookup in tests. It reads no file
// and never fails: a local run has none of the variables, and what is
// wrong with them matters only to what uses them, which says so:
// [Env.CheckRepository], [Env.PullRequest], [NewClient].
func ReadEnv(getenv func(string) string) Env {
	env := Env{
		Token:       cmp.Or(getenv("GITHUB_TOKEN"), getenv("GH_TOKEN")),
		Repository:  getenv("GITHUB_REPOSITORY"),
		APIURL:      cmp.Or(strings.TrimRight(getenv("GITHUB_API_URL"), "/"), DefaultAPIURL),
		EventPath:   getenv("GITHUB_EVENT_PATH"),
		Ref:         getenv("GITHUB_REF"),
		StepSummary: getenv("GITHUB_STEP_SUMMARY"),
		Actions:     getenv("GITHUB_ACTIONS") == "true",
	}
	env.RunURL = runURL(getenv("GITHUB_SERVER_URL"), env.Repository, getenv("GITHUB_RUN_ID"))
	return env
}

// runURL is the page of run id of repository on server, "" unless all
// three are well formed: it goes into markdown as a link.
func runURL(server, repository, id string) string {
	server = strings.TrimRight(cmp.Or(server, DefaultServerURL), "/")
	u, err := url.Parse(server)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" ||
		strings.ContainsAny(server, " <>()[]\"'`\\") || !repositoryRE.MatchString(repository) || !runIDRE.MatchString(id) {
		return ""
	}
	return server + "/" + repository + "/actions/runs/" + id
}

// CheckRepository refuses a repository that is set but not of the form
// owner/name. (An unset one is refused by [NewClient], which needs it.)
func (e Env) CheckRepository() error {
	if e.Repository != "" && !repositoryRE.MatchString(e.Repository) {
		return fmt.Errorf("GITHUB_REPOSITORY %q is not of the form owner/name", e.Repository)
	}
	return nil
}

// PullRequest returns the number of the pull request the run is for, 0
// when there is none. It comes from the event payload (pull_request.number,
// or issue.number for a comment on a pull request), else from a Ref of the
// form refs/pull/N/merge. An unreadable payload, or one over
// [MaxEventBytes], is an error.
func (e Env) PullRequest() (int, error) {
	if e.EventPath != "" {
		n, err := prFromEvent(e.EventPath)
		if err != nil || n != 0 {
			return n, err
		}
	}
	if m := pullRefRE.FindStringSubmatch(e.Ref); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, nil
	}
	return 0, nil
}

// prFromEvent returns the pull request number in an event payload, or 0 for
// events that are not about a pull request (push, schedule).
func prFromEvent(path string) (int, error) {
	data, err := readEvent(path)
	if err != nil {
		return 0, err
	}
	var ev struct {
		PullRequest *struct {
			Number int `json:"number"`
		} `json:"pull_request"`
		Issue *struct {
			Number      int             `json:"number"`
			PullRequest json.RawMessage `json:"pull_request"`
		} `json:"issue"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return 0, fmt.Errorf("reading the event payload %s: %w", path, err)
	}
	switch {
	case ev.PullRequest != nil:
		return ev.PullRequest.Number, nil
	case ev.Issue != nil && len(ev.Issue.PullRequest) > 0 && string(ev.Issue.PullRequest) != "null":
		return ev.Issue.Number, nil
	}
	return 0, nil
}

// readEvent reads the event payload at path, refusing one over
// [MaxEventBytes] before reading it when its size is known, and after
// MaxEventBytes+1 bytes when it is not (a pipe, a device).
func readEvent(path string) ([]byte, error) {
	tooLarge := fmt.Errorf("the event payload %s is over %d MiB, GitHub's limit for an event: it is not a payload of GitHub's (check GITHUB_EVENT_PATH)", path, MaxEventBytes>>20)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading the event payload: %w", err)
	}
	defer f.Close()
	data, err := bounded.ReadAll(f, MaxEventBytes)
	if _, ok := errors.AsType[*bounded.TooLargeError](err); ok {
		return nil, tooLarge
	}
	if err != nil {
		return nil, fmt.Errorf("reading the event payload: %w", err)
	}
	return data, nil
}
