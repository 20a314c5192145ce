package cortex

import (
	"fmt"
	"maps"
	"slices"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

const registryExample = `templates:
  expense_fraud: { purpose: Score fraud risk, schema: fraudScore }
schemas:
  fraudScore:
    type: object
    required: [fraudScore]
    properties: { fraudScore: { type: number, minimum: 0, maximum: 1 } }
`

var aiSchema = lint.Rule{
	ID: "ai-schema", Severity: lint.Error, Dialect: ID,
	Summary: "an ai step's promptTemplate or schema is not in the prompt-template registry",
	Doc: `An ai step's output is validated against the JSON Schema its schema names, and its prompt
comes from the template its promptTemplate names; a name the engine does not know fails the
step at run time. dws checks both names against the registry file that
cortex.prompt_templates in .dws.yaml names (templates: and schemas:). With no registry
configured, every ai step is reported, because nothing can vouch for its names.`,
	Fail: lint.Example{Name: "score.json", Config: "cortex: { prompt_templates: prompts.yaml }\n",
		Files: map[string]string{"prompts.yaml": registryExample}, Text: `{
  "schemaVersion": "1.0", "name": "score", "version": "v1.0",
  "steps": [
    { "id": "fraud-score", "type": "ai", "params": { "promptTemplate": "expense_fraud", "model": "gpt-4o", "schema": "riskScore" } }
  ]
}
`},
	Pass: lint.Example{Name: "score.json", Config: "cortex: { prompt_templates: prompts.yaml }\n",
		Files: map[string]string{"prompts.yaml": registryExample}, Text: `{
  "schemaVersion": "1.0", "name": "score", "version": "v1.0",
  "steps": [
    { "id": "fraud-score", "type": "ai", "params": { "promptTemplate": "expense_fraud", "model": "gpt-4o", "schema": "fraudScore" } }
  ]
}
`},
	Check: func(p *lint.Pass) { checkAISchema(p.File, stepsOf(p), settingsOf(p.Config)) },
}

func checkAISchema(f *lint.File, steps []step, set *Settings) {
	for _, s := range steps {
		if s.typ != "ai" {
			continue
		}
		if set.Registry == nil {
			f.Report("ai-schema", s.ptr+"/params/schema", fmt.Sprintf(
				"ai step %q cannot be checked: no prompt-template registry is configured (cortex.prompt_templates in .dws.yaml)", s.id))
			continue
		}
		if tpl, ok := s.params.Get("promptTemplate").Str(); ok {
			if _, known := set.Registry.Templates[tpl]; !known {
				f.Report("ai-schema", s.ptr+"/params/promptTemplate", fmt.Sprintf(
					"promptTemplate %q is not a template of the registry %s", tpl, set.Registry.Path)+
					suggest.Hint(tpl, slices.Sorted(maps.Keys(set.Registry.Templates)), "templates"))
			}
		}
		if sch, ok := s.params.Get("schema").Str(); ok {
			if _, known := set.Registry.Schemas[sch]; !known {
				f.Report("ai-schema", s.ptr+"/params/schema", fmt.Sprintf(
					"schema %q is not a schema of the registry %s", sch, set.Registry.Path)+
					suggest.Hint(sch, slices.Sorted(maps.Keys(set.Registry.Schemas)), "schemas"))
			}
		}
	}
}
