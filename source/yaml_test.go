package source

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// jsonOf renders a value for comparison in test tables; json.Number keeps
// the literal as is.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestYAMLSpans(t *testing.T) {
	in := "name: wörk\nsteps:\n  - id: \"é1\"\n    run: 'it''s'\n  - {id: b, n: 0x1F}\nempty:\nlit: |\n  line one\n  line two\n"
	d := mustParse(t, "a.yaml", in)
	tests := []struct {
		ptr        string
		start, end Pos
		key        Span
	}{
		{"", Pos{0, 1, 1}, Pos{int32(len(in) - 1), 9, 11}, Span{}},
		{"/name", Pos{6, 1, 7}, Pos{11, 1, 11}, Span{Pos{0, 1, 1}, Pos{4, 1, 5}}},
		{"/steps", Pos{21, 3, 3}, Pos{70, 5, 21}, Span{Pos{12, 2, 1}, Pos{17, 2, 6}}},
		{"/steps/0/id", Pos{27, 3, 9}, Pos{32, 3, 13}, Span{Pos{23, 3, 5}, Pos{25, 3, 7}}},
		{"/steps/0/run", Pos{42, 4, 10}, Pos{49, 4, 17}, Span{Pos{37, 4, 5}, Pos{40, 4, 8}}},
		{"/steps/1", Pos{54, 5, 5}, Pos{70, 5, 21}, Span{}},
		{"/steps/1/n", Pos{65, 5, 16}, Pos{69, 5, 20}, Span{Pos{62, 5, 13}, Pos{63, 5, 14}}},
		{"/empty", Pos{77, 6, 7}, Pos{77, 6, 7}, Span{Pos{71, 6, 1}, Pos{76, 6, 6}}},
		{"/lit", Pos{83, 7, 6}, Pos{int32(len(in) - 1), 9, 11}, Span{Pos{78, 7, 1}, Pos{81, 7, 4}}},
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
		ks, ok := d.KeySpan(tt.ptr)
		if ok != (tt.key != Span{}) || ks != tt.key {
			t.Errorf("%q: KeySpan = %v, %v; want %v", tt.ptr, ks, ok, tt.key)
		}
	}
	if got := jsonOf(t, d.Root.Value()); got != `{"empty":null,"lit":"line one\nline two\n","name":"wörk","steps":[{"id":"é1","run":"it's"},{"id":"b","n":31}]}` {
		t.Errorf("value %s", got)
	}
}

func TestYAMLScalars(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[yes, no, on, off, y, n]", `["yes","no","on","off","y","n"]`},
		{"[true, True, TRUE, false, FALSE]", `[true,true,true,false,false]`},
		{"[~, null, Null, '', \"null\"]", `[null,null,null,"","null"]`},
		{"[0x1F, 0o17, +1, -0, 1_000, 010, 0b101, -0x10]", `[31,15,1,0,"1_000",10,"0b101","-0x10"]`},
		{"[1.5, .5, -.5, +2.5e3, 1., 1e3, 007.50, 09]", `[1.5,0.5,-0.5,2.5e3,1,1e3,7.50,9]`},
		{"[123456789012345678901234567890, 18446744073709551616]", `[123456789012345678901234567890,18446744073709551616]`},
		{"[2001-12-14, 2001-12-14t21:59:43.10-05:00, !!timestamp 2001-12-14]", `["2001-12-14","2001-12-14t21:59:43.10-05:00","2001-12-14"]`},
		{"[!!binary aGVsbG8=, !!str 12, !!int '12', !!float 3, !!bool true, !!null null]", `["aGVsbG8=","12",12,3,true,null]`},
		{"[\"a\\tb\\u00e9\\x41\", 'it''s', plain text]", `["a\tbéA","it's","plain text"]`},
		{"a: |-\n  x\n  y\nb: >\n  p\n  q\n\n  r\n", `{"a":"x\ny","b":"p q\nr\n"}`},
		{"<<: [{a: 1, b: 1}, {b: 2, c: 2}]\nc: 3\n", `{"a":1,"b":1,"c":3}`},
		{"base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n", `{"base":{"x":1,"y":2},"d":{"x":1,"y":3}}`},
		{"\"<<\": 1", `{"<<":1}`},
		{"? a\n: 1", `{"a":1}`},
		{"2001-12-14: a", `{"2001-12-14":"a"}`},
		{"yes: 1\non: 2", `{"on":2,"yes":1}`},
		{"\xEF\xBB\xBFa: 1", `{"a":1}`},
	}
	for _, tt := range tests {
		d, err := Parse("t.yaml", []byte(tt.in), YAML)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := jsonOf(t, d.Root.Value()); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestYAMLErrors(t *testing.T) {
	bomb := "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
	for i, c := range "bcdefghi" {
		p := string("abcdefghi"[i])
		bomb += fmt.Sprintf("%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", c, c, p, p, p, p, p, p, p, p, p)
	}
	tests := []struct {
		in  string
		pos Pos
		msg string
	}{
		{"", Pos{0, 1, 1}, "empty document"},
		{"# just a comment\n\n", Pos{0, 1, 1}, "empty document"},
		{"\xEF\xBB\xBF", Pos{3, 1, 1}, "empty document"},
		{"a: 1\n---\nb: 2\n", Pos{5, 2, 1}, "more than one YAML document (a file holds exactly one)"},
		{"a: 1\nb: 2\n  a: 3\n", Pos{13, 3, 4}, "mapping values are not allowed in this context"},
		{"x:\n  a: 1\n  b: 2\n  a: 3\n", Pos{19, 4, 3}, `duplicate key "a" (first defined at line 2)`},
		{"{a: 1, 'a': 2}", Pos{7, 1, 8}, `duplicate key "a" (first defined at line 1)`},
		{"1: a\n", Pos{0, 1, 1}, "keys must be strings (1 is a number here; quote it)"},
		{"a: 1\ntrue: b\n", Pos{5, 2, 1}, "keys must be strings (true is a boolean here; quote it)"},
		{"~: a\n", Pos{0, 1, 1}, "keys must be strings (~ is a null here; quote it)"},
		{"? \n: a\n", Pos{1, 1, 2}, "keys must be strings (an empty key is null)"},
		{"? [a]\n: b\n", Pos{2, 1, 3}, "keys must be strings (this key is an array)"},
		{"? {a: 1}\n: b\n", Pos{2, 1, 3}, "keys must be strings (this key is an object)"},
		{"a: .inf\n", Pos{3, 1, 4}, ".inf has no JSON form; quote it to make it a string"},
		{"a: [1, -.Inf]\n", Pos{7, 1, 8}, "-.Inf has no JSON form; quote it to make it a string"},
		{"a: .NaN\n", Pos{3, 1, 4}, ".NaN has no JSON form; quote it to make it a string"},
		{"a: !foo x\n", Pos{8, 1, 9}, "custom tag !foo is not supported"},
		{"a: !!set {x}\n", Pos{9, 1, 10}, "tag !!set is not supported"},
		{"a: !!int x\n", Pos{9, 1, 10}, `cannot read "x" as a number`},
		{"a: &a [*a]\n", Pos{7, 1, 8}, "alias *a refers to a value that contains it"},
		{"a: *nope\n", Pos{3, 1, 4}, "unknown anchor 'nope' referenced"},
		{"a: 1\nb: 2\n\tc: 3\n", Pos{10, 3, 1}, "found a tab character that violates indentation"},
		{"a: 1e-99999\n", Pos{3, 1, 4}, "number 1e-99999 has an exponent beyond ±10000"},
		{"<<: 1\n", Pos{4, 1, 5}, "a merge key (<<) needs a mapping or a list of mappings"},
		{"a: b\x00\n", Pos{4, 1, 5}, "NUL byte is not allowed"},
		{"a: \"é\x01\"\n", Pos{6, 1, 6}, "control character U+0001 is not allowed"},
		{"a: é\xff\n", Pos{5, 1, 5}, "invalid UTF-8"},
		{bomb, Pos{247, 7, 11}, "too many aliases (alias expansion exceeds 1000000 values)"},
		{strings.Repeat("[", 1001) + strings.Repeat("]", 1001), Pos{1000, 1, 1001}, "nesting deeper than 1000 levels"},
		{strings.Repeat("[", 200000), Pos{1000, 1, 1001}, "nesting deeper than 1000 levels"},
		{strings.Repeat("- ", 200000), Pos{2000, 1, 2001}, "nesting deeper than 1000 levels"},
		{"a: &x " + strings.Repeat("[", 600) + strings.Repeat("]", 600) + "\nb: " + strings.Repeat("[", 600) + "*x" + strings.Repeat("]", 600), Pos{1810, 2, 604}, "nesting deeper than 1000 levels"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		_, err := Parse("t.yaml", []byte(tt.in), YAML)
		wantError(t, name, err, tt.pos, tt.msg)
	}
}

func TestYAMLAliases(t *testing.T) {
	in := "defaults: &d\n  image: alpine\n  env: [A]\njob: *d\n"
	d := mustParse(t, "a.yaml", in)
	if !reflect.DeepEqual(d.Lookup("/job").Value(), d.Lookup("/defaults").Value()) {
		t.Errorf("alias value differs: %v", d.Lookup("/job").Value())
	}
	alias := Span{Pos{45, 4, 6}, Pos{47, 4, 8}}
	for _, p := range []string{"/job", "/job/image", "/job/env/0"} {
		if n := d.Lookup(p); n.Span != alias {
			t.Errorf("%s: span %v, want the alias's %v", p, n.Span, alias)
		}
	}
	if s, _ := d.KeySpan("/job/env"); s != alias {
		t.Errorf("key span in a copy %v, want %v", s, alias)
	}
	if d.Lookup("/job") == d.Lookup("/defaults") {
		t.Error("alias should be a copy")
	}
	if n := d.Lookup("/defaults/image"); n.Span.Start != (Pos{22, 2, 10}) {
		t.Errorf("anchored value moved: %v", n.Span)
	}
	if got := d.StringPos(d.Lookup("/job/image"), 3); got != alias.Start {
		t.Errorf("StringPos in a copy = %v", got)
	}
}

func TestStringPosYAML(t *testing.T) {
	in := "p: plain välue\n" +
		"d: \"a\\tb\\u00e9c\\\n   d\"\n" +
		"s: 'it''s'\n" +
		"l: |\n   one\n    two\n\n   three\n" +
		"f: >\n  x\n  y\n" +
		"m: word\n  next\n"
	d := mustParse(t, "a.yaml", in)
	type at struct{ i, line, col int }
	tests := []struct {
		ptr string
		at  []at
	}{
		{"/p", []at{{0, 1, 4}, {6, 1, 10}, {7, 1, 11}, {8, 1, 11}, {9, 1, 12}, {12, 1, 15}}},
		// a \t b é c d: the escaped line break decodes to nothing
		{"/d", []at{{0, 2, 5}, {1, 2, 6}, {2, 2, 8}, {3, 2, 9}, {5, 2, 15}, {6, 3, 4}, {7, 3, 5}}},
		{"/s", []at{{0, 4, 5}, {2, 4, 7}, {3, 4, 9}, {4, 4, 10}}},
		// one\n two\n\nthree\n
		{"/l", []at{{0, 6, 4}, {2, 6, 6}, {3, 6, 7}, {4, 7, 4}, {5, 7, 5}, {9, 8, 1}, {10, 9, 4}, {14, 9, 8}}},
		{"/f", []at{{0, 11, 3}, {1, 11, 4}, {2, 12, 3}}},
		{"/m", []at{{0, 13, 4}, {4, 13, 8}, {5, 14, 3}}},
	}
	for _, tt := range tests {
		n := d.Lookup(tt.ptr)
		for _, a := range tt.at {
			got := d.StringPos(n, a.i)
			if int(got.Line) != a.line || int(got.Col) != a.col || got != d.PosAt(int(got.Offset)) {
				t.Errorf("%s: StringPos(%d) = %v, want %d:%d", tt.ptr, a.i, got, a.line, a.col)
			}
		}
	}
}

func TestTwins(t *testing.T) {
	tests := []struct{ json, yaml string }{
		{`{"a": 1, "b": [true, null, "x"], "c": {"d": -1.5e3}}`, "a: 1\nb:\n  - true\n  - null\n  - x\nc:\n  d: -1.5e3\n"},
		{`{"name": "ci", "on": "push", "n": 31, "s": "0x1F"}`, "name: ci\non: push\nn: 0x1F\ns: '0x1F'\n"},
		{`[{}, [], "", 0]`, "- {}\n- []\n- ''\n- 0\n"},
		{`{"t": "2001-12-14", "multi": "a\nb\n"}`, "t: 2001-12-14\nmulti: |\n  a\n  b\n"},
		{`{"x": {"k": [1, 2]}, "y": {"k": [1, 2]}}`, "x: &x\n  k: [1, 2]\ny: *x\n"},
	}
	for _, tt := range tests {
		j := mustParse(t, "a.json", tt.json)
		y := mustParse(t, "a.yaml", tt.yaml)
		if !reflect.DeepEqual(j.Root.Value(), y.Root.Value()) {
			t.Errorf("twins differ:\njson %#v\nyaml %#v", j.Root.Value(), y.Root.Value())
		}
	}
}

func TestComments(t *testing.T) {
	in := "# top\n\n# about a\n# more\na: 1 # trailing\nb:\n  - x # item\n  # dangling\n"
	d := mustParse(t, "a.yaml", in)
	var got []string
	for _, c := range d.Comments {
		got = append(got, fmt.Sprintf("%d:%s", c.Line, c.Text))
	}
	// A comment below everything applies to no line but its own.
	want := "5:top 5:about a 5:more 5:trailing 7:item 8:dangling"
	if strings.Join(got, " ") != want {
		t.Errorf("comments %q, want %q", strings.Join(got, " "), want)
	}
}

// Comments are found where they are written, from the scalars' own spans, never by
// searching for their text: a '#' inside a scalar is no comment, and a string holding
// a comment's words does not move the comment.
func TestCommentPositions(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"plain scalars", "a: b#c\nd: e #f\n", "2:6-2:8 f (line 2)"},
		{"quoted", "a: 'x # y' # z\nb: \"p # q\"\n", "1:12-1:15 z (line 1)"},
		{"multi-line quoted", "a: \"one\n  # two\"\n# three\nb: 1\n", "3:1-3:8 three (line 4)"},
		{"block literal", "a: |  # header\n  # not a comment\n  text\n# after\nb: 1\n", "1:7-1:15 header (line 1); 4:1-4:8 after (line 5)"},
		{"folded", "a: >\n  x # y\n  z\nb: 2 # c\n", "4:6-4:9 c (line 4)"},
		{"flow", "a: [1, # one\n  2]  # two\n", "1:8-1:13 one (line 1); 2:7-2:12 two (line 2)"},
		{"wide characters", "名前: 値 # コメント\n", "1:7-1:13 コメント (line 1)"},
		{"CRLF", "# first\r\na: 1 # second\r\n", "1:1-1:8 first (line 2); 2:6-2:14 second (line 2)"},
		{"BOM", "\uFEFF# top\na: 1\n", "1:1-1:6 top (line 2)"},
		{"same words in a string", "s: \"# dws:ignore cycle -- x\"\nt: 1\n\n\n# dws:ignore cycle -- x\nu: 2\n", "5:1-5:24 dws:ignore cycle -- x (line 6)"},
	} {
		d := mustParse(t, "a.yaml", tt.in)
		var got []string
		for _, c := range d.Comments {
			got = append(got, fmt.Sprintf("%d:%d-%d:%d %s (line %d)", c.Span.Start.Line, c.Span.Start.Col, c.Span.End.Line, c.Span.End.Col, c.Text, c.Line))
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("%s: got %q\nwant %q", tt.name, g, tt.want)
		}
	}
}

// A number YAML 1.2 reads as a number is one even where yaml.v3 cannot hold it: out of
// range, as its JSON twin is, never silently a string. A long document without
// aliases is too large, not "too many aliases".
func TestYAMLNumbersAndSizeAgreeWithJSON(t *testing.T) {
	huge := strings.Repeat("9", 100000)
	for _, tt := range []struct{ name, yaml, json, want string }{
		{"exponent", "a: 1e400\n", `{"a": 1e400}`, "out of range"},
		{"digits", "a: " + huge + "\n", `{"a": ` + huge + `}`, "out of range"},
	} {
		_, yerr := Parse("a.yaml", []byte(tt.yaml), YAML)
		_, jerr := Parse("a.json", []byte(tt.json), JSON)
		if yerr == nil || jerr == nil || !strings.Contains(yerr.Error(), tt.want) || !strings.Contains(jerr.Error(), tt.want) {
			t.Errorf("%s: YAML %v, JSON %v; want both %q", tt.name, yerr, jerr, tt.want)
		}
	}
	if d, err := Parse("a.yaml", []byte("a: '1e400'\nb: !!str 1e400\n"), YAML); err != nil || d.Root.Get("a").Kind != String || d.Root.Get("b").Kind != String {
		t.Errorf("quoted or tagged, 1e400 is a string: %v", err)
	}
	many := "[" + strings.Repeat("0,", maxNodes) + "0]\n"
	if _, err := Parse("a.yaml", []byte(many), YAML); err == nil || !strings.Contains(err.Error(), "too many values") {
		t.Errorf("a long list without aliases: %v", err)
	}
}

// YAML read as YAML 1.2 reads it where the YAML library underneath does not on its
// own (the whole official test suite is TestYAMLTestSuite; these need no download).
func TestYAML12(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"%YAML 1.2\n---\na: 1\n", `{"a":1}`},
		{"%YAML 1.3 # a later 1.x is read as 1.2\n---\na: 1\n", `{"a":1}`},
		{"%FOO bar baz # reserved: ignored\n--- a\n", `"a"`},
		{"a: \"\\/\"\n", `{"a":"/"}`},
		{"outputs: [plan?draft]\n", `{"outputs":["plan?draft"]}`},
		{"outputs: [required_key, optional_key?]\n", `{"outputs":["required_key","optional_key?"]}`},
		{"{foo\n: bar}\n", `{"foo":"bar"}`},
		{"a: &x:y 1\nb: *x:y\n", `{"a":1,"b":1}`},
		{"a:\tb\nc: [1,\td]\n", `{"a":"b","c":[1,"d"]}`},
		{"-\t-1\n", `[-1]`},
		{"k: [\n  a,\n  b\n]\n", `{"k":["a","b"]}`},
		{"- ! 12\n- !!str 13\n", `["12","13"]`},
		{"|\nx\n...\n# end\n", `"x\n"`},
		{"--- >\n a\n b\n", `"a b\n"`},
	} {
		d, err := Parse("t.yaml", []byte(tt.in), YAML)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got := jsonOf(t, d.Root.Value()); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
	for _, tt := range []struct {
		in  string
		pos Pos
		msg string
	}{
		{"%YAML 2.0\n---\na\n", Pos{6, 1, 7}, "YAML 2.0 is not supported (dws reads YAML 1.2)"},
		{"%YAML 1.2\n", Pos{0, 1, 1}, "a directive must be followed by a document start marker (---), and none follows"},
		{"%FOO\na: 1\n", Pos{5, 2, 1}, "a directive must be followed by a document start marker (---)"},
		{"a: [ b, c, ]#glued\n", Pos{12, 1, 13}, "found a comment without preceding whitespace"},
		{"[-]\n", Pos{1, 1, 2}, "found character that cannot start any token"},
		{"flow: [a,\nb]\n", Pos{10, 2, 1}, "this line continues a flow collection inside a block at indentation 0, so it must be indented by at least 1 space"},
		{"- a:\n    - [x,\n    y]\n", Pos{19, 3, 5}, "this line continues a flow collection inside a block at indentation 4, so it must be indented by at least 5 spaces"},
		{"q: \"a\n\tb\"\n", Pos{6, 2, 1}, "this line continues a quoted string inside a block at indentation 0, so it must be indented by at least 1 space (a tab does not indent)"},
		{"a: >\n \n  \n b\n", Pos{11, 4, 2}, "did not find expected key"},
		{"a: >\n   \n # comment\n", Pos{10, 3, 2}, "a block scalar whose leading empty lines hold more spaces than its first line of text needs an indentation indicator (such as |2)"},
		{"|\nx\n---\ny\n", Pos{4, 3, 1}, "more than one YAML document (a file holds exactly one)"},
		{"|\nx\n...\ny\n", Pos{8, 4, 1}, "more than one YAML document (a file holds exactly one)"},
		{"a: 1\n---\nb: [\n", Pos{5, 2, 1}, "more than one YAML document (a file holds exactly one)"},
		{"foo:\n  bar\ninvalid\n", Pos{11, 3, 1}, "could not find expected ':'"},
		{"a: 1\nkey: \"never closed\n", Pos{10, 2, 6}, "this quoted string is never closed"},
		{"- a\u2028- b\n", Pos{3, 1, 4}, `character U+2028 is a line break to YAML 1.1 and a character to YAML 1.2, so readers disagree on this file; in a double-quoted string write it as \L`},
		{"a: &😁 x\n", Pos{4, 1, 5}, "did not find expected alphabetic or numeric character"},
	} {
		_, err := Parse("t.yaml", []byte(tt.in), YAML)
		wantError(t, tt.in, err, tt.pos, tt.msg)
	}
}
