package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
	"github.com/dwsdev/dws/scenario"
	"github.com/urfave/cli/v2"
)

func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run scenario files (*.scenario.yaml) against stub workers, with a coverage gate",
		ArgsUsage: "[PATH…]",
		Description: `Finds every *.scenario.yaml under the PATHs (default: the directories the
config's include globs start from, else the current directory) and runs each: the
definition it names is validated (with the config's rules and lockfile), then run from
the scenario's context with its stubs answering, and the run is compared with expect
(status, path, visits, context). Scenarios run in parallel; the report has one line per
scenario, each failure with the expected and actual path side by side, the coverage of
each definition (edges the scenarios took, among the edges some path can take) and a
summary. The scenario format: dws schema scenario, and docs/scenarios.md. With --shard K/N
only that part of the scenarios runs, and coverage is that part's.

Exit status: 0 every scenario passed and coverage meets --min-coverage; 1 otherwise;
2 usage or configuration error; 3 dws failed.`,
		Flags: []cli.Flag{
			oneOf(&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: " + strings.Join(report.TestFormats, ", ")}, report.TestFormats...),
			&cli.StringFlag{Name: "run", Usage: "run only the scenarios whose name matches this regular expression"},
			&cli.Float64Flag{Name: "min-coverage", Value: -1, Usage: "fail below this edge coverage, in percent (0-100)"},
			&cli.StringFlag{Name: "coverage-report", Usage: "write an HTML page of each definition's graph and its covered edges", TakesFile: true},
			&cli.DurationFlag{Name: "stub-timeout", Value: 10 * time.Second, Usage: "kill a stub worker process after this long"},
			&cli.IntFlag{Name: "max-steps", Value: 10000, Usage: "steps a run may take before it ends cut"},
			&cli.StringFlag{Name: "config", Usage: "config file (default: the nearest .dws.yaml)"},
			&cli.IntFlag{Name: "jobs", Value: runtime.NumCPU(), Usage: "scenarios run in parallel"},
			shardFlag(),
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the report to this file (atomically) instead of standard output", TakesFile: true},
			&cli.BoolFlag{Name: "no-color", Usage: "never style the output (as --color never)"},
			colorFlag(),
		},
		Action: runTests,
	}
}

func runTests(c *cli.Context) error {
	if err := checkColor(c); err != nil {
		return err
	}
	format := c.String("format")
	if !slices.Contains(report.TestFormats, format) {
		return usagef("--format: %q is not one of %s", format, strings.Join(report.TestFormats, ", "))
	}
	minCov := c.Float64("min-coverage")
	if c.IsSet("min-coverage") && (minCov < 0 || minCov > 100) {
		return usagef("--min-coverage: %g is not a percentage from 0 to 100", minCov)
	}
	if c.Int("jobs") < 1 || c.Int("max-steps") < 1 || c.Duration("stub-timeout") <= 0 {
		return usagef("--jobs and --max-steps must be at least 1, --stub-timeout positive")
	}
	out, err := outputFlag(c, "output")
	if err != nil {
		return err
	}
	coverage, err := outputFlag(c, "coverage-report")
	if err != nil {
		return err
	}
	var only *regexp.Regexp
	if r := c.String("run"); r != "" {
		re, err := regexp.Compile(r)
		if err != nil {
			return usagef("--run: %v", err)
		}
		only = re
	}
	s, l, err := loadLinter(c.String("config"))
	if err != nil {
		return err
	}
	l.Jobs = c.Int("jobs")
	paths := c.Args().Slice()
	if len(paths) == 0 {
		paths = includeRoots(s.cfg)
	}
	files, err := scenario.Find(paths)
	if err != nil {
		return usagef("test: %v", err)
	}
	sh, err := parseShard(c.String("shard"))
	if err != nil {
		return err
	}
	files = slices.DeleteFunc(files, func(f string) bool { return !sh.has(f, s.cfg.Dir) })
	switch {
	case len(files) == 0 && sh.n == 0:
		return usagef("test: no *.scenario.yaml files under %s", strings.Join(paths, ", "))
	case len(files) == 0:
		fmt.Fprintf(c.App.Writer, "no scenarios in shard %s\n", c.String("shard"))
		return nil
	}
	suite := scenario.Run(l, files, only, scenario.Options{StubTimeout: c.Duration("stub-timeout"), MaxSteps: c.Int("max-steps")}, c.Int("jobs"))
	if len(suite.Outcomes) == 0 {
		return usagef("test: --run %q matches none of the %d scenarios", c.String("run"), len(files))
	}
	if coverage != "" {
		var buf bytes.Buffer
		if err := report.WriteCoverageHTML(&buf, suite, minCov); err != nil {
			return failedTo("writing the coverage report", err)
		}
		if err := writeOutput("--coverage-report", coverage, buf.Bytes()); err != nil {
			return err
		}
	}
	opts := report.Options{Color: colorWanted(c, c.App.Writer), Version: version(), Registry: s.reg}
	if out != "" {
		opts.Color = false
		var buf bytes.Buffer
		if err := report.WriteTest(&buf, format, suite, minCov, opts); err != nil {
			return failedTo("writing the report", err)
		}
		if err := writeOutput("--output", out, buf.Bytes()); err != nil {
			return err
		}
	} else if err := report.WriteTest(c.App.Writer, format, suite, minCov, opts); err != nil {
		return failedTo("writing the report", err)
	}
	code := 0
	if suite.Passed() < len(suite.Outcomes) {
		code = 1
	}
	if t := suite.Total(); minCov >= 0 && len(suite.Definitions) > 0 && t.Percent() < minCov {
		code = 1
	}
	return exitCode(code)
}

// includeRoots are the directories the config's include globs start from (fixtures for
// fixtures/**/*.json), or the config's directory when a glob starts with a pattern.
func includeRoots(cfg *lint.Config) []string {
	var out []string
	for _, g := range cfg.Include {
		lit := g
		if i := strings.IndexAny(g, "*?[{"); i >= 0 {
			lit = g[:i]
		}
		dir := filepath.Join(cfg.Dir, filepath.FromSlash(filepath.Dir(lit+"x")))
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			continue
		}
		if rel, err := filepath.Rel(mustWd(), dir); err == nil && !strings.HasPrefix(rel, "..") {
			dir = rel
		}
		if !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	if len(out) == 0 {
		out = []string{"."}
	}
	return out
}

func mustWd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	return wd
}
