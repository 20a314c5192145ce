package sqlallow

import (
	"fmt"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"
)

// nested checks the kind of a data-modifying statement inside a CTE or
// subquery: it changes data as much as a top-level one does.
func (c *checker) nested(n *pg.RangeVar, kind string) {
	if c.top != nil && n != nil {
		if c.pol.statements[kind] {
			return
		}
		if ti, ok := inner(c.top).(interface{ GetRelation() *pg.RangeVar }); ok && ti.GetRelation() == n {
			return
		}
		loc := int(n.Location)
		c.add(Statement, loc, tokenLen(c.src, loc), fmt.Sprintf("%s in a WITH clause changes data, and %s statements are not allowed", strings.ToUpper(kind), strings.ToUpper(kind)))
	}
}

// target makes the item for the relation a DML statement writes. The target
// of INSERT/UPDATE/DELETE/MERGE is always a real table, never a CTE.
func (c *checker) target(rv *pg.RangeVar, event string, s *scope) *item {
	r := c.relation(rv, "")
	rest(c, rv, s, 0)
	// The DDL's rules on the table that fire on this write run with it.
	loc := int(rv.Location)
	for _, b := range c.pol.attached(r.key) {
		if b.event == event || event == "merge" && b.event != "" {
			c.ddlBody(b, loc, tokenLen(c.src, loc))
		}
	}
	it := &item{name: rv.Relname, schema: rv.Schemaname, rel: r, cols: r.ddl, known: r.ddlKnown}
	if rv.Alias != nil {
		it.name, it.schema = rv.Alias.Aliasname, ""
	}
	return it
}

func (c *checker) setTargets(list []*pg.Node, tgt *item, s *scope) {
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			c.visit(n, s)
			continue
		}
		if ti, ok := templateIn(rt.Name, c.ph); ok {
			c.setRole(ti, "column")
		} else {
			c.colUse(tgt.rel, rt.Name, int(rt.Location))
		}
		rest(c, rt, s, 0)
	}
}

func (c *checker) returning(list []*pg.Node, s *scope) ([]string, bool) {
	if len(list) == 0 {
		return nil, true
	}
	cols, known := c.targetCols(list, s)
	c.visitAll(list, s)
	return cols, known
}

func (c *checker) insertStmt(ins *pg.InsertStmt, parent *scope) ([]string, bool) {
	s := &scope{parent: parent}
	if ins.WithClause != nil {
		c.withClause(ins.WithClause, s)
	}
	c.nested(ins.Relation, "insert")
	tgt := c.target(ins.Relation, "insert", s)
	if len(ins.Cols) > 0 {
		c.setTargets(ins.Cols, tgt, s)
	} else if ins.SelectStmt != nil {
		width := -1
		if sel := ins.SelectStmt.GetSelectStmt(); sel != nil {
			if len(sel.ValuesLists) > 0 {
				if l := sel.ValuesLists[0].GetList(); l != nil {
					width = len(l.Items)
				}
			} else if !isSetOp(sel) && len(sel.TargetList) > 0 {
				width = len(sel.TargetList)
				for _, t := range sel.TargetList {
					if cr := t.GetResTarget().GetVal().GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
						width = -1
					}
				}
			}
		}
		loc := int(ins.Relation.Location)
		if tgt.rel.ddlKnown && width >= 0 && width <= len(tgt.rel.ddl) {
			for _, col := range tgt.rel.ddl[:width] {
				c.colUse(tgt.rel, col, loc)
			}
		} else {
			c.allCols(tgt.rel, loc, "INSERT without a column list")
		}
	}
	if ins.SelectStmt != nil {
		c.query(ins.SelectStmt, s)
	}
	s.items = append(s.items, tgt)
	if oc := ins.OnConflictClause; oc != nil {
		if inf := oc.Infer; inf != nil {
			for _, e := range inf.IndexElems {
				if ie := e.GetIndexElem(); ie != nil {
					if ie.Name != "" {
						c.colUse(tgt.rel, ie.Name, int(inf.Location))
					}
					rest(c, ie, s, 0)
					continue
				}
				c.visit(e, s)
			}
			rest(c, inf, s, fInferClause_IndexElems)
		}
		// excluded is the row proposed for insertion, with the target's columns.
		ex := &item{name: "excluded", rel: tgt.rel, cols: tgt.cols, known: tgt.known}
		cs := &scope{parent: parent, ctes: s.ctes, items: []*item{tgt, ex}}
		c.setTargets(oc.TargetList, tgt, cs)
		rest(c, oc, cs, fOnConflictClause_Infer|fOnConflictClause_TargetList)
	}
	cols, known := c.returning(ins.ReturningList, s)
	rest(c, ins, s, fInsertStmt_WithClause|fInsertStmt_Relation|fInsertStmt_Cols|fInsertStmt_SelectStmt|
		fInsertStmt_OnConflictClause|fInsertStmt_ReturningList)
	return cols, known
}

func (c *checker) updateStmt(up *pg.UpdateStmt, parent *scope) ([]string, bool) {
	s := &scope{parent: parent}
	if up.WithClause != nil {
		c.withClause(up.WithClause, s)
	}
	c.nested(up.Relation, "update")
	tgt := c.target(up.Relation, "update", s)
	s.items = append(s.items, tgt)
	for _, f := range up.FromClause {
		c.fromNode(f, s)
	}
	c.setTargets(up.TargetList, tgt, s)
	cols, known := c.returning(up.ReturningList, s)
	rest(c, up, s, fUpdateStmt_WithClause|fUpdateStmt_Relation|fUpdateStmt_FromClause|fUpdateStmt_TargetList|fUpdateStmt_ReturningList)
	return cols, known
}

func (c *checker) deleteStmt(del *pg.DeleteStmt, parent *scope) ([]string, bool) {
	s := &scope{parent: parent}
	if del.WithClause != nil {
		c.withClause(del.WithClause, s)
	}
	c.nested(del.Relation, "delete")
	tgt := c.target(del.Relation, "delete", s)
	s.items = append(s.items, tgt)
	for _, f := range del.UsingClause {
		c.fromNode(f, s)
	}
	cols, known := c.returning(del.ReturningList, s)
	rest(c, del, s, fDeleteStmt_WithClause|fDeleteStmt_Relation|fDeleteStmt_UsingClause|fDeleteStmt_ReturningList)
	return cols, known
}

func (c *checker) mergeStmt(m *pg.MergeStmt, parent *scope) ([]string, bool) {
	s := &scope{parent: parent}
	if m.WithClause != nil {
		c.withClause(m.WithClause, s)
	}
	c.nested(m.Relation, "merge")
	tgt := c.target(m.Relation, "merge", s)
	c.fromNode(m.SourceRelation, s)
	s.items = append(s.items, tgt)
	for _, w := range m.MergeWhenClauses {
		wc := w.GetMergeWhenClause()
		if wc == nil {
			c.visit(w, s)
			continue
		}
		c.setTargets(wc.TargetList, tgt, s)
		if wc.CommandType == pg.CmdType_CMD_INSERT && len(wc.TargetList) == 0 && len(wc.Values) > 0 {
			c.allCols(tgt.rel, int(m.Relation.Location), "INSERT without a column list")
		}
		rest(c, wc, s, fMergeWhenClause_TargetList)
	}
	// The join condition, and whatever else a MERGE holds, sees the source and the target.
	rest(c, m, s, fMergeStmt_WithClause|fMergeStmt_Relation|fMergeStmt_SourceRelation|fMergeStmt_MergeWhenClauses)
	return nil, true
}
