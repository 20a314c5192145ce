package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// A document of more nodes than a chunk holds (maxChunk) is parsed into chunks made
// at once (jsonParser.fresh): every value and place is its own, none handed out twice.
func TestJSONLargerThanAChunk(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	n := 3*maxChunk + 17
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "  %d", i)
		case 1:
			fmt.Fprintf(&b, `  {"id": "s%d", "next": [%d, "x"]}`, i, i+1)
		default:
			fmt.Fprintf(&b, `  "v%d"`, i)
		}
	}
	b.WriteString("\n]\n")
	text := b.String()
	d, err := Parse("big.json", []byte(text), JSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Root.Items) != n {
		t.Fatalf("%d items, want %d", len(d.Root.Items), n)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	var want any
	if err := dec.Decode(&want); err != nil {
		t.Fatal(err)
	}
	if got := d.Root.Value(); !reflect.DeepEqual(got, want) {
		t.Fatal("the tree's values differ from encoding/json's")
	}
	for i, it := range d.Root.Items {
		if int(it.Span.Start.Line) != i+2 || it.Span.Start.Col != 3 {
			t.Fatalf("item %d starts at %d:%d, want %d:3", i, it.Span.Start.Line, it.Span.Start.Col, i+2)
		}
		if next := it.Get("next").Index(1); next != nil && int(next.Span.End.Line) != i+2 {
			t.Fatalf("item %d: /next/1 ends on line %d", i, next.Span.End.Line)
		}
	}
}
