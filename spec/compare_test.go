package spec

import (
	"slices"
	"testing"
)

func ptr(s string) *string { return &s }

func TestDiffer(t *testing.T) {
	base := Fields{Name: "SQL style", Description: "Writes SQL.", Instructions: ptr("# SQL\n\nUse CTEs.\n"), Enabled: true}
	for _, tc := range []struct {
		name string
		edit func(*Fields)
		want []string
	}{
		{"the same", func(*Fields) {}, nil},
		{"a description's final newlines", func(f *Fields) { f.Description += "\n\n" }, nil},
		{"instructions of the same canonical form", func(f *Fields) { f.Instructions = ptr("\uFEFF\r\n# SQL\r\n\r\nUse CTEs.  \r\n\r\n") }, nil},
		{"the name", func(f *Fields) { f.Name = "SQL Style" }, []string{FieldName}},
		{"a name's final space", func(f *Fields) { f.Name += " " }, []string{FieldName}},
		{"a description's leading newline", func(f *Fields) { f.Description = "\n" + f.Description }, []string{FieldDescription}},
		{"a description's final space", func(f *Fields) { f.Description += " " }, []string{FieldDescription}},
		{"the instructions", func(f *Fields) { f.Instructions = ptr("# SQL\n\nUse joins.\n") }, []string{FieldInstructions}},
		{"unknown instructions", func(f *Fields) { f.Instructions = nil }, []string{FieldInstructions}},
		{"empty instructions", func(f *Fields) { f.Instructions = ptr("") }, []string{FieldInstructions}},
		{"enabled", func(f *Fields) { f.Enabled = false }, []string{FieldEnabled}},
		{"all, in order", func(f *Fields) { *f = Fields{Name: "x", Description: "y"} }, []string{FieldName, FieldDescription, FieldInstructions, FieldEnabled}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := base
			tc.edit(&b)
			if got := Differ(base, b); !slices.Equal(got, tc.want) {
				t.Errorf("Differ(a, b) = %q, want %q", got, tc.want)
			}
			if got := Differ(b, base); !slices.Equal(got, tc.want) {
				t.Errorf("Differ(b, a) = %q, want %q", got, tc.want)
			}
		})
	}
	if got := Differ(Fields{}, Fields{}); got != nil {
		t.Errorf("two skills of unknown instructions: %q, want no difference", got)
	}
}

// TestNormalize: two values have the same normal form exactly when Differ
// calls them the same, so that a set keyed by it (restore's) agrees with
// every other comparison.
func TestNormalize(t *testing.T) {
	values := []string{"", "\n", "x", "x\n", "x\n\n", "x ", " x", "\nx", "x\r\n", "\uFEFFx", "x\r\n\r\n", "X"}
	for _, f := range []string{FieldName, FieldDescription, FieldInstructions} {
		for _, a := range values {
			for _, b := range values {
				fa, fb := Fields{}, Fields{}
				switch f {
				case FieldName:
					fa.Name, fb.Name = a, b
				case FieldDescription:
					fa.Description, fb.Description = a, b
				case FieldInstructions:
					fa.Instructions, fb.Instructions = &a, &b
				}
				same := len(Differ(fa, fb)) == 0
				if normal := Normalize(f, a) == Normalize(f, b); normal != same {
					t.Errorf("%s %q and %q: same normal form %t, but Differ says same %t", f, a, b, normal, same)
				}
			}
		}
	}
}

// TestDifferIgnoresNormalForm: text in another Unicode normal form is the
// same text; a real difference of accents is not.
func TestDifferIgnoresNormalForm(t *testing.T) {
	nfc, nfd := "Caf\u00e9", "Cafe\u0301"
	in1, in2 := "Un "+nfc+".\n", "Un "+nfd+"."
	a := Fields{Name: nfc, Description: nfc, Instructions: &in1}
	b := Fields{Name: nfd, Description: nfd + "\n", Instructions: &in2}
	if d := Differ(a, b); len(d) != 0 {
		t.Errorf("Differ(NFC, NFD) = %v, want none", d)
	}
	c := Fields{Name: "Cafe", Description: nfc, Instructions: &in1}
	if d := Differ(a, c); len(d) != 1 || d[0] != FieldName {
		t.Errorf("Differ(Café, Cafe) = %v, want [name]", d)
	}
}
