package skillmd

import (
	"errors"

	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/spec"
)

// RuleMessage is the rule err breaks, when it is a [*spec.RuleError],
// phrased for a diagnostic that already points at the value; else err's
// message. The value and the character found are quoted as every other
// output shows text: what no one can see as a marker (⟦ZWSP⟧), never as
// a Go escape.
func RuleMessage(err error) string {
	var re *spec.RuleError
	if !errors.As(err, &re) {
		return err.Error()
	}
	msg := re.Field + " " + re.Rule
	if re.Value != "" {
		msg = re.Field + " " + visible.Quote(re.Value) + " " + re.Rule
	}
	if re.Found != 0 {
		msg += " (found " + visible.QuoteRune(re.Found) + ")"
	}
	return msg
}
