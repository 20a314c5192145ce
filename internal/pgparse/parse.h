#include <stddef.h>
#include "pg_query.h"

typedef struct {
	char *data;        /* the packed PgQuery__ParseResult, malloc'ed; NULL when out of memory */
	size_t len;
	PgQueryError *error;
} DwsParseResult;

DwsParseResult dws_parse(const char *input);
void pg_query_free_error(PgQueryError *error);
