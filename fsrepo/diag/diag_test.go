package diag

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestDiagnosticFormats(t *testing.T) {
	ds := Diagnostics{
		{Path: "skills/a,b/SKILL.md", Line: 2, Col: 7, Severity: SeverityError, Code: "name-invalid", Message: "name: 100% wrong", Hint: "fix\nit"},
		{Path: "skills/x", Severity: SeverityWarning, Code: "slug-mismatch", Message: "folder"},
	}
	for i, want := range []string{"skills/a,b/SKILL.md:2:7: error: name: 100% wrong", "skills/x: warning: folder"} {
		if got := ds[i].String(); got != want {
			t.Errorf("text: %s\nwant: %s", got, want)
		}
	}
	j, err := json.Marshal(ds[:1])
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `[{"path":"skills/a,b/SKILL.md","line":2,"col":7,"severity":"error","message":"name: 100% wrong","hint":"fix\nit","code":"name-invalid"}]`
	if string(j) != wantJSON {
		t.Errorf("json: %s\nwant: %s", j, wantJSON)
	}
	var back Diagnostics
	if err := json.Unmarshal(j, &back); err != nil || back[0] != ds[0] {
		t.Errorf("json round trip: %v %+v", err, back)
	}
	if !ds.HasErrors() || ds[1:].HasErrors() {
		t.Error("HasErrors")
	}
}

func TestSeverityNames(t *testing.T) {
	for _, s := range []Severity{SeverityError, SeverityWarning, SeverityNote} {
		text, _ := s.MarshalText()
		var back Severity
		if err := back.UnmarshalText(text); err != nil || back != s {
			t.Errorf("%s: read back as %v, %v", text, back, err)
		}
	}
	got := []string{SeverityError.String(), SeverityWarning.String(), SeverityNote.String(), Severity(7).String()}
	if want := []string{"error", "warning", "note", "error"}; !slices.Equal(got, want) {
		t.Errorf("names %q, want %q", got, want)
	}
	var s Severity
	if err := s.UnmarshalText([]byte("fatal")); err == nil {
		t.Error(`"fatal" read as a severity`)
	}
}
