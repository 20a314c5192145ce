package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/report"
	"github.com/dwsdev/dws/source"
	"github.com/urfave/cli/v2"
)

func graphCommand() *cli.Command {
	return &cli.Command{
		Name:      "graph",
		Usage:     "draw a definition's graph as Mermaid or Graphviz DOT",
		ArgsUsage: "FILE",
		Description: `Draws FILE's graph (every workflow of a DireClaw file): the entry and the ends
marked, each edge labelled by its kind (ok, fail, true, false, loop ≤N, approve, reject,
after, …), unreachable and dead-end nodes highlighted, a legend. Failure edges are dashed.
A file that does not parse, or has no dialect, is an error. Render DOT with
"dot -Tsvg"; Mermaid renders in GitHub and GitLab Markdown.

Exit status: 0 drawn; 1 the file cannot be drawn; 2 usage or configuration error.`,
		Flags: []cli.Flag{
			oneOf(&cli.StringFlag{Name: "format", Value: "mermaid", Usage: "output format: " + strings.Join(report.GraphFormats, ", ")}, report.GraphFormats...),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the drawing to this file (atomically) instead of standard output", TakesFile: true},
			&cli.StringFlag{Name: "config", Usage: "config file (default: the nearest .dws.yaml)"},
		},
		Action: drawGraph,
	}
}

func drawGraph(c *cli.Context) error {
	format := c.String("format")
	if !slices.Contains(report.GraphFormats, format) {
		return usagef("--format: %q is not one of %s", format, strings.Join(report.GraphFormats, ", "))
	}
	if c.NArg() != 1 {
		return usagef("graph: give one FILE")
	}
	path := c.Args().First()
	out, err := outputFlag(c, "output")
	if err != nil {
		return err
	}
	_, l, err := loadLinter(c.String("config"))
	if err != nil {
		return err
	}
	data, err := source.ReadFile(path)
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "dws: %s\n", printable.String(err.Error()))
		return exitCode(1)
	}
	in := l.Inspect(path, data)
	shown := printable.String(path)
	switch {
	case in.Doc == nil:
		fmt.Fprintf(c.App.ErrWriter, "dws: %s does not parse; dws validate %s says where\n", shown, shown)
		return exitCode(1)
	case in.Dialect == nil:
		fmt.Fprintf(c.App.ErrWriter, "dws: %s is of no dialect dws knows; dws validate %s says why\n", shown, shown)
		return exitCode(1)
	case len(in.Graphs) == 0:
		fmt.Fprintf(c.App.ErrWriter, "dws: %s (%s) has no graph to draw\n", shown, in.Dialect.ID)
		return exitCode(1)
	}
	var buf bytes.Buffer
	if err := report.WriteGraph(&buf, format, path, report.Drawings(in)); err != nil {
		return failedTo("drawing the graph", err)
	}
	if out != "" {
		return writeOutput("--output", out, buf.Bytes())
	}
	_, err = c.App.Writer.Write(buf.Bytes())
	return err
}
