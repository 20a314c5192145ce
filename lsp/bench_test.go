package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/dwsdev/dws/dialect"
)

// BenchmarkAnalyze is one check of a document as the server makes it on a change:
// DWS_LSP_BENCH names the file (scripts/bench.sh writes a 64 KB Cortex definition),
// else the seed's expense example.
func BenchmarkAnalyze(b *testing.B) {
	path := os.Getenv("DWS_LSP_BENCH")
	if path == "" {
		path = "../fixtures/sim/expense.json"
	}
	path, _ = filepath.Abs(path)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	s := New(dialect.Registry(), "bench")
	ctx := context.Background()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s.analyze(ctx, path, string(data), 1)
	}
}
