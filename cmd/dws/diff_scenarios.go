package main

import (
	"os"
	"path/filepath"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
)

// scenarioRoots are where dws diff OLD NEW looks for NEW's scenarios: NEW itself when it
// is a directory, else the directory NEW lies in.
func scenarioRoots(nw string) []string {
	if st, err := os.Stat(nw); err == nil && st.IsDir() {
		return []string{nw}
	}
	dir := filepath.Dir(nw)
	if abs, err := filepath.Abs(dir); err == nil && abs == filepath.Dir(abs) {
		return nil // NEW lies at the file system's root: no tree to walk for scenarios
	}
	return []string{dir}
}

// diffScenarios runs, for each unit both sides have, the scenario files under roots
// that name NEW's file (and workflow) on OLD and on NEW: a scenario that passed on OLD
// and fails on NEW no longer applies, and the edges their runs take give the coverage
// on each side. Scenario files that do not load are left to dws test.
func diffScenarios(rep *change.Report, roots []string, defs map[*change.Unit]sim.Definition) error {
	files, err := scenario.Find(roots)
	if err != nil {
		return usagef("diff: finding scenarios: %v", err)
	}
	if len(files) == 0 {
		return nil
	}
	var scs []*scenario.Scenario
	for _, f := range files {
		if sc, ds := scenario.Load(f); len(ds) == 0 {
			scs = append(scs, sc)
		}
	}
	opts := scenario.Options{}
	for i := range rep.Units {
		d := &rep.Units[i]
		if d.Old == nil || d.New == nil {
			continue
		}
		oldDef, ok1 := defs[d.Old]
		newDef, ok2 := defs[d.New]
		if !ok1 || !ok2 {
			continue
		}
		abs, err := filepath.Abs(d.New.Path)
		if err != nil {
			continue
		}
		var sd change.Scenarios
		var oldRuns, newRuns []*sim.Run
		for _, sc := range scs {
			def, err := filepath.Abs(sc.Definition)
			if err != nil || def != abs || sc.Workflow != newDef.Workflow {
				continue
			}
			sd.Count++
			o := sc.Execute(oldDef, opts)
			n := sc.Execute(newDef, opts)
			if o.Run != nil {
				oldRuns = append(oldRuns, o.Run)
			}
			if n.Run != nil {
				newRuns = append(newRuns, n.Run)
			}
			if o.Passed && !n.Passed {
				why := "it fails"
				if len(n.Failures) > 0 {
					why = n.Failures[0]
				}
				if len(n.Diagnostics) > 0 {
					why += " " + n.Diagnostics[0].Message
				}
				sd.Stale = append(sd.Stale, change.StaleScenario{Path: sc.Path, Why: why})
			}
		}
		if sd.Count == 0 {
			continue
		}
		oc, nc := sim.CoverageOf(oldDef.Result, oldRuns), sim.CoverageOf(newDef.Result, newRuns)
		sd.OldCovered, sd.OldCoverable, sd.NewCovered, sd.NewCoverable = oc.Covered, oc.Coverable, nc.Covered, nc.Coverable
		d.Scenarios = &sd
	}
	return nil
}
