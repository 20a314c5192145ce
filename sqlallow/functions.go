package sqlallow

import (
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"
)

// funcCall checks a function call as written: name(args).
func (c *checker) funcCall(fc *pg.FuncCall) {
	parts := stringList(fc.Funcname)
	if len(parts) == 0 {
		return
	}
	for _, p := range parts {
		if i, ok := templateIn(p, c.ph); ok {
			c.tplRoles[i] = "function"
			return
		}
	}
	name := parts[len(parts)-1]
	schema := ""
	if len(parts) > 1 {
		schema = parts[len(parts)-2]
	}
	loc := int(fc.Location)
	c.checkCall(schema, name, strings.Join(parts, "."), loc, tokenLen(c.src, loc))
}

// checkCall applies the function rules to one call of schema.name (schema ""
// when unqualified); shown is how the message names it.
func (c *checker) checkCall(schema, name, shown string, loc, length int) {
	if reason := builtinDenied(schema, name); reason != "" {
		c.add(Function, loc, length, fmt.Sprintf("function %s is denied: %s", shown, denyReason(reason)))
		return
	}
	if c.pol.denied(schema, name) {
		c.add(Function, loc, length, fmt.Sprintf("function %s is denied", shown))
		return
	}
	if volatile[name] && (schema == "" || schema == "pg_catalog") {
		c.add(Nondeterministic, loc, length, fmt.Sprintf("%s() is volatile: pass the value as an argument", name))
	}
}

// builtinDenied is the reason the built-in deny-list, derived from PostgreSQL's
// catalog, denies a function, or "". An unqualified name is looked up in
// pg_catalog, which PostgreSQL searches first; a pg_ name that is no built-in is
// denied too, since pg_ names are PostgreSQL's.
func builtinDenied(schema, name string) string {
	if schema != "" && schema != "pg_catalog" {
		return ""
	}
	cat := catalog()
	if r := cat.deny[name]; r != "" {
		return r
	}
	if strings.HasPrefix(name, "pg_") && cat.funcs[name] == nil {
		return "pg_"
	}
	return ""
}

var valueFunctionNames = map[pg.SQLValueFunctionOp]string{
	pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE:        "CURRENT_DATE",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME:        "CURRENT_TIME",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:      "CURRENT_TIME",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:   "CURRENT_TIMESTAMP",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N: "CURRENT_TIMESTAMP",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIME:           "LOCALTIME",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N:         "LOCALTIME",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:      "LOCALTIMESTAMP",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:    "LOCALTIMESTAMP",
}

func (c *checker) valueFunction(v *pg.SQLValueFunction) {
	if name, ok := valueFunctionNames[v.Op]; ok {
		loc := int(v.Location)
		c.add(Nondeterministic, loc, wordLen(c.src, loc), name+" is volatile: pass the value as an argument")
	}
}

// typeCast catches 'now'::timestamp and friends: the literal is read when the
// statement runs.
func (c *checker) typeCast(tc *pg.TypeCast) {
	k := tc.Arg.GetAConst()
	if k == nil || k.GetSval() == nil || tc.TypeName == nil {
		return
	}
	v := strings.ToLower(strings.TrimSpace(k.GetSval().Sval))
	if v != "now" && v != "today" && v != "tomorrow" && v != "yesterday" {
		return
	}
	names := stringList(tc.TypeName.Names)
	if len(names) == 0 {
		return
	}
	t := names[len(names)-1]
	if strings.Contains(t, "time") || t == "date" {
		loc := int(k.Location)
		c.add(Nondeterministic, loc, tokenLen(c.src, loc), fmt.Sprintf("'%s' is read when the statement runs: pass the value as an argument", v))
	}
}
