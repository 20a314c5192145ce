package lint_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwsdev/dws/lint"
)

// All of a run's goroutines, nested ones included, stay within --jobs, every item runs
// exactly once, and nesting never deadlocks.
func TestLimiterBoundsNestedWork(t *testing.T) {
	for _, jobs := range []int{1, 2, 3, 8} {
		lim := lint.NewLimiter(jobs)
		var running, peak atomic.Int32
		enter := func() {
			n := running.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(50 * time.Microsecond)
		}
		var mu sync.Mutex
		done := map[[2]int]int{}
		lim.Each(12, 1, func(i int) {
			enter()
			running.Add(-1)
			lim.Each(8, 1, func(j int) {
				enter()
				mu.Lock()
				done[[2]int{i, j}]++
				mu.Unlock()
				running.Add(-1)
				wait := lim.Go(func() { enter(); running.Add(-1) })
				wait()
			})
		})
		if p := peak.Load(); p > int32(jobs) {
			t.Errorf("--jobs %d: %d goroutines worked at once", jobs, p)
		}
		if len(done) != 12*8 {
			t.Errorf("--jobs %d: %d items ran, want %d", jobs, len(done), 12*8)
		}
		for k, n := range done {
			if n != 1 {
				t.Fatalf("--jobs %d: item %v ran %d times", jobs, k, n)
			}
		}
	}
}

// A panic on a borrowed goroutine comes back to the caller after the others stop.
func TestLimiterCarriesPanics(t *testing.T) {
	lim := lint.NewLimiter(4)
	var finished atomic.Int32
	defer func() {
		pe, ok := recover().(*lint.PanicError)
		if !ok || pe.Value != "item 13" {
			t.Fatalf("recovered %v; want item 13's panic", pe)
		}
		if finished.Load() != 99 {
			t.Fatalf("the caller resumed while %d items were unfinished", 99-finished.Load())
		}
	}()
	lim.Each(100, 1, func(i int) {
		if i == 13 {
			panic("item 13")
		}
		time.Sleep(10 * time.Microsecond)
		finished.Add(1)
	})
}
