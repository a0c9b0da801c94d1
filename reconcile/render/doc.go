// Package render shows a [reconcile.Plan] and an apply's
// [reconcile.Result], and decides nothing about them.
//
// [TargetsText] writes the plans for a terminal, [Markdown] for a
// pull-request comment that stays under a host's size limit, and [JSON]
// for machines: one document whatever the number of targets, marked with
// [FormatVersion]. A saved plan is the same document with two more keys;
// [WriteSavedPlans] writes it for a later apply and [ReadSavedPlans] reads
// it back, refusing another major format_version and
// any plan [reconcile.Plan.Validate] refuses. Every renderer shows what no
// one can see (control, invisible and look-alike characters) as markers,
// and writes as it goes.
package render
