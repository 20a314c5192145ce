// Command dws validates, lints, checksums, draws and simulates workflow definitions.
// This file only wires the commands; each command lives in a file of its own.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"
)

// Exit codes of SPEC §5.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
	exitInternal = 3
)

func main() {
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a bad flag, argument or configuration: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitCode carries a command's exit code out of urfave/cli without printing anything.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "dws: internal error: %v\nplease report this with the input that caused it\n", r)
			code = exitInternal
		}
	}()
	app := &cli.App{
		Name:      "dws",
		Usage:     "validate, lint, checksum, draw and simulate workflow definitions",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// Exit codes are ours to choose (SPEC §5): never let the library call os.Exit.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		Commands: []*cli.Command{
			validateCommand(),
			simulateCommand(),
			checksumCommand(),
			canonicalCommand(),
			keygenCommand(),
			signCommand(),
			verifyCommand(),
			rulesCommand(),
			explainCommand(),
			schemaCommand(),
			initCommand(),
			versionCommand(),
		},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error { return usageError{err} },
	}
	for _, c := range app.Commands {
		c.OnUsageError = app.OnUsageError
	}
	err := app.Run(args)
	var ec exitCode
	var ue usageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ec):
		return int(ec)
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "dws: %v\n", ue.err)
		return exitUsage
	default:
		// urfave/cli reports unknown commands and flags as plain errors.
		fmt.Fprintf(stderr, "dws: %v\n", err)
		return exitUsage
	}
}
