package scenario

import (
	"os"
	"path/filepath"
	"time"

	"github.com/dwsdev/dws/sim"
)

// PanicWhileStubRuns runs the stub dir/hang.sh (with pids as its argument) and, once the
// process it detaches has written pids/session, panics in another scenario's goroutine:
// the panic of a dws bug while a stub runs.
func PanicWhileStubRuns(dir, pids string) {
	s := &stubs{sc: &Scenario{Path: filepath.Join(dir, "x.scenario.yaml")}, opts: Options{StubTimeout: 10 * time.Minute}}
	st := &Stub{Run: []string{"./hang.sh", pids}}
	parallel(2, 2, func(i int) {
		if i == 0 {
			_, _ = s.process(st, sim.Call{Node: "greet", Attempt: 1})
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(pids, "session")); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		panic("a bug in dws")
	})
}

// PanicInParallel panics in one of parallel's workers while another has finished, then
// says on stdout that parallel returned: it must never get that far.
func PanicInParallel() {
	parallel(2, 2, func(i int) {
		if i == 1 {
			panic("a bug in dws")
		}
	})
	os.Stdout.WriteString("parallel returned\n")
	os.Exit(0)
}
