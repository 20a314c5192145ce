package source

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkDocument verifies what every parsed document must satisfy: spans lie
// within the file, their line and column agree with PosAt, and StringPos
// stays inside the string's span.
func checkDocument(t *testing.T, d *Document) {
	t.Helper()
	budget := 100000
	checkSpan := func(what string, s Span) {
		if s.Start.Offset < 0 || s.Start.Offset > s.End.Offset || int(s.End.Offset) > len(d.Text) {
			t.Fatalf("%s: span %v outside the file (%d bytes)", what, s, len(d.Text))
		}
		if p := d.PosAt(int(s.Start.Offset)); p != s.Start {
			t.Fatalf("%s: start %v, PosAt says %v", what, s.Start, p)
		}
		if p := d.PosAt(int(s.End.Offset)); p != s.End {
			t.Fatalf("%s: end %v, PosAt says %v", what, s.End, p)
		}
	}
	var walk func(ptr string, n *Node)
	walk = func(ptr string, n *Node) {
		if budget--; budget < 0 {
			return
		}
		checkSpan(ptr, n.Span)
		if n.Kind == String {
			for _, i := range []int{0, len(n.Text) / 2, len(n.Text)} {
				p := d.StringPos(n, i)
				if p.Offset < n.Span.Start.Offset || p.Offset > n.Span.End.Offset || p != d.PosAt(int(p.Offset)) {
					t.Fatalf("%s: StringPos(%d) = %v outside %v", ptr, i, p, n.Span)
				}
			}
		}
		for i, item := range n.Items {
			walk(AppendPointer(ptr, fmt.Sprint(i)), item)
		}
		for _, m := range n.Members {
			p := AppendPointer(ptr, m.Key)
			checkSpan(p+" (key)", m.KeySpan)
			walk(p, m.Value)
		}
	}
	walk("", d.Root)
}

func checkError(t *testing.T, data []byte, err error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is %T, not *Error", err, err)
	}
	if e.Pos.Offset < 0 || int(e.Pos.Offset) > len(data) || e.Pos.Line < 1 || e.Pos.Col < 1 {
		t.Fatalf("error position %v outside the file", e.Pos)
	}
	if e.Msg == "" || strings.Contains(e.Msg, "yaml:") {
		t.Fatalf("message %q", e.Msg)
	}
}

func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"a": [1, -2.5e3, true, null, "x\u00e9\n"], "b": {}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("f.json", data, JSON)
		body := data[bomLen(data):]
		if err != nil {
			checkError(t, data, err)
			// Whatever encoding/json accepts must be refused only for
			// what RFC 8259 leaves open and this package decided.
			if utf8.Valid(data) && json.Valid(body) {
				var e *Error
				errors.As(err, &e)
				msg := e.Msg
				// RFC 8259 §6 lets a parser limit numbers' range: beyond a double's,
				// this one refuses them (no consumer of the file reads them as written).
				outOfRange := strings.HasPrefix(msg, "number ") &&
					(strings.HasSuffix(msg, "is out of range (beyond ±1.8e308)") || strings.HasSuffix(msg, "has an exponent beyond ±10000"))
				if !strings.HasPrefix(msg, "duplicate key") && !strings.HasPrefix(msg, "lone surrogate") && msg != tooDeep && !outOfRange {
					t.Fatalf("encoding/json accepts %q, we said %v", data, err)
				}
			}
			return
		}
		checkDocument(t, d)
		if !json.Valid(body) {
			t.Fatalf("accepted %q, which encoding/json rejects", data)
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := d.Root.Value(); !reflect.DeepEqual(got, want) {
			t.Fatalf("value %#v, encoding/json says %#v", got, want)
		}
	})
}

func FuzzParseYAML(f *testing.F) {
	f.Add([]byte("a: &x [1, 0x1F, 'q', \"\\u00e9\"]\nb: *x\nc: |\n  lit\n# c\n"))
	f.Add([]byte("%YAML 1.2\n%FOO x\n--- |\n  a\n...\n"))
	f.Add([]byte("k: [a,\n  b]\nq: \"x\n  y\"\n- >\n  \n z\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := Parse("f.yaml", data, YAML)
		if err != nil {
			checkError(t, data, err)
			return
		}
		checkDocument(t, d)
		// The value must be JSON: numbers valid literals, keys strings.
		v := d.Root.Value()
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("value %#v is not JSON: %v", v, err)
		}
		back, err := Parse("b.json", b, JSON)
		if err != nil {
			t.Fatalf("re-reading %s: %v", b, err)
		}
		if !reflect.DeepEqual(back.Root.Value(), v) {
			t.Fatalf("round trip changed %#v into %#v", v, back.Root.Value())
		}
	})
}
