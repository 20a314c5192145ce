package cortex

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dwsdev/dws/lint"
)

var httpIdempotencyKey = lint.Rule{
	ID: "http-idempotency-key", Severity: lint.Error, Dialect: ID,
	Summary: "an http step sends no idempotencyKey header",
	Doc: `The Cortex engine retries http steps on 5xx answers, so the same call can reach the
remote side more than once. Every http step must send an idempotencyKey header (any
spelling that differs only in case, '-' or '_', such as Idempotency-Key, counts) with a
non-empty value, usually built from run data such as {{expenseId}}, so the remote side can
recognise a repeat.`,
	Fail: lint.Example{Name: "notify.json", Text: `{
  "schemaVersion": "1.0", "name": "notify", "version": "v1.0",
  "steps": [
    { "id": "post-message", "type": "http",
      "params": { "method": "POST", "url": "https://chat.example/api", "headers": { "Authorization": "Bearer x" }, "bodyTemplate": "hello" } }
  ]
}
`},
	Pass: lint.Example{Name: "notify.json", Text: `{
  "schemaVersion": "1.0", "name": "notify", "version": "v1.0",
  "steps": [
    { "id": "post-message", "type": "http",
      "params": { "method": "POST", "url": "https://chat.example/api", "headers": { "Authorization": "Bearer x", "idempotencyKey": "{{runId}}" }, "bodyTemplate": "hello" } }
  ]
}
`},
	Check: func(p *lint.Pass) { checkHTTPIdempotencyKey(p.File, stepsOf(p)) },
}

func checkHTTPIdempotencyKey(f *lint.File, steps []step) {
	for _, s := range steps {
		if s.typ != "http" || s.params == nil {
			continue
		}
		headers := s.params.Get("headers")
		found := false
		for _, m := range headers.Entries() {
			if v, ok := m.Value.Str(); ok && isIdempotencyKey(m.Key) && strings.TrimSpace(v) != "" {
				found = true
				break
			}
		}
		if !found {
			ptr := s.ptr + "/params"
			if headers != nil {
				ptr += "/headers"
			}
			f.Report("http-idempotency-key", ptr, fmt.Sprintf(
				"http step %q sends no idempotencyKey header; a retried call could act twice", s.id))
		}
	}
}

// isIdempotencyKey reports whether a header name spells idempotencyKey: in any case,
// with any '-' and '_' between its letters (Idempotency-Key, idempotency_key).
func isIdempotencyKey(name string) bool {
	const want = "idempotencykey"
	i := 0
	for j := 0; j < len(name); j++ {
		c := name[j]
		if c == '-' || c == '_' {
			continue
		}
		if c >= utf8.RuneSelf {
			// Unicode folds more than ASCII does (the Kelvin sign is a k).
			return strings.EqualFold(strings.NewReplacer("-", "", "_", "").Replace(name), want)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if i == len(want) || c != want[i] {
			return false
		}
		i++
	}
	return i == len(want)
}
