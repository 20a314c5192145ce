package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/urfave/cli/v2"
)

func checksumCommand() *cli.Command {
	return &cli.Command{
		Name:      "checksum",
		Usage:     "print, record (--write) or verify (--check) the canonical checksums of definitions",
		ArgsUsage: "[PATH…]  (files, directories, or - for standard input; none = the config's include)",
		Description: `Prints "sha256:<hex>  <path>" for each file: the SHA-256 of its canonical bytes
(see dws canonical), so formatting, key order, number spelling and the top-level
signature do not change it. Directories are walked with the config's include and
exclude globs, as dws validate walks them.

--write FILE merges the checksums into the lockfile FILE, creating it if needed:
entries for other files are kept, so recording a subset never drops the rest.
Keys are paths relative to the lockfile's directory. The lockfile is sorted, byte
stable and written atomically, also when several dws processes write it at once.
Nothing is written when any file cannot be checksummed.

--nodes prints, for each node of each versioned definition, its own hash and its
key instead (one line a node: own, key, unit, node): a node whose key is unchanged
ran on the same inputs and need not run again.

--write FILE --publish also records each versioned definition (cortex, dws-workflow,
dws-contract, direclaw) in the lockfile's published section, keyed by unit@version:
its checksum, its nodes' own hashes and its path. The section only grows: a version
already published with other content is version-mutated, and then nothing is written.
--check FILE --published checks each versioned definition of PATHs (default: the
config's directory) against it: OK, MUTATED (exit 1) or UNPUBLISHED.

--check FILE verifies every entry of the lockfile FILE (or, with PATHs, only those
files) and prints "path: OK", "path: FAILED (…)", "path: MISSING" or
"path: NOT IN LOCKFILE" for each, then a summary.

Exit status: 0 all files checksummed (and, with --check, all match); 1 a file cannot
be read or parsed, or a check failed; 2 usage error, or the lockfile for --check
cannot be read.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "write", Usage: "merge the checksums into this lockfile", TakesFile: true},
			&cli.StringFlag{Name: "check", Usage: "verify the files recorded in this lockfile", TakesFile: true},
			&cli.StringFlag{Name: "config", Usage: "config file (default: the nearest .dws.yaml)"},
			&cli.IntFlag{Name: "jobs", Value: runtime.NumCPU(), Usage: "files checksummed in parallel"},
			&cli.StringFlag{Name: "stdin-filename", Usage: "the name to print for standard input (its extension picks JSON or YAML)"},
			&cli.BoolFlag{Name: "nodes", Usage: "print each node's own hash and key instead (see docs/change.md)"},
			&cli.BoolFlag{Name: "publish", Usage: "with --write: also record each versioned definition in the lockfile's published section, which only grows"},
			&cli.BoolFlag{Name: "published", Usage: "with --check: check each versioned definition against the published section instead (the deploy gate)"},
		},
		Action: checksum,
	}
}

func checksum(c *cli.Context) error {
	args := c.Args().Slice()
	write, err := outputFlag(c, "write")
	if err != nil {
		return err
	}
	check := c.String("check")
	if write != "" && check != "" {
		return usagef("--write and --check cannot be used together")
	}
	if c.Int("jobs") < 1 {
		return usagef("--jobs: want at least 1")
	}
	s, err := loadSetup(c.String("config"))
	if err != nil {
		return err
	}
	if (write != "" || check != "") && containsStdin(args) {
		return usagef("standard input (-) has no path to record in a lockfile")
	}
	if c.Bool("publish") && write == "" || c.Bool("published") && check == "" {
		return usagef("--publish goes with --write, --published with --check")
	}
	if c.Bool("nodes") && (write != "" || check != "" || containsStdin(args)) {
		return usagef("--nodes prints the hashes of files: not with --write, --check or standard input")
	}
	if check != "" && c.Bool("published") {
		if len(args) == 0 {
			args = []string{relativeDir(s.cfg.Dir)}
		}
		files, err := expandOrSay(c, s, args, check)
		if err != nil {
			return err
		}
		return checkPublished(c, s, check, files)
	}
	if check != "" {
		return checkLock(c, s, check, args)
	}
	if c.Bool("nodes") {
		return checksumNodes(c, s, args)
	}
	if len(args) == 0 {
		args = []string{relativeDir(s.cfg.Dir)}
	}
	files, problems, err := expandPaths(s, args, write)
	if err != nil {
		return err
	}
	stderr := c.App.ErrWriter
	failed := len(problems)
	for _, p := range problems {
		fmt.Fprintf(stderr, "dws: %s: %s\n", printable.String(p.File), printable.String(p.Message))
	}
	results := sumFiles(c, files, c.Int("jobs"))
	for _, r := range results {
		if r.err != nil {
			failed++
			printLoadError(stderr, r.err)
		} else if write == "" {
			fmt.Fprintf(c.App.Writer, "%s  %s\n", r.sum, printable.String(r.path))
		}
	}
	if write == "" {
		if failed > 0 {
			return exitCode(exitFindings)
		}
		return nil
	}
	if failed > 0 {
		return failf(stderr, "%s not written: %s could not be checksummed", write, plural(failed, "file"))
	}
	if c.Bool("publish") {
		if containsStdin(files) {
			return usagef("standard input (-) has no path to record in a lockfile")
		}
		if err := publish(c, s, write, files); err != nil {
			return err
		}
	}
	entries := make(map[string]string, len(results))
	for _, r := range results {
		key, err := canonical.RelPath(write, r.path)
		if err != nil {
			return failf(stderr, "%v", err)
		}
		entries[key] = r.sum
	}
	if err := canonical.UpdateLock(write, entries); err != nil {
		return outputError("--write", write, err)
	}
	total := len(entries)
	if l, err := canonical.ReadLock(write); err == nil {
		total = len(l.Files)
	}
	fmt.Fprintf(stderr, "dws: recorded %s in %s (%d in all; other entries kept)\n", plural(len(entries), "checksum"), write, total)
	return nil
}

// checkLock verifies the lockfile's entries, or only the files args name.
func checkLock(c *cli.Context, s *setup, lockPath string, args []string) error {
	lock, err := canonical.ReadLock(lockPath)
	if err != nil {
		return usageError{err}
	}
	type item struct {
		path     string // as shown and opened
		expected string // "" when the file is not in the lockfile
	}
	var items []item
	if len(args) == 0 {
		keys := make([]string, 0, len(lock.Files))
		for k := range lock.Files {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		dir := filepath.Dir(lockPath)
		for _, k := range keys {
			p := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(k)))
			items = append(items, item{path: p, expected: lock.Files[k]})
		}
	} else {
		files, err := expandOrSay(c, s, args, lockPath)
		if err != nil {
			return err
		}
		for _, f := range files {
			key, err := canonical.RelPath(lockPath, f)
			if err != nil {
				return failf(c.App.ErrWriter, "%v", err)
			}
			items = append(items, item{path: f, expected: lock.Files[key]})
		}
	}
	if len(items) == 0 {
		fmt.Fprintf(c.App.Writer, "%s records no files\n", lockPath)
		return nil
	}

	var toSum []string
	for _, it := range items {
		if it.expected != "" {
			toSum = append(toSum, it.path)
		}
	}
	sums := sumFiles(c, toSum, c.Int("jobs"))
	var failed, missing, notIn int
	out := c.App.Writer
	for _, it := range items {
		if it.expected == "" {
			notIn++
			fmt.Fprintf(out, "%s: NOT IN LOCKFILE\n", it.path)
			continue
		}
		r := sums[0]
		sums = sums[1:]
		switch {
		case errors.Is(r.err, errNoSuchFile):
			missing++
			fmt.Fprintf(out, "%s: MISSING\n", it.path)
		case r.err != nil:
			failed++
			fmt.Fprintf(out, "%s: FAILED (%s)\n", it.path, loadProblem(r.err))
		case r.sum != it.expected:
			failed++
			fmt.Fprintf(out, "%s: FAILED (expected %s, got %s)\n", it.path, it.expected, r.sum)
		default:
			fmt.Fprintf(out, "%s: OK\n", it.path)
		}
	}
	bad := failed + missing + notIn
	if bad == 0 {
		if len(items) == 1 {
			fmt.Fprintf(out, "1 file matches %s\n", lockPath)
		} else {
			fmt.Fprintf(out, "all %d files match %s\n", len(items), lockPath)
		}
		return nil
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{failed, "FAILED"}, {missing, "MISSING"}, {notIn, "NOT IN LOCKFILE"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	verb := "do"
	if bad == 1 {
		verb = "does"
	}
	fmt.Fprintf(out, "%d of %s %s not match %s: %s\n", bad, plural(len(items), "file"), verb, lockPath, strings.Join(parts, ", "))
	return exitCode(exitFindings)
}

// expandPaths turns PATHs into files the way dws validate does (directories walked
// with the config's include/exclude), keeping "-" for standard input, in the order
// given. The lockfile being written or checked is never one of its own entries.
func expandPaths(s *setup, args []string, lockPath string) ([]string, []lint.Diagnostic, error) {
	l := &lint.Linter{Registry: s.reg, Config: s.cfg}
	lockAbs := ""
	if lockPath != "" {
		if a, err := filepath.Abs(lockPath); err == nil {
			lockAbs = a
		}
	}
	var files []string
	var problems []lint.Diagnostic
	stdinUsed := false
	for _, a := range args {
		if a == "-" {
			if stdinUsed {
				return nil, nil, usagef("standard input (-) can be given only once")
			}
			stdinUsed = true
			files = append(files, "-")
			continue
		}
		inputs, ps, err := l.Expand([]string{a})
		if err != nil {
			return nil, nil, usageError{err}
		}
		problems = append(problems, ps...)
		for _, in := range inputs {
			if abs, err := filepath.Abs(in.Path); err == nil && abs == lockAbs {
				continue
			}
			files = append(files, in.Path)
		}
	}
	return files, problems, nil
}

func containsStdin(args []string) bool {
	for _, a := range args {
		if a == "-" {
			return true
		}
	}
	return false
}

type sumResult struct {
	path string
	sum  string
	err  error
}

// sumFiles checksums files on at most jobs goroutines (lint's limiter, the one every
// command's concurrency goes through) and returns the results in the order of files.
// "-" is standard input, named by --stdin-filename.
func sumFiles(c *cli.Context, files []string, jobs int) []sumResult {
	res := make([]sumResult, len(files))
	for i, p := range files {
		res[i].path = p
		if p != "-" {
			continue
		}
		doc, err := loadStdin(c)
		if err == nil {
			res[i].path = doc.Path
			res[i].sum, err = canonical.ChecksumNode(doc.Root)
			if err != nil {
				err = &loadError{doc.Path, err}
			}
		}
		res[i].err = err
	}
	// A panic on a worker comes back here as a *lint.PanicError: exit 3.
	lint.NewLimiter(jobs).Each(len(files), 1, func(i int) {
		if files[i] != "-" {
			res[i].sum, res[i].err = checksumFile(files[i])
		}
	})
	return res
}

func checksumFile(path string) (string, error) {
	doc, err := loadDocument(path)
	if err != nil {
		return "", err
	}
	sum, err := canonical.ChecksumNode(doc.Root)
	if err != nil {
		return "", &loadError{path, err}
	}
	return sum, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// expandOrSay is expandPaths for a checksum command that cannot go on without every
// path: a path that cannot be expanded is said on stderr, and the command exits 1.
func expandOrSay(c *cli.Context, s *setup, args []string, lockPath string) ([]string, error) {
	files, problems, err := expandPaths(s, args, lockPath)
	if err != nil {
		return nil, err
	}
	for _, p := range problems {
		fmt.Fprintf(c.App.ErrWriter, "dws: %s: %s\n", printable.String(p.File), printable.String(p.Message))
	}
	if len(problems) > 0 {
		return nil, exitCode(exitFindings)
	}
	return files, nil
}
