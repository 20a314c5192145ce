package sqlallow

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// deniedCall reports whether dws denies a call of the built-in name.
func deniedCall(name string) bool {
	for _, f := range CheckStatement("SELECT pg_catalog."+quoteName(name)+"()", -1, testPolicy()).Findings {
		if f.Kind == Function {
			return true
		}
	}
	return false
}

func quoteName(s string) string {
	if strings.ToLower(s) == s {
		return s
	}
	return `"` + s + `"`
}

// TestDenyListAgainstServer checks the deny-list against what the scratch server
// says: every pg_* function that a system view calls (the views are denied as
// tables), every function PUBLIC may not execute, every pg_stat_* function is
// denied; and the built-ins that stay allowed and take no argument run for a role
// without privileges in a read-only transaction (they need no privilege and change
// nothing).
func TestDenyListAgainstServer(t *testing.T) {
	c := startCluster(t)

	out, _, err := c.psql("dws", `SELECT json_agg(json_build_object('v', c.relname, 'def', pg_get_viewdef(c.oid)))
FROM pg_class c WHERE c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace) AND c.relkind IN ('v', 'm')`)
	if err != nil {
		t.Fatal(err)
	}
	var views []struct{ V, Def string }
	if err := json.Unmarshal(out, &views); err != nil {
		t.Fatal(err)
	}
	behind := map[string]string{}
	for _, v := range views {
		tree, err := pg.Parse(v.Def)
		if err != nil {
			t.Fatalf("view %s: %v", v.V, err)
		}
		eachFuncCall(tree.ProtoReflect(), func(name string) {
			if strings.HasPrefix(name, "pg_") {
				behind[name] = v.V
			}
		})
	}
	if len(behind) < 50 || behind["pg_stat_get_activity"] == "" || behind["pg_show_all_settings"] == "" {
		t.Fatalf("found only %d functions behind system views: %v", len(behind), behind)
	}
	for name, view := range behind {
		if !deniedCall(name) {
			t.Errorf("%s is what system view %s reads, but dws allows it", name, view)
		}
	}

	if _, _, err := c.psql("dws", "DROP ROLE IF EXISTS dws_plain; CREATE ROLE dws_plain LOGIN;"); err != nil {
		t.Fatal(err)
	}
	out, _, err = c.psql("dws", `SELECT DISTINCT proname FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace
  AND (NOT has_function_privilege('dws_plain', oid, 'EXECUTE') OR proname LIKE 'pg\_stat\_%')`)
	if err != nil {
		t.Fatal(err)
	}
	privileged := strings.Fields(string(out))
	if len(privileged) < 100 {
		t.Fatalf("only %d superuser-only and statistics functions: %v", len(privileged), privileged)
	}
	for _, name := range privileged {
		if !deniedCall(name) {
			t.Errorf("%s is superuser-only or a statistics function, but dws allows it", name)
		}
	}

	// Every allowed built-in that can be called without arguments, as a role
	// without privileges, in a read-only transaction.
	var calls []string
	for name, list := range catalog().all() {
		if deniedCall(name) {
			continue
		}
		for _, b := range list {
			if b.kind == 'f' && b.accepts(0) && b.result != "trigger" && b.result != "event_trigger" && b.result != "internal" {
				calls = append(calls, name)
				break
			}
		}
	}
	sort.Strings(calls)
	if len(calls) < 40 {
		t.Fatalf("only %d allowed zero-argument built-ins: %v", len(calls), calls)
	}
	var script strings.Builder
	script.WriteString("\\set ON_ERROR_STOP 0\n")
	for _, name := range calls {
		fmt.Fprintf(&script, "BEGIN READ ONLY;\n\\echo @@@ %s\nSELECT count(*) FROM (SELECT pg_catalog.%s()) x;\n\\echo @@@END :ERROR :LAST_ERROR_MESSAGE\nROLLBACK;\n", name, quoteName(name))
	}
	stdout, _, err := c.PsqlAs("dws_plain", "dws", script.String())
	if err != nil {
		t.Fatal(err)
	}
	results, errs := splitNamed(string(stdout))
	for _, name := range calls {
		msg := errs[name]
		switch {
		case strings.Contains(msg, "permission denied") || strings.Contains(msg, "superuser") || strings.Contains(msg, "read-only"):
			t.Errorf("allowed built-in %s() needs a privilege or writes: %s", name, msg)
		case msg != "":
			// lastval before nextval, event-trigger functions outside a trigger.
			t.Logf("%s(): %s", name, msg)
		case results[name] == "":
			t.Errorf("no result for %s()", name)
		}
	}
	t.Logf("%d functions behind system views, %d superuser-only or statistics functions denied; %d allowed zero-argument built-ins run unprivileged and read-only", len(behind), len(privileged), len(calls))
}

// splitNamed reads psql output of "\echo @@@ name", output, "\echo @@@END :ERROR
// :LAST_ERROR_MESSAGE" into outputs and error messages.
func splitNamed(stdout string) (map[string]string, map[string]string) {
	out := map[string]string{}
	refused := map[string]string{}
	cur := ""
	var buf strings.Builder
	for _, line := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(line, "@@@END "):
			if rest := strings.TrimPrefix(line, "@@@END "); strings.HasPrefix(rest, "true") {
				refused[cur] = strings.TrimSpace(strings.TrimPrefix(rest, "true"))
			} else {
				out[cur] = buf.String()
			}
			buf.Reset()
		case strings.HasPrefix(line, "@@@ "):
			cur = strings.TrimPrefix(line, "@@@ ")
			buf.Reset()
		default:
			buf.WriteString(line)
		}
	}
	return out, refused
}

func eachFuncCall(m protoreflect.Message, fn func(string)) {
	if fc, ok := m.Interface().(*pg.FuncCall); ok && len(fc.Funcname) > 0 {
		fn(fc.Funcname[len(fc.Funcname)-1].GetString_().GetSval())
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind {
			return true
		}
		if fd.IsList() {
			for i := 0; i < v.List().Len(); i++ {
				eachFuncCall(v.List().Get(i).Message(), fn)
			}
			return true
		}
		eachFuncCall(v.Message(), fn)
		return true
	})
}
