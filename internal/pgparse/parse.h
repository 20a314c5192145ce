#include <stddef.h>
#include "pg_query.h"

typedef struct {
	void *tree;          /* PostgreSQL's raw parse tree, a List of RawStmt, in ctx; NULL for none */
	void *ctx;           /* the memory context to free with dws_free_tree; NULL on error */
	PgQueryError *error;
} DwsRawTree;

DwsRawTree dws_raw_parse(const char *input);
void dws_free_tree(void *ctx);
void pg_query_free_error(PgQueryError *error);
