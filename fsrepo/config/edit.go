package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"go.yaml.in/yaml/v3"
)

// ErrNotEditable is wrapped by [SetTargetEnabled] when skillsync.yaml
// is written in a way it does not edit (an alias, a mapping spread over
// several lines in flow style): the file is then left as it is, for the
// user to edit.
var ErrNotEditable = errors.New("skillsync.yaml cannot be edited by skillsync here")

// SetTargetEnabled sets in root's skillsync.yaml the enabled state target
// gives each skill of states (by slug), as targets.NAME.enabled. It edits
// the file as a person would: it changes the value of a slug already
// there, or adds its line (and the enabled: key) below the target's
// others; every other byte, comments and order included, stays. The file
// is replaced atomically, and only with what skillsync would read back.
// A skillsync.yaml that is a symlink stays one: the file it points to is
// edited when it is in the repository, and refused otherwise.
func SetTargetEnabled(root, target string, states map[string]bool) error {
	if len(states) == 0 {
		return nil
	}
	name := filepath.Join(root, FileName)
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if !resolvesInside(root, name) {
			return fmt.Errorf("editing %s: it is a symlink to a file outside the repository, which is never written", FileName)
		}
		if name, err = filepath.EvalSymlinks(name); err != nil {
			return fmt.Errorf("editing %s: %w", FileName, err)
		}
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return fmt.Errorf("editing %s: %w", FileName, err)
	}
	out, err := setTargetEnabled(data, target, states)
	if err != nil {
		return fmt.Errorf("editing %s: %w", FileName, err)
	}
	if err := checkTargetEdit(data, out, target, states); err != nil {
		return fmt.Errorf("editing %s: %w", FileName, err)
	}
	fi, err := os.Stat(name)
	if err != nil {
		return fmt.Errorf("editing %s: %w", FileName, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), ".skillsync-yaml-*")
	if err != nil {
		return fmt.Errorf("editing %s: %w", FileName, err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(out)
	if err == nil {
		err = tmp.Chmod(fi.Mode().Perm())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		return fmt.Errorf("editing %s: %w", FileName, err)
	}
	return nil
}

// checkTargetEdit reports an edit of skillsync.yaml, from before to
// after, that does not read back as target's enabled states set to states
// and nothing else: another target or the shared settings changed too
// (through an anchor the edit missed), or the target otherwise.
func checkTargetEdit(before, after []byte, target string, states map[string]bool) error {
	was, err := Parse(before)
	if err != nil {
		return fmt.Errorf("reading it: %w", err)
	}
	is, err := Parse(after)
	if err != nil {
		return fmt.Errorf("the edit would not read back: %w", err)
	}
	if !was.Shared().Equal(is.Shared()) {
		return fmt.Errorf("%w: the edit would change the shared settings too", ErrNotEditable)
	}
	if !slices.Equal(was.TargetNames(), is.TargetNames()) {
		return fmt.Errorf("%w: the edit would change the targets' names", ErrNotEditable)
	}
	for i, t := range was.Targets {
		if t.Name == target {
			merged := map[string]bool{}
			maps.Copy(merged, t.Enabled)
			maps.Copy(merged, states)
			t.Enabled = merged
			if !t.Equal(is.Targets[i]) {
				return fmt.Errorf("%w: the edit would not read back as targets.%s.enabled set as asked and nothing else", ErrNotEditable, target)
			}
			continue
		}
		if !t.Equal(is.Targets[i]) {
			return fmt.Errorf("%w: the edit of targets.%s would change targets.%s too", ErrNotEditable, target, t.Name)
		}
	}
	return nil
}

// shared says how n may be shared with other keys of the file, an anchor
// or an alias, or "" if it is not: an edit of it would change them too.
func shared(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.AliasNode:
		return fmt.Sprintf("an alias (*%s) of a value written elsewhere", n.Value)
	case n.Anchor != "":
		return fmt.Sprintf("anchored (&%s), so other keys may share it", n.Anchor)
	}
	return ""
}

// setTargetEnabled is [SetTargetEnabled] of the text data.
func setTargetEnabled(data []byte, target string, states map[string]bool) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return nil, fmt.Errorf("reading it: %v", err)
	}
	targets := mappingValue(doc.Content[0], "targets")
	if targets == nil || targets.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("it has no targets")
	}
	var tv *yaml.Node
	for i := 0; i+1 < len(targets.Content); i += 2 {
		if targets.Content[i].Value == target {
			tv = targets.Content[i+1]
		}
	}
	switch {
	case tv == nil:
		return nil, fmt.Errorf("it has no target %s", visible.Quote(target))
	case shared(tv) != "":
		return nil, fmt.Errorf("%w: targets.%s is %s", ErrNotEditable, target, shared(tv))
	case tv.Kind != yaml.MappingNode || (tv.Style&yaml.FlowStyle != 0 && lastLine(tv) != tv.Line):
		return nil, fmt.Errorf("%w: targets.%s is not a mapping written one key a line, or on one line", ErrNotEditable, target)
	}
	slugs := slices.Sorted(maps.Keys(states))
	// yaml counts lines at a CR alone and at NEL, LS and PS too: the edit,
	// which counts them at LF, would find its lines elsewhere.
	if strings.ContainsAny(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r\u0085\u2028\u2029") {
		return nil, fmt.Errorf("%w: it has lines that end in CR alone, or in a Unicode line or paragraph separator", ErrNotEditable)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// The lines added end as the file's first does: an editor on Windows
	// may save CRLF, and a file of mixed endings shows in every diff.
	eol := "\n"
	if strings.HasSuffix(lines[0], "\r\n") {
		eol = "\r\n"
	}
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += eol
	}
	entry := func(slug string) string { return fmt.Sprintf("%s: %t", slug, states[slug]) }

	var ek, ev *yaml.Node
	for i := 0; i+1 < len(tv.Content); i += 2 {
		if tv.Content[i].Value == "enabled" {
			ek, ev = tv.Content[i], tv.Content[i+1]
		}
	}
	if ev != nil && shared(ev) != "" {
		return nil, fmt.Errorf("%w: targets.%s.enabled is %s", ErrNotEditable, target, shared(ev))
	}
	// enabled: left without a value (or ~, null) is given the mapping.
	if ev != nil && ev.Kind == yaml.ScalarNode && ev.Tag == "!!null" {
		parts := make([]string, len(slugs))
		for i, s := range slugs {
			parts[i] = entry(s)
		}
		flowMap := "{" + strings.Join(parts, ", ") + "}"
		line := lines[ev.Line-1]
		at := min(ev.Column-1, len(line))
		switch {
		case ev.Style != 0 || !strings.HasPrefix(line[at:], ev.Value):
			return nil, fmt.Errorf("%w: cannot find the value of targets.%s.enabled", ErrNotEditable, target)
		case ev.Value == "" && tv.Style&yaml.FlowStyle == 0:
			// Below the key, as a block mapping, like an enabled: added.
			indent := strings.Repeat(" ", ek.Column+1)
			var add []string
			for _, s := range slugs {
				add = append(add, indent+entry(s)+eol)
			}
			return insertAfter(lines, ev.Line, add), nil
		case ev.Value == "" && at > 0 && line[at-1] == ':':
			lines[ev.Line-1] = line[:at] + " " + flowMap + line[at:]
		default: // where ~ or null is, or the value would be in a flow target
			lines[ev.Line-1] = line[:at] + flowMap + line[at+len(ev.Value):]
		}
		return []byte(strings.Join(lines, "")), nil
	}
	if ev != nil {
		for i := 1; i < len(ev.Content); i += 2 {
			if sh := shared(ev.Content[i]); sh != "" {
				return nil, fmt.Errorf("%w: targets.%s.enabled.%s is %s", ErrNotEditable, target, ev.Content[i-1].Value, sh)
			}
		}
	}
	if ev != nil && (ev.Kind != yaml.MappingNode || (ev.Style&yaml.FlowStyle != 0 && lastLine(ev) != ev.Line)) {
		return nil, fmt.Errorf("%w: targets.%s.enabled is not a mapping written one key a line, or on one line", ErrNotEditable, target)
	}

	// A flow mapping, on one line: its braces' content is written anew.
	flow := tv
	if ev != nil {
		flow = ev
	}
	if flow.Style&yaml.FlowStyle != 0 {
		// The entries there, with the states asked for, then the new ones.
		var parts []string
		there := map[string]bool{}
		if ev != nil {
			for i := 0; i+1 < len(ev.Content); i += 2 {
				k, v := ev.Content[i].Value, ev.Content[i+1].Value
				if _, ok := states[k]; ok {
					v = fmt.Sprint(states[k])
				}
				parts, there[k] = append(parts, k+": "+v), true
			}
		}
		for _, s := range slugs {
			if !there[s] {
				parts = append(parts, entry(s))
			}
		}
		line := lines[flow.Line-1]
		open := flow.Column - 1
		end := matchingBrace(line, open)
		if open >= len(line) || line[open] != '{' || end < 0 {
			return nil, fmt.Errorf("%w: cannot find the braces of targets.%s", ErrNotEditable, target)
		}
		inner := strings.Join(parts, ", ")
		if ev == nil { // the target's own braces: enabled is added to them
			body := strings.TrimSpace(line[open+1 : end])
			if body != "" {
				body += ", "
			}
			inner = body + "enabled: {" + inner + "}"
		}
		lines[flow.Line-1] = line[:open+1] + inner + line[end:]
		return []byte(strings.Join(lines, "")), nil
	}

	// Block style: values changed in place, new keys on lines of their
	// own below the last line of the mapping.
	var add []string
	if ev == nil {
		indent := strings.Repeat(" ", tv.Content[0].Column-1)
		add = append(add, indent+"enabled:"+eol)
		for _, s := range slugs {
			add = append(add, indent+"  "+entry(s)+eol)
		}
		return insertAfter(lines, endLine(tv, lines), add), nil
	}
	indent := strings.Repeat(" ", ev.Content[0].Column-1)
	for _, s := range slugs {
		found := false
		for i := 0; i+1 < len(ev.Content); i += 2 {
			if ev.Content[i].Value != s {
				continue
			}
			found = true
			v := ev.Content[i+1]
			line := lines[v.Line-1]
			at := v.Column - 1
			if v.Kind != yaml.ScalarNode || at+len(v.Value) > len(line) || line[at:at+len(v.Value)] != v.Value {
				return nil, fmt.Errorf("%w: cannot find the value of targets.%s.enabled.%s", ErrNotEditable, target, s)
			}
			lines[v.Line-1] = line[:at] + fmt.Sprint(states[s]) + line[at+len(v.Value):]
		}
		if !found {
			add = append(add, indent+entry(s)+eol)
		}
	}
	return insertAfter(lines, endLine(ev, lines), add), nil
}

// lastLine is the last line of n and of what it holds.
func lastLine(n *yaml.Node) int {
	last := n.Line
	for _, c := range n.Content {
		last = max(last, lastLine(c))
	}
	return last
}

// endLine is the last line of the block mapping m, written as lines: that
// of its last node, or, when that is a block scalar (> or |), whose node
// has the line of its header alone, that of the scalar's last line, and
// past the blank lines it keeps (|+).
func endLine(m *yaml.Node, lines []string) int {
	// A node at the end of a file with no final line break ("  ?", an
	// empty key) has the line past the last.
	last := min(lastLine(m), len(lines))
	n := m
	for len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	if len(m.Content) == 0 || n.Kind != yaml.ScalarNode || n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
		return last
	}
	// The scalar's lines are indented more than the mapping's keys, the
	// next key of the file no more; blank lines are the scalar's if a
	// line of it follows.
	indent := m.Content[0].Column - 1
	end := last
	for i := last; i < len(lines); i++ {
		text := strings.TrimRight(lines[i], "\r\n")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if len(text)-len(strings.TrimLeft(text, " ")) <= indent {
			break
		}
		end = i + 1
	}
	header := lines[n.Line-1][min(n.Column-1, len(lines[n.Line-1])):]
	if i := strings.Index(header, " #"); i >= 0 {
		header = header[:i]
	}
	if strings.Contains(header, "+") {
		for end < len(lines) && strings.TrimSpace(lines[end]) == "" {
			end++
		}
	}
	return end
}

// insertAfter inserts add after the line numbered line (from 1).
func insertAfter(lines []string, line int, add []string) []byte {
	out := slices.Concat(lines[:line], add, lines[line:])
	return []byte(strings.Join(out, ""))
}

// matchingBrace is the index of the '}' closing the '{' at open in line,
// or -1. Braces inside quoted scalars ("a}", 'b{') and a comment are not
// counted.
func matchingBrace(line string, open int) int {
	depth := 0
	prev := byte(' ') // the last character outside spaces
	for i := open; i < len(line); i++ {
		c := line[i]
		switch {
		case (c == '"' || c == '\'') && strings.IndexByte("{[,:?", prev) >= 0:
			// A quote opens a scalar where a value begins; in a plain
			// scalar (it's) it is a character.
			end := yamlnode.ClosingQuote(line, i)
			if end < 0 {
				return -1
			}
			i, prev = end, c
			continue
		case c == '#' && i > open && (line[i-1] == ' ' || line[i-1] == '\t'):
			return -1
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i
			}
		}
		if c != ' ' && c != '\t' {
			prev = c
		}
	}
	return -1
}
