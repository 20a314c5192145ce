package source

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func mustParse(t *testing.T, name, in string) *Document {
	t.Helper()
	d, err := Parse(name, []byte(in), 0)
	if err != nil {
		t.Fatalf("Parse(%q): %v", in, err)
	}
	return d
}

func TestFormatOf(t *testing.T) {
	tests := []struct {
		name, data string
		want       Format
	}{
		{"a.json", "x: 1", JSON},
		{"a.JSON", "", JSON},
		{"a.yaml", "{}", YAML},
		{"a.yml", "[]", YAML},
		{"-", "  \n{\"a\":1}", JSON},
		{"-", "\xEF\xBB\xBF[1]", JSON},
		{"-", "a: 1", YAML},
		{"-", "", YAML},
	}
	for _, tt := range tests {
		if got := FormatOf(tt.name, []byte(tt.data)); got != tt.want {
			t.Errorf("FormatOf(%q, %q) = %v, want %v", tt.name, tt.data, got, tt.want)
		}
	}
}

func TestJSONSpans(t *testing.T) {
	in := "{\n  \"näme\": \"välue\",\t\"n\": -1.5e3,\n  \"list\": [true, null, {}],\r\n  \"é\": []\n}"
	d := mustParse(t, "a.json", in)
	tests := []struct {
		ptr        string
		start, end Pos
		key        Span
	}{
		{"", Pos{0, 1, 1}, Pos{int32(len(in)), 5, 2}, Span{}},
		{"/näme", Pos{13, 2, 11}, Pos{21, 2, 18}, Span{Pos{4, 2, 3}, Pos{11, 2, 9}}},
		{"/n", Pos{28, 2, 25}, Pos{34, 2, 31}, Span{Pos{23, 2, 20}, Pos{26, 2, 23}}},
		{"/list", Pos{46, 3, 11}, Pos{62, 3, 27}, Span{Pos{38, 3, 3}, Pos{44, 3, 9}}},
		{"/list/0", Pos{47, 3, 12}, Pos{51, 3, 16}, Span{}},
		{"/list/2", Pos{59, 3, 24}, Pos{61, 3, 26}, Span{}},
		{"/é", Pos{73, 4, 8}, Pos{75, 4, 10}, Span{Pos{67, 4, 3}, Pos{71, 4, 6}}},
	}
	for _, tt := range tests {
		n := d.Lookup(tt.ptr)
		if n == nil {
			t.Errorf("Lookup(%q) = nil", tt.ptr)
			continue
		}
		if n.Span != (Span{tt.start, tt.end}) {
			t.Errorf("%q: span %v, want %v", tt.ptr, n.Span, Span{tt.start, tt.end})
		}
		if got := d.PosAt(int(tt.start.Offset)); got != tt.start {
			t.Errorf("%q: PosAt(%d) = %v, want %v", tt.ptr, tt.start.Offset, got, tt.start)
		}
		ks, ok := d.KeySpan(tt.ptr)
		if ok != (tt.key != Span{}) || ks != tt.key {
			t.Errorf("%q: KeySpan = %v, %v; want %v", tt.ptr, ks, ok, tt.key)
		}
	}
	if got := d.Line(3); got != `  "list": [true, null, {}],` {
		t.Errorf("Line(3) = %q", got)
	}
	if got := d.Line(6); got != "" {
		t.Errorf("Line(6) = %q", got)
	}
}

func TestJSONErrors(t *testing.T) {
	tests := []struct {
		in  string
		pos Pos
		msg string
	}{
		{"", Pos{0, 1, 1}, "empty document"},
		{" \n\t", Pos{0, 1, 1}, "empty document"},
		{"\xEF\xBB\xBF", Pos{3, 1, 1}, "empty document"},
		{"{\"a\": 1,\n \"b\": 2,\n \"a\": 3}", Pos{19, 3, 2}, `duplicate key "a" (first defined at line 1)`},
		{"[1, 2,\n]", Pos{5, 1, 6}, "trailing comma"},
		{"{\"a\": 1 ,}", Pos{8, 1, 9}, "trailing comma"},
		{"{\"a\": 1} // c", Pos{9, 1, 10}, "comments are not allowed in JSON"},
		{"[1, /* c */ 2]", Pos{4, 1, 5}, "comments are not allowed in JSON"},
		{"['a']", Pos{1, 1, 2}, "strings must use double quotes"},
		{"[01]", Pos{1, 1, 2}, "leading zero in number"},
		{"[-01]", Pos{2, 1, 3}, "leading zero in number"},
		{"[NaN]", Pos{1, 1, 2}, "NaN is not a JSON value"},
		{"[-Infinity]", Pos{2, 1, 3}, "expected a digit after '-'"},
		{"[Infinity]", Pos{1, 1, 2}, "Infinity is not a JSON value"},
		{"[+1]", Pos{1, 1, 2}, "a number cannot start with '+'"},
		{"[1e400]", Pos{1, 1, 2}, "number 1e400 is out of range (beyond ±1.8e308)"},
		{"[1e-999999999]", Pos{1, 1, 2}, "number 1e-999999999 has an exponent beyond ±10000"},
		{"[.5]", Pos{1, 1, 2}, "a number needs a digit before '.'"},
		{"[1.]", Pos{3, 1, 4}, "expected a digit after '.'"},
		{"[1e]", Pos{3, 1, 4}, "expected a digit in the exponent"},
		{"[1.5.3]", Pos{4, 1, 5}, "unexpected character '.', expected ',' or ']'"},
		{"[tru]", Pos{1, 1, 2}, `invalid literal "tru"`},
		{"[\"a\tb\"]", Pos{3, 1, 4}, "control character U+0009 in string (it must be escaped)"},
		{"[\"a\nb\"]", Pos{3, 1, 4}, "control character U+000A in string (it must be escaped)"},
		{`["a\qb"]`, Pos{3, 1, 4}, `invalid escape \q in string`},
		{`["\u12"]`, Pos{2, 1, 3}, `invalid \u escape (it needs four hex digits)`},
		{`["é\ud800x"]`, Pos{4, 1, 4}, `lone surrogate \ud800 in string (not a Unicode character)`},
		{`["\udc00"]`, Pos{2, 1, 3}, `lone surrogate \udc00 in string (not a Unicode character)`},
		{`["\ud800\u0041"]`, Pos{2, 1, 3}, `lone surrogate \ud800 in string (not a Unicode character)`},
		{"[\"ok\", \"b\xffd\"]", Pos{9, 1, 10}, "invalid UTF-8"},
		{"\xEF\xBB\xBF{\"é\": \xC3}", Pos{10, 1, 7}, "invalid UTF-8"},
		{"{} x", Pos{3, 1, 4}, "unexpected character 'x' after the top-level value"},
		{"{}{}", Pos{2, 1, 3}, "unexpected character '{' after the top-level value"},
		{"[1, 2", Pos{5, 1, 6}, "unexpected end of input"},
		{`{"a"`, Pos{4, 1, 5}, "unexpected end of input"},
		{`{"a":`, Pos{5, 1, 6}, "unexpected end of input"},
		{`["abc`, Pos{5, 1, 6}, "unexpected end of input (unterminated string)"},
		{"[1 2]", Pos{3, 1, 4}, "unexpected character '2', expected ',' or ']'"},
		{`{"a" 1}`, Pos{5, 1, 6}, "unexpected character '1', expected ':' after the key"},
		{`{a: 1}`, Pos{1, 1, 2}, "unexpected character 'a', expected a key in double quotes"},
		{"[1,\x00]", Pos{3, 1, 4}, "unexpected NUL byte"},
		{"[\"\x00\"]", Pos{2, 1, 3}, "control character U+0000 in string (it must be escaped)"},
		{"\x00", Pos{0, 1, 1}, "unexpected NUL byte"},
		{"\r\n\r\n  [1,]", Pos{8, 3, 5}, "trailing comma"},
		{"\r\r[1,]", Pos{4, 3, 3}, "trailing comma"},
		{strings.Repeat("[", 1000) + strings.Repeat("]", 1000), Pos{}, ""},
		{bigObject(20) + `, "k3": 0}`, Pos{201, 1, 202}, `duplicate key "k3" (first defined at line 1)`},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), Pos{1000, 1, 1001}, "nesting deeper than 1000 levels"},
		{strings.Repeat(`{"a":`, 1001), Pos{5000, 1, 5001}, "nesting deeper than 1000 levels"},
		{strings.Repeat("[", 200000), Pos{1000, 1, 1001}, "nesting deeper than 1000 levels"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		_, err := Parse("t.json", []byte(tt.in), JSON)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%q: unexpected error %v", name, err)
			}
			continue
		}
		wantError(t, name, err, tt.pos, tt.msg)
	}
}

func TestJSONValues(t *testing.T) {
	d := mustParse(t, "a.json", `{"s": "a\nb\"c\u00e9d\ud83d\ude00\/", "n": [0, -0, 1.5e+10, 1E-2], "t": true, "f": false, "z": null, "e": {}, "a": []}`)
	if s, _ := d.Lookup("/s").Str(); s != "a\nb\"céd😀/" {
		t.Errorf("/s = %q", s)
	}
	var nums []string
	for _, n := range d.Lookup("/n").Items {
		nums = append(nums, n.Text)
	}
	if got := strings.Join(nums, " "); got != "0 -0 1.5e+10 1E-2" {
		t.Errorf("numbers %q", got)
	}
	if n := d.Lookup("/t"); n.Kind != Bool || !n.Bool {
		t.Errorf("/t = %+v", n)
	}
	if n := d.Lookup("/f"); n.Kind != Bool || n.Bool {
		t.Errorf("/f = %+v", n)
	}
	if n := d.Lookup("/z"); n == nil || n.Kind != Null {
		t.Errorf("/z = %+v", n)
	}
	if v, ok := d.Lookup("/a").Value().([]any); !ok || v == nil || len(v) != 0 {
		t.Errorf("/a Value = %#v", d.Lookup("/a").Value())
	}
}

func TestJSONBOM(t *testing.T) {
	d := mustParse(t, "a.json", "\xEF\xBB\xBF{\"a\": 1}")
	n := d.Lookup("/a")
	if want := (Pos{9, 1, 7}); n.Span.Start != want {
		t.Errorf("span start %v, want %v", n.Span.Start, want)
	}
	if d.Line(1) != `{"a": 1}` {
		t.Errorf("Line(1) = %q", d.Line(1))
	}
	if d.Root.Span.Start != (Pos{3, 1, 1}) {
		t.Errorf("root start %v", d.Root.Span.Start)
	}
}

func TestStringPosJSON(t *testing.T) {
	in := `{"k": "a\nb\"c\u00e9d\ud83d\ude00e"}`
	d := mustParse(t, "a.json", in)
	n := d.Lookup("/k")
	// The decoded text is a \n b " c é d 😀 e; each entry is the byte index
	// into it and the column of its first source byte.
	tests := []struct{ i, col int }{
		{0, 8},  // a
		{1, 9},  // \n
		{2, 11}, // b
		{3, 12}, // \"
		{4, 14}, // c
		{5, 15}, // \u00e9
		{6, 15}, // second byte of é
		{7, 21}, // d
		{8, 22}, // 😀, a surrogate pair
		{11, 22},
		{12, 34}, // e
		{13, 35}, // the closing quote
		{99, 35},
		{-1, 8},
	}
	for _, tt := range tests {
		if got := d.StringPos(n, tt.i); int(got.Col) != tt.col || got.Line != 1 || int(got.Offset) != tt.col-1 {
			t.Errorf("StringPos(%d) = %v, want col %d", tt.i, got, tt.col)
		}
	}
}

func TestPointers(t *testing.T) {
	if got := Pointer("steps", "0", "a/b", "c~d"); got != "/steps/0/a~1b/c~0d" {
		t.Errorf("Pointer = %q", got)
	}
	if Pointer() != "" {
		t.Errorf("Pointer() = %q", Pointer())
	}
	if got := AppendPointer("/a", "x/~"); got != "/a/x~1~0" {
		t.Errorf("AppendPointer = %q", got)
	}
	d := mustParse(t, "a.json", `{"a/b": {"c~d": [10, 11]}, "": 1, "x": {}}`)
	tests := []struct {
		ptr  string
		want string // Text of the node found, "" for nil
	}{
		{"/a~1b/c~0d/1", "11"},
		{"/a~1b/c~0d/0", "10"},
		{"/a~1b/c~0d/2", ""},
		{"/a~1b/c~0d/01", ""},
		{"/a~1b/c~0d/-", ""},
		{"/", "1"},
		{"/a~2b", ""},
		{"a", ""},
		{"/x/y", ""},
		{"/a~1b/c~0d/0/z", ""},
	}
	for _, tt := range tests {
		n := d.Lookup(tt.ptr)
		got := ""
		if n != nil {
			got = n.Text
		}
		if got != tt.want {
			t.Errorf("Lookup(%q) = %q, want %q", tt.ptr, got, tt.want)
		}
	}
	if s, ok := d.PointerSpan("/x/missing"); ok || s != d.Lookup("/x").Span {
		t.Errorf("PointerSpan(/x/missing) = %v, %v; want the span of /x, false", s, ok)
	}
	if s, ok := d.PointerSpan("/a~1b/c~0d/1"); !ok || s != d.Lookup("/a~1b/c~0d/1").Span {
		t.Errorf("PointerSpan = %v, %v", s, ok)
	}
	if _, ok := d.KeySpan("/a~1b/c~0d/1"); ok {
		t.Errorf("KeySpan of an array item should be false")
	}
	if s, ok := d.KeySpan("/a~1b"); !ok || s.Start.Col != 2 || s.End.Col != 7 {
		t.Errorf("KeySpan(/a~1b) = %v, %v", s, ok)
	}
	var nilNode *Node
	if nilNode.Get("a").Index(3).Member("b") != nil {
		t.Error("nil chain should stay nil")
	}
}

// bigObject returns the start of an object with n members, large enough
// for duplicate detection to switch from scanning to a map.
func bigObject(n int) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"k%d": %d`, i, i)
	}
	return b.String()
}

// wantError checks that err is a *Error at pos saying msg.
func wantError(t *testing.T, name string, err error, pos Pos, msg string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%q: got %v (%T), want *Error", name, err, err)
		return
	}
	if e.Pos != pos || e.Msg != msg {
		t.Errorf("%q:\n got %v %q\nwant %v %q", name, e.Pos, e.Msg, pos, msg)
	}
}

// TestMayHaveLongNumbers: a JSON document says whether any number literal is long
// enough to lose precision as a double, so that a check of every number can be
// skipped when none is; a YAML document always may.
func TestMayHaveLongNumbers(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{`{"a": [1, 2.5, -12345678901234]}`, false}, // fifteen bytes: a sign and fourteen digits
		{`{"a": [1, 9007199254740993]}`, true},
		{`{"a": {"b": 1.0000000000000001}}`, true},
		{`"12345678901234567890"`, false}, // a string, not a number
	} {
		d := mustParse(t, "t.json", c.text)
		if got := d.MayHaveLongNumbers(); got != c.want {
			t.Errorf("%s: MayHaveLongNumbers() = %v, want %v", c.text, got, c.want)
		}
	}
	if !mustParse(t, "t.yaml", "a: 1\n").MayHaveLongNumbers() {
		t.Error("a YAML document must always be checked")
	}
}
