package lint_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

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
