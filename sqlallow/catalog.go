package sqlallow

import (
	_ "embed"
	"iter"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// The built-in functions and types of PostgreSQL, as its own catalog lists them
// (pg_proc, pg_type of a scratch cluster). The generator writes the server
// version into the files' headers.
//
//go:generate go run ./internal/pgcatalog .

//go:embed catalog_functions.tsv
var catalogFunctions string

//go:embed catalog_types.tsv
var catalogTypes string

// builtin is one overload of a pg_catalog function.
type builtin struct {
	args       []string // argument type names (pg_type.typname)
	defaults   int
	variadic   bool
	result     string
	set        bool
	kind       byte // f function, a aggregate, w window
	volatility byte // i immutable, s stable, v volatile
	clock      bool // a retry can give another value: volatile, or reads the clock, transaction or backend
	out        []string
}

type builtinType struct {
	typtype  byte // b base, c composite, d domain, e enum, p pseudo, r range, m multirange
	category byte // pg_type.typcategory: S string, D date/time, A array, …
	elem     string
}

type catalogData struct {
	rows  []string // the function rows, sorted by name (pgcatalog sorts them)
	funcs sync.Map // name → []*builtin, each name's rows parsed on first use
	types map[string]builtinType
}

// catalog is read on first use, so a run without SQL does not pay for it; a
// function's rows are parsed when a statement first calls it (all of them took
// 1.5 ms, a tenth of a one-file run).
var catalog = sync.OnceValue(func() *catalogData {
	c := &catalogData{rows: make([]string, 0, strings.Count(catalogFunctions, "\n")), types: make(map[string]builtinType, 500)}
	for line := range strings.Lines(catalogFunctions) {
		if line != "\n" && line[0] != '#' {
			c.rows = append(c.rows, strings.TrimSuffix(line, "\n"))
		}
	}
	eachRow(catalogTypes, func(f []string) {
		if len(f) < 4 || f[1] == "" || f[2] == "" {
			return
		}
		c.types[f[0]] = builtinType{typtype: f[1][0], category: f[2][0], elem: f[3]}
	})
	return c
})

// rowsOf returns the rows of the built-ins called name.
func (c *catalogData) rowsOf(name string) []string {
	key := func(row string) string { k, _, _ := strings.Cut(row, "\t"); return k }
	i := sort.Search(len(c.rows), func(i int) bool { return key(c.rows[i]) >= name })
	j := i
	for j < len(c.rows) && key(c.rows[j]) == name {
		j++
	}
	return c.rows[i:j]
}

// overloadsOf returns the built-ins called name, nil when there is none.
func (c *catalogData) overloadsOf(name string) []*builtin {
	if bs, ok := c.funcs.Load(name); ok {
		return bs.([]*builtin)
	}
	var bs []*builtin
	eachRow(strings.Join(c.rowsOf(name), "\n"), func(f []string) {
		if len(f) < 11 {
			return
		}
		b := &builtin{result: f[4], set: f[5] == "1", clock: f[8] == "1", variadic: f[3] == "1"}
		if f[1] != "" {
			b.args = strings.Split(f[1], ",")
		}
		b.defaults, _ = strconv.Atoi(f[2])
		if f[6] != "" {
			b.kind = f[6][0]
		}
		if f[7] != "" {
			b.volatility = f[7][0]
		}
		if f[10] != "" {
			b.out = strings.Split(f[10], ",")
		}
		bs = append(bs, b)
	})
	c.funcs.Store(name, bs)
	return bs
}

// denied is why the allow-list denies the built-in called name, or "".
func (c *catalogData) denied(name string) string {
	for _, row := range c.rowsOf(name) {
		// Field 9 of a row of at least 11, found without splitting the row: a
		// function call asks this for every call in every statement.
		var why string
		n := 0
		for f := range strings.SplitSeq(row, "\t") {
			if n == 9 {
				why = f
			}
			n++
		}
		if n >= 11 && why != "" {
			return why
		}
	}
	return ""
}

// eachRow calls fn with the tab-separated fields of each line that is not a
// comment; fn must not keep the slice.
func eachRow(tsv string, fn func([]string)) {
	var buf [16]string
	for len(tsv) > 0 {
		line := tsv
		if i := strings.IndexByte(tsv, '\n'); i >= 0 {
			line, tsv = tsv[:i], tsv[i+1:]
		} else {
			tsv = ""
		}
		if line == "" || line[0] == '#' {
			continue
		}
		f := buf[:0]
		for len(f) < len(buf) {
			field, rest, more := strings.Cut(line, "\t")
			f = append(f, field)
			if !more {
				break
			}
			line = rest
		}
		fn(f)
	}
}

// accepts reports whether the overload can be called with n arguments.
func (b *builtin) accepts(n int) bool {
	if b.variadic && n >= len(b.args) {
		return true
	}
	return n <= len(b.args) && n >= len(b.args)-b.defaults
}

// denyReason says why a denied built-in is denied, for the message.
func denyReason(code string) string {
	switch {
	case code == "sql":
		return "it runs SQL given as text, or reads every table of a schema or database"
	case code == "settings":
		return "it reads or changes server settings"
	case code == "superuser":
		return "PostgreSQL lets only superusers and specially granted roles run it"
	case strings.HasPrefix(code, "view:"):
		return "it is what the system view " + strings.TrimPrefix(code, "view:") + " reads"
	case code == "stats":
		return "it reads or resets server statistics"
	case code == "relation":
		return "it reads or changes the relation or catalog object that its argument names"
	case code == "typeio":
		return "it is a type's input or output function"
	case code == "volatile":
		return "it acts on the server, other sessions, locks or files"
	case code == "pg_":
		return "pg_ names belong to PostgreSQL, and this is not one of its built-in functions"
	}
	return code
}

// overloads are the built-ins called name that take n arguments.
func (c *catalogData) overloads(name string, n int) iter.Seq[*builtin] {
	return func(yield func(*builtin) bool) {
		for _, b := range c.overloadsOf(name) {
			if b.accepts(n) && !yield(b) {
				return
			}
		}
	}
}

// has reports whether a built-in called name takes n arguments.
func (c *catalogData) has(name string, n int) bool {
	for range c.overloads(name, n) {
		return true
	}
	return false
}

// typeName normalises a type as written in SQL to its pg_type name: the parser
// already turns int, varchar, timestamp with time zone, … into pg_catalog.int4,
// pg_catalog.varchar, pg_catalog.timestamptz.
func typeName(names []string) (schema, name string) {
	switch len(names) {
	case 0:
		return "", ""
	case 1:
		return "", names[0]
	}
	return names[len(names)-2], names[len(names)-1]
}

// builtinType looks up a built-in type by the name a statement gives it.
func (c *catalogData) builtinType(schema, name string) (builtinType, bool) {
	if schema != "" && schema != "pg_catalog" {
		return builtinType{}, false
	}
	t, ok := c.types[name]
	return t, ok
}

// timeLike reports a date/time type whose text input reads special values such as
// 'now' when the statement runs: date, time, timetz, timestamp, timestamptz, and
// arrays, ranges and multiranges of them.
func (c *catalogData) timeLike(t builtinType) bool {
	if t.category == 'D' {
		return true
	}
	if t.elem != "" {
		if e, ok := c.types[t.elem]; ok {
			return e.category == 'D'
		}
	}
	return false
}
