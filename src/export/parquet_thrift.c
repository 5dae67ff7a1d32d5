/* The Thrift compact protocol's encoder for the Parquet writer (parquet_thrift.h). Written from
 * Thrift's compact protocol spec (doc/specs/thrift-compact-protocol.md): integers are zigzag
 * varints (ULEB128), a field header is one byte (id delta << 4 | type) when the delta from the
 * struct's previous field is 1..15, else the type byte then the id as a zigzag varint; a bool
 * field carries its value in its type (1 true, 2 false); a list header is (size << 4 | type) below
 * 15 elements, else 0xf0 | type and the size as a varint; a struct ends with a 0 byte. */
#include <stdlib.h>
#include <string.h>

#include "export/parquet_thrift.h"

void smn_pq_buf_put(smn_pq_buf *b, const void *data, size_t len)
{
    if (b->oom || len == 0)
        return;
    if (b->n + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + len)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, len);
    b->n += len;
}

/* Parquet's fixed-width numbers are little-endian whatever the host: built byte by byte. */
void smn_pq_buf_le32(smn_pq_buf *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    smn_pq_buf_put(b, x, 4);
}

void smn_pq_buf_le64(smn_pq_buf *b, uint64_t v)
{
    smn_pq_buf_le32(b, (uint32_t)v);
    smn_pq_buf_le32(b, (uint32_t)(v >> 32));
}

void smn_pq_buf_varint(smn_pq_buf *b, uint64_t v)
{
    unsigned char x[10];
    size_t n = 0;
    do {
        x[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        x[n++] |= v ? 0x80 : 0;
    } while (v);
    smn_pq_buf_put(b, x, n);
}

void smn_pq_buf_free(smn_pq_buf *b)
{
    free(b->p);
    *b = (smn_pq_buf){0};
}

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);   /* arithmetic shift: gcc and clang */
}

void smn_tc_init(smn_tc *t, smn_pq_buf *b)
{
    *t = (smn_tc){.b = b};
}

static void field(smn_tc *t, int16_t id, int type)
{
    int16_t delta = (int16_t)(id - t->last[t->depth]);
    if (delta > 0 && delta <= 15) {
        unsigned char h = (unsigned char)(delta << 4 | type);
        smn_pq_buf_put(t->b, &h, 1);
    } else {
        unsigned char h = (unsigned char)type;
        smn_pq_buf_put(t->b, &h, 1);
        smn_pq_buf_varint(t->b, zigzag(id));
    }
    t->last[t->depth] = id;
}

void smn_tc_i32(smn_tc *t, int16_t id, int32_t v)
{
    field(t, id, SMN_TC_I32);
    smn_pq_buf_varint(t->b, zigzag(v));
}

void smn_tc_i64(smn_tc *t, int16_t id, int64_t v)
{
    field(t, id, SMN_TC_I64);
    smn_pq_buf_varint(t->b, zigzag(v));
}

void smn_tc_bool(smn_tc *t, int16_t id, int v)
{
    field(t, id, v ? SMN_TC_TRUE : SMN_TC_FALSE);
}

void smn_tc_binary(smn_tc *t, int16_t id, const void *s, size_t len)
{
    field(t, id, SMN_TC_BINARY);
    smn_pq_buf_varint(t->b, len);
    smn_pq_buf_put(t->b, s, len);
}

void smn_tc_string(smn_tc *t, int16_t id, const char *s)
{
    smn_tc_binary(t, id, s, strlen(s));
}

void smn_tc_struct_begin(smn_tc *t, int16_t id)
{
    if (id)
        field(t, id, SMN_TC_STRUCT);
    if (t->depth + 1 >= SMN_TC_DEPTH) {
        t->bad = 1;
        return;
    }
    t->last[++t->depth] = 0;   /* a struct's field ids count from 0 again */
}

void smn_tc_struct_end(smn_tc *t)
{
    unsigned char stop = 0;
    smn_pq_buf_put(t->b, &stop, 1);
    if (t->depth > 0)
        t->depth--;
    else
        t->bad = 1;
}

void smn_tc_list(smn_tc *t, int16_t id, int elem, size_t n)
{
    field(t, id, SMN_TC_LIST);
    if (n < 15) {
        unsigned char h = (unsigned char)(n << 4 | (size_t)elem);
        smn_pq_buf_put(t->b, &h, 1);
    } else {
        unsigned char h = (unsigned char)(0xf0 | elem);
        smn_pq_buf_put(t->b, &h, 1);
        smn_pq_buf_varint(t->b, n);
    }
}

void smn_tc_elem_i32(smn_tc *t, int32_t v)
{
    smn_pq_buf_varint(t->b, zigzag(v));
}

void smn_tc_elem_string(smn_tc *t, const char *s)
{
    size_t len = strlen(s);
    smn_pq_buf_varint(t->b, len);
    smn_pq_buf_put(t->b, s, len);
}

int smn_tc_end(const smn_tc *t)
{
    return t->b->oom || t->bad || t->depth != 0 ? -1 : 0;
}
