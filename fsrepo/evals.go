package fsrepo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"

	"github.com/skillsync/skillsync/fsrepo/diag"
)

// evalsFile is where the Agent Skills guide keeps a skill's test cases.
const evalsFile = "evals/evals.json"

// checkEvals reports, as warnings, an evals/evals.json (data, in the skill
// folder dir) that is not of the guide's shape: an object whose "evals" is
// a list of cases, each with a numeric "id" and a text "prompt", and
// optional "expected_output" (text), "files" and "assertions" (lists).
// The file never reaches the space; tools of the guide read it.
func checkEvals(dir string, data []byte) diag.Diagnostics {
	p := path.Join(dir, evalsFile)
	warn := func(line, col int, format string, args ...any) diag.Diagnostics {
		return diag.Diagnostics{{Path: p, Line: line, Col: col, Severity: diag.SeverityWarning, Code: "evals-invalid",
			Message: fmt.Sprintf(format, args...),
			Hint:    `write {"skill_name": "...", "evals": [{"id": 1, "prompt": "...", "expected_output": "...", "files": [], "assertions": []}]}, the Agent Skills guide's shape`}}
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := offsetPosition(data, se.Offset)
			return warn(line, col, "not valid JSON: %v", se)
		}
		return warn(1, 1, "not a JSON object of test cases")
	}
	raw, ok := doc["evals"]
	if !ok {
		return warn(1, 1, `no "evals" list of test cases`)
	}
	var cases []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &cases); err != nil {
		return warn(1, 1, `"evals" is not a list of test cases (objects)`)
	}
	var ds diag.Diagnostics
	for i, c := range cases {
		var id float64
		if json.Unmarshal(c["id"], &id) != nil {
			ds = append(ds, warn(1, 1, `evals[%d] has no numeric "id"`, i)...)
		}
		var prompt string
		if json.Unmarshal(c["prompt"], &prompt) != nil || prompt == "" {
			ds = append(ds, warn(1, 1, `evals[%d] has no "prompt" text`, i)...)
		}
		var s string
		if v, ok := c["expected_output"]; ok && json.Unmarshal(v, &s) != nil {
			ds = append(ds, warn(1, 1, `evals[%d].expected_output is not text`, i)...)
		}
		for _, k := range []string{"files", "assertions"} {
			var list []json.RawMessage
			if v, ok := c[k]; ok && json.Unmarshal(v, &list) != nil {
				ds = append(ds, warn(1, 1, `evals[%d].%s is not a list`, i, k)...)
			}
		}
	}
	return ds
}

// offsetPosition is the line and column (from 1, in bytes) of the byte at
// offset in data.
func offsetPosition(data []byte, offset int64) (int, int) {
	offset = min(max(offset, 1), int64(len(data))+1)
	before := data[:offset-1]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, len(before) - bytes.LastIndexByte(before, '\n')
}
