package sqlallow

import (
	"testing"
	"unicode/utf8"
)

func FuzzCheckStatement(f *testing.F) {
	for _, s := range handCorpus {
		f.Add(s, 1)
	}
	f.Add("UPDATE expense SET status='approved' WHERE id={{expenseId}}", 0)
	f.Add("SELECT * FROM {{t}} WHERE {{c}} = {{v}}", -1)
	f.Add("SELECT (((((((((((1)))))))))))", 2)
	f.Add("{{a}}) OR (SELECT 1 FROM payroll) IS NOT NULL OR ({{b}}", 0)
	p := testPolicy()
	f.Fuzz(func(t *testing.T, stmt string, args int) {
		if len(stmt) > 4096 {
			return
		}
		for _, r := range []Result{CheckStatement(stmt, args%8, p), CheckExpression(stmt, p)} {
			limit := len(stmt)
			for _, fd := range r.Findings {
				if fd.Offset < 0 || fd.Offset > limit || fd.Length < 1 {
					t.Fatalf("finding out of range: %+v (len %d)", fd, limit)
				}
				if fd.Kind < Expression || fd.Kind > Table || fd.Message == "" || !utf8.ValidString(fd.Message) {
					t.Fatalf("empty finding: %+v", fd)
				}
			}
		}
	})
}
