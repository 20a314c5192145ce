package cortex

import (
	"fmt"
	"strings"

	"github.com/dwsdev/dws/lint"
)

var versionFormat = lint.Rule{
	ID: "version-format", Severity: lint.Warning, Dialect: ID,
	Summary: "version or schemaVersion pass the schema's unanchored pattern but are not vMAJOR.MINOR / 1.MINOR",
	Doc: `The Cortex schema's patterns (^v\d+\.\d+ and ^1\.\d+) are anchored only at the start, so
"v1.3-beta" or "1.0.0" pass it, yet revisions are compared as vMAJOR.MINOR and the schema
version as 1.MINOR. Write exactly that form.`,
	Fail: lint.Example{Name: "beta.json", Text: `{
  "schemaVersion": "1.0", "name": "beta", "version": "v1.3-beta",
  "steps": [ { "id": "nap", "type": "sleep", "params": { "seconds": 1 } } ]
}
`},
	Pass: lint.Example{Name: "beta.json", Text: `{
  "schemaVersion": "1.0", "name": "beta", "version": "v1.3",
  "steps": [ { "id": "nap", "type": "sleep", "params": { "seconds": 1 } } ]
}
`},
	Check: func(p *lint.Pass) { checkVersionFormat(p.File) },
}

// versionForms are the two version properties: what the schema's pattern requires
// them to start with (lead, then for version "MAJOR.", then MINOR digits), which
// they must be exactly.
var versionForms = []struct {
	key, want string
	lead      string
	major     bool
}{
	{"version", "vMAJOR.MINOR", "v", true},
	{"schemaVersion", "1.MINOR", "1.", false},
}

// versionLen is how much of s the form's pattern matches from the start (^v\d+\.\d+
// or ^1\.\d+, digits ASCII as in RE2), or -1 when it does not.
func versionLen(s, lead string, major bool) int {
	if !strings.HasPrefix(s, lead) {
		return -1
	}
	i := len(lead)
	digits := func() bool {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if major {
		if !digits() || i == len(s) || s[i] != '.' {
			return -1
		}
		i++
	}
	if !digits() {
		return -1
	}
	return i
}

func checkVersionFormat(f *lint.File) {
	for _, vf := range versionForms {
		v, ok := f.Doc.Root.Get(vf.key).Str()
		if n := versionLen(v, vf.lead, vf.major); ok && n >= 0 && n != len(v) {
			f.Report("version-format", "/"+vf.key, fmt.Sprintf("%s %q is not exactly %s", vf.key, v, vf.want))
		}
	}
}
