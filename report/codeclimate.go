package report

import (
	"crypto/sha256"
	"encoding/hex"
	"io"

	"github.com/dwsdev/dws/lint"
)

// codeclimate writes GitLab's Code Quality report: a JSON array of issues in the Code
// Climate shape, of which GitLab reads description, check_name, fingerprint, severity,
// location.path and location.lines.begin. The fingerprint is a hash of the file, the
// rule, the JSON pointer and the message, never the line, so that a finding keeps its
// identity when lines above it move and GitLab can tell new findings from old ones.
type codeclimate struct{}

type ccIssue struct {
	Type        string     `json:"type"`
	CheckName   string     `json:"check_name"`
	Description string     `json:"description"`
	Categories  []string   `json:"categories"`
	Fingerprint string     `json:"fingerprint"`
	Severity    string     `json:"severity"`
	Location    ccLocation `json:"location"`
}

type ccLocation struct {
	Path  string  `json:"path"`
	Lines ccLines `json:"lines"`
}

type ccLines struct {
	Begin int `json:"begin"`
	End   int `json:"end,omitempty"`
}

// ccSeverity maps dws severities onto GitLab's (info, minor, major, critical, blocker).
var ccSeverity = map[lint.Severity]string{lint.Error: "major", lint.Warning: "minor", lint.Info: "info"}

func (codeclimate) Write(w io.Writer, res *lint.Result) error {
	issues := []ccIssue{}
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			sum := sha256.Sum256([]byte(d.File + "\x00" + d.Rule + "\x00" + d.Pointer + "\x00" + d.Message))
			category := "Bug Risk"
			if d.Severity == lint.Info {
				category = "Style"
			}
			issues = append(issues, ccIssue{
				Type: "issue", CheckName: d.Rule, Description: d.Message, Categories: []string{category},
				Fingerprint: hex.EncodeToString(sum[:16]), Severity: ccSeverity[d.Severity],
				Location: ccLocation{Path: d.File, Lines: ccLines{Begin: max(d.Line, 1), End: d.EndLine}},
			})
		}
	}
	return writeJSON(w, issues, true)
}
