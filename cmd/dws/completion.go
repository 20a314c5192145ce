package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/schema"
	"github.com/urfave/cli/v2"
)

// completionShells are the shells dws completion writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

// The values of flags shared by several commands, as the commands check them.
var (
	failOnValues = []string{"error", "warning", "info"}
	colorValues  = []string{"auto", "always", "never"}
)

// choiceFlag is a string flag whose value is one of a fixed set, the set the command
// checks it against: dws completion offers those values after the flag. values is
// called only when a completion script is written.
type choiceFlag struct {
	*cli.StringFlag
	values func() []string
}

// oneOf marks f as taking one of values.
func oneOf(f *cli.StringFlag, values ...string) cli.Flag {
	return &choiceFlag{f, func() []string { return values }}
}

// dialectFlag is --dialect: one of the registry's dialects.
func dialectFlag(usage string) cli.Flag {
	return &choiceFlag{&cli.StringFlag{Name: "dialect", Usage: usage}, func() []string { return dialect.Registry().DialectIDs() }}
}

// completeWords is a command's BashComplete (urfave/cli's place for what a command's
// arguments complete to) that offers words: dws completion writes them into its
// scripts, so that `dws explain <TAB>` offers rule ids.
func completeWords(words func() []string) cli.BashCompleteFunc {
	return func(c *cli.Context) {
		for _, w := range words() {
			fmt.Fprintln(c.App.Writer, w)
		}
	}
}

// ruleIDs are every rule's id, for dws explain.
func ruleIDs() []string {
	var ids []string
	for _, r := range dialect.Registry().Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// schemaNames are what dws schema prints: each dialect's schema and the documents'.
func schemaNames() []string { return append(schema.Dialects(), schema.Documents...) }

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish",
		ArgsUsage: "SHELL",
		Description: "Completes dws's commands, each command's flags, the values of flags that take one\n" +
			"of a few (--format, --fail-on, --dialect, --color), rule ids after dws explain,\n" +
			"and file names.\n" +
			"bash:  source <(dws completion bash)     (or save it in /etc/bash_completion.d/dws)\n" +
			"zsh:   source <(dws completion zsh)      (it runs compinit when that has not run)\n" +
			"fish:  dws completion fish > ~/.config/fish/completions/dws.fish",
		BashComplete: completeWords(func() []string { return completionShells }),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 || !slices.Contains(completionShells, c.Args().First()) {
				return usagef("completion: give one shell (%s)", strings.Join(completionShells, ", "))
			}
			// Every command but completion itself, which is added here to avoid a cycle.
			cmds := append(commands(), c.Command)
			switch c.Args().First() {
			case "bash":
				writeBash(c.App.Writer, cmds)
			case "zsh":
				fmt.Fprintln(c.App.Writer, "# dws completion for zsh, through bash completion.")
				// bashcompinit's complete is made of compdef, which only compinit defines:
				// without it, sourcing the script fails with "compdef: command not found".
				fmt.Fprintln(c.App.Writer, "(( $+functions[compdef] )) || { autoload -Uz compinit && compinit -i }")
				fmt.Fprintln(c.App.Writer, "autoload -U +X bashcompinit && bashcompinit")
				writeBash(c.App.Writer, cmds)
			case "fish":
				writeFish(c.App.Writer, cmds)
			}
			return nil
		},
	}
}

// flagWords are a command's flags as typed: --name for each name and alias.
func flagWords(cmd *cli.Command) []string {
	var words []string
	for _, f := range cmd.Flags {
		if slices.Contains(f.Names(), "help") {
			continue // urfave/cli adds it to a command that has run; it is added below
		}
		for _, n := range f.Names() {
			words = append(words, dashed(n))
		}
	}
	return append(words, "--help")
}

// argWords are what a command's arguments complete to (its BashComplete), or nil for
// file names.
func argWords(cmd *cli.Command) []string {
	if cmd.BashComplete == nil {
		return nil
	}
	var buf bytes.Buffer
	cmd.BashComplete(cli.NewContext(&cli.App{Writer: &buf}, nil, nil))
	return strings.Fields(buf.String())
}

// choices are the command's flags that take one of a few values, with the values.
func choices(cmd *cli.Command) []*choiceFlag {
	var out []*choiceFlag
	for _, f := range cmd.Flags {
		if cf, ok := f.(*choiceFlag); ok {
			out = append(out, cf)
		}
	}
	return out
}

func writeBash(w io.Writer, cmds []*cli.Command) {
	names := make([]string, 0, len(cmds)+1)
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	names = append(names, "help")
	fmt.Fprintf(w, `# dws completion for bash: commands, their flags, the values of flags that take one
# of a few, the words a command's arguments are (rule ids for explain), and file names.
_dws() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "%s --help --version" -- "$cur"))
    return
  fi
  # --flag=value: bash splits it into --flag, = and value.
  if [[ $cur == = ]]; then
    cur="" prev=${COMP_WORDS[COMP_CWORD-1]}
  elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
    prev=${COMP_WORDS[COMP_CWORD-2]}
  fi
  local flags="" args="" values=""
  case ${COMP_WORDS[1]} in
`, strings.Join(names, " "))
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s)\n      flags=%q\n", c.Name, strings.Join(flagWords(c), " "))
		if words := argWords(c); words != nil {
			fmt.Fprintf(w, "      args=%q\n", strings.Join(words, " "))
		}
		if cs := choices(c); len(cs) > 0 {
			fmt.Fprintln(w, "      case $prev in")
			for _, cf := range cs {
				var pats []string
				for _, n := range cf.Names() {
					pats = append(pats, dashed(n))
				}
				fmt.Fprintf(w, "        %s) values=%q ;;\n", strings.Join(pats, "|"), strings.Join(cf.values(), " "))
			}
			fmt.Fprintln(w, "      esac")
		}
		fmt.Fprintln(w, "      ;;")
	}
	fmt.Fprintf(w, `    help) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;
  esac
  if [[ -n $values ]]; then
    COMPREPLY=($(compgen -W "$values" -- "$cur"))
  elif [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [[ -n $args ]]; then
    COMPREPLY=($(compgen -W "$args" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _dws dws
`, strings.Join(names[:len(names)-1], " "))
}

func writeFish(w io.Writer, cmds []*cli.Command) {
	fmt.Fprintln(w, "# dws completion for fish: commands, their flags, the values of flags that take one")
	fmt.Fprintln(w, "# of a few, the words a command's arguments are (rule ids for explain), and file names.")
	fmt.Fprintln(w, "complete -c dws -f -n __fish_use_subcommand -l version -s v -d 'print the version'")
	names := make([]string, 0, len(cmds))
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c dws -f -n __fish_use_subcommand -a %s -d %s\n", c.Name, fishQuote(c.Usage))
		names = append(names, c.Name)
	}
	fmt.Fprintln(w, "complete -c dws -f -n __fish_use_subcommand -a help -d 'show the help of a command'")
	fmt.Fprintf(w, "complete -c dws -f -n '__fish_seen_subcommand_from help' -a %s\n", fishQuote(strings.Join(names, " ")))
	for _, c := range cmds {
		seen := fishQuote("__fish_seen_subcommand_from " + c.Name)
		if words := argWords(c); words != nil {
			fmt.Fprintf(w, "complete -c dws -f -n %s -a %s\n", seen, fishQuote(strings.Join(words, " ")))
		}
		for _, f := range c.Flags {
			if slices.Contains(f.Names(), "help") {
				continue
			}
			line := "complete -c dws -n " + seen
			for _, n := range f.Names() {
				if len(n) == 1 {
					line += " -s " + n
				} else {
					line += " -l " + n
				}
			}
			if cf, ok := f.(*choiceFlag); ok {
				// -x: the flag takes a value, one of these, never a file name.
				line += " -x -a " + fishQuote(strings.Join(cf.values(), " "))
			}
			if d, ok := f.(cli.DocGenerationFlag); ok && d.GetUsage() != "" {
				line += " -d " + fishQuote(d.GetUsage())
			}
			fmt.Fprintln(w, line)
		}
	}
}

// fishQuote quotes s for fish: single quotes, with \ and ' escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
