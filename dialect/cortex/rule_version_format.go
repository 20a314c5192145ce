package cortex

import (
	"fmt"
	"regexp"

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

var versionForms = []struct {
	key, want           string
	schemaPattern, full *regexp.Regexp
}{
	{"version", "vMAJOR.MINOR", regexp.MustCompile(`^v\d+\.\d+`), regexp.MustCompile(`^v\d+\.\d+$`)},
	{"schemaVersion", "1.MINOR", regexp.MustCompile(`^1\.\d+`), regexp.MustCompile(`^1\.\d+$`)},
}

func checkVersionFormat(f *lint.File) {
	for _, vf := range versionForms {
		v, ok := f.Doc.Root.Get(vf.key).Str()
		if ok && vf.schemaPattern.MatchString(v) && !vf.full.MatchString(v) {
			f.Report("version-format", "/"+vf.key, fmt.Sprintf("%s %q is not exactly %s", vf.key, v, vf.want))
		}
	}
}
