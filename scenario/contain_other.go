//go:build !linux

package scenario

import "os/exec"

// Elsewhere than Linux a stub is held by its process group only (sweep_other.go).

// cgroup is a control group; there are none here.
type cgroup struct{}

func (*cgroup) signal() {}
func (*cgroup) remove() {}

// startContained starts cmd as w's process.
func (w *worker) startContained(cmd *exec.Cmd) (*exec.Cmd, error) {
	return cmd, cmd.Start()
}

// reapOrphans does nothing: dws is no child subreaper here.
func reapOrphans(*worker, bool) {}
