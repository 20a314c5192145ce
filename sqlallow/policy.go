package sqlallow

import (
	"slices"
	"sort"
	"strings"
	"sync"
)

// Policy is what one statement may touch.
type Policy struct {
	// Allow maps a relation, written as in SQL ("expense", "billing.invoice",
	// `"MixedCase"`), to its allowed columns; a single "*" allows every column.
	// An unqualified key is in SearchPath[0].
	Allow map[string][]string
	// SearchPath is the schema search path; empty means ["public"].
	SearchPath []string
	// Statements are the allowed statement kinds (see the package doc); empty
	// means select, insert, update, delete.
	Statements []string
	// DenyFunctions is added to the built-in deny-list. An entry is a function
	// name, optionally schema-qualified; a trailing * matches a prefix.
	DenyFunctions []string
	// Functions are the functions that are not PostgreSQL built-ins a statement may
	// call without dws seeing their body: names, optionally schema-qualified; "*"
	// allows every such function (what dws did before it knew what a built-in is).
	Functions []string
	// DDL, when set, allows every table it creates with exactly its columns,
	// except a table that Allow lists too: the Allow entry wins, whichever way
	// either spells the name. It also gives the real columns of tables: "*"
	// expands to them and only tables that have a column are candidates for an
	// unqualified name.
	DDL *Schema
}

// DefaultPolicy allows the four data statements on nothing.
func DefaultPolicy() Policy {
	return Policy{
		Allow:      map[string][]string{},
		SearchPath: []string{"public"},
		Statements: []string{"select", "insert", "update", "delete"},
	}
}

// builtinDeny are functions of extensions that reach outside the allowed tables:
// other databases, raw pages and tuples. The built-in deny-list comes from
// PostgreSQL's catalog (see catalog.go); these are not in it.
var builtinDeny = []string{
	"dblink*", "postgres_fdw_*",
	"get_raw_page", "page_header", "heap_page_item*", "tuple_data_split", "bt_*", "hash_page_*",
	"brin_page_*", "brin_metapage_info", "brin_revmap_data", "gin_*", "fsm_page_contents",
	"pgstat*", "pgrowlocks",
}

var builtinExact, builtinPrefix = func() (map[string]bool, []string) {
	exact := map[string]bool{}
	var prefix []string
	addDeny(exact, &prefix, builtinDeny)
	return exact, prefix
}()

func addDeny(exact map[string]bool, prefix *[]string, list []string) {
	for _, d := range list {
		d = strings.TrimSpace(d)
		if strings.HasSuffix(d, "*") {
			*prefix = append(*prefix, strings.Join(splitName(strings.TrimSuffix(d, "*")), "."))
			continue
		}
		exact[strings.Join(splitName(d), ".")] = true
	}
}

var systemColumns = map[string]bool{
	"ctid": true, "xmin": true, "xmax": true, "cmin": true, "cmax": true, "tableoid": true,
}

// grant is the compiled allow entry of one relation.
type grant struct {
	all  bool
	cols map[string]bool
	list string // "id, status, amount" for messages
}

type compiled struct {
	allow      map[string]*grant // schema.name → grant, from Policy.Allow
	ddlGrants  sync.Map          // schema.name → *grant made from the DDL, on first use
	searchPath []string
	statements map[string]bool
	denyExact  map[string]bool // name or schema.name
	denyPrefix []string
	funcAllow  map[string]bool // name or schema.name, from Policy.Functions
	funcAny    bool            // Functions has "*"
	ddl        *Schema

	// rels remembers what a relation, as a statement names it, resolves to: the same
	// few tables are named statement after statement, and resolving one takes a
	// dozen lookups.
	relMu sync.RWMutex
	rels  map[relName]*relInfo
}

// relName is a relation as a statement writes it (schema "" when unqualified).
type relName struct{ schema, name string }

// relInfo is what a relName resolves to under the policy.
type relInfo struct {
	key      string // schema.name
	grant    *grant
	ddl      []string
	ddlKnown bool
	view     ddlBody
	isView   bool
	attached []ddlBody
}

// allowedNames are the relations the allow-list names, sorted, as a statement would
// write them: schema.name when qualified, else the name (for those on the search path).
func (c *compiled) allowedNames(qualified bool) []string {
	var out []string
	for key := range c.allow {
		schema, name, _ := strings.Cut(key, ".")
		switch {
		case qualified:
			out = append(out, key)
		case slices.Contains(c.searchPath, schema):
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// relation resolves the relation schema.name (schema "": by the search path).
func (c *compiled) relation(schema, name string) *relInfo {
	n := relName{schema, name}
	c.relMu.RLock()
	ri := c.rels[n]
	c.relMu.RUnlock()
	if ri != nil {
		return ri
	}
	if schema == "" {
		schema = c.resolveSchema(name)
	}
	key := schema + "." + name
	ri = &relInfo{key: key, grant: c.grantFor(key)}
	ri.ddl, ri.ddlKnown = c.ddlTable(key)
	ri.view, ri.isView = c.view(key)
	ri.attached = c.attached(key)
	c.relMu.Lock()
	if c.rels == nil || len(c.rels) >= maxRels {
		c.rels = map[relName]*relInfo{}
	}
	c.rels[n] = ri
	c.relMu.Unlock()
	return ri
}

// maxRels bounds the relations remembered (a run over hostile input names endless
// distinct ones); past it the memory starts afresh.
const maxRels = 4096

// resolveSchema is the schema an unqualified relation name resolves to: pg_catalog
// for pg_*, else the first search_path schema whose DDL defines it, else the first.
func (c *compiled) resolveSchema(name string) string {
	if strings.HasPrefix(name, "pg_") {
		return "pg_catalog"
	}
	if c.ddl != nil {
		for _, sp := range c.searchPath {
			if _, ok := c.ddlTable(sp + "." + name); ok {
				return sp
			}
		}
	}
	return c.searchPath[0]
}

func compile(p *Policy) *compiled {
	c := &compiled{allow: map[string]*grant{}, statements: map[string]bool{}}
	if p == nil {
		d := DefaultPolicy()
		p = &d
	}
	for _, s := range p.SearchPath {
		c.searchPath = append(c.searchPath, normIdent(s))
	}
	if len(c.searchPath) == 0 {
		c.searchPath = []string{"public"}
	}
	for k, cols := range p.Allow {
		key := c.normRelation(k)
		g := c.allow[key]
		if g == nil {
			g = &grant{cols: map[string]bool{}}
			c.allow[key] = g
		}
		for _, col := range cols {
			if strings.TrimSpace(col) == "*" {
				g.all = true
				continue
			}
			g.cols[normIdent(col)] = true
		}
	}
	for _, g := range c.allow {
		names := make([]string, 0, len(g.cols))
		for n := range g.cols {
			names = append(names, n)
		}
		sort.Strings(names)
		g.list = strings.Join(names, ", ")
	}
	kinds := p.Statements
	if len(kinds) == 0 {
		kinds = []string{"select", "insert", "update", "delete"}
	}
	for _, k := range kinds {
		c.statements[strings.Join(strings.Fields(strings.ToLower(k)), " ")] = true
	}
	c.denyExact, c.denyPrefix = builtinExact, builtinPrefix
	if len(p.DenyFunctions) > 0 {
		c.denyExact = map[string]bool{}
		for k := range builtinExact {
			c.denyExact[k] = true
		}
		c.denyPrefix = append([]string(nil), builtinPrefix...)
		addDeny(c.denyExact, &c.denyPrefix, p.DenyFunctions)
	}
	c.funcAllow = map[string]bool{}
	for _, f := range p.Functions {
		f = strings.TrimSpace(f)
		if f == "*" {
			c.funcAny = true
			continue
		}
		c.funcAllow[strings.Join(splitName(f), ".")] = true
	}
	c.ddl = p.DDL
	return c
}

// ddlFind maps schema.name, as a statement means it, to the key under which the
// DDL keeps that object: an object the DDL does not qualify is in the first
// search_path schema. bare reports whether the DDL has key and left it unqualified.
func (c *compiled) ddlFind(key string, bare func(string) (isBare, ok bool)) (string, bool) {
	if b, ok := bare(key); ok && !b {
		return key, true
	}
	schema, name := splitKey(key)
	if schema == c.searchPath[0] {
		pk := key // public.name already, with the default search path
		if schema != "public" {
			pk = "public." + name
		}
		if b, ok := bare(pk); ok && b {
			return pk, true
		}
	}
	return "", false
}

// ddlTable returns the DDL key and the columns of the relation schema.name.
func (c *compiled) ddlTable(key string) ([]string, bool) {
	k, ok := c.ddlTableKey(key)
	if !ok {
		return nil, false
	}
	return c.ddl.Tables[k], true
}

func (c *compiled) ddlTableKey(key string) (string, bool) {
	if c.ddl == nil {
		return "", false
	}
	return c.ddlFind(key, func(k string) (bool, bool) {
		if _, ok := c.ddl.Tables[k]; !ok {
			return false, false
		}
		return c.ddl.bare[k], true
	})
}

// ddlColumnType is the type the DDL gives column col of the relation schema.name.
func (c *compiled) ddlColumnType(key, col string) (typeRef, bool) {
	k, ok := c.ddlTableKey(key)
	if !ok {
		return typeRef{}, false
	}
	t, ok := c.ddl.colTypes[k][col]
	return t, ok
}

// ddlType finds a type the DDL creates, as a statement names it: a composite type,
// a domain, an enum, or a table (every table is also a composite type).
func (c *compiled) ddlType(ref typeRef) (*ddlType, bool) {
	if c.ddl == nil {
		return nil, false
	}
	find := func(key string) (*ddlType, bool) {
		if k, ok := c.ddlFind(key, func(k string) (bool, bool) {
			t, ok := c.ddl.types[k]
			return ok && t.bare, ok
		}); ok {
			return c.ddl.types[k], true
		}
		if cols, ok := c.ddlTable(key); ok {
			k, _ := c.ddlTableKey(key)
			return &ddlType{fields: cols, fieldTypes: c.ddl.colTypes[k]}, true
		}
		return nil, false
	}
	if ref.schema != "" {
		return find(ref.schema + "." + ref.name)
	}
	for _, sp := range c.searchPath {
		if t, ok := find(sp + "." + ref.name); ok {
			return t, true
		}
	}
	return nil, false
}

// ddlFunction finds a function the DDL creates that takes nargs arguments.
func (c *compiled) ddlFunction(schema, name string, nargs int) (ddlFunc, bool) {
	if c.ddl == nil {
		return ddlFunc{}, false
	}
	find := func(key string) (ddlFunc, bool) {
		k, ok := c.ddlFind(key, func(k string) (bool, bool) {
			fs, ok := c.ddl.funcs[k]
			return ok && fs[0].bare, ok
		})
		if !ok {
			return ddlFunc{}, false
		}
		for _, f := range c.ddl.funcs[k] {
			if f.accepts(nargs) {
				return f, true
			}
		}
		return ddlFunc{}, false
	}
	if schema != "" {
		return find(schema + "." + name)
	}
	for _, sp := range c.searchPath {
		if f, ok := find(sp + "." + name); ok {
			return f, true
		}
	}
	return ddlFunc{}, false
}

// grantFor is the grant of the relation schema.name: its Allow entry, else the
// DDL's columns, else nil (not allowed).
func (c *compiled) grantFor(key string) *grant {
	if g := c.allow[key]; g != nil {
		return g
	}
	if g, ok := c.ddlGrants.Load(key); ok {
		return g.(*grant)
	}
	cols, ok := c.ddlTable(key)
	if !ok {
		return nil
	}
	g := &grant{cols: make(map[string]bool, len(cols)), list: strings.Join(sortedCopy(cols), ", ")}
	for _, col := range cols {
		g.cols[col] = true
	}
	actual, _ := c.ddlGrants.LoadOrStore(key, g)
	return actual.(*grant)
}

func sortedCopy(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}

// normRelation turns an allow key into schema.name.
func (c *compiled) normRelation(k string) string {
	parts := splitName(k)
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return c.searchPath[0] + "." + parts[0]
	default:
		return parts[len(parts)-2] + "." + parts[len(parts)-1]
	}
}

// splitName splits a possibly qualified SQL name and normalises each part the
// way PostgreSQL does: unquoted parts fold to lower case, quoted parts keep
// their case ("" is a quote), and every part is cut to 63 bytes.
func splitName(s string) []string {
	var parts []string
	var b strings.Builder
	i := 0
	s = strings.TrimSpace(s)
	for i <= len(s) {
		if i == len(s) || s[i] == '.' {
			parts = append(parts, truncIdent(b.String()))
			b.Reset()
			i++
			continue
		}
		if s[i] == '"' {
			i++
			for i < len(s) {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					break
				}
				b.WriteByte(s[i])
				i++
			}
			i++
			continue
		}
		ch := s[i]
		if ch >= 'A' && ch <= 'Z' {
			ch += 'a' - 'A'
		}
		if ch != ' ' && ch != '\t' {
			b.WriteByte(ch)
		}
		i++
	}
	return parts
}

func normIdent(s string) string {
	p := splitName(s)
	if len(p) == 0 {
		return ""
	}
	return strings.Join(p, ".")
}

// truncIdent cuts an identifier to NAMEDATALEN-1 bytes without splitting a
// UTF-8 sequence, as the PostgreSQL scanner does.
func truncIdent(s string) string {
	if len(s) <= 63 {
		return s
	}
	n := 63
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// view is what the DDL defines key as, when it is a view.
func (c *compiled) view(key string) (ddlBody, bool) {
	if c.ddl == nil {
		return ddlBody{}, false
	}
	v, ok := c.ddl.views[key]
	return v, ok
}

// attached are the DDL's rules and policies on the table key.
func (c *compiled) attached(key string) []ddlBody {
	if c.ddl == nil {
		return nil
	}
	return c.ddl.attached[key]
}

// prepared is the statement the DDL prepares under name, and its line.
func (c *compiled) prepared(name string) (string, int, bool) {
	if c.ddl == nil {
		return "", 0, false
	}
	p, ok := c.ddl.prepared[name]
	return p.query, p.line, ok
}

// functionAllowed reports whether sql.functions lets a statement call schema.name, a
// function that is no built-in.
func (c *compiled) functionAllowed(schema, name string) bool {
	return c.funcAny || c.funcAllow[name] || (schema != "" && c.funcAllow[schema+"."+name])
}

func (c *compiled) denied(schema, name string) bool {
	if c.denyExact[name] || (schema != "" && c.denyExact[schema+"."+name]) {
		return true
	}
	for _, p := range c.denyPrefix {
		if strings.HasPrefix(name, p) || (schema != "" && strings.HasPrefix(schema+"."+name, p)) {
			return true
		}
	}
	return false
}
