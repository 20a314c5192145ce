package source

import (
	"fmt"
	"strings"
	"testing"
)

// workflow generates a workflow-like document of about size bytes.
func workflow(format Format, size int) []byte {
	var b strings.Builder
	if format == JSON {
		b.WriteString("{\n  \"name\": \"nightly build\",\n  \"version\": 2,\n  \"steps\": [\n")
		for i := 0; b.Len() < size-200; i++ {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `    {"id": "step-%d", "run": "make target-%d --jobs=4 \"quoted\"", "needs": ["step-%d"], "timeout": %d.5, "retry": {"max": 3, "on": ["timeout", "exit"]}, "enabled": true, "note": null}`, i, i, i-1, i*10)
		}
		b.WriteString("\n  ]\n}\n")
		return []byte(b.String())
	}
	b.WriteString("name: nightly build\nversion: 2\nsteps:\n")
	for i := 0; b.Len() < size-100; i++ {
		fmt.Fprintf(&b, "  - id: step-%d # step %d\n    run: make target-%d --jobs=4 \"quoted\"\n    needs: [step-%d]\n    timeout: %d.5\n    retry:\n      max: 3\n      on: [timeout, exit]\n    enabled: true\n    note: null\n", i, i, i, i-1, i*10)
	}
	return []byte(b.String())
}

func benchmarkParse(b *testing.B, format Format) {
	data := workflow(format, 10<<10)
	if _, err := Parse("bench", data, format); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("bench", data, format); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseJSON10KB(b *testing.B) { benchmarkParse(b, JSON) }

func BenchmarkParseYAML10KB(b *testing.B) { benchmarkParse(b, YAML) }

func BenchmarkPosAt(b *testing.B) {
	data := workflow(YAML, 64<<10)
	d, err := Parse("bench", data, YAML)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		d.PosAt(i * 7919 % len(data))
	}
}
