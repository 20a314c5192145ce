package sim

import "slices"

// Pin is one stub answer that makes a run take a step of a path: dws simulate
// --emit-scenarios writes a path as the answers its steps' pins give, in order.
type Pin struct {
	// Node is the node the answer is for: the step's node, or one of its own choice
	// points that a scenario pins apart (a loop after a phase, say).
	Node   string
	Answer Answer
	// Moved says the answer's output is the path's context value under Node, which
	// the scenario's starting context then leaves out.
	Moved bool
}

// Accepts reports whether node id of nodes (a Definition's) takes stub answers of
// kind.
func Accepts(nodes map[string]Node, id, kind string) bool {
	n, ok := nodes[id]
	return ok && slices.Contains(n.Answers, kind)
}

// OKPin is the ok answer for node: when the path's context holds an object under the
// node's id (a node whose output a later choice reads), that is its output, moved out
// of the context.
func OKPin(node string, context map[string]any) Pin {
	p := Pin{Node: node, Answer: Answer{Kind: "ok"}}
	if out, ok := context[node].(map[string]any); ok {
		p.Answer.Output, p.Moved = out, true
	}
	return p
}

// FailPin is a fail answer for node, with reason.
func FailPin(node, reason string) Pin {
	return Pin{Node: node, Answer: Answer{Kind: "fail", Reason: reason}}
}
