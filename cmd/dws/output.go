package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/dwsdev/dws/lint"
	"github.com/urfave/cli/v2"
)

// Output files: a file the user names for dws to write (validate -o and
// --write-baseline, graph -o, test -o and --coverage-report, checksum --write, keygen
// --out, simulate --emit-scenarios and the files in it, init's .dws.yaml, sign's file).
// dws writes each atomically (lint.WriteFileAtomic and the canonical package's
// writers), and one it cannot write is the user's error, not dws's: exit 2, naming the
// flag, the path and why (SPEC §5 keeps exit 3 for dws's own failures). What can be
// told before any work starts is told then (outputFlag): an empty name, a directory,
// a directory that does not exist; the rest (a read-only file system, /proc) when the
// write fails (outputError).

// outputFlag is the output path the flag name gives: "" when it is not given. Given
// empty, or naming what cannot be a file dws writes, it is a usage error.
func outputFlag(c *cli.Context, name string) (string, error) {
	path := c.String(name)
	if path == "" {
		if c.IsSet(name) {
			return "", usagef("--%s: give a file name", name)
		}
		return "", nil
	}
	return path, checkOutput("--"+name, path)
}

// checkOutput refuses an output path that cannot be written as a file: one that is a
// directory, whose directory does not exist or is not one, or whose name the system
// refuses (too long, a loop of links).
func checkOutput(flag, path string) error {
	if lst, err := os.Lstat(path); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return outputError(flag, path, err)
		}
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return usagef("%s: cannot write %s: it is a directory", flag, path)
	case err == nil, errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
	default:
		return outputError(flag, path, err)
	}
	dir := filepath.Dir(path)
	switch st, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("%s: cannot write %s: its directory %s does not exist", flag, path, dir)
	case err != nil:
		return outputError(flag, path, err)
	case !st.IsDir():
		return usagef("%s: cannot write %s: %s is not a directory", flag, path, dir)
	}
	return nil
}

// writeOutput writes data to the output file path atomically, or returns the usage
// error that says why it could not.
//
// A report named onto a device or a pipe (-o /dev/stdout, -o /dev/null, a FIFO another
// program reads) is written through it, as a shell's > would; such a name is never
// replaced by a file. A link to a regular file is written through too (the link stays).
func writeOutput(flag, path string, data []byte) error {
	if st, err := os.Stat(path); err == nil && !st.IsDir() && !st.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err == nil {
			_, err = f.Write(data)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			return outputError(flag, path, err)
		}
		return nil
	}
	if err := lint.WriteFileAtomic(path, data); err != nil {
		return outputError(flag, path, err)
	}
	return nil
}

// outputError is err, met writing the output file path that flag names (or a command
// names: "init: "), as the usage error that names them and says why.
func outputError(flag, path string, err error) error {
	return usagef("%s: cannot write %s: %s", flag, path, whyUnwritable(path, err))
}

// whyUnwritable says why path could not be written: in the user's terms where it can
// tell more (a directory, a link to nothing, a directory that does not exist), else the
// system's reason, or err itself when it is not the system's (a file that holds
// something else).
func whyUnwritable(path string, err error) string {
	if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
		if _, serr := os.Stat(path); errors.Is(serr, fs.ErrNotExist) {
			target, _ := os.Readlink(path)
			return "it is a symbolic link to " + target + ", which does not exist"
		}
	}
	if st, serr := os.Stat(path); serr == nil && st.IsDir() {
		return "it is a directory"
	}
	var errno syscall.Errno
	switch {
	case errors.Is(err, fs.ErrExist):
		return "it already exists"
	case !errors.As(err, &errno):
		return err.Error()
	case errno == syscall.ENOENT:
		dir := filepath.Dir(path)
		if _, serr := os.Stat(dir); errors.Is(serr, fs.ErrNotExist) {
			return "its directory " + dir + " does not exist"
		}
	case errno == syscall.ENOTDIR:
		// The nearest thing above it that exists is a file.
		for p := filepath.Dir(path); p != filepath.Dir(p); p = filepath.Dir(p) {
			if st, serr := os.Stat(p); serr == nil {
				if !st.IsDir() {
					return p + " is not a directory"
				}
				break
			}
		}
	}
	return errno.Error()
}
