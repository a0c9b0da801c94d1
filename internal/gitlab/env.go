package gitlab

import (
	"cmp"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// DefaultAPIURL is the REST API of gitlab.com; a job on a self-managed
// instance gets its own in CI_API_V4_URL.
const DefaultAPIURL = "https://gitlab.com/api/v4"

// Env is what a GitLab CI job knows about where it runs, read once from
// its environment by [ReadEnv].
type Env struct {
	// Token authenticates API calls (GITLAB_TOKEN): a project or group
	// access token with the api scope and the Reporter role or higher.
	// CI_JOB_TOKEN cannot write notes or issues, and is never read. The
	// token is never printed, not even in errors.
	Token string
	// APIURL is the REST API's root: CI_API_V4_URL, else CI_SERVER_URL
	// with /api/v4, else DefaultAPIURL.
	APIURL string
	// Project is the project's numeric id (CI_PROJECT_ID), else its path
	// (CI_PROJECT_PATH, "group/subgroup/name").
	Project string
	// ProjectURL is the project's web page (CI_PROJECT_URL), from which
	// the address of a note is made; GitLab's notes carry none.
	ProjectURL string
	// MergeRequestIID is CI_MERGE_REQUEST_IID as it is, set in merge
	// request pipelines only: see [Env.MergeRequest].
	MergeRequestIID string
	// RunURL is the page of the job (CI_JOB_URL, else the pipeline's,
	// CI_PIPELINE_URL), whose log holds the whole plan: a plan cut to fit
	// a note links it. Empty unless it is a plain http(s) URL, as it goes
	// into markdown.
	RunURL string
	// CI reports GITLAB_CI=true: the process runs in a GitLab CI job.
	CI bool
}

var (
	projectIDRE   = regexp.MustCompile(`^[1-9][0-9]{0,19}$`)
	projectPathRE = regexp.MustCompile(`^[A-Za-z0-9_.][A-Za-z0-9_.-]*(/[A-Za-z0-9_.][A-Za-z0-9_.-]*)+$`)
)

// ReadEnv reads the variables that GitLab sets for every job, and
// GITLAB_TOKEN. getenv is os.Getenv in production and a map lookup in
// tests. It never fails: a local run has none of the variables, and what
// is wrong with them matters only to what uses them, which says so:
// [Env.CheckProject], [Env.MergeRequest], [NewClient].
func ReadEnv(getenv func(string) string) Env {
	env := Env{
		Token:           getenv("GITLAB_TOKEN"),
		APIURL:          strings.TrimRight(getenv("CI_API_V4_URL"), "/"),
		Project:         cmp.Or(getenv("CI_PROJECT_ID"), getenv("CI_PROJECT_PATH")),
		ProjectURL:      strings.TrimRight(getenv("CI_PROJECT_URL"), "/"),
		MergeRequestIID: getenv("CI_MERGE_REQUEST_IID"),
		RunURL:          cmp.Or(linkURL(getenv("CI_JOB_URL")), linkURL(getenv("CI_PIPELINE_URL"))),
		CI:              getenv("GITLAB_CI") == "true",
	}
	if env.APIURL == "" {
		if server := strings.TrimRight(getenv("CI_SERVER_URL"), "/"); server != "" {
			env.APIURL = server + "/api/v4"
		} else {
			env.APIURL = DefaultAPIURL
		}
	}
	return env
}

// CheckProject refuses a project that is set but neither a numeric id
// nor a path of the form group/name. (An unset one is refused by
// [NewClient], which needs it.)
func (e Env) CheckProject() error {
	if e.Project != "" && !validProject(e.Project) {
		return fmt.Errorf("GitLab project %q is neither a numeric id nor a path such as group/name", e.Project)
	}
	return nil
}

func validProject(p string) bool {
	return projectIDRE.MatchString(p) || projectPathRE.MatchString(p) && !strings.Contains(p, "..")
}

// MergeRequest returns the iid of the merge request the pipeline is for
// (CI_MERGE_REQUEST_IID), 0 when there is none: a branch or scheduled
// pipeline. One that is not a number is an error.
func (e Env) MergeRequest() (int64, error) {
	if e.MergeRequestIID == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(e.MergeRequestIID, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("CI_MERGE_REQUEST_IID %q is not the number of a merge request", e.MergeRequestIID)
	}
	return n, nil
}

// linkURL returns raw if it is an absolute http(s) URL that a markdown
// link can hold as it is, else "".
func linkURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(raw) > 2048 ||
		strings.ContainsAny(raw, " \t\r\n<>()[]\"'`\\") {
		return ""
	}
	return raw
}
