package ensemble

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/dwsdev/dws/lint"
)

var hierarchicalRole = lint.Rule{
	ID: "hierarchical-role", Severity: lint.Error, Dialect: ID,
	Summary: "under a HIERARCHICAL task list, an agent role that is Manager or that another task's agent has",
	Doc: `In a HIERARCHICAL ensemble a virtual agent with the role Manager hands each task to a
worker agent by its role, so AgentEnsemble rejects a flat task list whose agents would make
that ambiguous: an agent role Manager (reserved for the virtual manager, in any case:
"manager" too), and two tasks whose agents have the same role, ignoring case ("Researcher"
and "researcher"), even when both tasks name the same agent. A role is compared as written:
" Researcher" with a space is another role. Tasks without an agent get one made for them
and are not checked. Rename the role, give each task an agent with a role of its own, or
use a workflow other than HIERARCHICAL.`,
	Fail:  lint.Example{Name: "newsroom.yaml", Text: newsroom("agent: Editor", "agent: Manager")},
	Pass:  lint.Example{Name: "newsroom.yaml", Text: newsroom()},
	Check: func(p *lint.Pass) { checkHierarchicalRole(p.File, model(p)) },
}

// newsroom is a HIERARCHICAL flat task list for the rule's documentation; edits ("old",
// "new", …) turn it into a failing example.
func newsroom(edits ...string) string {
	return strings.NewReplacer(edits...).Replace(`ensemble: newsroom
workflow: HIERARCHICAL
tasks:
  - { name: research, description: Research the story, agent: Researcher }
  - { name: write, description: Write the story, agent: Writer, context: [research] }
  - { name: edit, description: Edit the story, agent: Editor, context: [write] }
`)
}

// checkHierarchicalRole is AgentEnsemble's EnsembleValidator.validateHierarchicalRoles
// over a flat task list whose workflow is HIERARCHICAL, every finding reported rather
// than the first one thrown: a role equal to "Manager" ignoring case (Java's
// equalsIgnoreCase, which for these ASCII letters is Go's EqualFold), else a role whose
// lower case (Java's toLowerCase(Locale.ROOT)) an earlier task's agent has.
func checkHierarchicalRole(f *lint.File, e *ensemble) {
	if e.flat == nil || e.effective(e.flat) != "HIERARCHICAL" {
		return
	}
	first := map[string]*task{}
	for _, t := range e.flat.tasks {
		if !t.hasAgent || strings.TrimSpace(t.agent) == "" {
			continue // a made agent, or a role AgentEnsemble's Agent builder refuses
		}
		ptr := t.ptr + "/agent"
		if strings.EqualFold(t.agent, "Manager") {
			f.Report("hierarchical-role", ptr, fmt.Sprintf(
				"agent role %q of task %s is reserved for the virtual manager of a HIERARCHICAL ensemble: choose another role", t.agent, taskName(t)))
			continue
		}
		key := javaLower(t.agent)
		if prev, ok := first[key]; ok {
			f.Report("hierarchical-role", ptr, fmt.Sprintf(
				"agent role %q of task %s is also the role of task %s's agent (%q): under HIERARCHICAL every agent role must differ, ignoring case, for the manager to tell them apart",
				t.agent, taskName(t), taskName(prev), prev.agent),
				f.Related(prev.ptr+"/agent", "the same role is here"))
			continue
		}
		first[key] = t
	}
}

// taskName names a task in a message: its name quoted, or its position.
func taskName(t *task) string {
	if t.named {
		return fmt.Sprintf("%q", t.name)
	}
	return "#" + t.ptr[strings.LastIndexByte(t.ptr, '/')+1:]
}

// javaLower is Java's String.toLowerCase(Locale.ROOT): each character's lower case
// (Unicode's simple mapping, as unicode.ToLower), except İ (U+0130), which becomes "i̇",
// and Σ (U+03A3), which becomes ς at the end of a word and σ elsewhere.
func javaLower(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		switch {
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ' && finalCased(rs, i):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalCased is Java's ConditionalSpecialCasing.isFinalCased: within the word around
// rs[i], a cased letter comes before it and none after it. Words are approximated as
// runs of letters, marks, digits and connectors, joined across one apostrophe, period,
// colon or middle dot (Unicode's word boundary rules WB5–WB13a, much simplified).
func finalCased(rs []rune, i int) bool {
	for j := i; j > 0 && !wordBoundary(rs, j); j-- {
		if cased(rs[j-1]) {
			for k := i + 1; k < len(rs) && !wordBoundary(rs, k); k++ {
				if cased(rs[k]) {
					return false
				}
			}
			return true
		}
	}
	return false
}

func cased(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || unicode.Is(unicode.Pc, r)
}

func midRune(r rune) bool { return strings.ContainsRune("'.:·’", r) }

// wordBoundary says whether a word boundary falls before rs[i].
func wordBoundary(rs []rune, i int) bool {
	if i <= 0 || i >= len(rs) {
		return true
	}
	a, b := rs[i-1], rs[i]
	switch {
	case wordRune(a) && wordRune(b):
		return false
	case midRune(a) && wordRune(b) && i >= 2 && wordRune(rs[i-2]):
		return false
	case midRune(b) && wordRune(a) && i+1 < len(rs) && wordRune(rs[i+1]):
		return false
	}
	return true
}
