package report

import (
	"bytes"
	"testing"

	"github.com/dwsdev/dws/lint"
)

// hostile are strings whose every character class the two encoders escape differently
// or not at all: JSON's own escapes, HTML's characters (not escaped in this report),
// the characters printable does not pass, bytes that are not UTF-8.
var hostile = []string{
	"", "review", `quote " back \ slash`, "<b>&amp;</b>", "\x00\x01\x07\b\t\n\v\f\r\x1b\x1f",
	"del \x7f c1 \u0080\u0085\u009b\u009f nbsp \u00a0", "line\u2028sep\u2029",
	"\u202a\u202b\u202c\u202d\u202e bidi \u2066\u2067\u2068\u2069", "\ufeffbom\ufffe\uffff\ufffd",
	"bad\xffutf8\xc3", "\xed\xa0\x80 surrogate", "日本語 ✓ 😀", "/pointer/~0/~1", "a\u2027\u202f\u2065\u206a",
}

func encodersAgree(t *testing.T, res *lint.Result) {
	t.Helper()
	w := &jsonWriter{opts: Options{Version: "v1.2.3 \u202e"}}
	var fast bytes.Buffer
	if err := w.Write(&fast, res); err != nil {
		t.Fatal(err)
	}
	files := res.Files
	if files == nil {
		files = []lint.FileResult{}
	}
	var slow bytes.Buffer
	if err := writeJSON(&slow, jsonReport{
		Version: 1, Tool: jsonTool{Name: "dws", Version: w.opts.Version}, Files: files, Summary: Summarize(res),
	}, false); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fast.Bytes(), slow.Bytes()) {
		t.Errorf("the report's encoder differs from encoding/json's:\n%s\nwant:\n%s", fast.Bytes(), slow.Bytes())
	}
}

// The JSON report is written without reflection; its bytes are encoding/json's, indented
// and passed through printable.JSON, for every shape and string a result can hold.
func TestJSONEncoderMatches(t *testing.T) {
	encodersAgree(t, &lint.Result{})
	encodersAgree(t, &lint.Result{Files: []lint.FileResult{}})
	var files []lint.FileResult
	for i, s := range hostile {
		d := lint.Diagnostic{
			Rule: "rule-" + s, Severity: lint.Severity(i % 5), Message: s, File: s, Pointer: "/" + s,
			Line: i, Column: -i, EndLine: 1 << 40, EndColumn: i * 7,
		}
		switch i % 3 {
		case 1:
			d.Related = []lint.Related{}
		case 2:
			d.Related = []lint.Related{{File: s, Pointer: s, Line: i, Column: 2, Message: s}, {Message: "second"}}
		}
		f := lint.FileResult{Path: s, Dialect: s, Checksum: "sha256:" + s}
		if i%4 != 0 {
			f.Diagnostics = []lint.Diagnostic{d, d}
		}
		files = append(files, f)
	}
	encodersAgree(t, &lint.Result{Files: files, Suppressed: 3})
	// Written in pieces (jsonChunk): many files, a piece ending at every place.
	var many []lint.FileResult
	for len(many)*40 < 3*jsonChunk {
		many = append(many, files[len(many)%len(files)])
	}
	encodersAgree(t, &lint.Result{Files: many})
}

func FuzzJSONEncoder(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		encodersAgree(t, &lint.Result{Files: []lint.FileResult{{
			Path: s, Diagnostics: []lint.Diagnostic{{Message: s, Related: []lint.Related{{Pointer: s}}}},
		}}})
	})
}
