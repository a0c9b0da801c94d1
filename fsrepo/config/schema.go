package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"unicode"

	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/lint"
)

// SchemaURL is where the JSON Schema of skillsync.yaml is published: the
// committed copy of [Schema] on the main branch, which editors
// fetch through the "# yaml-language-server: $schema=" line pull writes.
const SchemaURL = "https://raw.githubusercontent.com/skillsync/skillsync/main/skillsync.schema.json"

// SchemaComment is the first line pull writes in a new skillsync.yaml: it
// points the YAML language server (VS Code's YAML extension, and the
// editors built on it) at the schema, for completion and checks as one
// types.
const SchemaComment = "# yaml-language-server: $schema=" + SchemaURL

// Schema is the JSON Schema (draft 2020-12) of skillsync.yaml, as
// skillsync schema prints it. It is built from the same key lists, values
// and rules the parser reads the file with, so that an editor refuses what
// the parser would: an unknown key, a policy value or a lint level that is
// not one of the few there are, a space id of the wrong length, space:
// beside targets:. Rules that need more than the file (a glob that matches
// no folder, two targets of one space) are left to skillsync validate.
func Schema() []byte {
	s := obj{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         SchemaURL,
		"title":       "skillsync.yaml",
		"description": "Settings of a skillsync repository: which space (or spaces, as targets) its skill folders drive, and how plans treat what differs.",
		"type":        "object",
		"properties": obj{
			"baseURL":           prop("string", "Address of the service, https:// (http:// only for a loopback host such as the emulator), without /api/v1. SKILLSYNC_BASE_URL and --base-url win over it.", obj{"pattern": baseURLPattern}),
			"space":             spaceProp("The space the repository drives, when it drives one; beside targets: it is an error."),
			"skillsDir":         prop("string", "Folder of the skill folders, relative to the repository root, written with '/'.", obj{"default": DefaultSkillsDir, "pattern": `^[^/\\]`}),
			"unmanaged":         enumProp("What apply does with a skill of the space that has no folder: ignore it, or disable it.", UnmanagedIgnore, UnmanagedIgnore, UnmanagedDisable),
			"missing":           enumProp("What a skill folder with no skill in the space is in a plan: an error, or a warning.", MissingError, MissingError, MissingWarn),
			"maxDisablePercent": percentProp(),
			"agents":            agentsProp(),
			"ignore":            ignoreProp("Differences never planned nor reported as drift, in every target."),
			"targets": obj{
				"type":        "object",
				"description": "The spaces the repository drives, by target name, in the order apply goes through them. Each holds its space and may override the top-level settings.",
				"propertyNames": obj{
					"pattern": targetName.String(),
				},
				"additionalProperties": targetSchema(),
				"minProperties":        1,
				"maxProperties":        MaxTargets,
			},
			"lint":         lintSchema(),
			"notify":       notifySchema(true, "Where events (apply failed, drift found, ...) of every target are sent, by a destination name of your choosing."),
			"descriptions": descriptionsSchema("The description budget and the overlap check of the active skills, in every target."),
			"excludeFiles": obj{
				"type":        "array",
				"description": "Development files of every skill folder, never synced, compared, counted as drift or hashed into skillsync.lock: gitignore patterns, matched in each skill folder, on top of evals/ (always excluded) and the folder's .skillignore.",
				"items":       obj{"type": "string", "minLength": 1},
			},
		},
		"additionalProperties": false,
		"not": obj{
			"required":    []string{"space", "targets"},
			"description": "space: and targets: together: a top-level space is the one implicit target, so name it among the targets instead.",
		},
	}
	nullable(s)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		panic(fmt.Sprintf("fsrepo: encoding the config schema: %v", err)) // maps, strings and numbers only: never
	}
	return b.Bytes()
}

// obj is a JSON object of the schema.
type obj = map[string]any

// baseURLPattern is what a baseURL may be: http(s):// in any case, or
// nothing ("baseURL:" leaves it out).
const baseURLPattern = `^(|[hH][tT][tT][pP][sS]?://.*)$`

// anyCase is a pattern matching any of words in any case.
func anyCase(words []string) string {
	var alts []string
	for _, w := range words {
		var b strings.Builder
		for _, r := range w {
			if up := unicode.ToUpper(r); up != r {
				fmt.Fprintf(&b, "[%c%c]", r, up)
			} else {
				b.WriteRune(r)
			}
		}
		alts = append(alts, b.String())
	}
	return "^(" + strings.Join(alts, "|") + ")$"
}

// nullable lets every property of every section of s be null, as the
// parser takes a key written with no value for one left out.
func nullable(s obj) {
	props, _ := s["properties"].(obj)
	for _, v := range props {
		p, ok := v.(obj)
		if !ok {
			continue
		}
		switch t := p["type"].(type) {
		case string:
			p["type"] = []string{t, "null"}
		case []string:
			p["type"] = append(t, "null")
		}
		if alts, ok := p["anyOf"].([]obj); ok {
			p["anyOf"] = append(alts, obj{"type": "null"})
		}
		if enum, ok := p["enum"].([]string); ok {
			vals := make([]any, 0, len(enum)+1)
			for _, e := range enum {
				vals = append(vals, e)
			}
			p["enum"] = append(vals, nil)
		}
		nullable(p)
		if add, ok := p["additionalProperties"].(obj); ok {
			nullable(add)
		}
		if items, ok := p["items"].(obj); ok {
			nullable(items)
		}
	}
}

func prop(typ, description string, more obj) obj {
	o := obj{"type": typ, "description": description}
	maps.Copy(o, more)
	return o
}

func enumProp(description, def string, values ...string) obj {
	return obj{"type": "string", "description": description, "enum": values, "default": def}
}

func spaceProp(description string) obj {
	// YAML reads "space: 1234" as a number, which the parser takes as the
	// id it spells.
	return obj{"type": []string{"string", "integer"}, "description": description + " 2 to 6 characters a URL path carries unescaped.",
		"pattern": `^[A-Za-z0-9._~-]{2,6}$`, "minimum": 10, "maximum": 999999}
}

func percentProp() obj {
	return prop("integer", "The most skills, in percent of the managed ones, that one apply disables without --force (with 10 or more skills); 0 forbids any disable.",
		obj{"minimum": 0, "maximum": 100, "default": DefaultMaxDisablePercent})
}

func agentsProp() obj {
	return obj{
		"type":        "object",
		"description": "Agents of the space.",
		"properties": obj{
			"publish": obj{
				"type":        "array",
				"description": "Agents (ids or exact names) that apply publishes when it changes a skill they use.",
				"items":       obj{"type": []string{"string", "number"}, "minLength": 1},
			},
		},
		"additionalProperties": false,
	}
}

func ignoreProp(description string) obj {
	return obj{
		"type":        "array",
		"description": description,
		"items": obj{
			"type": "object",
			"properties": obj{
				"skills": obj{
					"type":        "array",
					"description": "Globs of the slugs the rule covers, as path.Match reads them (*, ?, [a-z]).",
					"items":       obj{"type": "string", "minLength": 1},
					"minItems":    1,
				},
				"fields": obj{
					"type":        "array",
					"description": "The fields whose differences are ignored.",
					"items":       obj{"enum": IgnoreFields},
					"minItems":    1,
				},
			},
			"required":             []string{"skills", "fields"},
			"additionalProperties": false,
		},
	}
}

func targetSchema() obj {
	return obj{
		"type":        "object",
		"description": "One space the repository drives, with the settings it overrides.",
		"properties": obj{
			"space":   spaceProp("The target's space."),
			"baseURL": prop("string", "The target's service address, over the top-level baseURL.", obj{"pattern": baseURLPattern}),
			"tokenEnv": prop("string", "The environment variable that holds the target's token: SKILLSYNC_TOKEN (the default) or one beginning with SKILLSYNC_TOKEN_, such as SKILLSYNC_TOKEN_PROD; the token itself never goes in this file.",
				obj{"pattern": tokenEnvName.String()}),
			"exclude": obj{
				"type":        "array",
				"description": "Globs of the slugs this target does not manage: its skills of those slugs are unmanaged there.",
				"items":       obj{"type": "string", "minLength": 1},
			},
			"enabled": obj{
				"type":                 "object",
				"description":          "Enabled state by slug in this target, over the SKILL.md's enabled.",
				"additionalProperties": obj{"type": "boolean"},
			},
			"unmanaged":         enumProp("The target's unmanaged policy, over the top-level one.", UnmanagedIgnore, UnmanagedIgnore, UnmanagedDisable),
			"missing":           enumProp("The target's missing policy, over the top-level one.", MissingError, MissingError, MissingWarn),
			"maxDisablePercent": percentProp(),
			"agents":            agentsProp(),
			"ignore":            ignoreProp("Differences ignored in this target, on top of the top-level ones."),
			"descriptions":      descriptionsSchema("The target's description budget and overlap check, over the top-level ones, field by field."),
			"notify":            notifySchema(false, "This target's destinations, merged by name into the top-level ones: a field set here wins; a new name adds a destination."),
		},
		"required":             []string{"space"},
		"additionalProperties": false,
	}
}

func lintSchema() obj {
	rules := obj{}
	for _, r := range lint.Rules {
		if r.Security {
			continue // not set in skillsync.yaml yet
		}
		// The parser takes a level in any case ("Warning"); editors
		// offer the enum's.
		rules[r.Name] = obj{"description": r.Summary, "anyOf": []obj{{"enum": levelNames}, {"type": "string", "pattern": anyCase(levelNames)}}}
	}
	var waivable []string
	for _, r := range lint.Rules {
		if lint.Waivable(r.Name) {
			waivable = append(waivable, r.Name)
		}
	}
	return obj{
		"type":        "object",
		"description": "Lint rules of validate and plan, by stable code, each off, warning or error.",
		"properties": obj{
			"profile": obj{
				"description": "A set of rules turned on at once: agentskills checks the open Agent Skills format as skills-ref does.",
				"enum":        profiles,
			},
			"rules": obj{
				"type":                 "object",
				"description":          "Severity of each rule, over the profile's.",
				"properties":           rules,
				"additionalProperties": false,
			},
			"waivers": obj{
				"type":        "array",
				"description": "Findings of the security rules accepted, each for one content of a file: when the file changes, its findings are reported again.",
				"items": obj{
					"type": "object",
					"properties": obj{
						"rule":   obj{"description": "The security rule whose findings are accepted.", "enum": waivable},
						"skill":  obj{"description": "The skill's slug (its folder's name).", "type": "string", "minLength": 1},
						"hash":   obj{"description": "The content hash of the file that a finding names.", "type": "string", "pattern": `^sha256:[0-9a-f]{64}$`},
						"reason": obj{"description": "Why the finding is accepted, for those who review it.", "type": "string", "minLength": 1},
					},
					"required":             []string{"rule", "skill", "hash", "reason"},
					"additionalProperties": false,
				},
			},
		},
		"additionalProperties": false,
	}
}

// notifySchema is a notify: section's. A top-level destination is complete
// (required); a target's may only override some fields of one.
func notifySchema(required bool, description string) obj {
	events := []string{notify.EventsFailures, notify.EventsAll}
	for _, k := range notify.Kinds() {
		events = append(events, string(k))
	}
	envVar := notify.EnvPattern
	dest := obj{
		"type":        "object",
		"description": "A destination: its kind, the environment variables of its URL (and secret), and the events it gets.",
		"properties": obj{
			"kind":      obj{"type": "string", "description": "Slack or Teams incoming webhook, or a generic webhook signed as Standard Webhooks says.", "enum": []string{notify.Slack, notify.Teams, notify.Webhook}},
			"urlEnv":    prop("string", "The environment variable holding the webhook's URL, which is a secret: it never goes in this file.", obj{"pattern": envVar}),
			"secretEnv": prop("string", "The environment variable holding a generic webhook's signing secret (whsec_ and base64).", obj{"pattern": envVar}),
			"events": obj{
				"type":        "array",
				"description": "Events sent there: kinds, failures (apply.failed, drift.found, plan.error: the default) or all; [] sends none.",
				"items":       obj{"enum": events},
			},
		},
		"additionalProperties": false,
	}
	if required {
		dest["required"] = []string{"kind", "urlEnv"}
		dest["if"] = obj{"properties": obj{"kind": obj{"const": notify.Webhook}}}
		dest["then"] = obj{"required": []string{"secretEnv"}}
	}
	return obj{
		"type":        "object",
		"description": description,
		"propertyNames": obj{
			"pattern": notify.DestinationNamePattern,
		},
		"maxProperties":        notify.MaxDestinations,
		"additionalProperties": dest,
	}
}

func descriptionsSchema(description string) obj {
	return obj{
		"type":        "object",
		"description": description,
		"properties": obj{
			"budget": prop("integer", "Characters the active skills' names and descriptions may take after apply; agents commonly hide skills past about 8,000.",
				obj{"minimum": 1, "maximum": 1_000_000, "default": DefaultDescriptionBudget}),
			"budgetLevel": enumProp("What a plan over budget is.", LevelWarning, LevelWarning, LevelError),
			"overlap": prop("integer", "Similarity in percent (TF-IDF cosine of the words of name and description) from which two active skills overlap.",
				obj{"minimum": 1, "maximum": 100, "default": DefaultOverlapPercent}),
			"overlapLevel": enumProp("What an overlapping pair of active skills is.", LevelWarning, LevelWarning, LevelError, LevelOff),
		},
		"additionalProperties": false,
	}
}
