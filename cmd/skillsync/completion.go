package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// The bash and zsh scripts ask the binary for candidates with
// --generate-bash-completion, as urfave/cli's own scripts do, but never
// pass "--" before it, as urfave/cli would then run the command: a word
// starting with "-" is sent as "-", and after a typed "--" the shell
// completes file names without asking.
const bashCompletion = `# bash completion for skillsync; load with: source <(skillsync completion bash)
_skillsync_complete() {
  local cur words i opts
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  for ((i = 1; i < ${#words[@]}; i++)); do
    if [[ "${words[i]}" == "--" ]]; then
      return 0
    fi
  done
  if [[ "$cur" == "-"* ]]; then
    opts=$("${words[@]}" - --generate-bash-completion 2>/dev/null)
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
  local cur w
  cur=${words[-1]}
  for w in "${(@)words[2,-2]}"; do
    if [[ "$w" == "--" ]]; then
      _files
      return
    fi
  done
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$("${(@)words[1,-2]}" - --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$("${(@)words[1,-2]}" --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _skillsync skillsync
`

func completionCommand(e *env) *cli.Command {
	ui := e.ui
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: `Example:
   source <(skillsync completion bash)
   skillsync completion fish > ~/.config/fish/completions/skillsync.fish

Exit codes: 0 success, 1 unknown shell.`,
		BashComplete: func(c *cli.Context) {
			if c.NArg() == 0 {
				fprintf(c.App.Writer, "bash\nzsh\nfish\n")
			}
		},
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

// completionFlag is how the shell scripts ask for candidates.
const completionFlag = "--generate-bash-completion"

// prepareCompletion returns the arguments to run app with: args as they
// are, unless they hold --generate-bash-completion anywhere and so ask for
// shell completions. Then every "--" and all after the flag are dropped,
// and no Before, Action or After of the app or a command is left to run:
// a request only ever prints candidates, even where urfave/cli would take
// the flag for an argument and run the command.
//
// Candidates come from args, not os.Args. The scripts send the words
// before the one completed ("-" for it when it starts with "-"). For a
// last word that is a whole flag taking a value, they are its choices
// (--format's), else none; for a word starting with "-", the flags; else
// the subcommands; else, for a command that takes no arguments, its
// flags; else none, for the shell to complete file names. run calls it
// between newApp and running the app.
func prepareCompletion(app *cli.App, args []string) []string {
	i := slices.Index(args, completionFlag)
	if i < 1 {
		return args
	}
	words := slices.DeleteFunc(slices.Clone(args[1:i]), func(a string) bool { return a == "--" })
	var last string
	if len(words) > 0 {
		last = words[len(words)-1]
	}
	used := words
	if strings.HasPrefix(last, "-") {
		used = words[:len(words)-1]
	}
	app.EnableBashCompletion = true
	app.Before, app.After = nil, nil
	app.Action = func(*cli.Context) error { return nil }
	app.BashComplete = func(c *cli.Context) {
		writeCandidates(c.App.Writer, last, used, app.Commands, app.Flags, false)
	}
	var disarm func(cmds []*cli.Command)
	disarm = func(cmds []*cli.Command) {
		for _, cmd := range cmds {
			cmd.Before, cmd.After = nil, nil
			cmd.Action = func(*cli.Context) error { return nil }
			if cmd.BashComplete == nil {
				cmd.BashComplete = func(c *cli.Context) {
					// urfave/cli gives every command a help subcommand,
					// which is no reason to list subcommands.
					subs := slices.DeleteFunc(slices.Clone(cmd.Subcommands), func(s *cli.Command) bool { return s.Name == "help" })
					writeCandidates(c.App.Writer, last, used, subs, cmd.Flags, cmd.ArgsUsage != "")
				}
			}
			disarm(cmd.Subcommands)
		}
	}
	disarm(app.Commands)
	return append(append([]string{args[0]}, words...), completionFlag)
}

// writeCandidates prints the completions of word, one a line, for a
// command with subs and flags, leaving out the flags already in used.
func writeCandidates(w io.Writer, word string, used []string, subs []*cli.Command, flags []cli.Flag, takesArgs bool) {
	var out []string
	f, named := namedFlag(flags, word)
	if named && !takesValue(f) {
		// A whole bool flag: the next word is completed.
		used, word = append(slices.Clone(used), word), ""
	}
	switch {
	case named && takesValue(f):
		if cf, ok := f.(choiceFlag); ok {
			out = cf.choices
		}
	case strings.HasPrefix(word, "-"):
		out = flagCandidates(flags, used, word, true)
	case slices.ContainsFunc(subs, func(c *cli.Command) bool { return !c.Hidden }):
		for _, c := range subs {
			if !c.Hidden {
				out = append(out, c.Name)
			}
		}
	case !takesArgs:
		out = flagCandidates(flags, used, "--", false)
	}
	for _, c := range out {
		fprintf(w, "%s\n", c)
	}
}

// namedFlag returns the flag of flags that word names whole, as --format
// or -h, without a value.
func namedFlag(flags []cli.Flag, word string) (cli.Flag, bool) {
	name, ok := strings.CutPrefix(word, "--")
	if !ok {
		name, ok = strings.CutPrefix(word, "-")
	}
	if !ok || name == "" || strings.Contains(name, "=") {
		return nil, false
	}
	for _, f := range flags {
		if slices.Contains(f.Names(), name) {
			return f, true
		}
	}
	return nil, false
}

// takesValue reports whether f is followed by a value, as --format is.
func takesValue(f cli.Flag) bool {
	df, ok := f.(cli.DocGenerationFlag)
	return ok && df.TakesValue()
}

// flagCandidates returns the visible flags that start with prefix and are
// not in used, long names as --name and, if short, one-letter names as -n.
func flagCandidates(flags []cli.Flag, used []string, prefix string, short bool) []string {
	var out []string
	for _, f := range flags {
		if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
			continue
		}
		names := f.Names()
		if slices.ContainsFunc(names, func(n string) bool { return flagUsed(used, n) }) {
			continue
		}
		for _, n := range names {
			form := "--" + n
			if len(n) == 1 {
				if !short {
					continue
				}
				form = "-" + n
			}
			if strings.HasPrefix(form, prefix) {
				out = append(out, form)
			}
		}
	}
	return out
}

// flagUsed reports whether the flag name is among words, as -name, --name,
// or with =value.
func flagUsed(words []string, name string) bool {
	for _, w := range words {
		w, _, _ = strings.Cut(w, "=")
		if w == "-"+name || w == "--"+name {
			return true
		}
	}
	return false
}
