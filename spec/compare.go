package spec

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// The fields of a skill that skillsync compares and changes, by the names
// plans and journals give them.
const (
	FieldName         = "name"
	FieldDescription  = "description"
	FieldInstructions = "instructions"
	FieldEnabled      = "enabled"
)

// Fields are the fields of a skill that skillsync compares: what a
// SKILL.md asks for, what the service holds, what a plan or a journal
// records.
type Fields struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Instructions is nil when they are not known: the service could not
	// read the SKILL.md, or the skill was only listed.
	Instructions *string `json:"instructions"`
	Enabled      bool    `json:"enabled"`
}

// Differ names the fields in which a and b differ, in the order name,
// description, instructions, enabled; none when they say the same. It is
// the one comparison of skills: plan, the staleness checks of a saved plan
// and of apply, restore, the instruction cache and pull all use it, so that
// what one calls a change no other calls the same.
//
// Text is compared as [Normalize] has it: names in one Unicode normal
// form, descriptions as [SameDescription] does, instructions in [Canonical]
// form (unknown instructions are the same only as other unknown ones);
// enabled as it is.
func Differ(a, b Fields) []string {
	var out []string
	if Normalize(FieldName, a.Name) != Normalize(FieldName, b.Name) {
		out = append(out, FieldName)
	}
	if !SameDescription(a.Description, b.Description) {
		out = append(out, FieldDescription)
	}
	if !sameInstructions(a.Instructions, b.Instructions) {
		out = append(out, FieldInstructions)
	}
	if a.Enabled != b.Enabled {
		out = append(out, FieldEnabled)
	}
	return out
}

func sameInstructions(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b || Normalize(FieldInstructions, *a) == Normalize(FieldInstructions, *b)
}

// Normalize is value as [Differ] compares it for field: in Unicode normal
// form C, instructions in [Canonical] form, a description without its
// final newlines. Two values of a field are the same exactly when their
// normal forms are equal, so the forms may key a set of values.
//
// A service may return text in another normal form than it was sent (NFD
// for NFC): the two look the same to everyone, so they are the same here.
// What is sent is never normalised so: the repository's text goes as it is.
func Normalize(field, value string) string {
	switch field {
	case FieldInstructions:
		return SameText(Canonical(value))
	case FieldDescription:
		return SameText(strings.TrimRight(value, "\n"))
	}
	return SameText(value)
}

// SameText is s in the one Unicode normal form (C) text is compared in.
func SameText(s string) string {
	return norm.NFC.String(s)
}

// SameDescription reports whether two descriptions say the same: equal but
// for newlines at the end, which a YAML block scalar ("description: |")
// adds or drops depending on the reader and which no one means.
func SameDescription(a, b string) bool {
	return Normalize(FieldDescription, a) == Normalize(FieldDescription, b)
}
