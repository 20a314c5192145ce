package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/dwsdev/dws/cache"
	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
	"github.com/urfave/cli/v2"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "run the validate pipeline on files and directories",
		ArgsUsage: "[PATH…]  (files, directories, or - for standard input; none = the config's include)",
		Description: `Reads each definition, detects its dialect, and runs every stage on it: parse, schema,
graph, the dialect's rules, SQL allow-listing and the checksum. Directories are walked
through the config's include and exclude globs. A scenario file (*.scenario.yaml) is
checked against the scenario schema (dws schema scenario); dws test runs it.
Findings are printed in --format.

Exit codes:
  0  nothing at or above --fail-on, and no more warnings than --max-warnings
  1  findings (an unreadable or malformed file is a finding); with --write-baseline,
     findings no baseline can hide
  2  usage or configuration error, a directory in which nothing is checked, or an
     output file (--output, --write-baseline) that cannot be written
  3  dws failed (an internal error)`,
		Flags: []cli.Flag{
			oneOf(&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: " + strings.Join(report.Formats, ", ")}, report.Formats...),
			&cli.StringFlag{Name: "config", Usage: "config file (default: the nearest .dws.yaml)"},
			dialectFlag("validate every file as this dialect"),
			oneOf(&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "lowest severity that fails the run: " + strings.Join(failOnValues, ", ")}, failOnValues...),
			&cli.IntFlag{Name: "max-warnings", Value: -1, Usage: "fail when there are more warnings than this (-1: no limit)"},
			&cli.IntFlag{Name: "jobs", Value: runtime.NumCPU(), Usage: "files checked in parallel"},
			shardFlag(),
			&cli.BoolFlag{Name: "only-included", Usage: "check only the given files a directory walk would take (the config's include/exclude, no hidden files): for hooks that pass every changed file"},
			&cli.StringFlag{Name: "stdin-filename", Usage: "the name to report standard input as (its extension picks JSON or YAML)"},
			&cli.StringFlag{Name: "write-baseline", Usage: "record today's findings in this baseline file; those no baseline can hide (read, parse, dialect, unused-suppression) are listed instead and judged by --fail-on"},
			&cli.BoolFlag{Name: "no-color", Usage: "never style the output (as --color never)"},
			colorFlag(),
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "report errors only; warnings and infos neither show nor count"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to this file (atomically) instead of standard output"},
			&cli.StringFlag{Name: "cache", Usage: "remember clean files in this directory (default: dws in the user cache directory)"},
			&cli.BoolFlag{Name: "no-cache", Usage: "check every file, reading and writing no cache"},
		},
		Action: validate,
	}
}

// setup is what every pipeline command needs: the rule registry, the dialects and the
// config in force.
type setup struct {
	reg *lint.Registry
	cfg *lint.Config
}

func loadSetup(configFlag string) (*setup, error) { return loadSetupOf(configFlag, lint.LoadConfig) }

// loadLinter is loadSetup and the linter of its registry and config: what graph,
// simulate, test and diff start with. A config the linter refuses is a usage error.
func loadLinter(configFlag string) (*setup, *lint.Linter, error) {
	s, err := loadSetup(configFlag)
	if err != nil {
		return nil, nil, err
	}
	l, err := lint.New(s.reg, s.cfg)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return s, l, nil
}

// loadSetupOf is loadSetup with the config read by load (lint.LoadConfig, or
// lint.LoadConfigDeferring for a run that may need none of the sections' files).
func loadSetupOf(configFlag string, load func(string, *lint.Registry) (*lint.Config, error)) (*setup, error) {
	s := &setup{reg: dialect.Registry()}
	path := configFlag
	if path == "" {
		if p, ok := lint.FindConfig("."); ok {
			path = p
		}
	}
	if path == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		s.cfg = lint.DefaultConfig(wd)
		return s, nil
	}
	cfg, err := load(path, s.reg)
	if err != nil {
		return nil, usageError{err}
	}
	s.cfg = cfg
	return s, nil
}

func validate(c *cli.Context) error {
	start := time.Now()
	format := c.String("format")
	if !slices.Contains(report.Formats, format) {
		return usagef("--format: %q is not one of %s", format, strings.Join(report.Formats, ", "))
	}
	failOn, err := lint.ParseSeverity(c.String("fail-on"))
	if err != nil || failOn == lint.Off {
		return usagef("--fail-on: %q is not one of error, warning, info", c.String("fail-on"))
	}
	if c.Int("jobs") < 1 {
		return usagef("--jobs: want at least 1")
	}
	if err := checkColor(c); err != nil {
		return err
	}
	maxWarnings := c.Int("max-warnings")
	if maxWarnings < -1 {
		return usagef("--max-warnings: %d is not a count; want 0 or more, or -1 for no limit", maxWarnings)
	}
	if c.IsSet("stdin-filename") && !slices.Contains(c.Args().Slice(), "-") {
		return usagef("--stdin-filename names standard input, but no - argument reads it (dws validate --stdin-filename %s -)", c.String("stdin-filename"))
	}
	// The config's sections (a DDL to parse, a template registry) are loaded only once
	// a file needs checking: a run the cache answers throughout needs none of them.
	// Their bytes are in the cache's scope, and only a run that loaded them without an
	// error can have filled it, so such a run's config is one that loads. Every other
	// way out still reports a section's error first, as when it was loaded at once.
	s, err := loadSetupOf(c.String("config"), lint.LoadConfigDeferring)
	if err != nil {
		return err
	}
	configFirst := func(err error) error {
		if cerr := s.cfg.LoadSections(); cerr != nil {
			return usageError{cerr}
		}
		return err
	}
	forced := c.String("dialect")
	if _, known := s.reg.Dialect(forced); forced != "" && !known {
		return configFirst(usagef("--dialect: unknown dialect %q (known: %s)", forced, strings.Join(s.reg.DialectIDs(), ", ")))
	}
	writeBaseline, err := outputFlag(c, "write-baseline")
	if err != nil {
		return configFirst(err)
	}
	out, err := outputFlag(c, "output")
	if err != nil {
		return configFirst(err)
	}
	cfg := *s.cfg
	if writeBaseline != "" {
		cfg.Baseline = "" // record every finding, including those the old baseline hides
	}
	l, err := lint.New(s.reg, &cfg)
	if err != nil {
		return configFirst(usageError{err})
	}
	l.Jobs, l.Dialect = c.Int("jobs"), forced
	l.Scenarios = true // their shape is checked too
	var sectionsErr error
	l.Ready = func() bool {
		sectionsErr = s.cfg.LoadSections()
		return sectionsErr == nil
	}
	if c.Bool("no-cache") && c.IsSet("cache") {
		return configFirst(usagef("--cache and --no-cache: give one"))
	}
	// A baseline records every finding, and a clean file has none: the cache changes
	// nothing there, but keep the one run that rewrites a baseline free of it.
	if !c.Bool("no-cache") && writeBaseline == "" {
		if dir, ok := cacheDir(c.String("cache")); ok {
			l.Cache = cache.Open(dir, l.CacheScope(buildIdentity()))
			defer func() {
				// A cache only makes runs faster: failing to write it fails nothing,
				// and only a directory the user named is worth a word. One another
				// user could have written is always said, once.
				if err := l.Cache.Close(); err != nil && c.IsSet("cache") {
					fmt.Fprintf(c.App.ErrWriter, "dws: --cache %s: %v\n", c.String("cache"), err)
				}
				if err := l.Cache.Refused(); err != nil {
					fmt.Fprintf(c.App.ErrWriter, "dws: %v\n", err)
				}
			}()
		}
	}

	paths := c.Args().Slice()
	if len(paths) == 0 {
		paths = []string{relativeDir(s.cfg.Dir)}
	}
	var inputs []lint.Input
	var fsPaths []string
	stdinUsed := false
	for _, p := range paths {
		if p != "-" {
			fsPaths = append(fsPaths, p)
			continue
		}
		if stdinUsed {
			return configFirst(usagef("standard input (-) can be given only once"))
		}
		stdinUsed = true
		data, err := readStdin(c)
		if err != nil {
			return configFirst(usageError{err})
		}
		name := c.String("stdin-filename")
		if name == "" {
			name = "<stdin>"
		}
		inputs = append(inputs, lint.Input{Path: name, Data: data, Stdin: true})
	}
	expanded, problems, err := l.Expand(fsPaths)
	if err != nil {
		return configFirst(usageError{err})
	}
	sh, err := parseShard(c.String("shard"))
	if err != nil {
		return configFirst(err)
	}
	if sh.n > 0 && stdinUsed {
		return configFirst(usagef("--shard splits files; it cannot take standard input (-)"))
	}
	// Filtered in place: a walk's inputs are some hundred bytes a file, and a copy of
	// 10,000 of them was a tenth of a warm run's fresh memory.
	onlyIncluded := c.Bool("only-included")
	kept := slices.DeleteFunc(expanded, func(in lint.Input) bool {
		return !sh.has(in.Path, s.cfg.Dir) || (onlyIncluded && !l.Selects(in.Path))
	})
	if len(inputs) == 0 {
		inputs = kept
	} else {
		inputs = append(inputs, kept...)
	}
	res := l.Run(inputs, problems...)
	if len(inputs) == 0 && sectionsErr == nil {
		sectionsErr = s.cfg.LoadSections() // no file for the cache to answer
	}
	if sectionsErr != nil {
		return usageError{sectionsErr}
	}

	if writeBaseline != "" {
		n, left, err := lint.WriteBaseline(writeBaseline, res)
		if err != nil {
			return outputError("--write-baseline", writeBaseline, err)
		}
		fmt.Fprintf(c.App.ErrWriter, "dws: recorded %s in %s\n", plural(n, "finding"), writeBaseline)
		if abs, err := filepath.Abs(writeBaseline); err == nil && abs != s.cfg.Baseline {
			fmt.Fprintln(c.App.ErrWriter, baselineHint(s.cfg, abs))
		}
		return notRecorded(c, res, left, failOn)
	}

	if c.Bool("quiet") {
		// As ESLint's --quiet: warnings and infos are not findings of this run, neither
		// in the report nor for --fail-on and --max-warnings, so the exit code always
		// matches what is shown.
		res = errorsOnly(res)
	}
	code, warnings := exitStatus(res, failOn, maxWarnings)
	dst := c.App.Writer
	var buf bytes.Buffer
	if out != "" {
		dst = &buf
	}
	w, _ := report.New(format, report.Options{
		Color:      out == "" && colorWanted(c, c.App.Writer),
		Version:    version(),
		Registry:   s.reg,
		Invocation: &report.Invocation{ExitCode: code, Start: start, End: time.Now()},
	})
	if err := w.Write(dst, res); err != nil {
		return failedTo("writing the report", err)
	}
	if out != "" {
		if err := writeOutput("--output", out, buf.Bytes()); err != nil {
			return err
		}
	}
	if maxWarnings >= 0 && warnings > maxWarnings {
		// On standard error: standard output is the report, which may be JSON or SARIF.
		fmt.Fprintf(c.App.ErrWriter, "dws: too many warnings (%d, maximum %d)\n", warnings, maxWarnings)
	}
	return exitCode(code)
}

// notRecorded says which findings --write-baseline left out because no baseline hides
// them (a file that does not parse, an unused suppression), with their places, and
// fails the run as the next dws validate will when one is at or above --fail-on.
func notRecorded(c *cli.Context, res *lint.Result, left []lint.Diagnostic, failOn lint.Severity) error {
	if len(left) == 0 {
		return nil
	}
	var todo []string
	if slices.ContainsFunc(left, func(d lint.Diagnostic) bool { return lint.Unsuppressible(d.Rule) }) {
		todo = append(todo, "fix the file or exclude it")
	}
	if slices.ContainsFunc(left, func(d lint.Diagnostic) bool { return d.Rule == "unused-suppression" }) {
		todo = append(todo, "remove the suppression")
	}
	fmt.Fprintf(c.App.ErrWriter, "dws: not recorded: %s no baseline can hide (%s):\n",
		plural(len(left), "finding"), strings.Join(todo, "; "))
	var files []lint.FileResult
	for _, f := range res.Files {
		kept := slices.DeleteFunc(slices.Clone(f.Diagnostics), func(d lint.Diagnostic) bool {
			return !slices.ContainsFunc(left, func(l lint.Diagnostic) bool { return lint.Compare(l, d) == 0 })
		})
		if len(kept) > 0 {
			f.Diagnostics = kept
			files = append(files, f)
		}
	}
	if err := report.WriteFindings(c.App.ErrWriter, files, colorWanted(c, c.App.ErrWriter)); err != nil {
		return failedTo("writing the report", err)
	}
	code, _ := exitStatus(&lint.Result{Files: files}, failOn, -1)
	return exitCode(code)
}

// exitStatus is the exit code of a run, and how many warnings it has.
func exitStatus(res *lint.Result, failOn lint.Severity, maxWarnings int) (code, warnings int) {
	failed := false
	for _, d := range res.Diagnostics() {
		if d.Severity >= failOn {
			failed = true
		}
		if d.Severity == lint.Warning {
			warnings++
		}
	}
	if failed || (maxWarnings >= 0 && warnings > maxWarnings) {
		return exitFindings, warnings
	}
	return exitOK, warnings
}

// colorFlag is --color, which validate and simulate share.
func colorFlag() cli.Flag {
	return oneOf(&cli.StringFlag{Name: "color", Value: "auto", Usage: "style the output: auto (on a terminal), always, never"}, colorValues...)
}

// checkColor refuses a --color value that is none of auto, always, never.
func checkColor(c *cli.Context) error {
	if v := c.String("color"); v != "auto" && v != "always" && v != "never" {
		return usagef("--color: %q is not one of auto, always, never", v)
	}
	return nil
}

// colorWanted decides styling, the most explicit word first: --no-color or
// --color=never, then --color=always, then FORCE_COLOR (set and not 0), then NO_COLOR;
// otherwise only on a terminal.
func colorWanted(c *cli.Context, w io.Writer) bool {
	switch {
	case c.Bool("no-color") || c.String("color") == "never":
		return false
	case c.String("color") == "always":
		return true
	case os.Getenv("FORCE_COLOR") != "" && os.Getenv("FORCE_COLOR") != "0":
		return true
	case os.Getenv("NO_COLOR") != "":
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// relativeDir shows dir relative to the working directory when it can, so that a bare
// `dws validate` in a project prints short paths.
func relativeDir(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	if rel, err := filepath.Rel(wd, dir); err == nil {
		return rel
	}
	return dir
}

// baselineHint tells the user that the baseline just written is not the one the config
// reads, and what to write so that dws validate uses it.
func baselineHint(cfg *lint.Config, abs string) string {
	rel, err := filepath.Rel(cfg.Dir, abs)
	if err != nil {
		rel = abs
	}
	rel = filepath.ToSlash(rel)
	switch {
	case cfg.Path == "":
		return fmt.Sprintf("dws: no %s reads it yet: run dws init, then set \"baseline: %s\" in it", lint.ConfigName, rel)
	case cfg.Baseline == "":
		return fmt.Sprintf("dws: %s has no baseline: key, so dws validate does not read it yet: add \"baseline: %s\"", filepath.ToSlash(relativeDir(cfg.Path)), rel)
	default:
		return fmt.Sprintf("dws: %s reads another baseline; set \"baseline: %s\" to use this one", filepath.ToSlash(relativeDir(cfg.Path)), rel)
	}
}

// errorsOnly is res with its warnings and infos left out (--quiet): a file keeps its
// place, so the summary still counts every file checked.
func errorsOnly(res *lint.Result) *lint.Result {
	q := *res
	q.Files = make([]lint.FileResult, len(res.Files))
	for i, f := range res.Files {
		f.Diagnostics = slices.DeleteFunc(slices.Clone(f.Diagnostics), func(d lint.Diagnostic) bool { return d.Severity != lint.Error })
		q.Files[i] = f
	}
	return &q
}
