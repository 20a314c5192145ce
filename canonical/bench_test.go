package canonical

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dwsdev/dws/source"
)

// workflowDoc builds a workflow-like document of about 4 KB of canonical
// JSON: the size of a typical definition in the 10,000-file benchmark.
func workflowDoc(tb testing.TB) any {
	tb.Helper()
	steps := []any{}
	for i := range 12 {
		steps = append(steps, map[string]any{
			"id":          fmt.Sprintf("step_%02d", i),
			"type":        "sql",
			"description": "Load the day's orders into the reporting schema — idempotent.",
			"query":       fmt.Sprintf("UPDATE orders SET status = 'done' WHERE id = {{order_id}} AND day = %d", i),
			"next":        fmt.Sprintf("step_%02d", i+1),
			"on_error":    map[string]any{"retry": json.Number("3"), "backoff": json.Number("1.50"), "then": "fail"},
			"enabled":     i%3 != 0,
			"tags":        []any{"nightly", "orders", nil},
		})
	}
	text, err := json.Marshal(map[string]any{
		"name":      "nightly-orders",
		"version":   json.Number("2"),
		"inputs":    map[string]any{"order_id": map[string]any{"type": "integer", "minimum": json.Number("1")}},
		"steps":     steps,
		"signature": "not part of the checksum",
	})
	if err != nil {
		tb.Fatal(err)
	}
	// Round-trip through the decoder so the benchmark sees the loader's types.
	return decode(tb, text)
}

// BenchmarkChecksumNode: what validate does, the checksum written from the parsed
// document.
func BenchmarkChecksumNode(b *testing.B) {
	text, err := json.Marshal(workflowDoc(b))
	if err != nil {
		b.Fatal(err)
	}
	doc, err := source.Parse("bench.json", text, source.JSON)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ChecksumNode(doc.Root); err != nil {
			b.Fatal(err)
		}
	}
}
