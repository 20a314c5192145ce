package sqlallow

import "sync"

// Memo remembers the results of checks under one policy, for a long-lived process
// that checks the same statements again and again (an editor's language server checks
// a whole file on every keystroke, and most of its statements have not changed). It
// holds at most memoLimit results and starts afresh when full. The zero Memo is ready
// to use, and it is safe for concurrent use.
type Memo struct {
	mu sync.Mutex
	m  map[memoKey]Result
}

const memoLimit = 4096

type memoKey struct {
	text string
	args int
	expr bool
}

// Statement is CheckStatement(stmt, args, p), remembered.
func (m *Memo) Statement(stmt string, args int, p *Policy) Result {
	return m.get(memoKey{stmt, args, false}, func() Result { return CheckStatement(stmt, args, p) })
}

// Expression is CheckExpression(expr, p), remembered.
func (m *Memo) Expression(expr string, p *Policy) Result {
	return m.get(memoKey{expr, 0, true}, func() Result { return CheckExpression(expr, p) })
}

func (m *Memo) get(k memoKey, check func() Result) Result {
	m.mu.Lock()
	r, ok := m.m[k]
	m.mu.Unlock()
	if ok {
		return r
	}
	r = check()
	m.mu.Lock()
	if m.m == nil || len(m.m) >= memoLimit {
		m.m = make(map[memoKey]Result)
	}
	m.m[k] = r
	m.mu.Unlock()
	return r
}
