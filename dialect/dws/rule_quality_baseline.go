package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var qualityBaseline = lint.Rule{
	ID: "quality-baseline", Severity: lint.Warning, Dialect: ContractID,
	Summary: "min_scores outside [0, 1], or required_dimensions without a min_scores entry",
	Doc: `A contract's quality_baseline sets minimum evaluation scores, which are shares in [0, 1].
A minimum above 1 can never be met and one below 0 always is; a required dimension without
a minimum in min_scores is scored but never judged. Keep every minimum in [0, 1] and give
each required dimension its minimum.`,
	Fail:  lint.Example{Name: "analysis.json", Text: example(exampleContract, `"accuracy": 0.9`, `"accuracy": 90`)},
	Pass:  lint.Example{Name: "analysis.json", Text: exampleContract},
	Check: func(p *lint.Pass) { checkQualityBaseline(p.File, p.Doc.Root) },
}

func checkQualityBaseline(f *lint.File, root *source.Node) {
	qb := root.Get("quality_baseline")
	scores := qb.Get("min_scores")
	if scores != nil && scores.Kind == source.Object {
		for _, m := range scores.Members {
			if v, ok := number(m.Value); ok && (v < 0 || v > 1) {
				f.Report("quality-baseline", source.AppendPointer("/quality_baseline/min_scores", m.Key), fmt.Sprintf(
					"minimum score %s for %q is outside [0, 1]", m.Value.Text, m.Key))
			}
		}
	}
	for i, it := range items(qb.Get("required_dimensions")) {
		dim, ok := it.Str()
		if ok && scores.Member(dim) == nil {
			f.Report("quality-baseline", "/quality_baseline/required_dimensions/"+itoa(i), fmt.Sprintf(
				"required dimension %q has no minimum in min_scores", dim))
		}
	}
}
