package main

import (
	"fmt"
	"regexp"
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

// flagUsageError turns what the flag package says of a bad flag of command cmd ("" for
// dws itself), with one dash ("flag provided but not defined: -fial-on"), into what a
// user can act on: the flag as it is typed, the nearest of the command's flags, and
// where they are listed. It is a usage error: exit 2.
func flagUsageError(cmd string, flags []cli.Flag) cli.OnUsageErrorFunc {
	prefix, help := "", "dws --help"
	if cmd != "" {
		prefix, help = cmd+": ", "dws "+cmd+" --help"
	}
	return func(_ *cli.Context, err error, _ bool) error {
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
			known := []string{"--help"}
			for _, f := range flags {
				for _, n := range f.Names() {
					known = append(known, dashed(n))
				}
			}
			return usagef("%sunknown flag %s%s (%s lists the flags)", prefix, dashed(name), suggest.DidYouMean(dashed(name), known), help)
		}
		if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
			return usagef("%s%s needs a value (%s lists the flags)", prefix, dashed(name), help)
		}
		if m := badValue.FindStringSubmatch(msg); m != nil {
			return usagef("%s%s: %s is not a valid value (%s)", prefix, dashed(m[2]), m[1], m[3])
		}
		return usageError{err}
	}
}

// badValue is the flag package's word on a value its flag cannot take.
var badValue = regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-(\S+): (.*)$`)

// dashed is a flag's name as typed: -o for a letter, --format for a word.
func dashed(name string) string {
	name = strings.TrimLeft(name, "-")
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
