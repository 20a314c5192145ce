package main

import (
	"errors"
	"fmt"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lsp"
	"github.com/urfave/cli/v2"
)

func lspCommand() *cli.Command {
	return &cli.Command{
		Name:  "lsp",
		Usage: "run the language server over standard input and output (for editors)",
		Description: `Speaks the Language Server Protocol on stdin and stdout: the findings of dws validate
as you type, quick fixes, go to definition, references, rename, completion, hover and a
code lens with each definition's path counts. Editors start it themselves;
docs/editors.md shows VS Code, Neovim and Helix.`,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usagef("lsp: takes no arguments (it talks over stdin and stdout)")
			}
			s := lsp.New(dialect.Registry(), version())
			err := lsp.Serve(c.Context, s, c.App.Reader, c.App.Writer)
			var se *lsp.SessionError
			if errors.As(err, &se) {
				// The session ended as a failure (exit without shutdown, a broken frame).
				fmt.Fprintf(c.App.ErrWriter, "dws lsp: %s\n", printable.String(se.Error()))
				return exitCode(exitFindings)
			}
			return err
		},
	}
}
