// Command pgcatalog writes sqlallow's embedded catalog of PostgreSQL's built-in
// functions and types (catalog_functions.tsv, catalog_types.tsv) from a real
// server: it starts a scratch cluster with the newest installed PostgreSQL, reads
// pg_proc and pg_type, and derives for every function whether a statement that
// calls it can give a different result on a retry (clock) and whether the
// allow-list denies it (deny).
//
// Run it with `go generate ./sqlallow`. What it derives, and from what:
//
//   - volatility: pg_proc.provolatile, as PostgreSQL declares it.
//   - clock: volatile functions, stable functions whose C implementation reads
//     the clock, the transaction or the backend (clockSymbols, the one list kept
//     by hand: PostgreSQL marks them stable like any function that only depends
//     on settings), and SQL-language built-ins whose body calls either or reads
//     CURRENT_DATE and friends (age(timestamp) is current_date minus it).
//   - deny, by name (a call is resolved by name, not by argument types), with the
//     first reason that applies:
//     sql       runs SQL given as text or reads whole schemas (sqlRunners, by hand:
//     nothing in the catalog says so);
//     settings  reads or writes server settings (current_setting, set_config);
//     superuser EXECUTE is not granted to PUBLIC (pg_proc.proacl);
//     view:V    a pg_* function that the system view V calls (views are denied as
//     tables, so what they read is denied as a function);
//     stats     a pg_stat_* statistics function;
//     relation  takes a regclass or oid argument: it reads or changes the relation
//     or catalog object the argument names (casts, operators, type and index
//     support functions excluded);
//     typeio    a type's input/output function (date_in('now') is 'now'::date);
//     volatile  any other volatile function, except those that only produce a
//     fresh value (randomness, clock, lastval), which are nondeterministic but
//     touch nothing, and the sequence functions (nondeterministic, so refused
//     anyway).
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dwsdev/dws/internal/scratchpg"
	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// clockSymbols are the C functions (pg_proc.prosrc of internal-language built-ins)
// that PostgreSQL marks stable although their value changes from one run of the
// same statement to the next: they read the transaction's start time, the current
// date, the transaction id or the backend.
var clockSymbols = map[string]bool{
	"now": true, "statement_timestamp": true, "xid_age": true, "mxid_age": true,
	"pg_backend_pid": true, "pg_current_xact_id": true, "pg_current_xact_id_if_assigned": true,
	"pg_current_snapshot": true, "pg_conf_load_time": true, "pg_postmaster_start_time": true,
	"inet_client_addr": true, "inet_client_port": true, "inet_server_addr": true, "inet_server_port": true,
	"pg_my_temp_schema": true, "pg_trigger_depth": true, "pg_listening_channels": true,
	"pg_cursor": true, "pg_prepared_statement": true,
}

// sqlRunners are built-ins that run SQL given as text or read every table of a
// schema or database named by an argument.
var sqlRunners = []string{
	"query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema",
	"cursor_to_xml", "cursor_to_xmlschema",
	"schema_to_xml", "schema_to_xmlschema", "schema_to_xml_and_xmlschema",
	"database_to_xml", "database_to_xmlschema", "database_to_xml_and_xmlschema",
	"ts_stat", "ts_rewrite",
}

var settingsFuncs = []string{"current_setting", "set_config", "pg_settings_get_flags"}

// freshValue are volatile built-ins that only produce a new value: they are
// nondeterministic (reported as such) but read and change nothing outside the
// statement. The sequence functions change or read only a sequence; being
// volatile they are refused as nondeterministic (SPEC §4.3 names nextval there),
// so they are not denied too.
var freshValue = map[string]bool{
	"random": true, "random_normal": true, "setseed": true, "clock_timestamp": true,
	"timeofday": true, "gen_random_uuid": true, "lastval": true, "current_query": true,
	"nextval": true, "currval": true, "setval": true,
}

type proc struct {
	OID        int64    `json:"oid"`
	Name       string   `json:"name"`
	Nargs      int      `json:"nargs"`
	Defaults   int      `json:"defaults"`
	Variadic   bool     `json:"variadic"`
	Kind       string   `json:"kind"`
	Args       []string `json:"args"`
	Result     string   `json:"result"`
	Set        bool     `json:"set"`
	Volatility string   `json:"volatility"`
	Lang       string   `json:"lang"`
	Src        string   `json:"src"`
	Def        string   `json:"def"`
	Out        []string `json:"out"`
	NotPublic  bool     `json:"not_public"`
	Support    bool     `json:"support"`
	TypeIO     bool     `json:"typeio"`

	clock bool
	deny  string
}

const procQuery = `
WITH support AS (
  SELECT castfunc::oid AS f FROM pg_cast
  UNION SELECT oprcode::oid FROM pg_operator UNION SELECT oprrest::oid FROM pg_operator UNION SELECT oprjoin::oid FROM pg_operator
  UNION SELECT typanalyze::oid FROM pg_type UNION SELECT typsubscript::oid FROM pg_type
  UNION SELECT amproc::oid FROM pg_amproc UNION SELECT amhandler::oid FROM pg_am
  UNION SELECT aggtransfn::oid FROM pg_aggregate UNION SELECT aggfinalfn::oid FROM pg_aggregate
  UNION SELECT aggcombinefn::oid FROM pg_aggregate UNION SELECT aggserialfn::oid FROM pg_aggregate
  UNION SELECT aggdeserialfn::oid FROM pg_aggregate UNION SELECT aggmtransfn::oid FROM pg_aggregate
  UNION SELECT aggminvtransfn::oid FROM pg_aggregate UNION SELECT aggmfinalfn::oid FROM pg_aggregate
  UNION SELECT prosupport::oid FROM pg_proc
  UNION SELECT lanplcallfoid FROM pg_language UNION SELECT laninline FROM pg_language UNION SELECT lanvalidator FROM pg_language
  UNION SELECT prsstart::oid FROM pg_ts_parser UNION SELECT prstoken::oid FROM pg_ts_parser UNION SELECT prsend::oid FROM pg_ts_parser
  UNION SELECT prsheadline::oid FROM pg_ts_parser UNION SELECT prslextype::oid FROM pg_ts_parser
  UNION SELECT tmplinit::oid FROM pg_ts_template UNION SELECT tmpllexize::oid FROM pg_ts_template
), typeio AS (
  SELECT typinput::oid AS f FROM pg_type UNION SELECT typoutput::oid FROM pg_type
  UNION SELECT typreceive::oid FROM pg_type UNION SELECT typsend::oid FROM pg_type
  UNION SELECT typmodin::oid FROM pg_type UNION SELECT typmodout::oid FROM pg_type
)
SELECT json_agg(json_build_object(
  'oid', p.oid::int8, 'name', p.proname, 'nargs', p.pronargs, 'defaults', p.pronargdefaults,
  'variadic', p.provariadic <> 0, 'kind', p.prokind,
  'args', ARRAY(SELECT t.typname FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(o, i) JOIN pg_type t ON t.oid = a.o ORDER BY a.i),
  'result', rt.typname, 'set', p.proretset, 'volatility', p.provolatile, 'lang', l.lanname,
  'src', p.prosrc,
  'def', CASE WHEN l.lanname = 'sql' THEN pg_get_functiondef(p.oid) END,
  'out', ARRAY(SELECT x.n FROM unnest(p.proargmodes, p.proargnames) WITH ORDINALITY x(m, n, i) WHERE x.m IN ('o', 'b', 't') ORDER BY x.i),
  'not_public', p.proacl IS NOT NULL AND NOT EXISTS (SELECT 1 FROM aclexplode(p.proacl) a WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE'),
  'support', p.oid IN (SELECT f FROM support) OR p.prorettype = 'internal'::regtype OR 'internal'::regtype = ANY (p.proargtypes::oid[]),
  'typeio', p.oid IN (SELECT f FROM typeio)
) ORDER BY p.proname, p.pronargs, p.oid)
FROM pg_proc p JOIN pg_type rt ON rt.oid = p.prorettype JOIN pg_language l ON l.oid = p.prolang
WHERE p.pronamespace = 'pg_catalog'::regnamespace`

type typ struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Category string `json:"category"`
	Elem     string `json:"elem"`
}

const typeQuery = `
SELECT json_agg(json_build_object('name', t.typname, 'type', t.typtype, 'category', t.typcategory,
  'elem', coalesce(e.typname, rs.typname, ms.typname, '')) ORDER BY t.typname)
FROM pg_type t
LEFT JOIN pg_type e ON t.typcategory = 'A' AND e.oid = t.typelem
LEFT JOIN pg_range r ON r.rngtypid = t.oid LEFT JOIN pg_type rs ON rs.oid = r.rngsubtype
LEFT JOIN pg_range mr ON mr.rngmultitypid = t.oid LEFT JOIN pg_type ms ON ms.oid = mr.rngsubtype
WHERE t.typnamespace = 'pg_catalog'::regnamespace`

const viewQuery = `
SELECT json_agg(json_build_object('name', c.relname, 'def', pg_get_viewdef(c.oid)) ORDER BY c.relname)
FROM pg_class c WHERE c.relnamespace IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace) AND c.relkind IN ('v', 'm')`

func main() {
	out := "."
	if len(os.Args) > 1 {
		out = os.Args[1]
	}
	if err := run(out); err != nil {
		fmt.Fprintln(os.Stderr, "pgcatalog:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	c, err := scratchpg.Start()
	if err != nil {
		return err
	}
	defer c.Stop()
	var procs []*proc
	var types []*typ
	var views []struct{ Name, Def string }
	for _, q := range []struct {
		sql string
		v   any
	}{{procQuery, &procs}, {typeQuery, &types}, {viewQuery, &views}} {
		stdout, _, err := c.Psql("postgres", q.sql)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(stdout, q.v); err != nil {
			return fmt.Errorf("reading the catalog: %w", err)
		}
	}
	if err := derive(procs, views); err != nil {
		return err
	}
	header := fmt.Sprintf("# Generated by `go generate ./sqlallow` (sqlallow/internal/pgcatalog) from PostgreSQL %s,\n# the server scripts/postgres.sh installs. DO NOT EDIT.\n", c.Version)
	var fb strings.Builder
	fb.WriteString(header)
	fb.WriteString("# pg_catalog functions, one overload a line: name, argument types, defaults, variadic,\n# result type, set-returning, kind, provolatile, clock, deny reason, OUT parameter names.\n")
	fb.WriteString("#name\targs\tdefaults\tvariadic\tresult\tset\tkind\tvolatility\tclock\tdeny\tout\n")
	for _, p := range procs {
		fmt.Fprintf(&fb, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", p.Name, strings.Join(p.Args, ","), p.Defaults,
			flag(p.Variadic), p.Result, flag(p.Set), p.Kind, p.Volatility, flag(p.clock), p.deny, strings.Join(p.Out, ","))
	}
	var tb strings.Builder
	tb.WriteString(header)
	tb.WriteString("# pg_catalog types: name, typtype, typcategory, element (arrays) or subtype (ranges, multiranges).\n")
	tb.WriteString("#name\ttype\tcategory\telem\n")
	for _, t := range types {
		fmt.Fprintf(&tb, "%s\t%s\t%s\t%s\n", t.Name, t.Type, t.Category, t.Elem)
	}
	if err := os.WriteFile(filepath.Join(out, "catalog_functions.tsv"), []byte(fb.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "catalog_types.tsv"), []byte(tb.String()), 0o644)
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// arity reports whether p can be called with n arguments.
func (p *proc) arity(n int) bool {
	if p.Variadic && n >= p.Nargs {
		return true
	}
	return n <= p.Nargs && n >= p.Nargs-p.Defaults
}

func derive(procs []*proc, views []struct{ Name, Def string }) error {
	byName := map[string][]*proc{}
	for _, p := range procs {
		byName[p.Name] = append(byName[p.Name], p)
		p.clock = p.Volatility == "v" || p.Lang == "internal" && clockSymbols[p.Src]
	}
	// SQL-language built-ins are as nondeterministic as what their body calls.
	bodies := map[*proc][]call{}
	for _, p := range procs {
		if p.Lang != "sql" || p.Def == "" {
			continue
		}
		calls, err := callsIn(p.Def)
		if err != nil {
			return fmt.Errorf("parsing the body of %s: %w", p.Name, err)
		}
		bodies[p] = calls
	}
	for changed := true; changed; {
		changed = false
		for p, calls := range bodies {
			if p.clock {
				continue
			}
			for _, cl := range calls {
				if cl.clock || anyClock(byName[cl.name], cl.nargs) {
					p.clock, changed = true, true
					break
				}
			}
		}
	}

	reasons := map[string]string{}
	set := func(name, reason string) {
		if _, ok := reasons[name]; !ok {
			reasons[name] = reason
		}
	}
	for _, n := range sqlRunners {
		set(n, "sql")
	}
	for _, n := range settingsFuncs {
		set(n, "settings")
	}
	for _, p := range procs {
		if p.NotPublic {
			set(p.Name, "superuser")
		}
	}
	for _, v := range views {
		calls, err := callsIn(v.Def)
		if err != nil {
			return fmt.Errorf("parsing the view %s: %w", v.Name, err)
		}
		for _, cl := range calls {
			if strings.HasPrefix(cl.name, "pg_") && byName[cl.name] != nil {
				set(cl.name, "view:"+v.Name)
			}
		}
	}
	for _, p := range procs {
		if strings.HasPrefix(p.Name, "pg_stat_") {
			set(p.Name, "stats")
		}
	}
	for _, p := range procs {
		if p.Kind != "f" || p.Support || p.TypeIO || freshValue[p.Name] {
			continue
		}
		for _, a := range p.Args {
			if a == "regclass" || a == "oid" {
				set(p.Name, "relation")
			}
		}
	}
	for _, p := range procs {
		if p.TypeIO {
			set(p.Name, "typeio")
		}
	}
	for _, p := range procs {
		if p.Volatility == "v" && !freshValue[p.Name] {
			set(p.Name, "volatile")
		}
	}
	for _, p := range procs {
		p.deny = reasons[p.Name]
	}
	return nil
}

func anyClock(ps []*proc, n int) bool {
	for _, p := range ps {
		if p.arity(n) && p.clock {
			return true
		}
	}
	return false
}

// call is a function call found in SQL text.
type call struct {
	name  string
	nargs int
	clock bool // CURRENT_DATE, CURRENT_TIMESTAMP, …: no function, but the clock
}

// callsIn parses SQL text (a view definition or CREATE FUNCTION) and lists its calls.
func callsIn(sql string) ([]call, error) {
	tree, err := pg.Parse(sql)
	if err != nil {
		return nil, err
	}
	var out []call
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		switch x := m.Interface().(type) {
		case *pg.FuncCall:
			if n := len(x.Funcname); n > 0 {
				out = append(out, call{name: x.Funcname[n-1].GetString_().GetSval(), nargs: len(x.Args)})
			}
		case *pg.SQLValueFunction:
			switch x.Op {
			case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME,
				pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP,
				pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N, pg.SQLValueFunctionOp_SVFOP_LOCALTIME,
				pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N, pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP,
				pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
				out = append(out, call{clock: true})
			}
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Kind() != protoreflect.MessageKind {
				return true
			}
			if fd.IsList() {
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message())
				}
				return true
			}
			walk(v.Message())
			return true
		})
	}
	walk(tree.ProtoReflect())
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}
