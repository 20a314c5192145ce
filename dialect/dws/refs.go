package dws

import (
	"fmt"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/source"
)

// The ref rule itself is registered by the DireClaw dialect; this is the job spec's half.
const refRule = "ref"

// checkRefs resolves the job spec's by-name references that are not routing: every
// skill_ref, workflow_ref and intent_ref in a definition, a skill hook's ref, delegation
// roles, phase roles and specific workers.
func (b *bundle) checkRefs() {
	for _, d := range b.docs {
		if d.folder == "skills" || d.folder == "intents" || d.folder == "outcomes" {
			continue
		}
		b.walkRefs(d, d.root, "")
	}
	for _, d := range b.byFolder["workflows"] {
		w := d.workflow()
		for i, h := range items(w.root.Get("hooks")) {
			if t, _ := h.Get("handler").Get("type").Str(); t != "skill_ref" {
				continue
			}
			if ref, ok := h.Get("handler").Get("ref").Str(); ok && skillRefRE().MatchString(ref) {
				b.resolveSkill(d, ref, "/hooks/"+itoa(i)+"/handler/ref")
			}
		}
		for _, t := range w.transitions {
			if t.typ != "delegation" {
				continue
			}
			if r, ok := t.node.Get("delegate_to").Get("role").Str(); ok && r != "" && b.knowsRoles() && !b.isRole(r) {
				d.f.Report(refRule, t.ptr+"/delegate_to/role", fmt.Sprintf(
					"the delegation from %q goes to role %q, which no worker or team member of the job spec holds", t.from, r)+
					suggest.Hint(r, b.roles(), "roles"))
			}
		}
		for _, p := range w.phases {
			wa := p.node.Get("worker_assignment")
			if r, ok := wa.Get("role").Str(); ok && r != "" && b.knowsRoles() && !b.isRole(r) {
				d.f.Report(refRule, p.ptr+"/worker_assignment/role", fmt.Sprintf(
					"phase %s is assigned role %q, which no worker or team member of the job spec holds", p.label(), r)+
					suggest.Hint(r, b.roles(), "roles"))
			}
			if ref, ok := wa.Get("worker_ref").Str(); ok && ref != "" && b.has["workers"] && b.workers[ref] == nil {
				d.f.Report("selection-strategy", p.ptr+"/worker_assignment/worker_ref", fmt.Sprintf(
					"phase %s selects worker %q, which is not a worker of the job spec", p.label(), ref)+
					suggest.Hint(ref, names(b.workers), "workers"))
			}
		}
	}
}

// walkRefs finds the skill_ref, workflow_ref and intent_ref members under n.
func (b *bundle) walkRefs(d *doc, n *source.Node, ptr string) {
	switch n.Kind {
	case source.Array:
		for i, it := range n.Items {
			b.walkRefs(d, it, ptr+"/"+itoa(i))
		}
	case source.Object:
		for _, m := range n.Members {
			p := source.AppendPointer(ptr, m.Key)
			s, ok := m.Value.Str()
			if !ok {
				b.walkRefs(d, m.Value, p)
				continue
			}
			switch m.Key {
			case "skill_ref":
				b.resolveSkill(d, s, p)
			case "workflow_ref":
				if b.has["workflows"] && b.workflows[s] == nil {
					d.f.Report(refRule, p, fmt.Sprintf("workflow_ref names %q, which is not a workflow of the job spec", s)+
						suggest.Hint(s, names(b.workflows), "workflows"))
				}
			case "intent_ref":
				if b.has["intents"] && !b.intents[s] {
					d.f.Report(refRule, p, fmt.Sprintf("intent_ref names %q, which is not an intent of the job spec", s)+
						suggest.Hint(s, names(b.intents), "intents"))
				}
			}
		}
	}
}

func (b *bundle) resolveSkill(d *doc, ref, ptr string) {
	if b.has["skills"] && !b.skills[ref] {
		d.f.Report(refRule, ptr, fmt.Sprintf("%q is not a skill of the job spec, whose skills are named name@version", ref)+
			suggest.Hint(ref, names(b.skills), "skills"))
	}
}
