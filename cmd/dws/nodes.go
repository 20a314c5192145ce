package main

import (
	"bufio"
	"fmt"
	"slices"
	"strings"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"github.com/urfave/cli/v2"
)

// checksumNodes is dws checksum --nodes: each node's own hash and key (SPEC §17), one
// line a node, "<own>  <key>  <unit ref>  <node>", with the loop a node is hashed with,
// each file's units sorted by ref and their nodes by id, so that writing a file in
// another order prints the same bytes. A file of a dialect without units prints
// nothing; one that cannot be read or parsed is an error, as is one named that no
// dialect knows.
func checksumNodes(c *cli.Context, s *setup, args []string) error {
	l, err := lint.New(s.reg, s.cfg)
	if err != nil {
		return usageError{err}
	}
	if len(args) == 0 {
		args = []string{relativeDir(s.cfg.Dir)}
	}
	inputs, problems, err := l.Expand(args)
	if err != nil {
		return usageError{err}
	}
	code := exitOK
	w := bufio.NewWriter(c.App.Writer)
	for _, d := range problems {
		fmt.Fprintln(c.App.ErrWriter, d.String())
		code = exitFindings
	}
	for _, in := range inputs {
		data, err := source.ReadFile(in.Path)
		if err != nil {
			fmt.Fprintf(c.App.ErrWriter, "dws: %v\n", err)
			code = exitFindings
			continue
		}
		_, units, bad := inspectUnits(l, in.Path, data, slices.Contains(args, in.Path))
		for _, p := range bad {
			fmt.Fprintln(c.App.ErrWriter, printable.String(p.String()))
			code = exitFindings
		}
		slices.SortStableFunc(units, func(a, b *change.Unit) int { return strings.Compare(a.Ref(), b.Ref()) })
		for _, u := range units {
			hs := change.Hashes(u)
			slices.SortStableFunc(hs, func(a, b change.NodeHash) int { return strings.Compare(a.Node, b.Node) })
			for _, h := range hs {
				fmt.Fprintf(w, "%s  %s  %s  %s", h.Own, h.Key, printable.String(u.Ref()), printable.String(h.Node))
				if h.Loop != nil {
					fmt.Fprintf(w, "  (loop: %s)", printable.String(strings.Join(h.Loop, ", ")))
				}
				fmt.Fprintln(w)
			}
		}
	}
	if err := w.Flush(); err != nil {
		return failedTo("writing the hashes", err)
	}
	return exitCode(code)
}
