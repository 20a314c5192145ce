package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/dwsdev/dws/canonical"
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
	args, err := interspersed(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("canonical: want exactly one FILE (or - for standard input), got %d", len(args))
	}
	var doc *source.Document
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

// loadDocument reads and parses the file at path, with the same 4 MiB ceiling as
// the validate pipeline's read stage.
func loadDocument(path string) (*source.Document, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, &loadError{path, err}
	}
	return parseDocument(path, data)
}

func loadStdin(c *cli.Context) (*source.Document, error) {
	name := c.String("stdin-filename")
	if name == "" {
		name = "<stdin>"
	}
	data, err := io.ReadAll(io.LimitReader(c.App.Reader, maxStdin+1))
	if err != nil {
		return nil, &loadError{name, fmt.Errorf("reading standard input: %w", err)}
	}
	if len(data) > maxStdin {
		return nil, &loadError{name, errors.New("standard input is larger than 4 MiB")}
	}
	return parseDocument(name, data)
}

func parseDocument(path string, data []byte) (*source.Document, error) {
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		return nil, &loadError{path, err}
	}
	return doc, nil
}

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, readErr(err)
	}
	defer f.Close() //nolint:errcheck // read-only: a close error loses nothing
	st, err := f.Stat()
	if err != nil {
		return nil, readErr(err)
	}
	if st.IsDir() {
		return nil, errors.New("is a directory")
	}
	// The file may grow between Stat and Read; the ceiling holds either way.
	data, err := io.ReadAll(io.LimitReader(f, maxStdin+1))
	if err != nil {
		return nil, readErr(err)
	}
	if len(data) > maxStdin {
		return nil, errors.New("larger than the 4 MiB ceiling")
	}
	return data, nil
}

// errNoSuchFile is a file that does not exist: dws checksum --check calls it MISSING.
var errNoSuchFile = errors.New("no such file")

// readErr drops the path the os package repeats, since every caller names the file.
func readErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		if errors.Is(err, fs.ErrNotExist) {
			return errNoSuchFile
		}
		return fmt.Errorf("cannot read: %w", pe.Err)
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
		fmt.Fprintf(stderr, "%s:%d:%d: error: %s [parse]\n", le.path, pe.Pos.Line, pe.Pos.Col, pe.Msg)
		return
	}
	fmt.Fprintf(stderr, "dws: %v\n", err)
}

// failf prints one dws: line and exits 1.
func failf(stderr io.Writer, format string, args ...any) error {
	fmt.Fprintf(stderr, "dws: "+format+"\n", args...)
	return exitCode(exitFindings)
}

// interspersed returns the command's arguments with any flags written after them
// applied, so `dws sign FILE --key K` works as well as `dws sign --key K FILE`
// (urfave/cli v2, like the flag package, stops at the first argument). "--" ends
// the flags.
func interspersed(c *cli.Context) ([]string, error) {
	var args []string
	raw := c.Args().Slice()
	for i := 0; i < len(raw); i++ {
		a := raw[i]
		if a == "--" {
			args = append(args, raw[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := lookupFlag(c.Command.Flags, name)
		if f == nil {
			return nil, usagef("flag provided but not defined: %s", a)
		}
		if _, isBool := f.(*cli.BoolFlag); isBool {
			if !hasValue {
				value = "true"
			}
		} else if !hasValue {
			if i+1 >= len(raw) {
				return nil, usagef("flag needs an argument: %s", a)
			}
			i++
			value = raw[i]
		}
		if err := c.Set(name, value); err != nil {
			return nil, usagef("invalid value %q for flag %s: %v", value, a, err)
		}
	}
	return args, nil
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
