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
