package report

import (
	"encoding/json"
	"io"

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
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(jsonReport{
		Version: 1,
		Tool:    jsonTool{Name: "dws", Version: j.opts.Version},
		Files:   files,
		Summary: Summarize(res),
	})
}
