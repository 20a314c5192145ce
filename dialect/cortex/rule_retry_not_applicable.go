package cortex

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var retryNotApplicable = lint.Rule{
	ID: "retry-not-applicable", Severity: lint.Warning, Dialect: ID,
	Summary: "retry on a sleep step",
	Doc: `A sleep step cannot fail in a way a retry would mend, and the Cortex reference says retry
is not applicable to it; the engine ignores the setting. Remove it so readers are not misled
about how long the step can take.`,
	Fail: lint.Example{Name: "nap.json", Text: `{
  "schemaVersion": "1.0", "name": "nap", "version": "v1.0",
  "steps": [ { "id": "nap", "type": "sleep", "params": { "seconds": 30 }, "retry": { "count": 2 } } ]
}
`},
	Pass: lint.Example{Name: "nap.json", Text: `{
  "schemaVersion": "1.0", "name": "nap", "version": "v1.0",
  "steps": [ { "id": "nap", "type": "sleep", "params": { "seconds": 30 } } ]
}
`},
	Check: func(p *lint.Pass) { checkRetryNotApplicable(p.File, stepsOf(p)) },
}

func checkRetryNotApplicable(f *lint.File, steps []step) {
	for _, s := range steps {
		if s.typ == "sleep" && s.node.Member("retry") != nil {
			f.Report("retry-not-applicable", s.ptr+"/retry", fmt.Sprintf("retry has no effect on sleep step %q", s.id))
		}
	}
}
