package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionShells are the shells dws completion writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script: bash, zsh or fish",
		ArgsUsage: "SHELL",
		Description: "Completes dws's commands, each command's flags, and file names.\n" +
			"bash:  source <(dws completion bash)     (or save it in /etc/bash_completion.d/dws)\n" +
			"zsh:   source <(dws completion zsh)\n" +
			"fish:  dws completion fish > ~/.config/fish/completions/dws.fish",
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
			if len(n) == 1 {
				words = append(words, "-"+n)
			} else {
				words = append(words, "--"+n)
			}
		}
	}
	return append(words, "--help")
}

func writeBash(w io.Writer, cmds []*cli.Command) {
	names := make([]string, 0, len(cmds)+1)
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	names = append(names, "help")
	fmt.Fprintf(w, `# dws completion for bash: commands, their flags, and file names.
_dws() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "%s --help --version" -- "$cur"))
    return
  fi
  local flags=""
  case ${COMP_WORDS[1]} in
`, strings.Join(names, " "))
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s) flags=%q ;;\n", c.Name, strings.Join(flagWords(c), " "))
	}
	fmt.Fprintf(w, `    help) COMPREPLY=($(compgen -W "%s" -- "$cur")); return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _dws dws
`, strings.Join(names[:len(names)-1], " "))
}

func writeFish(w io.Writer, cmds []*cli.Command) {
	fmt.Fprintln(w, "# dws completion for fish: commands, their flags, and file names.")
	fmt.Fprintln(w, "complete -c dws -f -n __fish_use_subcommand -l version -s v -d 'print the version'")
	names := make([]string, 0, len(cmds))
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c dws -f -n __fish_use_subcommand -a %s -d %s\n", c.Name, fishQuote(c.Usage))
		names = append(names, c.Name)
	}
	fmt.Fprintln(w, "complete -c dws -f -n __fish_use_subcommand -a help -d 'show the help of a command'")
	fmt.Fprintf(w, "complete -c dws -f -n '__fish_seen_subcommand_from help' -a %s\n", fishQuote(strings.Join(names, " ")))
	for _, c := range cmds {
		for _, f := range c.Flags {
			if slices.Contains(f.Names(), "help") {
				continue
			}
			line := "complete -c dws -n " + fishQuote("__fish_seen_subcommand_from "+c.Name)
			for _, n := range f.Names() {
				if len(n) == 1 {
					line += " -s " + n
				} else {
					line += " -l " + n
				}
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
