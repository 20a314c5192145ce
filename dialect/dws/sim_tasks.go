package dws

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// A job spec's tasks are simulated like an ensemble's phases (SPEC §8.1), on the
// manifest, jobspec.json: each task that starts completes or fails; a task starts when
// every hard and output dependency completed, and is skipped when one failed or was
// skipped; soft dependencies neither block nor skip. The run succeeded when no task
// failed. Tasks are taken in one fixed order, their file order wherever the blocking
// dependencies allow, and are named by their file (tasks/02-analyse.json is 02-analyse)
// since task ids are opaque. A path is which tasks completed and which failed.

type simTask struct {
	name  string
	id    string
	needs []int // blocking dependencies, as indexes
}

// tstate is a run: the next task in the order, each task's outcome where a task ahead
// still depends on it ('c' completed, 'x' failed or skipped, 0 forgotten), and whether a
// task failed.
type tstate struct {
	pos    int
	status string
	failed bool
}

type tmachine struct {
	tasks []simTask
	order []int
	// lastUse[i] is the last position in the order whose task depends on task i.
	lastUse []int
}

func (m *tmachine) Start() tstate {
	return tstate{status: strings.Repeat("\x00", len(m.tasks))}
}

func (m *tmachine) Moves(s tstate) []sim.Move[tstate] {
	if s.pos == len(m.order) {
		st := sim.Succeeded
		if s.failed {
			st = sim.Failed
		}
		return []sim.Move[tstate]{{End: true, Status: st}}
	}
	i := m.order[s.pos]
	t := m.tasks[i]
	next := func(outcome byte, failed bool) tstate {
		b := []byte(s.status)
		if m.lastUse[i] > s.pos {
			b[i] = outcome
		}
		// Forget outcomes no task ahead needs.
		for k := range b {
			if b[k] != 0 && m.lastUse[k] <= s.pos {
				b[k] = 0
			}
		}
		return tstate{pos: s.pos + 1, status: string(b), failed: s.failed || failed}
	}
	for _, d := range t.needs {
		if s.status[d] != 'c' {
			// A blocking dependency failed or was skipped: no choice, and no edge.
			return []sim.Move[tstate]{{Next: next('x', false)}}
		}
	}
	return []sim.Move[tstate]{
		{Edge: sim.Edge{Node: t.name, Outcome: "completed"}, Next: next('c', false)},
		{Edge: sim.Edge{Node: t.name, Outcome: "failed"}, Next: next('x', true)},
	}
}

// simulateTasks is the job spec's simulation part: its task graph.
func simulateTasks(p *lint.Pass, opts sim.Options, maxPaths int) ([]sim.Definition, error) {
	root := filepath.Dir(filepath.FromSlash(p.Path))
	files, err := folderFiles(root, "tasks")
	if err != nil || len(files) == 0 {
		return nil, err
	}
	m := &tmachine{}
	byID := map[string]int{}
	type raw struct {
		deps []string
	}
	var raws []raw
	for _, f := range files {
		data, err := source.ReadFile(f)
		if err != nil {
			continue // the task's own validation reports it
		}
		doc, err := source.Parse(f, data, source.FormatOf(f, data))
		if err != nil {
			continue
		}
		id, _ := doc.Root.Get("task_id").Str()
		if _, dup := byID[id]; id == "" || dup {
			continue
		}
		var r raw
		for _, d := range items(doc.Root.Get("dependencies")) {
			dep, _ := d.Get("task_id").Str()
			if typ, _ := d.Get("type").Str(); typ != "soft" && dep != "" {
				r.deps = append(r.deps, dep)
			}
		}
		byID[id] = len(m.tasks)
		m.tasks = append(m.tasks, simTask{name: strings.TrimSuffix(filepath.Base(f), filepath.Ext(f)), id: id})
		raws = append(raws, r)
	}
	for i, r := range raws {
		for _, d := range r.deps {
			if j, ok := byID[d]; ok && !slices.Contains(m.tasks[i].needs, j) {
				m.tasks[i].needs = append(m.tasks[i].needs, j)
			}
		}
	}
	// The order: repeatedly the first task in file order whose blocking dependencies
	// are all placed. A cycle (the validator's finding) leaves tasks unplaced.
	placed := make([]bool, len(m.tasks))
	for len(m.order) < len(m.tasks) {
		progress := false
		for i, t := range m.tasks {
			if placed[i] || slices.ContainsFunc(t.needs, func(d int) bool { return !placed[d] }) {
				continue
			}
			placed[i], progress = true, true
			m.order = append(m.order, i)
			break
		}
		if !progress {
			return nil, nil
		}
	}
	pos := make([]int, len(m.tasks))
	for k, i := range m.order {
		pos[i] = k
	}
	m.lastUse = make([]int, len(m.tasks))
	for i, t := range m.tasks {
		for _, d := range t.needs {
			m.lastUse[d] = max(m.lastUse[d], pos[i])
		}
	}
	var edges []sim.Edge
	for _, i := range m.order {
		edges = append(edges, sim.Edge{Node: m.tasks[i].name, Outcome: "completed"}, sim.Edge{Node: m.tasks[i].name, Outcome: "failed"})
	}
	r, err := sim.Explore[tstate](m, opts, maxPaths, edges)
	if err != nil {
		return nil, err
	}
	return []sim.Definition{{Workflow: "tasks", Result: r}}, nil
}
