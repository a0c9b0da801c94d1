package githubtest

import (
	"strings"
	"unicode"
)

// RunnerReads reads log, what a step wrote to stdout or stderr, as the
// runner of GitHub Actions does (ActionCommand.TryParseV2, then the older
// TryParse, and stop-commands): the lines it obeys as workflow commands,
// and those it shows. Its lines end as .NET's StreamReader.ReadLine ends
// them: at a line feed, a carriage return, or the two together.
func RunnerReads(log string) (obeyed, shown []string) {
	log = strings.ReplaceAll(log, "\r\n", "\n")
	log = strings.ReplaceAll(log, "\r", "\n")
	stop := ""
	for _, line := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
		if stop != "" {
			if line == "::"+stop+"::" {
				stop = ""
			} else {
				shown = append(shown, line)
			}
			continue
		}
		if rest, ok := strings.CutPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::"); ok {
			if info, data, ok := strings.Cut(rest, "::"); ok {
				if name, _, _ := strings.Cut(info, " "); name == "stop-commands" {
					stop = data
				} else {
					obeyed = append(obeyed, line)
				}
				continue
			}
		}
		if i := strings.Index(line, "##["); i >= 0 && strings.Contains(line[i:], "]") {
			obeyed = append(obeyed, line)
			continue
		}
		shown = append(shown, line)
	}
	return obeyed, shown
}
