package report

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
)

type jsonWriter struct{ opts Options }

type jsonReport struct {
	Version int               `json:"version"`
	Tool    jsonTool          `json:"tool"`
	Files   []lint.FileResult `json:"files"`
	Summary Summary           `json:"summary"`
}

type jsonTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Write prints the SPEC §9 JSON object: {version, tool, files, summary}. version is the
// version of this report's shape, so consumers can tell when it changes.
func (j *jsonWriter) Write(w io.Writer, res *lint.Result) error {
	files := res.Files
	if files == nil {
		files = []lint.FileResult{}
	}
	for i := range files {
		if files[i].Diagnostics == nil {
			files[i].Diagnostics = []lint.Diagnostic{}
		}
	}
	r := jsonReport{
		Version: 1,
		Tool:    jsonTool{Name: "dws", Version: j.opts.Version},
		Files:   files,
		Summary: Summarize(res),
	}
	var err error
	flush := func(b []byte) []byte {
		if err == nil {
			_, err = w.Write(b)
		}
		return b[:0]
	}
	flush(appendReport(make([]byte, 0, jsonChunk+16<<10), &r, flush))
	return err
}

// writeJSON writes v as indented JSON (escapeHTML: with <, > and & escaped, as
// encoding/json does by default), every user string exact and every character
// printable does not pass written as a JSON escape (printable.JSON). Every JSON
// report goes through it.
func writeJSON(w io.Writer, v any, escapeHTML bool) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(printable.JSON(buf.Bytes()))
	return err
}
