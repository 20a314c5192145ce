package dws

import (
	"fmt"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var contractParty = lint.Rule{
	ID: "contract-party", Severity: lint.Error, Dialect: ContractID,
	Summary: "a contract party's role is held by nobody, or the contract lacks its one producer and its consumers",
	Doc: `A worker-to-worker contract binds roles: exactly one producer promises the artifact and at
least one consumer receives it. A party whose role no worker or team member of the job spec
holds binds nobody, and a contract with no producer, two producers or no consumer does not
say who owes what to whom. Spec 7 has dws validate check that every party exists. Producer
and consumer counts are checked in any contract file; roles when dws validates the job spec.`,
	Fail: lint.Example{Name: "contracts/analysis.json", Files: exampleJobSpec(), Text: example(exampleContract,
		`{ "role": "verifier", "obligation": "consumer" }`, `{ "role": "auditor", "obligation": "consumer" }`)},
	Pass:  lint.Example{Name: "contracts/analysis.json", Files: exampleJobSpec(), Text: exampleContract},
	Check: func(p *lint.Pass) { checkPartyObligations(p.File, p.Doc.Root) },
}

// checkPartyObligations reports a contract without exactly one producer and at least one
// consumer.
func checkPartyObligations(f *lint.File, root *source.Node) {
	parties := root.Get("parties")
	if parties == nil || parties.Kind != source.Array {
		return
	}
	var producers []int
	consumers := 0
	for i, p := range parties.Items {
		switch o, _ := p.Get("obligation").Str(); o {
		case "producer":
			producers = append(producers, i)
		case "consumer":
			consumers++
		}
	}
	switch {
	case len(producers) == 0:
		f.Report("contract-party", "/parties", "the contract has no producer: exactly one party must have obligation producer")
	case len(producers) > 1:
		var rel []lint.Related
		for _, i := range producers[1:] {
			rel = append(rel, f.Related("/parties/"+itoa(i), "another producer"))
		}
		f.Report("contract-party", "/parties/"+itoa(producers[0]), fmt.Sprintf(
			"the contract has %d producers: exactly one party may have obligation producer", len(producers)), rel...)
	}
	if consumers == 0 {
		f.Report("contract-party", "/parties", "the contract has no consumer: at least one party must have obligation consumer")
	}
}

// checkContracts checks the contracts' roles and artifact types against the workers.
func (b *bundle) checkContracts() {
	for _, d := range b.byFolder["contracts"] {
		if b.knowsRoles() {
			for i, p := range items(d.root.Get("parties")) {
				role, ok := p.Get("role").Str()
				if !ok || role == "" || b.isRole(role) {
					continue
				}
				o, _ := p.Get("obligation").Str()
				if o == "" {
					o = "party"
				}
				d.f.Report("contract-party", "/parties/"+itoa(i)+"/role", fmt.Sprintf(
					"the contract's %s role %q is held by no worker or team member of the job spec", o, role)+
					suggest.Hint(role, b.roles(), "roles"))
			}
		}
		if b.has["workers"] {
			b.checkContractArtifact(d)
		}
	}
}
