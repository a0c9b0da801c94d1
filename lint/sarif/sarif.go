// Package sarif writes diagnostics as a SARIF 2.1.0 log, the format code
// scanning services read (GitHub's, GitLab's through a conversion): one
// run of the tool, a rule a code with [lint.Rules]' text for the codes
// of the lint rules, and a result a diagnostic at its file and position.
// The security rules carry GitHub's conventions: the tag "security" and
// a "security-severity" from their default level.
package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"sort"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/lint"
)

// Version and Schema are the SARIF version written and its schema.
const (
	Version = "2.1.0"
	Schema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// A Tool is what a log says wrote it.
type Tool struct {
	Name, Version, InformationURI string
}

// Log is a SARIF log: the runs of tools.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one run of the tool.
type Run struct {
	Tool struct {
		Driver Driver `json:"driver"`
	} `json:"tool"`
	// ColumnKind says columns count code points, as diagnostics do.
	ColumnKind string   `json:"columnKind"`
	Results    []Result `json:"results"`
}

// Driver is the tool and the rules it applied.
type Driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri,omitempty"`
	Rules          []Rule `json:"rules"`
}

// Rule is a reportingDescriptor: a rule's metadata.
type Rule struct {
	ID                   string         `json:"id"`
	ShortDescription     *Message       `json:"shortDescription,omitempty"`
	FullDescription      *Message       `json:"fullDescription,omitempty"`
	Help                 *Message       `json:"help,omitempty"`
	DefaultConfiguration *Configuration `json:"defaultConfiguration,omitempty"`
	Properties           *RuleProps     `json:"properties,omitempty"`
}

// Configuration is a rule's default level.
type Configuration struct {
	Level string `json:"level"`
}

// RuleProps are the properties code scanning reads of a rule.
type RuleProps struct {
	Tags []string `json:"tags,omitempty"`
	// SecuritySeverity is GitHub's score of a security rule, 0.0 to 10.0.
	SecuritySeverity string `json:"security-severity,omitempty"`
	Precision        string `json:"precision,omitempty"`
}

// Message is a text.
type Message struct {
	Text string `json:"text"`
}

// Result is one diagnostic.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Message           `json:"message"`
	Locations           []Location        `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
	Properties          *ResultProps      `json:"properties,omitempty"`
}

// ResultProps are what a finding of a security rule adds: the text
// matched, what it decodes to, and the content hash a waiver names.
type ResultProps struct {
	Match   string `json:"match,omitempty"`
	Decoded string `json:"decoded,omitempty"`
	Hash    string `json:"hash,omitempty"`
}

// Location is where a result lies.
type Location struct {
	PhysicalLocation PhysicalLocation `json:"physicalLocation"`
}

// PhysicalLocation is a file and a region of it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation is a file, relative to the root of the checkout.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

// Region is a position in a file, counting from 1.
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// srcRoot is the base of every file's URI: the root of the repository
// checked, where skillsync.yaml is.
const srcRoot = "%SRCROOT%"

// New is the log of one run of tool that reported diags, with a rule for
// each code they name. A path is a relative URI under %SRCROOT%; prefix
// (slash-separated, "" for none) is put before each, for a repository
// whose skillsync.yaml is not at the root of the checkout.
func New(tool Tool, diags diag.Diagnostics, prefix string) *Log {
	run := Run{ColumnKind: "unicodeCodePoints", Results: []Result{}}
	run.Tool.Driver = Driver{Name: tool.Name, Version: tool.Version, InformationURI: tool.InformationURI, Rules: []Rule{}}
	index := map[string]int{}
	var codes []string
	for _, d := range diags {
		if _, ok := index[code(d)]; !ok {
			index[code(d)] = -1
			codes = append(codes, code(d))
		}
	}
	sort.Strings(codes)
	for i, c := range codes {
		index[c] = i
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, rule(c))
	}
	for _, d := range diags {
		run.Results = append(run.Results, result(d, index[code(d)], prefix))
	}
	return &Log{Schema: Schema, Version: Version, Runs: []Run{run}}
}

// code is d's rule: its code, or "invalid" for the few problems that
// have none.
func code(d diag.Diagnostic) string {
	if d.Code == "" {
		return "invalid"
	}
	return d.Code
}

// rule is the metadata of the rule code: the text of a lint rule, or
// just its code for the service's rules.
func rule(c string) Rule {
	r := Rule{ID: c}
	for _, lr := range lint.Rules {
		if lr.Name != c {
			continue
		}
		r.ShortDescription = &Message{Text: lr.Summary}
		r.FullDescription = &Message{Text: lr.Summary + ". " + lr.Why + "."}
		r.Help = &Message{Text: lr.Why + ". For example: " + lr.Example}
		level := lr.Default
		r.DefaultConfiguration = &Configuration{Level: levelOf(level)}
		if lr.Security {
			r.Properties = &RuleProps{Tags: []string{"security"}, SecuritySeverity: securitySeverity(level), Precision: "medium"}
		}
		return r
	}
	return r
}

// securitySeverity is GitHub's score of a security rule by its level:
// high for those whose strongest signals are errors, medium for the
// others.
func securitySeverity(l lint.Level) string {
	if l == lint.LevelError {
		return "8.0"
	}
	return "5.0"
}

// escapePath is the slash-separated path p as a relative URI: each
// segment percent-encoded, the slashes kept.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

func levelOf(l lint.Level) string {
	switch l {
	case lint.LevelError:
		return "error"
	case lint.LevelWarning:
		return "warning"
	}
	return "none"
}

func result(d diag.Diagnostic, ruleIndex int, prefix string) Result {
	uri := d.Path
	if prefix != "" {
		uri = prefix + "/" + uri
	}
	uri = escapePath(uri)
	text := d.Message
	if d.Hint != "" {
		text += "\nhint: " + d.Hint
	}
	r := Result{
		RuleID: code(d), RuleIndex: ruleIndex, Level: d.Severity.String(), Message: Message{Text: text},
		Locations: []Location{{PhysicalLocation: PhysicalLocation{
			ArtifactLocation: ArtifactLocation{URI: uri, URIBaseID: srcRoot},
			// Code scanning places a result on a line: a problem of a
			// whole file is put on its first.
			Region: &Region{StartLine: max(d.Line, 1), StartColumn: max(d.Col, 1)},
		}}},
	}
	if d.Match != "" || d.Hash != "" {
		r.Properties = &ResultProps{Match: d.Match, Decoded: d.Decoded, Hash: d.Hash}
		// A finding stays the same finding when lines move above it.
		sum := sha256.Sum256([]byte(code(d) + "\x00" + uri + "\x00" + d.Match))
		r.PartialFingerprints = map[string]string{"skillsyncFinding/v1": hex.EncodeToString(sum[:16])}
	}
	return r
}
