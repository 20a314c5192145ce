package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
	"github.com/urfave/cli/v2"
)

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:      "simulate",
		Usage:     "explore every path of definitions: exact path counts, a covering set of paths, dead edges",
		ArgsUsage: "FILE…",
		Description: `Validates each FILE first; a definition with errors is reported and not simulated.
Then every run of the definition is explored against stub workers, following the
dialect's run-time semantics (docs/simulation.md): every choice point (a step that can succeed
or fail, a branch that can be true or false) is free. dws prints the exact number of
distinct paths and of each end state (counted, never enumerated: 2^100 is an ordinary
answer), a smallest set of paths that together take every edge any path can take, the
edges no path can take, and findings (the sim-* rules; dws explain RULE).

--path N prints path N (1-based, in the order outcomes are listed) in full.

Every run of a definition ends on its own: its loops and iteration limits are part of
its state. --max-steps N cuts runs longer than N steps (they end "cut"); it makes the
steps taken part of the state, which for a definition whose runs are far longer than N
costs states in proportion to both.

Exploration is bounded: 1,000,000 states, 256 MiB for the exact path counts, and
--max-time. A definition a bound stops is reported as not simulated, naming the bound,
and fails the run unless --allow-partial.

Exit status: 0 no finding at or above --fail-on; 1 findings (validation errors
included) or a definition a bound stopped; 2 usage or configuration error; 3 dws failed.`,
		Flags: []cli.Flag{
			oneOf(&cli.StringFlag{Name: "format", Value: "text", Usage: "output format: " + strings.Join(report.SimulationFormats, ", ")}, report.SimulationFormats...),
			&cli.IntFlag{Name: "max-paths", Value: 100, Usage: "covering paths listed per definition, of 100 steps each on average at most (counting is never cut)"},
			&cli.IntFlag{Name: "max-steps", Value: 0, Usage: "steps a run may take before it ends cut (0: no limit; every run ends on its own)"},
			&cli.StringFlag{Name: "path", Usage: "print path N of each definition in full"},
			&cli.StringFlag{Name: "context", Usage: "a JSON or YAML object: the context every run starts with", TakesFile: true},
			&cli.StringFlag{Name: "emit-scenarios", Usage: "write each covering path as a scenario file into this directory (for dws test)", TakesFile: true},
			&cli.StringFlag{Name: "config", Usage: "config file (default: the nearest .dws.yaml)"},
			oneOf(&cli.StringFlag{Name: "fail-on", Value: "error", Usage: "lowest severity that fails the run: " + strings.Join(failOnValues, ", ")}, failOnValues...),
			&cli.IntFlag{Name: "jobs", Value: runtime.NumCPU(), Usage: "files simulated in parallel"},
			&cli.DurationFlag{Name: "max-time", Value: time.Minute, Usage: "stop simulating a definition after this long (0: no limit)"},
			&cli.BoolFlag{Name: "allow-partial", Usage: "exit 0 even when a bound stopped a definition's simulation (it is still reported)"},
			&cli.BoolFlag{Name: "no-color", Usage: "never style the output (as --color never)"},
			colorFlag(),
		},
		Action: simulate,
	}
}

func simulate(c *cli.Context) error {
	if err := checkColor(c); err != nil {
		return err
	}
	format := c.String("format")
	if !slices.Contains(report.SimulationFormats, format) {
		return usagef("--format: %q is not one of %s", format, strings.Join(report.SimulationFormats, ", "))
	}
	failOn, err := lint.ParseSeverity(c.String("fail-on"))
	if err != nil || failOn == lint.Off {
		return usagef("--fail-on: %q is not one of error, warning, info", c.String("fail-on"))
	}
	if c.Int("max-paths") < 0 || c.Int("max-steps") < 0 || c.Int("jobs") < 1 || c.Duration("max-time") < 0 {
		return usagef("--max-paths, --max-steps and --max-time must be at least 0, --jobs at least 1")
	}
	var pathN *big.Int
	if p := c.String("path"); p != "" {
		n, ok := new(big.Int).SetString(p, 10)
		if !ok || n.Sign() < 1 {
			return usagef("--path: %q is not a path number (1, 2, …)", p)
		}
		pathN = n.Sub(n, big.NewInt(1))
	}
	args := c.Args().Slice()
	if len(args) == 0 {
		return usagef("simulate: want at least one FILE")
	}
	emitDir, err := emitFlag(c)
	if err != nil {
		return err
	}
	s, l, err := loadLinter(c.String("config"))
	if err != nil {
		return err
	}
	l.Jobs = c.Int("jobs")
	start, err := startContext(c.String("context"))
	if err != nil {
		return err
	}
	l.Simulation = &lint.SimulationOptions{
		Options: sim.Options{MaxSteps: c.Int("max-steps"), Context: start, MaxTime: c.Duration("max-time"),
			// The paths through each edge: the JSON and Mermaid reports show them, and
			// --path unranks through every state's count.
			EdgeCounts: format != "text" || pathN != nil},
		MaxPaths: c.Int("max-paths"),
	}
	inputs, problems, err := l.Expand(args)
	if err != nil {
		return usageError{err}
	}
	res := l.Run(inputs, problems...)
	opts := report.Options{Color: colorWanted(c, c.App.Writer), Version: version(), Registry: s.reg}
	if pathN != nil {
		if err := checkPath(res, pathN); err != nil {
			return err
		}
	}
	if emitDir != "" {
		if err := emitScenarios(c, res, emitDir); err != nil {
			return err
		}
	}
	if pathN != nil {
		printPath(c, res, pathN)
	} else if err := report.WriteSimulation(c.App.Writer, format, res, opts); err != nil {
		return failedTo("writing the report", err)
	}
	code, _ := exitStatus(res, failOn, -1)
	if code == exitOK && !c.Bool("allow-partial") && stopped(res) {
		code = exitFindings
	}
	return exitCode(code)
}

// emitFlag is --emit-scenarios's directory ("" when not given), refused before
// anything is simulated when it is given empty, names something other than a directory
// (or a path under such a thing), a link to nothing, or a name the system refuses: a
// usage error, as is a directory that cannot be made or written when the scenarios are
// written (output.go).
func emitFlag(c *cli.Context) (string, error) {
	dir := c.String("emit-scenarios")
	if dir == "" {
		if c.IsSet("emit-scenarios") {
			return "", usagef("--emit-scenarios: give a directory")
		}
		return "", nil
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && !st.IsDir():
		return "", usagef("--emit-scenarios: %s is not a directory", dir)
	case err == nil:
	case errors.Is(err, syscall.ENOTDIR):
		return "", usagef("--emit-scenarios: %s: a part of it is not a directory", dir)
	case !errors.Is(err, fs.ErrNotExist):
		return "", outputError("--emit-scenarios", dir, err)
	default:
		if _, lerr := os.Lstat(dir); lerr == nil { // a link to nothing
			return "", outputError("--emit-scenarios", dir, err)
		}
	}
	return dir, nil
}

// stopped reports whether a bound stopped the simulation of some file (SPEC §8.4:
// giving up is said, and fails the run unless --allow-partial).
func stopped(res *lint.Result) bool {
	for _, f := range res.Files {
		var be *sim.BoundError
		if f.Simulation != nil && errors.As(f.Simulation.Err, &be) {
			return true
		}
	}
	return false
}

// emitScenarios writes every covering path of every simulated definition as a scenario
// file into dir, each naming its definition relative to dir and recording its checksum.
// File names come from scenario.Stems: inside dir, and one definition's never another's,
// so the count said is the count on disk.
func emitScenarios(c *cli.Context, res *lint.Result, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return outputError("--emit-scenarios", dir, err)
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return failedTo("finding "+dir, err)
	}
	written, unpinned := 0, 0
	var stems scenario.Stems
	for _, f := range res.Files {
		if f.Simulation == nil {
			continue
		}
		if !utf8.ValidString(f.Path) {
			fmt.Fprintf(c.App.ErrWriter, "dws: %s: a scenario file cannot name a path that is not UTF-8; it gets no scenario\n", printable.String(f.Path))
			continue
		}
		abs, err := filepath.Abs(f.Path)
		if err != nil {
			return failedTo("finding "+f.Path, err)
		}
		rel, err := filepath.Rel(absDir, abs)
		if err != nil {
			rel = abs
		}
		for _, d := range f.Simulation.Definitions {
			stem := stems.Stem(f.Path, d.Workflow)
			if d.Result.CoverSize > len(d.Result.Cover) {
				fmt.Fprintf(c.App.ErrWriter, "dws: %s: only %d of the %d covering paths are listed (--max-paths); the rest get no scenario\n",
					printable.String(f.Path), len(d.Result.Cover), d.Result.CoverSize)
			}
			files, failed := scenario.Emit(d, filepath.ToSlash(rel), stem, f.Checksum)
			unpinned += failed
			for _, e := range files {
				if err := writeOutput("--emit-scenarios", filepath.Join(dir, e.Name+".scenario.yaml"), e.Text); err != nil {
					return err
				}
				written++
			}
		}
	}
	msg := fmt.Sprintf("dws: wrote %d scenario files to %s", written, printable.String(dir))
	if unpinned > 0 {
		msg += fmt.Sprintf("; %d covering paths could not be pinned: no starting context found reproduces them", unpinned)
	}
	fmt.Fprintln(c.App.ErrWriter, msg)
	return nil
}

// startContext reads --context: a JSON or YAML object whose members are the variables
// every run starts with.
func startContext(path string) (map[string]any, error) {
	if path == "" {
		return nil, nil
	}
	data, err := source.ReadFile(path)
	if err != nil {
		return nil, usagef("--context: %v", err)
	}
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		return nil, usagef("--context %s: %v", path, err)
	}
	ctx, ok := doc.Root.Value().(map[string]any)
	if !ok {
		return nil, usagef("--context %s: want an object of variable values", path)
	}
	return ctx, nil
}

// checkPath refuses --path when n (0-based) is not a path of every simulated
// definition: a usage error naming how many paths each of those has.
func checkPath(res *lint.Result, n *big.Int) error {
	var short []string
	for _, f := range res.Files {
		if f.Simulation == nil {
			continue
		}
		for _, d := range f.Simulation.Definitions {
			if d.Result == nil {
				continue
			}
			if total := d.Result.Counts.Total(); n.Cmp(total) >= 0 {
				short = append(short, fmt.Sprintf("%s has %s", definitionName(f.Path, d.Workflow), pathCount(total)))
			}
		}
	}
	if len(short) > 0 {
		return usagef("--path %s: no such path; %s", new(big.Int).Add(n, big.NewInt(1)), strings.Join(short, "; "))
	}
	return nil
}

// definitionName is a definition as the reports name it: the file, and the workflow
// when the file has several.
func definitionName(path, workflow string) string {
	if workflow != "" {
		return path + " (workflow " + workflow + ")"
	}
	return path
}

// pathCount says n paths.
func pathCount(n *big.Int) string {
	if n.Cmp(big.NewInt(1)) == 0 {
		return "1 path"
	}
	return n.String() + " paths"
}

// printPath prints path n (0-based) of every simulated definition, step by step
// (checkPath made sure each has it).
func printPath(c *cli.Context, res *lint.Result, n *big.Int) {
	w := c.App.Writer
	for _, f := range res.Files {
		if f.Simulation == nil {
			continue
		}
		for _, d := range f.Simulation.Definitions {
			name := printable.String(definitionName(f.Path, d.Workflow))
			if d.Result == nil {
				continue
			}
			p, ok := d.Result.Path(n)
			if !ok {
				continue
			}
			fmt.Fprintf(w, "%s: path %s of %s\n", name, new(big.Int).Add(n, big.NewInt(1)), d.Result.Counts.Total())
			for i, st := range p.Steps {
				fmt.Fprintf(w, "  %d. %s: %s\n", i+1, printable.String(st.Node), printable.String(st.Outcome))
			}
			fmt.Fprintf(w, "  → %s\n", p.Status)
		}
	}
}
