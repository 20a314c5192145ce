package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/urfave/cli/v2"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:         "explain",
		Usage:        "explain one rule, with a failing and a passing example",
		ArgsUsage:    "RULE",
		Description:  "Prints what RULE checks, why, and a failing and a passing example.\ndws rules lists every rule id.",
		BashComplete: completeWords(ruleIDs),
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("explain: give exactly one rule id (dws rules lists them)")
			}
			s, err := loadSetup("")
			if err != nil {
				return err
			}
			r, ok := s.reg.Lookup(c.Args().First())
			if !ok {
				return usagef("explain: unknown rule %q (%s)", c.Args().First(), s.reg.Unknown(c.Args().First()))
			}
			writeExplanation(c.App.Writer, r)
			return nil
		},
	}
}

func writeExplanation(w io.Writer, r lint.Rule) {
	dialect := r.Dialect
	if dialect == "" {
		dialect = "every dialect"
	}
	fmt.Fprintf(w, "%s (%s, %s)\n\n%s.\n\n%s\n", r.ID, r.Severity, dialect, upperFirst(r.Summary), r.Doc)
	switch r.Inline {
	case lint.InlineNever:
		fmt.Fprintf(w, "\nAn inline dws:ignore cannot suppress %s: only ignore: in .dws.yaml or the baseline can.\n", r.ID)
	case lint.InlineIfConfigured:
		fmt.Fprintf(w, "\nAn inline dws:ignore suppresses %s only with inline_security_waivers: true in .dws.yaml.\n", r.ID)
	}
	for _, ex := range []struct {
		title string
		e     lint.Example
	}{{"Fails", r.Fail}, {"Passes", r.Pass}} {
		fmt.Fprintf(w, "\n%s: %s\n", ex.title, ex.e.Name)
		if ex.e.Missing {
			fmt.Fprintln(w, "    (the file does not exist)")
		}
		if ex.e.Config != "" {
			fmt.Fprintf(w, "  with .dws.yaml:\n%s", indent(ex.e.Config))
		}
		for _, name := range exampleFiles(ex.e) {
			fmt.Fprintf(w, "  with %s:\n%s", name, indent(ex.e.Files[name]))
		}
		if ex.e.Text != "" {
			fmt.Fprint(w, indent(ex.e.Text))
		}
	}
}

// exampleFiles is the names of the files an example needs beside it, sorted, so that
// every explanation of a rule is the same bytes.
func exampleFiles(e lint.Example) []string {
	names := make([]string, 0, len(e.Files))
	for name := range e.Files {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

func indent(s string) string {
	lines := strings.SplitAfter(strings.TrimRight(s, "\n"), "\n")
	return "    " + strings.Join(lines, "    ") + "\n"
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
