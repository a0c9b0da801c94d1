package config

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"go.yaml.in/yaml/v3"
)

// notifyLines are the lines of a notify: section: of each destination's
// name, and of each of its fields, keyed "name" and "name.field".
type notifyLines map[string]int

// parseNotify reads a notify: section (shown names it in messages): its
// destinations by name, each field checked for its shape. Whether the
// destinations can be used is [checkNotify]'s to say.
func parseNotify(n *yaml.Node, shown string, fail func(int, string, ...any)) (notify.Config, notifyLines) {
	n = yamlnode.Resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil, nil
	}
	out, lines := notify.Config{}, notifyLines{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlnode.Resolve(n.Content[i+1])
		name, where := k.Value, shown+"."+k.Value
		if first, dup := lines[name]; dup {
			fail(k.Line, "duplicate destination %s in %s (first at line %d)", visible.Quote(name), shown, first)
			continue
		}
		lines[name] = k.Line
		if v.Kind != yaml.MappingNode {
			fail(v.Line, "%s must be a mapping, not %s; for example %s: {kind: slack, urlEnv: SKILLSYNC_NOTIFY_SLACK}", where, yamlnode.Describe(v), name)
			continue
		}
		fieldLines := map[string]int{}
		if !checkKeys(v, "notifyDestination", where, fieldLines, fail) {
			continue
		}
		var d notify.Destination
		d.Kind, d.URLEnv, d.SecretEnv = textValue(v, "kind"), textValue(v, "urlEnv"), textValue(v, "secretEnv")
		if x := mappingValue(v, "events"); x != nil && x.Kind == yaml.SequenceNode {
			// An empty list sends nothing; a missing one, failures.
			d.Events = []string{}
			for _, item := range x.Content {
				d.Events = append(d.Events, yamlnode.Resolve(item).Value)
			}
		}
		for field, line := range fieldLines {
			lines[name+"."+field[len("notifyDestination."):]] = line
		}
		out[name] = d
	}
	return out, lines
}

// checkNotify fails at its line each problem of the destinations c, at
// the lines of lines (where they were written) or, for a field c took
// from the top-level section, of top.
func checkNotify(c notify.Config, lines, top notifyLines, fail func(int, string, ...any)) {
	var errs []error
	if err := c.Validate(); err != nil {
		errs = append(errs, err)
	}
	for len(errs) > 0 {
		err := errs[0]
		errs = errs[1:]
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = append(j.Unwrap(), errs...)
			continue
		}
		var fe *notify.FieldError
		if !errors.As(err, &fe) {
			fail(firstLine(lines, top), "%v", err)
			continue
		}
		// The field's line where it is written, else its destination's.
		field, dest := fe.Destination+"."+fe.Field, fe.Destination
		fail(cmp.Or(lines[field], top[field], lines[dest], top[dest]), "%v", err)
	}
}

// firstLine is the smallest line of lines, else of top.
func firstLine(lines, top notifyLines) int {
	for _, ls := range []notifyLines{lines, top} {
		if len(ls) > 0 {
			return slices.Min(slices.Collect(maps.Values(ls)))
		}
	}
	return 0
}

// checkAllNotify checks the notify: sections of cfg: the top-level one
// alone, and each target's merged into it. A problem found twice (a
// top-level field in two targets) is told once.
func checkAllNotify(cfg Config, top notifyLines, targets map[string]notifyLines, fail func(int, string, ...any)) {
	seen := map[string]bool{}
	once := func(line int, format string, args ...any) {
		key := fmt.Sprintf("%d\x00%s", line, fmt.Sprintf(format, args...))
		if !seen[key] {
			seen[key] = true
			fail(line, format, args...)
		}
	}
	if len(cfg.Notify) > 0 {
		checkNotify(cfg.Notify, top, nil, once)
	}
	for _, t := range cfg.Targets {
		if len(t.Notify) > 0 {
			checkNotify(cfg.Notify.ForTarget(t.Notify), targets[t.Name], top, once)
		}
	}
}
