package dws

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var condition = lint.Rule{
	ID: "condition", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "a condition's field, operator or value is malformed",
	Doc: `Workflow routing is deterministic: the runtime evaluates each condition's field (a JSONPath
into the workflow context) with its operator against its value. A field that is not a
JSONPath, an operator the runtime does not know (eq, ne, gt, gte, lt, lte, in, not_in,
contains, exists, matches) or a value of the wrong type for the operator (a number for
gt…lte, an array for in/not_in, a boolean for exists, an RE2 pattern for matches) makes
the condition fail at run time, and the run takes a route nobody chose. Dot names may
contain "-", as in $.artifacts.design-document.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"operator": "eq", "value": "pass" }`, `"operator": "equals", "value": "pass" }`)},
	Pass:  lint.Example{Name: "review-flow.json", Text: baseWorkflow},
	Check: func(p *lint.Pass) { checkConditions(p.File, workflowConditions(workflowModel(p))) },
}

// operators maps each operator to the kind of value it wants ("" for any).
var operators = []struct{ name, wants string }{
	{"eq", ""}, {"ne", ""}, {"gt", "number"}, {"gte", "number"}, {"lt", "number"}, {"lte", "number"},
	{"in", "array"}, {"not_in", "array"}, {"contains", ""}, {"exists", "boolean"}, {"matches", "pattern"},
}

func operatorNames() string {
	names := make([]string, len(operators))
	for i, o := range operators {
		names[i] = o.name
	}
	return strings.Join(names, ", ")
}

// workflowConditions lists every condition of a workflow.
func workflowConditions(w *workflow) []located {
	var out []located
	list := func(n *source.Node, ptr string) {
		for i, c := range items(n) {
			out = append(out, located{c, ptr + "/" + itoa(i)})
		}
	}
	list(w.root.Get("entry_conditions"), "/entry_conditions")
	for _, p := range w.phases {
		list(p.node.Get("entry_conditions"), p.ptr+"/entry_conditions")
		list(p.node.Get("exit_conditions"), p.ptr+"/exit_conditions")
	}
	for _, t := range w.transitions {
		if c := t.node.Get("condition"); c != nil {
			out = append(out, located{c, t.ptr + "/condition"})
		}
		for i, b := range items(t.node.Get("branches")) {
			if c := b.Get("condition"); c != nil {
				out = append(out, located{c, t.ptr + "/branches/" + itoa(i) + "/condition"})
			}
		}
	}
	list(w.root.Get("exit_conditions").Get("completion_criteria"), "/exit_conditions/completion_criteria")
	return out
}

func checkConditions(f *lint.File, conds []located) {
	for _, c := range conds {
		if c.node == nil || c.node.Kind != source.Object {
			continue
		}
		if fn := c.node.Get("field"); fn != nil && fn.Kind == source.String {
			if at, why := checkJSONPath(fn.Text); why != "" {
				pos := f.Doc.StringPos(fn, at)
				f.ReportAt("condition", c.ptr+"/field", source.Span{Start: pos, End: pos},
					fmt.Sprintf("%q is not a valid JSONPath: %s", fn.Text, why))
			}
		}
		op, ok := c.node.Get("operator").Str()
		if !ok {
			continue
		}
		wants, known := "", false
		for _, o := range operators {
			if o.name == op {
				wants, known = o.wants, true
			}
		}
		if !known {
			f.Report("condition", c.ptr+"/operator", fmt.Sprintf("unknown operator %q (known: %s)", op, operatorNames()))
			continue
		}
		v := c.node.Get("value")
		if v == nil {
			continue
		}
		switch wants {
		case "number", "array", "boolean":
			kinds := map[string]source.Kind{"number": source.Number, "array": source.Array, "boolean": source.Bool}
			if v.Kind != kinds[wants] {
				f.Report("condition", c.ptr+"/value", fmt.Sprintf("operator %q wants %s value, got %s", op, article(wants), describe(v)))
			}
		case "pattern":
			s, ok := v.Str()
			if !ok {
				f.Report("condition", c.ptr+"/value", fmt.Sprintf("operator %q wants a regular expression string, got %s", op, describe(v)))
			} else if _, err := regexp.Compile(s); err != nil {
				f.Report("condition", c.ptr+"/value", fmt.Sprintf("operator %q wants an RE2 regular expression: %v", op, err))
			}
		}
	}
}

func article(noun string) string {
	if strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// describe names a value's kind, with short scalars shown.
func describe(n *source.Node) string {
	switch n.Kind {
	case source.String:
		s := n.Text
		if utf8.RuneCountInString(s) > 40 {
			s = string([]rune(s)[:40]) + "…"
		}
		return fmt.Sprintf("string %q", s)
	case source.Number:
		return "number " + n.Text
	case source.Bool:
		return fmt.Sprintf("boolean %v", n.Bool)
	case source.Null:
		return "null"
	case source.Array:
		return "an array"
	}
	return "an object"
}

// checkJSONPath returns the byte offset of the first problem in path and what it is, or
// "" when path is a JSONPath dws accepts (see the package doc).
func checkJSONPath(path string) (int, string) {
	if !strings.HasPrefix(path, "$") {
		return 0, `it must start with "$"`
	}
	i := 1
	for i < len(path) {
		switch path[i] {
		case '.':
			i++
			if i < len(path) && path[i] == '.' {
				i++
			}
			if i < len(path) && path[i] == '[' {
				if path[i-1] != '.' || path[i-2] != '.' {
					return i, `expected a name after "."`
				}
				continue
			}
			if i < len(path) && path[i] == '*' {
				i++
				continue
			}
			start := i
			for i < len(path) {
				r, size := utf8.DecodeRuneInString(path[i:])
				if r != '_' && r != '-' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
					break
				}
				i += size
			}
			if i == start {
				if i == len(path) {
					return i, `expected a name after "."`
				}
				return i, fmt.Sprintf(`expected a name after ".", found %q`, runeAt(path, i))
			}
		case '[':
			end, why := bracket(path, i)
			if why != "" {
				return end, why
			}
			i = end
		default:
			return i, fmt.Sprintf(`expected "." or "[", found %q`, runeAt(path, i))
		}
	}
	return 0, ""
}

// bracket checks the selector list starting at path[i] == '[' and returns the offset after
// its closing bracket, or the offset of a problem and what it is.
func bracket(path string, i int) (int, string) {
	open := i
	i++
	if i < len(path) && path[i] == '?' {
		depth := 1
		for i++; i < len(path); i++ {
			switch path[i] {
			case '\'', '"':
				q := path[i]
				for i++; i < len(path) && path[i] != q; i++ {
					if path[i] == '\\' {
						i++
					}
				}
			case '[':
				depth++
			case ']':
				depth--
				if depth == 0 {
					return i + 1, ""
				}
			}
		}
		return open, `unclosed "["`
	}
	for {
		for i < len(path) && path[i] == ' ' {
			i++
		}
		if i >= len(path) {
			return open, `unclosed "["`
		}
		switch c := path[i]; {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(path) && path[j] != c {
				if path[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(path) {
				return i, "unclosed quoted name"
			}
			i = j + 1
		case c == '*':
			i++
		case c == '-' || c == ':' || (c >= '0' && c <= '9'):
			start := i
			for i < len(path) && (path[i] == '-' || path[i] == ':' || (path[i] >= '0' && path[i] <= '9')) {
				i++
			}
			if strings.Count(path[start:i], ":") > 2 || strings.Contains(path[start:i], "--") {
				return start, "malformed index or slice"
			}
		default:
			return i, fmt.Sprintf(`expected an index, a quoted name or "*" inside "[", found %q`, runeAt(path, i))
		}
		for i < len(path) && path[i] == ' ' {
			i++
		}
		if i >= len(path) {
			return open, `unclosed "["`
		}
		switch path[i] {
		case ']':
			return i + 1, ""
		case ',':
			i++
		default:
			return i, fmt.Sprintf(`expected "]" or ",", found %q`, runeAt(path, i))
		}
	}
}

func runeAt(s string, i int) string {
	r, _ := utf8.DecodeRuneInString(s[i:])
	return string(r)
}
