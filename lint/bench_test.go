package lint_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/dwsdev/dws/cache"
	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

// BenchmarkValidate runs the whole pipeline on generated 4 KB Cortex files (the shape
// bench/gen writes): the per-file cost behind the throughput figure of scripts/bench.sh.
func BenchmarkValidate(b *testing.B) {
	dir := b.TempDir()
	gen := exec.Command("go", "run", "../bench/gen", "-out", dir, "-n", "50")
	if out, err := gen.CombinedOutput(); err != nil {
		b.Fatalf("generating the corpus: %v\n%s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	inputs := make([]lint.Input, len(files))
	size := 0
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		size += len(data)
		inputs[i] = lint.Input{Path: f, Data: data, Stdin: true}
	}
	l := newLinter(b, dir)
	l.Jobs = 1
	registry := "templates:\n  expense_fraud: { purpose: score, schema: fraudScore }\n  slack_approval: { purpose: message }\n" +
		"schemas:\n  fraudScore: { type: object, properties: { fraudScore: { type: number } } }\n"
	if err := os.WriteFile(filepath.Join(dir, "prompts.yaml"), []byte(registry), 0o644); err != nil {
		b.Fatal(err)
	}
	ddl := "CREATE TABLE expense (id bigint, status text, amount numeric, created_at timestamptz);\n" +
		"CREATE TABLE expense_audit (id bigint, expense_id bigint, note text, created_at timestamptz);\n"
	if err := os.WriteFile(filepath.Join(dir, "schema.sql"), []byte(ddl), 0o644); err != nil {
		b.Fatal(err)
	}
	cfg, err := lint.ParseConfig(filepath.Join(dir, ".dws.yaml"),
		[]byte("cortex: { prompt_templates: prompts.yaml }\nsql: { from_ddl: schema.sql }\n"), l.Registry)
	if err != nil {
		b.Fatal(err)
	}
	l.Config = cfg
	b.SetBytes(int64(size / len(files)))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		res := l.Run(inputs[i%len(inputs) : i%len(inputs)+1])
		if len(res.Files[0].Diagnostics) != 0 {
			b.Fatalf("unexpected findings: %v", res.Files[0].Diagnostics)
		}
	}
}

// BenchmarkWarm is a warm run over 2,000 realistic files (bench/gen -realistic): a
// directory walked, every file's stamp looked up in the result cache, nothing checked;
// what scripts/bench.sh's warm figures pay in the process, per file.
func BenchmarkWarm(b *testing.B) {
	dir := b.TempDir()
	const n = 2000
	gen := exec.Command("go", "run", "../bench/gen", "-out", filepath.Join(dir, "corpus"), "-n", fmt.Sprint(n), "-realistic")
	if out, err := gen.CombinedOutput(); err != nil {
		b.Fatalf("generating the corpus: %v\n%s", err, out)
	}
	if err := os.Rename(filepath.Join(dir, "corpus", "schema.sql"), filepath.Join(dir, "schema.sql")); err != nil {
		b.Fatal(err)
	}
	registry, err := os.ReadFile("../fixtures/cortex/prompt_templates.yaml")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompt_templates.yaml"), registry, 0o644); err != nil {
		b.Fatal(err)
	}
	config := "version: 1\ninclude: [\"corpus/*.json\"]\ncortex: { prompt_templates: prompt_templates.yaml }\nsql: { from_ddl: schema.sql }\n"
	if err := os.WriteFile(filepath.Join(dir, ".dws.yaml"), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
	defer func(w time.Duration) { cache.RacyWindow = w }(cache.RacyWindow)
	cache.RacyWindow = 0 // the files were just written
	reg := dialect.Registry()
	cfg, err := lint.LoadConfig(filepath.Join(dir, ".dws.yaml"), reg)
	if err != nil {
		b.Fatal(err)
	}
	cacheDir := b.TempDir()
	run := func() *lint.Result {
		l, err := lint.New(reg, cfg)
		if err != nil {
			b.Fatal(err)
		}
		l.Cache = cache.Open(cacheDir, l.CacheScope("bench"))
		inputs, problems, err := l.Expand([]string{filepath.Join(dir, "corpus")})
		if err != nil {
			b.Fatal(err)
		}
		res := l.Run(inputs, problems...)
		if err := l.Cache.Close(); err != nil {
			b.Fatal(err)
		}
		return res
	}
	time.Sleep(10 * time.Millisecond) // the files' times before the run's
	if res := run(); len(res.Files) != n || len(res.Diagnostics()) != 0 {
		b.Fatalf("the cold run: %d files, %d findings", len(res.Files), len(res.Diagnostics()))
	}
	b.ResetTimer()
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/file")
}
