package dws

import (
	"fmt"
	"strings"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

var contractArtifact = lint.Rule{
	ID: "contract-artifact", Severity: lint.Error, Dialect: ContractID,
	Summary: "no worker with the producer role declares the contract's artifact_type",
	Doc: `A contract guarantees an artifact of artifact_guarantees.artifact_type, produced by the
party with obligation producer. Spec 7 has dws validate check that artifact types match
producer capabilities: at least one worker holding the producer role must list the type in
its artifact_types, or the promise is one no producer can keep. Checked when dws validates
the job spec; a producer role that nobody holds is reported by contract-party instead.`,
	Fail: lint.Example{Name: "contracts/analysis.json", Files: exampleJobSpec(), Text: example(exampleContract,
		`"artifact_type": "analysis-report"`, `"artifact_type": "legal-opinion"`)},
	Pass: lint.Example{Name: "contracts/analysis.json", Files: exampleJobSpec(), Text: exampleContract},
}

func (b *bundle) checkContractArtifact(d *doc) {
	typ, ok := d.root.Get("artifact_guarantees").Get("artifact_type").Str()
	if !ok || typ == "" {
		return
	}
	for _, p := range items(d.root.Get("parties")) {
		if o, _ := p.Get("obligation").Str(); o != "producer" {
			continue
		}
		role, _ := p.Get("role").Str()
		holders := b.roleOf[role]
		if len(holders) == 0 {
			continue
		}
		var rel []lint.Related
		declared := false
		for _, w := range holders {
			if contains(w.types, typ) {
				declared = true
				break
			}
			what := "declares no artifact types"
			if len(w.types) > 0 {
				what = "declares " + strings.Join(w.types, ", ")
			}
			rel = append(rel, w.d.f.Related(w.typePtr, fmt.Sprintf("worker %q %s", w.name, what)))
		}
		if !declared {
			var types []string
			for _, w := range holders {
				types = append(types, w.types...)
			}
			d.f.Report("contract-artifact", "/artifact_guarantees/artifact_type", fmt.Sprintf(
				"no worker with the producer role %q declares artifact type %q", role, typ)+suggest.DidYouMean(typ, types), rel...)
		}
	}
}
