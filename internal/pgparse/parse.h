#include <stddef.h>
#include "pg_query.h"

typedef struct {
	char *data;        /* the packed PgQuery__ParseResult, malloc'ed; NULL when out of memory */
	size_t len;
	PgQueryError *error;
} DwsParseResult;

DwsParseResult dws_parse(const char *input);

struct PgQuery__ParseResult;

typedef struct {
	struct PgQuery__ParseResult *tree; /* the protobuf-c messages, in ctx; NULL on error */
	void *ctx;                         /* the memory context to free with dws_free_tree */
	PgQueryError *error;
} DwsTree;

DwsTree dws_parse_tree(const char *input);
void dws_free_tree(void *ctx);
void pg_query_free_error(PgQueryError *error);
