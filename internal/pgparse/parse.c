// pg_query's own conversion of a raw parse tree into protobuf-c messages, compiled
// here under another name for its one public function, so that dws_parse can pack
// the messages with pack.h instead of protobuf-c's quadratic packer.
#define pg_query_nodes_to_protobuf dws_unused_nodes_to_protobuf
#include "pg_query_outfuncs_protobuf.c"
#undef pg_query_nodes_to_protobuf

#include "pg_query_internal.h"
#include "pack.h"
#include "parse.h"

/* The protobuf-c messages of a raw parse tree, built by pg_query's own code, in ctx. */
static PgQuery__ParseResult *dws_messages(List *tree)
{
	PgQuery__ParseResult *result = palloc(sizeof(PgQuery__ParseResult));
	pg_query__parse_result__init(result);
	result->version = PG_VERSION_NUM;
	if (tree != NULL) {
		const ListCell *lc;
		int i = 0;
		result->n_stmts = list_length(tree);
		result->stmts = palloc(sizeof(PgQuery__RawStmt *) * result->n_stmts);
		foreach(lc, tree) {
			result->stmts[i] = palloc(sizeof(PgQuery__RawStmt));
			pg_query__raw_stmt__init(result->stmts[i]);
			_outRawStmt(result->stmts[i], lfirst(lc));
			i++;
		}
	}
	return result;
}

/*
 * PostgreSQL's raw parse tree of input, in a memory context of its own that stays
 * until dws_free_tree, which must run on the same thread (pg_query's memory
 * contexts are per thread).
 */
DwsRawTree dws_raw_parse(const char *input)
{
	DwsRawTree r = {0};
	MemoryContext ctx = pg_query_enter_memory_context();
	PgQueryInternalParsetreeAndError pt = pg_query_raw_parse(input, PG_QUERY_PARSE_DEFAULT);
	free(pt.stderr_buffer);
	if (pt.error != NULL) {
		r.error = pt.error;
		pg_query_exit_memory_context(ctx);
		return r;
	}
	r.tree = pt.tree;
	r.ctx = ctx;
	return r;
}

void dws_free_tree(void *ctx)
{
	pg_query_exit_memory_context((MemoryContext)ctx);
}

DwsParseResult dws_parse(const char *input)
{
	DwsParseResult r = {0};
	DwsRawTree t = dws_raw_parse(input);
	if (t.error != NULL) {
		r.error = t.error;
		return r;
	}
	PgQuery__ParseResult *msgs = dws_messages(t.tree);
	dws_sizes sizes = {0};
	size_t len = dws_message_size(&sizes, &msgs->base);
	if (!sizes.oom) {
		r.data = malloc(len ? len : 1);
		if (r.data != NULL) {
			sizes.next = 0;
			uint8_t *end = dws_message_pack(&sizes, &msgs->base, (uint8_t *)r.data);
			r.len = (size_t)(end - (uint8_t *)r.data);
		}
	}
	free(sizes.v);
	dws_free_tree(t.ctx);
	return r;
}
