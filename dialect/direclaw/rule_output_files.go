package direclaw

import (
	"fmt"
	"strings"

	"github.com/dwsdev/dws/lint"
)

var outputFiles = lint.Rule{
	ID: "output-files", Severity: lint.Error, Dialect: ID,
	Summary: "an output with no output_files entry, or an output_files entry that is no output",
	Doc: `DireClaw precomputes where a worker must write each declared output from output_files, and
fails the step when an output has no path. Every key of outputs (without its optional "?"
marker) needs an entry in output_files, and every entry of output_files must be a declared
output: an extra one is a path nobody checks, usually a misspelt key.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "outputs: [summary]", "outputs: [summary, result]")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkOutputFiles(p.File, model(p)) },
}

func checkOutputFiles(f *lint.File, o *orchestrator) {
	for _, w := range o.workflows {
		for _, s := range w.steps {
			if !s.hasOutputs {
				if s.files != nil {
					for _, m := range s.files.Members {
						f.ReportKey("output-files", s.ptr+"/output_files/"+escape(m.Key), fmt.Sprintf(
							"output_files maps %q, but step %s declares no outputs", m.Key, s.label()))
					}
				}
				continue
			}
			for _, out := range s.outputs {
				if s.files.Get(out.name) == nil && s.files.Get(out.name+"?") == nil {
					f.Report("output-files", out.ptr, fmt.Sprintf(
						"output %q of step %s has no entry in output_files", out.name, s.label()))
				}
			}
			for _, m := range s.files.Entries() {
				if name, marked := strings.CutSuffix(m.Key, "?"); marked && s.hasOutput(name) {
					f.ReportKey("output-files", s.ptr+"/output_files/"+escape(m.Key), fmt.Sprintf(
						"output_files key %q must not carry the optional marker: write %q and keep the \"?\" in outputs only", m.Key, name))
					continue
				}
				if !s.hasOutput(m.Key) {
					f.ReportKey("output-files", s.ptr+"/output_files/"+escape(m.Key), fmt.Sprintf(
						"output_files maps %q, which is not an output of step %s", m.Key, s.label()))
				}
			}
		}
	}
}
