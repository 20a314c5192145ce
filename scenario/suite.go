package scenario

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// Find lists the scenario files under paths (files given by name are taken as they
// are), sorted, each once. Directories named .git or node_modules are not entered.
func Find(paths []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = filepath.ToSlash(filepath.Clean(p))
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, root := range paths {
		st, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			add(root)
			continue
		}
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != root && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() && IsScenario(p) {
				add(p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return out, nil
}

// Suite is a run of scenario files: each scenario's outcome, and the coverage of each
// definition they run.
type Suite struct {
	Outcomes []*Outcome
	// Definitions are the definitions the scenarios ran, sorted by path then workflow.
	Definitions []*Covered
	// Files are the definition files' validation results (their findings, when a
	// definition did not validate and its scenarios could not run).
	Files []lint.FileResult
}

// Covered is one definition and how much of it the scenarios took.
type Covered struct {
	Path, Workflow, Dialect string
	Result                  *sim.Result
	Coverage                sim.Coverage
	Scenarios               int
}

// Name is the definition as reports show it: path, and (workflow) when it has one.
func (c *Covered) Name() string {
	if c.Workflow != "" {
		return c.Path + " (workflow " + c.Workflow + ")"
	}
	return c.Path
}

// Total is the coverage of every definition together.
func (s *Suite) Total() sim.Coverage {
	var t sim.Coverage
	for _, d := range s.Definitions {
		t.Covered += d.Coverage.Covered
		t.Coverable += d.Coverage.Coverable
	}
	return t
}

// Passed counts the scenarios that passed.
func (s *Suite) Passed() int {
	n := 0
	for _, o := range s.Outcomes {
		if o.Passed {
			n++
		}
	}
	return n
}

// Run loads the scenario files, validates and explores each definition they name once
// (through l, so the config's rules, lockfile and registries apply), and runs the
// scenarios whose name matches only (nil: all), jobs at a time.
//
// While it runs, SIGINT, SIGTERM and SIGHUP kill every stub worker process and remove
// its directory before dws dies of the signal (live.go).
func Run(l *lint.Linter, files []string, only *regexp.Regexp, opts Options, jobs int) *Suite {
	defer watch()()
	s := &Suite{}
	for _, f := range files {
		if only == nil || only.MatchString(Name(f)) {
			s.Outcomes = append(s.Outcomes, &Outcome{Scenario: &Scenario{Path: f}, Passed: true, FirstDiff: -1})
		}
	}
	parallel(len(s.Outcomes), jobs, func(i int) {
		o := s.Outcomes[i]
		sc, ds := Load(o.Scenario.Path)
		o.Scenario = sc
		if len(ds) > 0 {
			o.Diagnostics = ds
			o.Fail("the scenario file is not valid:")
		}
	})
	var scs []*Scenario
	for _, o := range s.Outcomes {
		if o.Passed {
			scs = append(scs, o.Scenario)
		}
	}
	// Each definition once, validated and explored.
	var defPaths []string
	seen := map[string]bool{}
	for _, sc := range scs {
		if !seen[sc.Definition] {
			seen[sc.Definition] = true
			defPaths = append(defPaths, sc.Definition)
		}
	}
	slices.Sort(defPaths)
	results := map[string]*lint.FileResult{}
	if len(defPaths) > 0 {
		if l.Simulation == nil {
			l.Simulation = &lint.SimulationOptions{Options: sim.Options{MaxSteps: opts.MaxSteps, EdgesOnly: true}}
		}
		inputs := make([]lint.Input, len(defPaths))
		for i, p := range defPaths {
			inputs[i] = lint.Input{Path: p}
		}
		res := l.Run(inputs)
		s.Files = res.Files
		for i := range res.Files {
			fr := &res.Files[i]
			results[absPath(filepath.FromSlash(fr.Path))] = fr
		}
	}
	covered := map[string]*Covered{}
	type job struct {
		o   *Outcome
		def sim.Definition
	}
	var jobsList []job
	for _, o := range s.Outcomes {
		if !o.Passed {
			continue
		}
		sc := o.Scenario
		fr := results[absPath(sc.Definition)]
		def, msg := definitionOf(sc, fr)
		if msg != "" {
			at := "/definition"
			if sc.Workflow != "" && strings.Contains(msg, "workflow") {
				at = "/workflow" // the workflow named is what is wrong
			}
			o.Diagnostics = append(o.Diagnostics, sc.diag("ref", at, msg))
			o.Fail("its definition cannot run:")
			continue
		}
		if sc.Checksum != "" && fr.Checksum != "" && sc.Checksum != fr.Checksum {
			o.Fail("the definition changed since the scenario was written: its checksum is %s, the scenario records %s", fr.Checksum, sc.Checksum)
			continue
		}
		key := fr.Path + "\x00" + def.Workflow
		c := covered[key]
		if c == nil {
			c = &Covered{Path: fr.Path, Workflow: def.Workflow, Dialect: fr.Dialect, Result: def.Result}
			covered[key] = c
			s.Definitions = append(s.Definitions, c)
		}
		c.Scenarios++
		jobsList = append(jobsList, job{o, def})
	}
	parallel(len(jobsList), jobs, func(i int) {
		j := jobsList[i]
		*j.o = *j.o.Scenario.Execute(j.def, opts)
	})
	if stopping() {
		// A signal is ending dws: the scenarios cut short are no report.
		select {}
	}
	runs := map[*sim.Result][]*sim.Run{}
	for _, j := range jobsList {
		if j.o.Run != nil {
			runs[j.def.Result] = append(runs[j.def.Result], j.o.Run)
		}
	}
	for _, c := range s.Definitions {
		c.Coverage = sim.CoverageOf(c.Result, runs[c.Result])
	}
	slices.SortFunc(s.Definitions, func(a, b *Covered) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Workflow, b.Workflow))
	})
	return s
}

// parallel calls do(0..n-1), jobs at a time. A panic in one of them kills every stub
// worker process and removes its directory before it ends dws (the panic is not
// recovered: its trace is the panic's own).
func parallel(n, jobs int, do func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(min(jobs, n), 1) {
		wg.Add(1)
		go func() {
			// Not deferred: a worker that panics must never count as done, or the caller
			// could return, and dws exit 0, before the panic ends the process.
			for i := range next {
				returned := false
				func() {
					defer func() {
						if !returned {
							abandon()
						}
					}()
					do(i)
					returned = true
				}()
			}
			wg.Done()
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// definitionOf finds the definition a scenario runs in its file's result, or says why
// there is none.
func definitionOf(sc *Scenario, fr *lint.FileResult) (sim.Definition, string) {
	switch {
	case fr == nil:
		return sim.Definition{}, fmt.Sprintf("definition %s was not read", sc.Resolve())
	case len(fr.Diagnostics) > 0 && hasRule(fr, "read"):
		return sim.Definition{}, fmt.Sprintf("definition %s cannot be read: %s", fr.Path, fr.Diagnostics[0].Message)
	case fr.Simulation == nil:
		return sim.Definition{}, fmt.Sprintf("definition %s is not a workflow definition dws runs", fr.Path)
	case fr.Simulation.Skipped != "" && errorCount(fr) > 0:
		// Its findings are in the report (Suite.Files); say how many and where they are
		// also shown, for a report that carries only this line (JUnit, an editor).
		errs := fmt.Sprintf("%d errors: dws validate %s shows them", errorCount(fr), fr.Path)
		if errorCount(fr) == 1 {
			errs = "1 error: dws validate " + fr.Path + " shows it"
		}
		return sim.Definition{}, fmt.Sprintf("definition %s cannot run: %s (%s)", fr.Path, fr.Simulation.Skipped, errs)
	case fr.Simulation.Skipped != "":
		return sim.Definition{}, fmt.Sprintf("definition %s cannot run: %s", fr.Path, fr.Simulation.Skipped)
	case fr.Simulation.Err != nil:
		return sim.Definition{}, fmt.Sprintf("definition %s cannot run: %v", fr.Path, fr.Simulation.Err)
	}
	defs := fr.Simulation.Definitions
	var names []string
	for _, d := range defs {
		if d.Workflow == sc.Workflow {
			return d, ""
		}
		names = append(names, d.Workflow)
	}
	if sc.Workflow == "" {
		return sim.Definition{}, fmt.Sprintf("definition %s has several workflows; name one with workflow: (%s)", fr.Path, strings.Join(names, ", "))
	}
	if len(defs) == 1 && defs[0].Workflow == "" {
		return sim.Definition{}, fmt.Sprintf("definition %s has no workflows to choose from; remove workflow:", fr.Path)
	}
	return sim.Definition{}, fmt.Sprintf("definition %s has no workflow %q (%s)", fr.Path, sc.Workflow, strings.Join(names, ", "))
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// errorCount counts the errors of fr, as the report shows them.
func errorCount(fr *lint.FileResult) int {
	n := 0
	for _, d := range fr.Diagnostics {
		if d.Severity == lint.Error {
			n++
		}
	}
	return n
}

func hasRule(fr *lint.FileResult, rule string) bool {
	for _, d := range fr.Diagnostics {
		if d.Rule == rule {
			return true
		}
	}
	return false
}
