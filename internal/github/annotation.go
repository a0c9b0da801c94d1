package github

import (
	"strconv"
	"strings"
)

// Annotation returns the workflow command that makes the runner show msg as
// an annotation of level "error", "warning" or "notice" (any other level is
// taken as "notice") on file at line and col. An empty file or a line or col
// of 0 is left out. The command must be printed alone on a line of stdout.
//
// Data and property values are escaped as GitHub's toolkit does: % CR LF in
// the message, and also : and , in properties, whose syntax they delimit.
func Annotation(level, file string, line, col int, msg string) string {
	switch level {
	case "error", "warning", "notice":
	default:
		level = "notice"
	}
	var props []string
	if file != "" {
		props = append(props, "file="+escapeProperty(file))
	}
	if line > 0 {
		props = append(props, "line="+strconv.Itoa(line))
		if col > 0 {
			props = append(props, "col="+strconv.Itoa(col))
		}
	}
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(level)
	if len(props) > 0 {
		b.WriteString(" ")
		b.WriteString(strings.Join(props, ","))
	}
	b.WriteString("::")
	b.WriteString(escapeData(msg))
	return b.String()
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
