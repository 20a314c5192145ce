package sqlallow

import (
	"sort"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/dwsdev/dws/internal/pggen"
)

// secret is the relation the fail-closed test hides in the tree; no policy allows it.
const secret = "dws_secret"

// failClosedCorpus adds to the corpora the constructs whose parts a handler walks
// itself, each with every optional part it can have.
var failClosedCorpus = []string{
	`WITH RECURSIVE s (id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM s WHERE id < 3) SEARCH BREADTH FIRST BY id SET ord CYCLE id SET c TO true DEFAULT false USING p SELECT * FROM s`,
	`INSERT INTO employee AS e (id, name) VALUES (1, 'a') ON CONFLICT (lower(name) COLLATE "C" text_pattern_ops, id) WHERE status <> 'x' DO UPDATE SET (name, status) = (excluded.name, 'y') WHERE e.id > 0 RETURNING e.id, name`,
	`INSERT INTO employee (id) SELECT id FROM payroll ON CONFLICT ON CONSTRAINT employee_pkey DO NOTHING RETURNING *`,
	`MERGE INTO expense AS e USING (SELECT * FROM payroll) AS p (pid, emp) ON p.pid = e.id WHEN MATCHED AND e.amount > 0 THEN UPDATE SET amount = 1, status[1] = 'x' WHEN NOT MATCHED AND p.pid > 0 THEN INSERT (id, amount) OVERRIDING SYSTEM VALUE VALUES (p.pid, 1) WHEN NOT MATCHED THEN INSERT DEFAULT VALUES`,
	`UPDATE expense AS e SET (status, note) = (SELECT status, name FROM employee LIMIT 1), amount[1].x = 2 FROM payroll p WHERE p.id = e.id RETURNING e.*`,
	`DELETE FROM expense AS e USING payroll p WHERE p.id = e.id RETURNING e.id`,
	`SELECT DISTINCT ON (e.id) e.id FROM expense e ORDER BY e.id USING <, status DESC NULLS LAST FOR UPDATE OF e NOWAIT`,
	`(SELECT id FROM expense ORDER BY id LIMIT 1) UNION (SELECT id FROM payroll) ORDER BY id USING > LIMIT 2 FOR SHARE`,
	`SELECT * FROM expense e JOIN payroll p USING (id) AS j LEFT JOIN employee m ON m.id = j.id, LATERAL (SELECT 1) AS l (one)`,
	`SELECT * FROM expense TABLESAMPLE BERNOULLI (50) REPEATABLE (7) AS t (a, b)`,
	`SELECT (e).id, (row(1, 2)).f1, ('{1}'::int[])[1], current_timestamp, 'now'::date, $1 FROM expense e`,
	`SELECT x.a FROM XMLTABLE(XMLNAMESPACES('http://x' AS n), '/r' PASSING '<r/>'::xml COLUMNS a text PATH 'a' DEFAULT 'd' NOT NULL, o FOR ORDINALITY) AS x`,
	`SELECT * FROM ROWS FROM (generate_series(1, 2), json_to_record('{}') AS (a int)) WITH ORDINALITY AS r`,
	`SELECT count(*) FILTER (WHERE id > 0) OVER w, percentile_cont(0.5) WITHIN GROUP (ORDER BY id) FROM expense WINDOW w AS (PARTITION BY status ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING)`,
	`SELECT id INTO TEMP dws_new FROM expense`,
	`CREATE TABLE dws_new (LIKE expense, x int DEFAULT 1 CHECK (x > 0)) INHERITS (employee)`,
	`CREATE MATERIALIZED VIEW dws_mv (a) AS SELECT id FROM expense WITH NO DATA`,
	`CREATE VIEW dws_v AS SELECT id FROM expense WITH CHECK OPTION`,
	`CREATE SEQUENCE dws_seq OWNED BY expense.id`,
	`EXECUTE dws_p(1, 2)`,
}

// payload is a subquery reading secret, as a node.
func payload() *pg.Node {
	return &pg.Node{Node: &pg.Node_SubLink{SubLink: &pg.SubLink{
		SubLinkType: pg.SubLinkType_EXPR_SUBLINK,
		Subselect: &pg.Node{Node: &pg.Node_SelectStmt{SelectStmt: &pg.SelectStmt{
			TargetList: []*pg.Node{{Node: &pg.Node_ResTarget{ResTarget: &pg.ResTarget{
				Val: &pg.Node{Node: &pg.Node_AConst{AConst: &pg.A_Const{Val: &pg.A_Const_Ival{Ival: &pg.Integer{Ival: 1}}}}},
			}}}},
			FromClause: []*pg.Node{{Node: &pg.Node_RangeVar{RangeVar: &pg.RangeVar{Relname: secret, Inh: true, Relpersistence: "p"}}}},
			Op:         pg.SetOperation_SETOP_NONE,
		}}},
	}}}
}

// hider builds, for a message type, a message of that type holding a reference to
// secret: a node holds the payload, a RangeVar names secret, and any other type holds
// one in the field nearest to a node (a node before a RangeVar).
type hider struct {
	cost map[protoreflect.FullName]int
}

var (
	nodeName     = (&pg.Node{}).ProtoReflect().Descriptor().FullName()
	rangeVarName = (&pg.RangeVar{}).ProtoReflect().Descriptor().FullName()
)

func newHider(ms []pggen.Message) *hider {
	h := &hider{cost: map[protoreflect.FullName]int{nodeName: 0, rangeVarName: 1}}
	for changed := true; changed; {
		changed = false
		for _, m := range ms {
			name := m.Desc.FullName()
			if name == nodeName || name == rangeVarName {
				continue
			}
			for _, f := range m.Fields {
				if f.Desc.Kind() != protoreflect.MessageKind {
					continue
				}
				fc, ok := h.cost[f.Desc.Message().FullName()]
				if !ok {
					continue
				}
				if c, ok := h.cost[name]; !ok || fc+1 < c {
					h.cost[name] = fc + 1
					changed = true
				}
			}
		}
	}
	return h
}

// canHide reports whether a message of type md can hold a relation reference at all:
// String, Integer and the like cannot.
func (h *hider) canHide(md protoreflect.MessageDescriptor) bool {
	_, ok := h.cost[md.FullName()]
	return ok
}

// value returns a message of type md holding a reference to secret.
func (h *hider) value(md protoreflect.MessageDescriptor) proto.Message {
	switch md.FullName() {
	case nodeName:
		return payload()
	case rangeVarName:
		return &pg.RangeVar{Relname: secret, Inh: true, Relpersistence: "p"}
	}
	r := messageOf(md)
	var best protoreflect.FieldDescriptor
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		if fd.Kind() != protoreflect.MessageKind || !h.canHide(fd.Message()) {
			continue
		}
		if best == nil || h.cost[fd.Message().FullName()] < h.cost[best.Message().FullName()] {
			best = fd
		}
	}
	h.put(r, best)
	return r.Interface()
}

// put places a reference to secret in field fd of r (appended to a list), and
// returns what undoes it.
func (h *hider) put(r protoreflect.Message, fd protoreflect.FieldDescriptor) (undo func()) {
	v := protoreflect.ValueOfMessage(h.value(fd.Message()).ProtoReflect())
	if fd.IsList() {
		l := r.Mutable(fd).List()
		l.Append(v)
		return func() { l.Truncate(l.Len() - 1) }
	}
	had, old := r.Has(fd), r.Get(fd)
	r.Set(fd, v)
	return func() {
		if had {
			r.Set(fd, old)
		} else {
			r.Clear(fd)
		}
	}
}

// messageOf returns a new, empty message of type md.
func messageOf(md protoreflect.MessageDescriptor) protoreflect.Message {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		panic(err)
	}
	return mt.New()
}

// wrap returns the Node holding r, or r when no Node member has its type.
func wrap(r protoreflect.Message) proto.Message {
	n := &pg.Node{}
	fds := n.ProtoReflect().Descriptor().Fields()
	for i := range fds.Len() {
		if fd := fds.Get(i); fd.Message().FullName() == r.Descriptor().FullName() {
			n.ProtoReflect().Set(fd, protoreflect.ValueOfMessage(r))
			return n
		}
	}
	return r.Interface()
}

// secretFindings checks stmt (the tree of src) as Statement does and returns how many of
// its findings, before sorting and merging, name secret.
func secretFindings(pol *compiled, src string, stmt proto.Message) (n int) {
	c := &checker{pol: pol, src: src}
	c.top, _ = stmt.(*pg.Node)
	c.visit(stmt, nil)
	for _, f := range c.findings {
		if strings.Contains(f.Message, `"`+secret+`"`) {
			n++
		}
	}
	return n
}

// occurrence is one message of a parsed statement and the path of fields to it.
type occurrence struct {
	src  string
	root proto.Message
	m    protoreflect.Message
	path string // Type.field/Type.field/…/Type, list indices left out
}

func occurrences(src string, root *pg.Node) []occurrence {
	var out []occurrence
	var walk func(m protoreflect.Message, path string)
	walk = func(m protoreflect.Message, path string) {
		name := string(m.Descriptor().Name())
		out = append(out, occurrence{src, root, m, path + name})
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			if fd.Kind() != protoreflect.MessageKind {
				return true
			}
			p := path + name + "." + string(fd.Name()) + "/"
			if name == "Node" {
				p = path // a Node is a wrapper: its member is what the path names
			}
			if fd.IsList() {
				for i := range v.List().Len() {
					walk(v.List().Get(i).Message(), p)
				}
				return true
			}
			walk(v.Message(), p)
			return true
		})
	}
	walk(root.ProtoReflect(), "")
	return out
}

// byDesign are the fields where a relation is not read or written, so a RangeVar
// there is no finding: the relation a statement creates is the statement kind's
// decision (see the package doc).
var byDesign = map[string]string{
	"IntoClause.rel":         "the relation SELECT … INTO / CREATE TABLE AS creates",
	"CreateStmt.relation":    "the table CREATE TABLE creates",
	"ViewStmt.view":          "the view CREATE VIEW creates",
	"CreateSeqStmt.sequence": "the sequence CREATE SEQUENCE creates",
}

// inByDesign reports whether path leads through a field of byDesign.
func inByDesign(path string) bool {
	for field := range byDesign {
		if strings.Contains(path, field+"/") {
			return true
		}
	}
	return false
}

// TestEveryFieldIsWalked: the walk fails closed. For every message type of
// pg_query_go's tree and every message-typed field that can hold a relation
// reference, a reference to a relation no policy allows placed in that field is
// reported. The fields come from pg_query_go's descriptors, not from the handlers:
// a field a newer pg_query_go adds (MergeStmt.returning_list in v6) is checked
// here the day the module is bumped, and a handler that does not walk it fails.
//
// Each field is tried where the corpora have a message of its type, once for every
// distinct path of fields from the statement down to it (so each handler that opens
// that type by hand is tried), and a type no statement has is tried on its own.
func TestEveryFieldIsWalked(t *testing.T) {
	ddl, err := FromDDL(testDDL)
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultPolicy()
	p.DDL = ddl
	p.Statements = nil // every kind: the statement kind is not what is tested
	pol := compile(&p)
	ms, err := pggen.Messages()
	if err != nil {
		t.Fatal(err)
	}
	h := newHider(ms)

	type miss struct{ field, path, src string }
	var misses []miss
	twice := map[string]string{}
	tried := map[string]bool{}     // path + "|" + field
	covered := map[string]bool{}   // Type.field tried at least once
	hideable := map[string]bool{}  // Type.field that can hold a reference
	typesSeen := map[string]bool{} // types a statement has
	try := func(o occurrence, fd protoreflect.FieldDescriptor) {
		field := string(o.m.Descriptor().Name()) + "." + string(fd.Name())
		covered[field] = true
		undo := h.put(o.m, fd)
		n := secretFindings(pol, o.src, o.root)
		undo()
		if n == 0 && byDesign[field] == "" && !inByDesign(o.path) {
			misses = append(misses, miss{field, o.path, o.src})
		}
		if n > 1 {
			twice[field] = o.path
		}
	}
	for _, m := range ms {
		if m.Desc.FullName() == nodeName {
			continue // a wrapper: every member is a type of its own below
		}
		for _, f := range m.Fields {
			if f.Desc.Kind() == protoreflect.MessageKind && h.canHide(f.Desc.Message()) {
				hideable[m.GoName+"."+string(f.Desc.Name())] = true
			}
		}
	}

	texts := append(fullCorpus(), failClosedCorpus...)
	trees := 0
	for _, src := range texts {
		tree, err := pg.Parse(src)
		if err != nil || len(tree.Stmts) != 1 {
			continue
		}
		trees++
		for _, o := range occurrences(src, tree.Stmts[0].Stmt) {
			md := o.m.Descriptor()
			if md.FullName() == nodeName {
				continue
			}
			typesSeen[string(md.Name())] = true
			for i := range md.Fields().Len() {
				fd := md.Fields().Get(i)
				if fd.Kind() != protoreflect.MessageKind || !h.canHide(fd.Message()) {
					continue
				}
				key := o.path + "|" + string(fd.Name())
				if tried[key] {
					continue
				}
				tried[key] = true
				try(o, fd)
			}
		}
	}
	if trees < 500 {
		t.Fatalf("only %d statements parsed: the corpus went missing", trees)
	}
	// The types no statement has, each alone as the statement (wrapped in a Node when
	// it is one of Node's members, as the walk finds it).
	alone := 0
	for _, m := range ms {
		if typesSeen[m.GoName] || m.Desc.FullName() == nodeName {
			continue
		}
		for _, f := range m.Fields {
			if f.Desc.Kind() != protoreflect.MessageKind || !h.canHide(f.Desc.Message()) {
				continue
			}
			r := messageOf(m.Desc)
			alone++
			try(occurrence{src: "x", root: wrap(r), m: r, path: m.GoName}, f.Desc)
		}
	}

	sort.Slice(misses, func(i, j int) bool { return misses[i].field+misses[i].path < misses[j].field+misses[j].path })
	reported := map[string]int{}
	for _, m := range misses {
		reported[m.field]++
		if reported[m.field] <= 2 {
			t.Errorf("a relation in %s is not reported (at %s, in %q)", m.field, m.path, m.src)
		}
	}
	for field, n := range reported {
		if n > 2 {
			t.Errorf("… and %d more places of %s", n-2, field)
		}
	}
	for field, path := range twice {
		t.Errorf("a relation in %s is reported more than once (at %s): a handler walks a field it does not take", field, path)
	}
	var notTried []string
	for field := range hideable {
		if !covered[field] {
			notTried = append(notTried, field)
		}
	}
	sort.Strings(notTried)
	if len(notTried) > 0 {
		t.Errorf("fields never tried: %v", notTried)
	}
	t.Logf("%d fields of %d types, tried in %d places of %d statements and %d alone",
		len(hideable), len(ms)-1, len(tried), trees, alone)
}
