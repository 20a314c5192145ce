package pggen

import (
	"regexp"
	"strings"
	"testing"
)

// caseOf returns the body of eachChild's case for type name in src.
func caseOf(t *testing.T, src, name string) string {
	t.Helper()
	i := strings.Index(src, "func eachChild(")
	if i < 0 {
		t.Fatal("no eachChild")
	}
	eachChild := src[i:]
	start := strings.Index(eachChild, "\tcase *pg."+name+":\n")
	if start < 0 {
		t.Fatalf("eachChild has no case for %s", name)
	}
	body := eachChild[start+len("\tcase *pg."+name+":\n"):]
	if end := strings.Index(body, "\n\tcase "); end >= 0 {
		body = body[:end]
	}
	return body
}

// TestWalkAddedField: a field pg_query_go adds to a type is walked by default and
// gets its constant for a handler to take it; the fields a handler may take are
// named only by constants of their own type. The field is added to MergeStmt as
// pg_query_go v6 adds returning_list (here UpdateStmt's, whose shape it has).
func TestWalkAddedField(t *testing.T) {
	ms, err := Messages()
	if err != nil {
		t.Fatal(err)
	}
	var merge, update int
	for i, m := range ms {
		switch m.GoName {
		case "MergeStmt":
			merge = i
		case "UpdateStmt":
			update = i
		}
	}
	var returning Field
	for _, f := range ms[update].Fields {
		if f.Desc.Name() == "returning_list" {
			returning = f
		}
	}
	if returning.Desc == nil {
		t.Fatal("UpdateStmt has no returning_list")
	}
	before, err := walk("sqlallow", ms)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(caseOf(t, string(before), "MergeStmt"), "ReturningList") {
		t.Fatal("MergeStmt already has returning_list: pick another field for this test")
	}

	grown := append([]Message(nil), ms...)
	grown[merge].Fields = append(append([]Field(nil), ms[merge].Fields...), returning)
	after, err := walk("sqlallow", grown)
	if err != nil {
		t.Fatal(err)
	}
	body := caseOf(t, string(after), "MergeStmt")
	// Five message-typed fields before it: it is bit 5, skipped only when a handler
	// takes it.
	want := "if len(x.ReturningList) > 0 && skip&(1<<5) == 0 {\n\t\t\tfor _, e := range x.ReturningList {\n\t\t\t\tf(e)"
	if !strings.Contains(body, want) {
		t.Errorf("eachChild does not walk the added field:\n%s", body)
	}
	if !regexp.MustCompile(`(?m)^\tfMergeStmt_ReturningList$`).Match(after) {
		t.Error("no constant fMergeStmt_ReturningList for a handler to take the field")
	}
	if !regexp.MustCompile(`(?m)^\tfMergeStmt_Relation fields\[\*pg\.MergeStmt\] = 1 << iota$`).Match(after) {
		t.Error("MergeStmt's constants are not of type fields[*pg.MergeStmt]")
	}
	// Nothing else changes.
	back := strings.Replace(string(after), body, caseOf(t, string(before), "MergeStmt"), 1)
	back = strings.Replace(back, "\tfMergeStmt_ReturningList\n", "", 1)
	if back != string(before) {
		t.Error("adding a field to MergeStmt changed more than its constant and its case")
	}
}
