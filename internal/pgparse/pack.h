/*
 * A linear-time protobuf-c packer. protobuf-c's own pack asks every submessage
 * for its packed size before writing it, and that size walks the whole subtree
 * again: a tree of depth d costs d times its size, which on PostgreSQL parse
 * trees (a Node wrapper around every node doubles their depth) is ten times the
 * grammar's own time. Here one pass records every message's size in pre-order
 * and a second pass writes, reading the sizes back in the same order. The bytes
 * are protobuf-c's exactly (the tests compare them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "protobuf-c/protobuf-c.h"

typedef struct {
	size_t *v;
	size_t n, cap, next;
	int oom;
} dws_sizes;

static void dws_sizes_push(dws_sizes *s, size_t *slot_index)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		size_t *v = realloc(s->v, cap * sizeof(size_t));
		if (v == NULL) {
			s->oom = 1;
			*slot_index = (size_t)-1;
			return;
		}
		s->v = v;
		s->cap = cap;
	}
	*slot_index = s->n++;
}

static inline size_t dws_varint_size(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static inline uint8_t *dws_put_varint(uint8_t *out, uint64_t v)
{
	while (v >= 0x80) {
		*out++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*out++ = (uint8_t)v;
	return out;
}

static inline int dws_wire_type(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_DOUBLE:
	case PROTOBUF_C_TYPE_FIXED64:
	case PROTOBUF_C_TYPE_SFIXED64:
		return 1;
	case PROTOBUF_C_TYPE_FLOAT:
	case PROTOBUF_C_TYPE_FIXED32:
	case PROTOBUF_C_TYPE_SFIXED32:
		return 5;
	case PROTOBUF_C_TYPE_STRING:
	case PROTOBUF_C_TYPE_BYTES:
	case PROTOBUF_C_TYPE_MESSAGE:
		return 2;
	default:
		return 0;
	}
}

/* The varint a scalar is written as (int32 and enums sign-extend to 64 bits). */
static inline uint64_t dws_scalar_varint(ProtobufCType t, const void *p)
{
	switch (t) {
	case PROTOBUF_C_TYPE_INT32:
	case PROTOBUF_C_TYPE_ENUM:
		return (uint64_t)(int64_t)*(const int32_t *)p;
	case PROTOBUF_C_TYPE_SINT32: {
		int32_t v = *(const int32_t *)p;
		return (uint32_t)((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
	}
	case PROTOBUF_C_TYPE_UINT32:
		return *(const uint32_t *)p;
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_UINT64:
		return *(const uint64_t *)p;
	case PROTOBUF_C_TYPE_SINT64: {
		int64_t v = *(const int64_t *)p;
		return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	}
	case PROTOBUF_C_TYPE_BOOL:
		return *(const protobuf_c_boolean *)p ? 1 : 0;
	default:
		return 0;
	}
}

static inline size_t dws_elt_size(ProtobufCType t)
{
	switch (t) {
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_FIXED64:
	case PROTOBUF_C_TYPE_DOUBLE:
		return 8;
	case PROTOBUF_C_TYPE_BOOL:
		return sizeof(protobuf_c_boolean);
	case PROTOBUF_C_TYPE_STRING:
	case PROTOBUF_C_TYPE_MESSAGE:
		return sizeof(void *);
	case PROTOBUF_C_TYPE_BYTES:
		return sizeof(ProtobufCBinaryData);
	default:
		return 4;
	}
}

/* Whether a proto3 field holds its default and is left out, as protobuf-c decides. */
static int dws_zeroish(const ProtobufCFieldDescriptor *f, const void *m)
{
	switch (f->type) {
	case PROTOBUF_C_TYPE_BOOL:
		return *(const protobuf_c_boolean *)m == 0;
	case PROTOBUF_C_TYPE_SINT64:
	case PROTOBUF_C_TYPE_INT64:
	case PROTOBUF_C_TYPE_UINT64:
	case PROTOBUF_C_TYPE_SFIXED64:
	case PROTOBUF_C_TYPE_FIXED64:
		return *(const uint64_t *)m == 0;
	case PROTOBUF_C_TYPE_FLOAT:
		return *(const float *)m == 0;
	case PROTOBUF_C_TYPE_DOUBLE:
		return *(const double *)m == 0;
	case PROTOBUF_C_TYPE_STRING: {
		const char *s = *(const char *const *)m;
		return s == NULL || *s == '\0';
	}
	case PROTOBUF_C_TYPE_BYTES:
		return ((const ProtobufCBinaryData *)m)->len == 0;
	case PROTOBUF_C_TYPE_MESSAGE:
		return *(const void *const *)m == NULL;
	default:
		return *(const uint32_t *)m == 0;
	}
}

/*
 * The fields a message writes, in order: for a oneof, only its set member. fn is
 * called with each present singular value, or with each repeated field. A oneof's
 * members are adjacent in the field array (sorted by number); the set one is found
 * by its number and the rest skipped by bisection, since a Node's oneof has over
 * two hundred members.
 */
static unsigned dws_oneof_end(const ProtobufCMessageDescriptor *d, unsigned i)
{
	/* Nearly every oneof packed is Node's: remember the last one found. */
	static __thread const ProtobufCMessageDescriptor *memo_d;
	static __thread unsigned memo_i, memo_end;
	if (d == memo_d && i == memo_i)
		return memo_end;
	unsigned q = d->fields[i].quantifier_offset, lo = i, hi = d->n_fields;
	/* the last index of the run of fields sharing q, found in [lo, hi) */
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;
		const ProtobufCFieldDescriptor *f = &d->fields[mid];
		if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) && f->quantifier_offset == q)
			lo = mid;
		else
			hi = mid;
	}
	memo_d = d;
	memo_i = i;
	memo_end = lo + 1;
	return lo + 1;
}

static const ProtobufCFieldDescriptor *dws_oneof_member(const ProtobufCMessageDescriptor *d, unsigned i, unsigned end, uint32_t id)
{
	unsigned lo = i, hi = end;
	/* Members numbered one after another (Node's) are found at once. */
	if (id >= d->fields[i].id && id - d->fields[i].id < end - i && d->fields[i + (id - d->fields[i].id)].id == id)
		return &d->fields[i + (id - d->fields[i].id)];
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (d->fields[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < end && d->fields[lo].id == id)
		return &d->fields[lo];
	return NULL;
}

/*
 * The member of the oneof starting at field *i that m writes, or NULL when none is
 * set or it holds its default; *i moves past the oneof.
 */
static const ProtobufCFieldDescriptor *dws_oneof_written(const ProtobufCMessage *m, unsigned *i)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	const ProtobufCFieldDescriptor *f = &d->fields[*i];
	unsigned end = dws_oneof_end(d, *i);
	uint32_t c = *(const uint32_t *)((const char *)m + f->quantifier_offset);
	const ProtobufCFieldDescriptor *set = c ? dws_oneof_member(d, *i, end, c) : NULL;
	*i = end;
	if (set != NULL && (set->type == PROTOBUF_C_TYPE_MESSAGE || set->type == PROTOBUF_C_TYPE_STRING)) {
		const void *p = *(const void *const *)((const char *)m + set->offset);
		if (p == NULL || p == set->default_value)
			return NULL;
	}
	return set;
}

static size_t dws_message_size(dws_sizes *s, const ProtobufCMessage *m);

static size_t dws_value_size(dws_sizes *s, const ProtobufCFieldDescriptor *f, const void *p)
{
	switch (f->type) {
	case PROTOBUF_C_TYPE_DOUBLE:
	case PROTOBUF_C_TYPE_FIXED64:
	case PROTOBUF_C_TYPE_SFIXED64:
		return 8;
	case PROTOBUF_C_TYPE_FLOAT:
	case PROTOBUF_C_TYPE_FIXED32:
	case PROTOBUF_C_TYPE_SFIXED32:
		return 4;
	case PROTOBUF_C_TYPE_STRING: {
		const char *str = *(const char *const *)p;
		size_t len = str ? strlen(str) : 0;
		return dws_varint_size(len) + len;
	}
	case PROTOBUF_C_TYPE_BYTES: {
		size_t len = ((const ProtobufCBinaryData *)p)->len;
		return dws_varint_size(len) + len;
	}
	case PROTOBUF_C_TYPE_MESSAGE: {
		const ProtobufCMessage *sub = *(const ProtobufCMessage *const *)p;
		size_t len = sub ? dws_message_size(s, sub) : 0;
		return dws_varint_size(len) + len;
	}
	default:
		return dws_varint_size(dws_scalar_varint(f->type, p));
	}
}

static size_t dws_field_size(dws_sizes *s, const ProtobufCFieldDescriptor *f, const ProtobufCMessage *m)
{
	const char *member = (const char *)m + f->offset;
	size_t tag = dws_varint_size((uint64_t)f->id << 3);
	if (f->label == PROTOBUF_C_LABEL_REPEATED) {
		size_t count = *(const size_t *)((const char *)m + f->quantifier_offset);
		const char *arr = *(const char *const *)member;
		size_t esz = dws_elt_size(f->type), body = 0, k;
		if (count == 0)
			return 0;
		for (k = 0; k < count; k++)
			body += dws_value_size(s, f, arr + k * esz);
		if (f->flags & PROTOBUF_C_FIELD_FLAG_PACKED)
			return tag + dws_varint_size(body) + body;
		return tag * count + body;
	}
	return tag + dws_value_size(s, f, member);
}

static size_t dws_message_size(dws_sizes *s, const ProtobufCMessage *m)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	size_t slot, total = 0;
	unsigned i;
	dws_sizes_push(s, &slot);
	if (s->oom)
		return 0;
	for (i = 0; i < d->n_fields;) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		const char *member = (const char *)m + f->offset;
		if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
			const ProtobufCFieldDescriptor *set = dws_oneof_written(m, &i);
			if (set != NULL)
				total += dws_field_size(s, set, m);
			continue;
		}
		if (f->label == PROTOBUF_C_LABEL_REPEATED || !dws_zeroish(f, member))
			total += dws_field_size(s, f, m);
		i++;
	}
	s->v[slot] = total;
	return total;
}

static uint8_t *dws_message_pack(dws_sizes *s, const ProtobufCMessage *m, uint8_t *out);

static uint8_t *dws_value_pack(dws_sizes *s, const ProtobufCFieldDescriptor *f, const void *p, uint8_t *out)
{
	switch (f->type) {
	case PROTOBUF_C_TYPE_DOUBLE:
	case PROTOBUF_C_TYPE_FIXED64:
	case PROTOBUF_C_TYPE_SFIXED64:
		memcpy(out, p, 8); /* little-endian, as every machine dws builds on */
		return out + 8;
	case PROTOBUF_C_TYPE_FLOAT:
	case PROTOBUF_C_TYPE_FIXED32:
	case PROTOBUF_C_TYPE_SFIXED32:
		memcpy(out, p, 4);
		return out + 4;
	case PROTOBUF_C_TYPE_STRING: {
		const char *str = *(const char *const *)p;
		size_t len = str ? strlen(str) : 0;
		out = dws_put_varint(out, len);
		if (len)
			memcpy(out, str, len);
		return out + len;
	}
	case PROTOBUF_C_TYPE_BYTES: {
		const ProtobufCBinaryData *b = p;
		out = dws_put_varint(out, b->len);
		if (b->len)
			memcpy(out, b->data, b->len);
		return out + b->len;
	}
	case PROTOBUF_C_TYPE_MESSAGE: {
		const ProtobufCMessage *sub = *(const ProtobufCMessage *const *)p;
		if (sub == NULL)
			return dws_put_varint(out, 0);
		out = dws_put_varint(out, s->v[s->next]);
		return dws_message_pack(s, sub, out);
	}
	default:
		return dws_put_varint(out, dws_scalar_varint(f->type, p));
	}
}

static uint8_t *dws_field_pack(dws_sizes *s, const ProtobufCFieldDescriptor *f, const ProtobufCMessage *m, uint8_t *out)
{
	const char *member = (const char *)m + f->offset;
	if (f->label == PROTOBUF_C_LABEL_REPEATED) {
		size_t count = *(const size_t *)((const char *)m + f->quantifier_offset);
		const char *arr = *(const char *const *)member;
		size_t esz = dws_elt_size(f->type), k;
		if (count == 0)
			return out;
		if (f->flags & PROTOBUF_C_FIELD_FLAG_PACKED) {
			size_t body = 0;
			for (k = 0; k < count; k++)
				body += dws_value_size(NULL, f, arr + k * esz);
			out = dws_put_varint(out, ((uint64_t)f->id << 3) | 2);
			out = dws_put_varint(out, body);
			for (k = 0; k < count; k++)
				out = dws_value_pack(s, f, arr + k * esz, out);
			return out;
		}
		for (k = 0; k < count; k++) {
			out = dws_put_varint(out, ((uint64_t)f->id << 3) | dws_wire_type(f->type));
			out = dws_value_pack(s, f, arr + k * esz, out);
		}
		return out;
	}
	out = dws_put_varint(out, ((uint64_t)f->id << 3) | dws_wire_type(f->type));
	return dws_value_pack(s, f, member, out);
}

static uint8_t *dws_message_pack(dws_sizes *s, const ProtobufCMessage *m, uint8_t *out)
{
	const ProtobufCMessageDescriptor *d = m->descriptor;
	unsigned i;
	s->next++; /* this message's own size, read by whoever wrote its length */
	for (i = 0; i < d->n_fields;) {
		const ProtobufCFieldDescriptor *f = &d->fields[i];
		const char *member = (const char *)m + f->offset;
		if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) {
			const ProtobufCFieldDescriptor *set = dws_oneof_written(m, &i);
			if (set != NULL)
				out = dws_field_pack(s, set, m, out);
			continue;
		}
		if (f->label == PROTOBUF_C_LABEL_REPEATED || !dws_zeroish(f, member))
			out = dws_field_pack(s, f, m, out);
		i++;
	}
	return out;
}
