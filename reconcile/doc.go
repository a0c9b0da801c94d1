// Package reconcile plans how to make a space match a skills repository.
//
// [Compute] is a pure function from the desired state ([fsrepo.Repo]), the
// live state ([Live], fetched through package remote beforehand) and a
// [Policy] to a [Plan]: the field-level changes of every skill, with before
// and after and a unified diff of the instructions ([UnifiedDiff]), and, as
// data, everything the API cannot do (create a skill, write a file). A plan
// is rendered by separate functions that decide nothing: [RenderText] for a
// terminal, [RenderMarkdown] for a pull-request comment, [RenderJSON] for
// machines and saved plans, which [DecodePlan] reads back.
package reconcile
