// Package skillmd reads and writes SKILL.md, the file of a skill folder
// that holds the skill's frontmatter (name, description, enabled, and keys
// skillsync keeps but ignores) and its instructions.
//
// [Parse] reads one into a [Document], checking every rule of the service
// that the file alone can break and reporting each problem as a
// [diag.Diagnostic] at its line. [Format] writes a skill's fields as a new
// SKILL.md that reads back as them; [Merge] writes them over an existing
// one, changing only the lines that must change. [FindReferences] finds
// the files of the folder that instructions refer to, the ones pull reads
// through the files endpoint and lint checks.
package skillmd
