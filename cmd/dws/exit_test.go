package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/dwsdev/dws/lint"
	"github.com/urfave/cli/v2"
)

// The exit code is decided in one place: findings 1, usage 2, anything dws failed to do
// 3, a panic 3 with one line naming what dws was checking.
func TestExitCodes(t *testing.T) {
	cases := []struct {
		name   string
		action func(*cli.Context) error
		code   int
		stderr string
	}{
		{"findings", func(*cli.Context) error { return exitCode(exitFindings) }, 1, ""},
		{"usage", func(*cli.Context) error { return usagef("bad flag") }, 2, "dws: bad flag\n"},
		{"failed write", func(*cli.Context) error {
			return failedTo("recording checksums", errors.New("writing dws.lock: not a directory"))
		}, 3, "dws: recording checksums: writing dws.lock: not a directory\n"},
		{"plain error", func(*cli.Context) error { return errors.New("disk on fire") }, 3, "dws: boom: disk on fire\n"},
		{"panic in a rule", func(*cli.Context) error {
			panic(&lint.PanicError{File: "flows/a.json", Value: "index out of range"})
		}, 3, "dws: internal error while checking flows/a.json: index out of range (please report this with the input that caused it)\n"},
		{"other panic", func(*cli.Context) error { panic("nil map") }, 3, "dws: internal error: nil map (please report this with the input that caused it)\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := &cli.Command{Name: "boom", Action: c.action}
			code := runCommands([]*cli.Command{cmd}, []string{"dws", "boom"}, nil, &stdout, &stderr)
			if code != c.code || stderr.String() != c.stderr {
				t.Errorf("exit %d, stderr %q; want %d, %q", code, stderr.String(), c.code, c.stderr)
			}
		})
	}
}

// Flags work after arguments in every command; "--" ends them; an unknown flag after
// the arguments is a usage error, not a file name.
func TestReorder(t *testing.T) {
	cmds := commands()
	for in, want := range map[string]string{
		"dws validate DIR --format json":             "dws validate --format json DIR",
		"dws validate a.json --format=json b.json":   "dws validate --format=json a.json b.json",
		"dws validate - --stdin-filename x.yaml":     "dws validate --stdin-filename x.yaml -",
		"dws validate a.json --no-color --jobs 2":    "dws validate --no-color --jobs 2 a.json",
		"dws canonical -- --odd.json":                "dws canonical -- --odd.json",
		"dws sign f.json --key k.key":                "dws sign --key k.key f.json",
		"dws validate a.json --bogus":                "dws validate --bogus a.json",
		"dws --help":                                 "dws --help",
		"dws checksum --write dws.lock dir --jobs 1": "dws checksum --write dws.lock --jobs 1 dir",
	} {
		if got := strings.Join(reorder(cmds, strings.Fields(in)), " "); got != want {
			t.Errorf("%s\n got %s\nwant %s", in, got, want)
		}
	}
}

// An unknown command or help topic is a usage error (2), with the nearest command.
func TestUnknownCommandExit(t *testing.T) {
	for _, args := range [][]string{{"dws", "validat"}, {"dws", "help", "validat"}} {
		var stdout, stderr bytes.Buffer
		code := runCommands(commands(), args, nil, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), `did you mean "validate"?`) || stdout.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want 2 and a suggestion", args, code, stderr.String(), stdout.String())
		}
	}
}
