package dws

import (
	"fmt"
	"net/url"
	"regexp"
	"sync"

	"github.com/dwsdev/dws/lint"
)

var hook = lint.Rule{
	ID: "hook", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "a hook's handler has no ref, or a ref of the wrong form",
	Doc: `A hook runs a handler at a hook point: a skill (its ref is name@MAJOR.MINOR.PATCH, the way
skills are versioned), a tool URI, or a webhook (an https URL: hooks see workflow data, which
must not travel in clear text). A handler without a ref runs nothing, and a malformed ref
fails only when the hook point is reached, possibly with on_failure: abort.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(`"entry_phase": "draft",`, `"entry_phase": "draft",
  "hooks": [
    { "hook_id": "notify", "hook_point": "post_workflow", "handler": { "type": "webhook", "ref": "http://hooks.example.com/done" } }
  ],`)},
	Pass: lint.Example{Name: "review-flow.json", Text: workflowExample(`"entry_phase": "draft",`, `"entry_phase": "draft",
  "hooks": [
    { "hook_id": "notify", "hook_point": "post_workflow", "handler": { "type": "webhook", "ref": "https://hooks.example.com/done" } },
    { "hook_id": "lint", "hook_point": "pre_phase", "handler": { "type": "skill_ref", "ref": "code-lint@1.2.0" }, "timeout": "PT5M" }
  ],`)},
	Check: func(p *lint.Pass) { checkHooks(p.File, workflowModel(p)) },
}

// skillRefRE is name@MAJOR.MINOR.PATCH.
var skillRefRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^@\s]+@\d+\.\d+\.\d+$`) })

func checkHooks(f *lint.File, w *workflow) {
	for i, h := range items(w.root.Get("hooks")) {
		ptr := "/hooks/" + itoa(i)
		id, _ := h.Get("hook_id").Str()
		handler := h.Get("handler")
		typ, _ := handler.Get("type").Str()
		if handler == nil || typ == "" {
			continue
		}
		ref, ok := handler.Get("ref").Str()
		if !ok || ref == "" {
			if handler.Get("ref") == nil || ok {
				f.Report("hook", ptr+"/handler", fmt.Sprintf("hook %q has a %s handler without a ref", id, typ))
			}
			continue
		}
		switch typ {
		case "skill_ref":
			if !skillRefRE().MatchString(ref) {
				f.Report("hook", ptr+"/handler/ref", fmt.Sprintf("hook %q names skill %q, which is not name@MAJOR.MINOR.PATCH", id, ref))
			}
		case "webhook":
			if u, err := url.Parse(ref); err != nil || u.Scheme != "https" || u.Host == "" {
				f.Report("hook", ptr+"/handler/ref", fmt.Sprintf("hook %q calls webhook %q, which is not an https URL", id, ref))
			}
		}
	}
}
