package direclaw

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// checkSeedSchema reports, as schema, what the seed format requires and current releases
// do not, so the embedded schema can accept both: a workflow's inputs, present and a list
// of names or a mapping. Under release: current it is silent.
func checkSeedSchema(f *lint.File, o *orchestrator, rel Release) {
	if !rel.seed() {
		return
	}
	for i, w := range o.workflows {
		path := fmt.Sprintf("workflows[%d]", i)
		switch in := w.node.Get("inputs"); {
		case w.node.Kind != source.Object:
		case in == nil || in.Kind == source.Null:
			f.Report("schema", w.ptr, fmt.Sprintf(
				`%s: missing required property "inputs" (the seed format requires it; current DireClaw releases read no inputs as none%s)`,
				path, releaseHint(rel)))
		case in.Kind == source.String:
			f.Report("schema", w.ptr+"/inputs", fmt.Sprintf(
				`%s.inputs: expected array or object, got string %q (the seed format wants a list of names or a mapping; current DireClaw releases also take one name%s)`,
				path, in.Text, releaseHint(rel)))
		}
	}
}

// releaseHint points a finding that only the seed format makes at direclaw.release.
func releaseHint(rel Release) string {
	if rel == Seed {
		return ""
	}
	return ": set direclaw: { release: current } in .dws.yaml if the files run only there"
}
