package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/source"
	"github.com/urfave/cli/v2"
)

func canonicalCommand() *cli.Command {
	return &cli.Command{
		Name:      "canonical",
		Usage:     "print a document's canonical bytes (RFC 8785, without the top-level signature)",
		ArgsUsage: "FILE  (a JSON or YAML file, or - for standard input)",
		Description: `Prints the RFC 8785 (JSON Canonicalization Scheme) bytes that dws checksums and
signs, with no trailing newline. The top-level "signature" property is left out.

A YAML file is read as its JSON data model first, so a YAML file and its JSON twin
print the same bytes: yes/no/on/off are strings (YAML 1.2), numbers are numbers,
anchors and merge keys are expanded. YAML values with no JSON form are handled the
same way everywhere in dws: .inf and .nan are errors, timestamps and !!binary are
kept as the strings written in the file.

Exit status: 0 printed; 1 the file cannot be read, parsed or canonicalised;
2 usage error.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "stdin-filename", Usage: "the name to report standard input as (its extension picks JSON or YAML)"},
		},
		Action: printCanonical,
	}
}

func printCanonical(c *cli.Context) error {
	args := c.Args().Slice()
	if len(args) != 1 {
		return usagef("canonical: want exactly one FILE (or - for standard input), got %d", len(args))
	}
	var doc *source.Document
	var err error
	if args[0] == "-" {
		doc, err = loadStdin(c)
	} else {
		doc, err = loadDocument(args[0])
	}
	if err != nil {
		return reportLoadError(c.App.ErrWriter, err)
	}
	b, err := canonical.Bytes(doc.Root.Value())
	if err != nil {
		return failf(c.App.ErrWriter, "%s: %v", doc.Path, err)
	}
	if _, err := c.App.Writer.Write(b); err != nil {
		return fmt.Errorf("writing canonical bytes: %w", err)
	}
	return nil
}

// loadError is a file that could not be read or parsed: the command reports it and
// exits 1, since a bad input is a finding (SPEC §5), not a usage error.
type loadError struct {
	path string
	err  error
}

func (e *loadError) Error() string { return e.path + ": " + e.err.Error() }
func (e *loadError) Unwrap() error { return e.err }

// loadDocument reads and parses the file at path through the one bounded reader.
func loadDocument(path string) (*source.Document, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, &loadError{path, readErr(err)}
	}
	return parseDocument(path, data)
}

func loadStdin(c *cli.Context) (*source.Document, error) {
	name := c.String("stdin-filename")
	if name == "" {
		name = "<stdin>"
	}
	data, err := readStdin(c)
	if err != nil {
		return nil, &loadError{name, err}
	}
	return parseDocument(name, data)
}

// readStdin reads standard input with the ceiling files have.
func readStdin(c *cli.Context) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(c.App.Reader, source.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	if len(data) > source.MaxFileSize {
		return nil, errors.New("standard input is larger than 4 MiB")
	}
	return data, nil
}

func parseDocument(path string, data []byte) (*source.Document, error) {
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		return nil, &loadError{path, err}
	}
	return doc, nil
}

// errNoSuchFile is a file that does not exist: dws checksum --check calls it MISSING.
var errNoSuchFile = errors.New("no such file")

// readErr is the reader's own words for what went wrong, without the path every
// caller names anyway.
func readErr(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errNoSuchFile
	}
	var re *source.ReadError
	if errors.As(err, &re) {
		return errors.New(re.Problem)
	}
	return err
}

// loadProblem is the one-line description of a load error, without the path:
// "3:1: msg" for a parse error, the reason otherwise.
func loadProblem(err error) string {
	var le *loadError
	if errors.As(err, &le) {
		return le.err.Error()
	}
	return err.Error()
}

// reportLoadError prints a load error and exits 1.
func reportLoadError(stderr io.Writer, err error) error {
	printLoadError(stderr, err)
	return exitCode(exitFindings)
}

// printLoadError prints a parse error as a compiler does (path:line:col: error: msg
// [parse]) and anything else as a dws: line.
func printLoadError(stderr io.Writer, err error) {
	var le *loadError
	var pe *source.Error
	if errors.As(err, &le) && errors.As(err, &pe) {
		fmt.Fprintf(stderr, "%s:%d:%d: error: %s [parse]\n", printable.String(le.path), pe.Pos.Line, pe.Pos.Col, printable.String(pe.Msg))
		return
	}
	fmt.Fprintf(stderr, "dws: %s\n", printable.String(err.Error()))
}

// failf prints one dws: line and exits 1.
func failf(stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "dws: %s\n", printable.String(fmt.Sprintf(format, args...)))
	return exitCode(exitFindings)
}

func lookupFlag(flags []cli.Flag, name string) cli.Flag {
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}
