// Package benchcpu reports a benchmark's CPU time per operation (user and system, every
// thread's: the garbage collector's included) beside the wall time go test reports. On a
// machine shared with other work the wall time measures the machine as much as the code;
// the CPU time is what the code costs.
package benchcpu

import "testing"

// Loop runs f as b.Loop runs a benchmark's body and reports its CPU time as cpu-ms/op.
func Loop(b *testing.B, f func()) {
	start, ok := now()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if end, ok2 := now(); ok && ok2 && n > 0 {
		b.ReportMetric(float64(end-start)/float64(n)/1e6, "cpu-ms/op")
	}
}
