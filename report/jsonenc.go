package report

import (
	"strconv"
	"unicode/utf8"

	"github.com/dwsdev/dws/lint"
)

// appendReport appends the validate report as writeJSON writes it (indented by two
// spaces, a newline at the end, no HTML escaping, the characters printable does not pass
// escaped), without reflection: a warm run over 10,000 files spent a third of its time
// in encoding/json's reflection and indenting. TestJSONEncoderMatches holds it to
// writeJSON's bytes. Past jsonChunk bytes, between two files, what is appended so far
// is handed to flush, which returns the buffer to go on with: a report of 10,000 files
// is written from one small buffer instead of a fresh one of megabytes.
func appendReport(b []byte, r *jsonReport, flush func([]byte) []byte) []byte {
	b = append(b, "{\n  \"version\": "...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = append(b, ",\n  \"tool\": {\n    \"name\": "...)
	b = appendString(b, r.Tool.Name)
	b = append(b, ",\n    \"version\": "...)
	b = appendString(b, r.Tool.Version)
	b = append(b, "\n  },\n  \"files\": "...)
	switch {
	case r.Files == nil:
		b = append(b, "null"...)
	case len(r.Files) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, '[')
		for i := range r.Files {
			if i > 0 {
				b = append(b, ',')
			}
			if len(b) > jsonChunk {
				b = flush(b)
			}
			b = appendFile(b, &r.Files[i])
		}
		b = append(b, "\n  ]"...)
	}
	s := r.Summary
	b = append(b, ",\n  \"summary\": {\n    \"files\": "...)
	b = strconv.AppendInt(b, int64(s.Files), 10)
	b = append(b, ",\n    \"errors\": "...)
	b = strconv.AppendInt(b, int64(s.Errors), 10)
	b = append(b, ",\n    \"warnings\": "...)
	b = strconv.AppendInt(b, int64(s.Warnings), 10)
	b = append(b, ",\n    \"infos\": "...)
	b = strconv.AppendInt(b, int64(s.Infos), 10)
	b = append(b, ",\n    \"suppressed\": "...)
	b = strconv.AppendInt(b, int64(s.Suppressed), 10)
	return append(b, "\n  }\n}\n"...)
}

// jsonChunk is how much of a JSON report is gathered before it is written.
const jsonChunk = 64 << 10

// appendFile appends one file's object, at the depth of the report's files.
func appendFile(b []byte, f *lint.FileResult) []byte {
	b = append(b, "\n    {\n      \"path\": "...)
	b = appendString(b, f.Path)
	b = append(b, ",\n      \"dialect\": "...)
	b = appendString(b, f.Dialect)
	b = append(b, ",\n      \"checksum\": "...)
	b = appendString(b, f.Checksum)
	b = append(b, ",\n      \"diagnostics\": "...)
	switch {
	case f.Diagnostics == nil:
		b = append(b, "null"...)
	case len(f.Diagnostics) == 0:
		b = append(b, "[]"...)
	default:
		b = append(b, '[')
		for i := range f.Diagnostics {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendDiagnostic(b, &f.Diagnostics[i])
		}
		b = append(b, "\n      ]"...)
	}
	return append(b, "\n    }"...)
}

// appendDiagnostic appends one diagnostic's object, at the depth of a file's.
func appendDiagnostic(b []byte, d *lint.Diagnostic) []byte {
	const in = "\n          "
	b = append(b, "\n        {"+in+"\"rule\": "...)
	b = appendString(b, d.Rule)
	b = append(b, ","+in+"\"severity\": "...)
	b = appendString(b, d.Severity.String())
	b = append(b, ","+in+"\"message\": "...)
	b = appendString(b, d.Message)
	b = append(b, ","+in+"\"file\": "...)
	b = appendString(b, d.File)
	b = append(b, ","+in+"\"pointer\": "...)
	b = appendString(b, d.Pointer)
	b = append(b, ","+in+"\"line\": "...)
	b = strconv.AppendInt(b, int64(d.Line), 10)
	b = append(b, ","+in+"\"column\": "...)
	b = strconv.AppendInt(b, int64(d.Column), 10)
	b = append(b, ","+in+"\"end_line\": "...)
	b = strconv.AppendInt(b, int64(d.EndLine), 10)
	b = append(b, ","+in+"\"end_column\": "...)
	b = strconv.AppendInt(b, int64(d.EndColumn), 10)
	b = append(b, ","+in+"\"related\": "...)
	switch {
	case d.Related == nil:
		b = append(b, "null"...)
	case len(d.Related) == 0:
		b = append(b, "[]"...)
	default:
		const rin = "\n              "
		b = append(b, '[')
		for i, r := range d.Related {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n            {"+rin+"\"file\": "...)
			b = appendString(b, r.File)
			b = append(b, ","+rin+"\"pointer\": "...)
			b = appendString(b, r.Pointer)
			b = append(b, ","+rin+"\"line\": "...)
			b = strconv.AppendInt(b, int64(r.Line), 10)
			b = append(b, ","+rin+"\"column\": "...)
			b = strconv.AppendInt(b, int64(r.Column), 10)
			b = append(b, ","+rin+"\"message\": "...)
			b = appendString(b, r.Message)
			b = append(b, "\n            }"...)
		}
		b = append(b, "\n          ]"...)
	}
	return append(b, "\n        }"...)
}

// appendString appends s as a JSON string the way writeJSON's pair of passes does:
// encoding/json's escapes without HTML escaping (", \, the C0 controls as \b \f \n \r
// \t or \u00XX, U+2028 and U+2029, a byte that is not UTF-8 as \ufffd), then
// printable.JSON's (DEL, the C1 controls, the bidirectional controls, U+FEFF, U+FFFE,
// U+FFFF as \uXXXX).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != 0x7f {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default: // the other C0 controls and DEL
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r < 0xa0, r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069, r == 0xfeff, r == 0xfffe, r == 0xffff:
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', hex[r>>12], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
