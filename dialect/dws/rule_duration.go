package dws

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var duration = lint.Rule{
	ID: "duration", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "a duration is not ISO 8601",
	Doc: `Every timeout, max_duration, join timeout and contract SLA max_duration is an ISO 8601
duration as RFC 3339 Appendix A writes them: P, then years, months, days (or weeks), then
T and hours, minutes, seconds, each a whole number with its letter, none skipped between
the first and the last (PT1H30M, P1DT12H, P2W). A runtime that cannot parse the value
either fails the workflow or runs without the limit.`,
	Fail:  lint.Example{Name: "review-flow.json", Text: workflowExample(`"timeout": "PT1H"`, `"timeout": "1 hour"`)},
	Pass:  lint.Example{Name: "review-flow.json", Text: baseWorkflow},
	Check: func(p *lint.Pass) { checkDurations(p.File, workflowDurations(workflowModel(p))) },
}

const durTime = `T(?:(\d+)H(?:(\d+)M(?:(\d+)S)?)?|(\d+)M(?:(\d+)S)?|(\d+)S)`

// durationRE is RFC 3339 Appendix A's duration grammar. Groups: 1 D | 2 M 3 D | 4 Y 5 M
// 6 D, then the time part 7…12, or the time part alone 13…18, or weeks 19.
var durationRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^P(?:(?:(\d+)D|(\d+)M(?:(\d+)D)?|(\d+)Y(?:(\d+)M(?:(\d+)D)?)?)(?:` + durTime + `)?|` + durTime + `|(\d+)W)$`)
})

// parseDuration returns the length of an ISO 8601 duration in seconds (a year counts 365
// days, a month 30), and false when s is not one.
func parseDuration(s string) (float64, bool) {
	m := durationRE().FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	const day = 86400.0
	unit := []float64{0, day, 30 * day, day, 365 * day, 30 * day, day,
		3600, 60, 1, 60, 1, 1,
		3600, 60, 1, 60, 1, 1,
		7 * day}
	total := 0.0
	for i := 1; i < len(m); i++ {
		if m[i] == "" {
			continue
		}
		v, err := strconv.ParseFloat(m[i], 64)
		if err != nil {
			return 0, false
		}
		total += v * unit[i]
	}
	return total, true
}

// workflowDurations lists every duration field of a workflow.
func workflowDurations(w *workflow) []located {
	out := []located{{w.global.Get("max_duration"), "/global_constraints/max_duration"}}
	for _, p := range w.phases {
		out = append(out, located{p.node.Get("timeout"), p.ptr + "/timeout"})
	}
	for _, t := range w.transitions {
		out = append(out,
			located{t.node.Get("timeout"), t.ptr + "/timeout"},
			located{t.node.Get("join").Get("timeout"), t.ptr + "/join/timeout"})
	}
	for i, h := range items(w.root.Get("hooks")) {
		out = append(out, located{h.Get("timeout"), "/hooks/" + itoa(i) + "/timeout"})
	}
	return out
}

func checkDurations(f *lint.File, ds []located) {
	for _, d := range ds {
		if d.node == nil || d.node.Kind != source.String {
			continue
		}
		if _, ok := parseDuration(d.node.Text); !ok {
			f.Report("duration", d.ptr, fmt.Sprintf("%q is not an ISO 8601 duration (such as PT30M, PT2H or P1DT12H)", d.node.Text))
		}
	}
}
