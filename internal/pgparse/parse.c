// PostgreSQL's raw parse tree, for raw_gen.go to read as memory.
#include <stdlib.h>

#include "parse.h"
#include "pg_query_internal.h"

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
