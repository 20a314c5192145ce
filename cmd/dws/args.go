package main

import (
	"fmt"
	"strings"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/urfave/cli/v2"
)

// reorder moves a command's flags in front of its arguments, so that flags work after
// arguments in every command (`dws validate DIR --format json`) as they do before them:
// urfave/cli, like the flag package, stops reading flags at the first argument. A
// non-boolean flag takes the next word as its value unless written --flag=value; "--"
// ends the flags, and "-" (standard input) is an argument. A word that looks like a flag
// but is none of the command's is moved too, so that it is reported as an unknown flag
// instead of being read as a file name.
func reorder(commands []*cli.Command, args []string) []string {
	if len(args) < 2 {
		return args
	}
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" {
		i++ // flags of dws itself (--help, --version)
	}
	if i >= len(args) {
		return args
	}
	var cmd *cli.Command
	for _, c := range commands {
		if c.HasName(args[i]) {
			cmd = c
		}
	}
	if cmd == nil {
		return args
	}
	out := append([]string{}, args[:i+1]...)
	for _, w := range args[i+1:] {
		if w == "--" {
			break
		}
		if w == "-h" || w == "--help" || w == "-help" {
			// Help wants no arguments: urfave/cli would read one as a help topic.
			return append(out, "--help")
		}
	}
	var flags, rest []string
	words := args[i+1:]
	for k := 0; k < len(words); k++ {
		w := words[k]
		switch {
		case w == "--":
			rest = append(rest, words[k:]...)
			k = len(words)
		case w == "-" || !strings.HasPrefix(w, "-"):
			rest = append(rest, w)
		default:
			flags = append(flags, w)
			name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if f := lookupFlag(cmd.Flags, name); f != nil && !hasValue && !isBool(f) && k+1 < len(words) {
				k++
				flags = append(flags, words[k])
			}
		}
	}
	return append(append(out, flags...), rest...)
}

func isBool(f cli.Flag) bool {
	_, ok := f.(*cli.BoolFlag)
	return ok
}

// route turns what a user types into what urfave/cli understands, before it runs: `dws
// help COMMAND` is `dws COMMAND --help`, `dws --version` (or -v) is `dws version`, and
// an unknown command is a usage error naming the nearest command, never "No help topic".
func route(commands []*cli.Command, args []string) ([]string, error) {
	i := 1
	version := false
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" {
		if args[i] == "--version" || args[i] == "-v" || args[i] == "-version" {
			version = true
		}
		i++
	}
	if i >= len(args) {
		if version {
			return []string{args[0], "version"}, nil
		}
		return args, nil
	}
	known := commandNames(commands)
	word := args[i]
	if word == "help" {
		if i+1 >= len(args) {
			return []string{args[0], "--help"}, nil
		}
		topic := args[i+1]
		if find(commands, topic) == nil {
			return nil, usageError{fmt.Errorf("no help for %q: it is not a dws command%s (commands: %s)",
				topic, suggest.DidYouMean(topic, known), strings.Join(known, ", "))}
		}
		return []string{args[0], topic, "--help"}, nil
	}
	if find(commands, word) == nil {
		return nil, usageError{fmt.Errorf("unknown command %q%s (commands: %s; dws --help says more)",
			word, suggest.DidYouMean(word, known), strings.Join(known, ", "))}
	}
	return args, nil
}

func find(commands []*cli.Command, name string) *cli.Command {
	for _, c := range commands {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

func commandNames(commands []*cli.Command) []string {
	names := make([]string, 0, len(commands))
	for _, c := range commands {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	return names
}
