package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
)

// The bash and zsh scripts are urfave/cli's own (autocomplete/), fixed to
// the program name; they ask the binary for candidates through
// --generate-bash-completion.
const bashCompletion = `# bash completion for skillsync; load with: source <(skillsync completion bash)
_skillsync_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  local opts
  if [[ "$cur" == "-"* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
  return 0
}
complete -o bashdefault -o default -F _skillsync_complete skillsync
`

const zshCompletion = `#compdef skillsync
# zsh completion for skillsync; load with: source <(skillsync completion zsh)
_skillsync() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _skillsync skillsync
`

func completionCommand(ui *ui) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: `Example:
   source <(skillsync completion bash)
   skillsync completion fish > ~/.config/fish/completions/skillsync.fish

Exit codes: 0 success, 1 unknown shell.`,
		Action: func(c *cli.Context) error {
			switch sh := c.Args().First(); sh {
			case "bash":
				fprintf(ui.stdout, "%s", bashCompletion)
			case "zsh":
				fprintf(ui.stdout, "%s", zshCompletion)
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				fprintf(ui.stdout, "%s", s)
			case "":
				return withHint(errors.New("completion takes the name of a shell"), "use bash, zsh or fish, e.g. source <(skillsync completion bash)")
			default:
				return withHint(fmt.Errorf("unknown shell %q", sh), "use bash, zsh or fish, e.g. source <(skillsync completion bash)")
			}
			return nil
		},
	}
}
