package fsrepo

import (
	"strings"
	"testing"
)

// TestCheckEvals: evals/evals.json of the guide's shape passes; others
// are warnings that say what is wrong, and where for a syntax error.
func TestCheckEvals(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"the guide's shape", `{"skill_name": "pdf", "evals": [{"id": 1, "prompt": "Fill the form", "expected_output": "A filled PDF", "files": ["evals/files/form.pdf"], "assertions": ["All fields filled"]}]}`, ""},
		{"syntax error", "{\n  \"evals\": [\n    {\"id\": 1,}\n  ]\n}", "skills/pdf/evals/evals.json:3:14: warning: not valid JSON"},
		{"a list", `[{"id": "case-1", "question": "Deploy"}]`, `not a JSON object of test cases`},
		{"no evals", `{"skill_name": "pdf"}`, `no "evals" list`},
		{"a case without prompt", `{"evals": [{"id": 1}]}`, `evals[0] has no "prompt" text`},
		{"an id of text", `{"evals": [{"id": "one", "prompt": "p"}]}`, `evals[0] has no numeric "id"`},
		{"files not a list", `{"evals": [{"id": 1, "prompt": "p", "files": "a.pdf"}]}`, `evals[0].files is not a list`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := checkEvals("skills/pdf", []byte(tc.data))
			if tc.want == "" {
				if len(ds) != 0 {
					t.Errorf("%v, want none", ds)
				}
				return
			}
			if len(ds) != 1 || !strings.Contains(ds[0].String(), tc.want) || ds[0].Code != "evals-invalid" {
				t.Errorf("%v, want one evals-invalid saying %q", ds, tc.want)
			}
		})
	}
}
