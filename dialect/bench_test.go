package dialect_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/internal/benchcpu"
	"github.com/dwsdev/dws/internal/simgen"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// BenchmarkSimulate runs dws simulate's work in the process (read, validate, simulate:
// exact counts, a cover of 100 listed paths, witnesses) on generated definitions of
// every dialect of 3,000, 30,000 and 100,000 steps (internal/simgen), with the limits
// raised as a user would for them. SPEC §8.5: linear growth, and a 3,000-step definition
// in under 100 ms. BenchmarkValidate is the same without the simulation, for the share.
func BenchmarkSimulate(b *testing.B) { benchmarkRun(b, true) }

// BenchmarkValidate is BenchmarkSimulate without the simulation.
func BenchmarkValidate(b *testing.B) { benchmarkRun(b, false) }

func benchmarkRun(b *testing.B, simulate bool) {
	reg := dialect.Registry()
	dir := b.TempDir()
	for _, name := range []string{"prompt_templates.yaml", "schema.sql"} {
		data, err := os.ReadFile(filepath.Join("..", "fixtures", "cortex", name))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfgPath := filepath.Join(dir, lint.ConfigName)
	cfgText := "version: 1\ncortex: { prompt_templates: prompt_templates.yaml }\nsql: { from_ddl: schema.sql }\n"
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg, err := lint.LoadConfig(cfgPath, reg)
	if err != nil {
		b.Fatal(err)
	}
	// The limits raised past what a config file may say (4 MiB): a 100,000-step
	// definition is some 20 MB, handed over as data.
	cfg.Limits.MaxSteps, cfg.Limits.MaxBytes = 1<<30, 1<<30
	for _, d := range simgen.Dialects {
		for _, n := range []int{3000, 30000, 100000} {
			b.Run(fmt.Sprintf("%s/steps=%d", d, n), func(b *testing.B) {
				text, ext, _ := simgen.Of(d, n)
				path := filepath.Join(dir, "flow-"+d+ext)
				benchcpu.Loop(b, func() {
					l := &lint.Linter{Registry: reg, Config: cfg}
					if simulate {
						l.Simulation = &lint.SimulationOptions{Options: sim.Options{MaxSteps: 1 << 30}, MaxPaths: 100}
					}
					// Given as data (as stdin is): a file above 4 MiB is never read.
					res := l.Run([]lint.Input{{Path: path, Data: text, Stdin: true}})
					f := res.Files[0]
					for _, dg := range f.Diagnostics {
						if dg.Severity == lint.Error {
							b.Fatalf("%s: %s [%s]", path, dg.Message, dg.Rule)
						}
					}
					if simulate && (f.Simulation == nil || f.Simulation.Err != nil || len(f.Simulation.Definitions) == 0) {
						b.Fatalf("%s: not simulated: %+v", path, f.Simulation)
					}
				})
			})
		}
	}
}
