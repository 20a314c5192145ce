package scenario

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/dwsdev/dws/sim"
)

var containmentNames = map[containment]string{containNone: "none", containCgroup2: "cgroup2", containFreezer: "freezer", containSubreaper: "subreaper"}

// Containments are the ways dws holds a stub's processes, strongest first.
var Containments = []string{containmentNames[containCgroup2], containmentNames[containFreezer], containmentNames[containSubreaper]}

// ForceContainment makes the stubs started from now on be held by mode, or the next
// weaker way when the system does not offer it (as if the stronger ones were not
// there), until restore is called; restore also gives up being the child subreaper
// when this made dws one.
func ForceContainment(mode string) (restore func()) {
	contain.Lock()
	defer contain.Unlock()
	for c, name := range containmentNames {
		if name == mode {
			contain.forced = c
		}
	}
	wasSubreaper := contain.subreaper
	contain.disabled = map[containment]bool{}
	return func() {
		contain.Lock()
		defer contain.Unlock()
		contain.forced = containNone
		contain.disabled = map[containment]bool{}
		if contain.subreaper && !wasSubreaper {
			_ = setSubreaper(false)
			contain.subreaper = false
		}
	}
}

// LastContainment is how the last stub started was held.
func LastContainment() string {
	contain.Lock()
	defer contain.Unlock()
	return containmentNames[contain.last]
}

// RunStub runs the stub run (a first word with a slash is relative to dir) for one
// call, as dws test runs it, and returns its error.
func RunStub(dir string, run ...string) error {
	s := &stubs{sc: &Scenario{Path: filepath.Join(dir, "x.scenario.yaml")}, opts: Options{StubTimeout: 10 * time.Minute}}
	_, err := s.process(&Stub{Run: run}, sim.Call{Node: "greet", Attempt: 1})
	return err
}

// AfterTickOf returns once a process started now starts in a later clock tick than
// process pid did.
func AfterTickOf(pid int) {
	then := startTick(pid)
	for {
		cmd := exec.Command("true")
		if cmd.Start() != nil {
			return
		}
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/stat")
		_ = cmd.Wait()
		if p, ok := parseStat(b); ok && p.start > then {
			return
		}
	}
}
