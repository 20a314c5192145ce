package main

import (
	"fmt"
	"io"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/source"
)

// A signature covers the document as dws reads it. Two kinds of values make that
// reading differ from another consumer's, so that a verified signature would vouch for
// something the consumer never sees:
//   - plain YAML scalars that a YAML 1.1 reader (PyYAML, SnakeYAML) reads differently:
//     sign refuses them and verify reports them, both as errors;
//   - numbers that change on their way through a double: both warn (number-precision).

// ambiguities prints, compiler style, the plain scalars of doc whose YAML 1.1 and 1.2
// readings differ, and returns how many there are.
func ambiguities(w io.Writer, doc *source.Document, path string) int {
	shown := printable.String(path)
	diffs := doc.YAML11Differences()
	for _, d := range diffs {
		fmt.Fprintf(w, "%s:%d:%d: error: %s is %s to a YAML 1.1 reader but %s to dws (YAML 1.2); quote it or write it so both agree\n",
			shown, d.Span.Start.Line, d.Span.Start.Col, d.Text, d.There, d.Here)
	}
	return len(diffs)
}

// inexactNumbers prints a number-precision warning for each number of doc that a
// double cannot hold exactly.
func inexactNumbers(w io.Writer, doc *source.Document, path string) {
	shown := printable.String(path)
	var walk func(n *source.Node)
	walk = func(n *source.Node) {
		switch n.Kind {
		case source.Number:
			if canonical.Inexact(n.Text) {
				fmt.Fprintf(w, "%s:%d:%d: warning: %s changes value as a double, the form the signature covers; write it as a string [number-precision]\n",
					shown, n.Span.Start.Line, n.Span.Start.Col, n.Text)
			}
		case source.Array:
			for _, it := range n.Items {
				walk(it)
			}
		case source.Object:
			for _, m := range n.Members {
				walk(m.Value)
			}
		}
	}
	walk(doc.Root)
}
