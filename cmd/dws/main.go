// Command dws validates, lints, checksums, draws and simulates workflow definitions.
// This file only wires the commands; each command lives in a file of its own.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"strings"

	"github.com/dwsdev/dws/internal/printable"
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
	// dws is a short-lived batch process whose live heap is small (under 10 MB on the
	// realistic 10,000-file run) and whose garbage is plenty (a parse tree a file):
	// collecting at 9x the live heap instead of 2x spends far less CPU on GC (800
	// against 400: 5% of that run's CPU) for some 30 MB more at peak. A large file's
	// tree is collected before the next large file starts whatever GOGC (lint's heavy
	// files), so the peak stays one large file's. The language server lives long and
	// holds the open documents: it keeps 400. GOGC, when set, still decides.
	if os.Getenv("GOGC") == "" {
		gc := 800
		if len(os.Args) > 1 && os.Args[1] == "lsp" {
			gc = 400
		}
		debug.SetGCPercent(gc)
	}
	os.Exit(profiled(func() int { return run(os.Args, os.Stdin, os.Stdout, os.Stderr) }))
}

// profiled runs fn, writing a CPU profile to $DWS_CPUPROFILE, an allocation profile to
// $DWS_MEMPROFILE and an execution trace to $DWS_TRACE when they are set: how the
// benchmark's figures are explained (go tool pprof dws $DWS_CPUPROFILE;
// -sample_index=alloc_space for allocations; go tool trace $DWS_TRACE).
func profiled(fn func() int) int {
	if path := os.Getenv("DWS_MEMPROFILE"); path != "" {
		defer func() {
			out, err := os.Create(path)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(out, 0)
				_ = out.Close()
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "dws: DWS_MEMPROFILE:", err)
			}
		}()
	}
	if path := os.Getenv("DWS_TRACE"); path != "" {
		out, err := os.Create(path)
		if err == nil {
			err = trace.Start(out)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "dws: DWS_TRACE:", err)
			return exitInternal
		}
		defer out.Close() //nolint:errcheck // a trace is a developer's aid
		defer trace.Stop()
	}
	path := os.Getenv("DWS_CPUPROFILE")
	if path == "" {
		return fn()
	}
	out, err := os.Create(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dws: DWS_CPUPROFILE:", err)
		return exitInternal
	}
	defer out.Close() //nolint:errcheck // a profile is a developer's aid; its close error fails no run
	if err := pprof.StartCPUProfile(out); err != nil {
		fmt.Fprintln(os.Stderr, "dws: DWS_CPUPROFILE:", err)
		return exitInternal
	}
	defer pprof.StopCPUProfile()
	return fn()
}

// usageError is a bad flag, argument or configuration: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// failure is something dws failed to do (a write, a read of standard input): exit 3,
// with one line naming what it was doing and the user's path.
type failure struct {
	doing string
	err   error
}

func (e failure) Error() string {
	if e.doing == "" {
		return e.err.Error()
	}
	return e.doing + ": " + e.err.Error()
}

func (e failure) Unwrap() error { return e.err }

// failedTo is a failure while doing something.
func failedTo(doing string, err error) error { return failure{doing, err} }

// exitCode carries a command's exit code out of urfave/cli without printing anything.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runCommands(allCommands(), args, stdin, stdout, stderr)
}

func commands() []*cli.Command {
	return []*cli.Command{
		validateCommand(),
		simulateCommand(),
		diffCommand(),
		testCommand(),
		lspCommand(),
		graphCommand(),
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
	}
}

// allCommands are the commands plus completion, which lists the others.
func allCommands() []*cli.Command { return append(commands(), completionCommand()) }

// runCommands runs dws with the given commands and decides the exit code, once, for
// all of them (SPEC §5): 0, 1 findings, 2 usage or configuration, 3 dws failed.
func runCommands(cmds []*cli.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			// A bug in dws: one line, naming the file being checked when there was one.
			msg := fmt.Sprintf("internal error: %v", r)
			if err, ok := r.(error); ok && strings.HasPrefix(err.Error(), "internal error") {
				msg = err.Error()
			}
			fmt.Fprintf(stderr, "dws: %s (please report this with the input that caused it)\n", printable.String(msg))
			code = exitInternal
		}
	}()
	app := &cli.App{
		Name:      "dws",
		Usage:     "validate, lint, checksum and simulate workflow definitions",
		Reader:    stdin,
		Writer:    stdout,
		ErrWriter: stderr,
		// Exit codes are ours to choose (SPEC §5): never let the library call os.Exit.
		ExitErrHandler:  func(*cli.Context, error) {},
		HideHelpCommand: true,
		Commands:        cmds,
		// route answers --version before the app runs; the flag is here for the help.
		Flags: []cli.Flag{&cli.BoolFlag{Name: "version", Aliases: []string{"v"}, Usage: "print the version, as dws version does"}},
	}
	app.OnUsageError = flagUsageError("", app.Flags)
	for _, c := range app.Commands {
		c.OnUsageError = flagUsageError(c.Name, c.Flags)
		// An error a command returns that is neither findings nor a usage error is
		// something dws failed to do.
		act, name := c.Action, c.Name
		c.Action = func(ctx *cli.Context) error {
			err := act(ctx)
			var ec exitCode
			var ue usageError
			var f failure
			if err == nil || errors.As(err, &ec) || errors.As(err, &ue) || errors.As(err, &f) {
				return err
			}
			return failedTo(name, err)
		}
	}
	args, err := route(app.Commands, args)
	if err == nil {
		err = app.Run(reorder(app.Commands, args))
	}
	var ec exitCode
	var ue usageError
	var f failure
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ec):
		return int(ec)
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "dws: %s\n", printable.String(ue.err.Error()))
		return exitUsage
	case errors.As(err, &f):
		fmt.Fprintf(stderr, "dws: %s\n", printable.String(f.Error()))
		return exitInternal
	default:
		// urfave/cli reports unknown commands and flags as plain errors.
		fmt.Fprintf(stderr, "dws: %s\n", printable.String(err.Error()))
		return exitUsage
	}
}
