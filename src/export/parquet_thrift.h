/* Internal: the Thrift compact protocol as the Parquet writer needs it (parquet_thrift.c): a byte
 * buffer, and the encoder of the structs of parquet.thrift (FileMetaData, PageHeader) field by
 * field. Encoding only: socmon writes Parquet, it never reads it. Thrift's compact protocol:
 * github.com/apache/thrift, doc/specs/thrift-compact-protocol.md (docs/parquet.md). */
#ifndef SOCMON_EXPORT_PARQUET_THRIFT_H
#define SOCMON_EXPORT_PARQUET_THRIFT_H

#include <stddef.h>
#include <stdint.h>

/* A growing byte buffer. An allocation failure sets oom and drops the bytes after it, so a
 * caller encodes a whole struct and checks once at the end. */
typedef struct smn_pq_buf {
    unsigned char *p;
    size_t n, cap;
    int oom;
} smn_pq_buf;

void smn_pq_buf_put(smn_pq_buf *b, const void *data, size_t len);
void smn_pq_buf_le32(smn_pq_buf *b, uint32_t v);
void smn_pq_buf_le64(smn_pq_buf *b, uint64_t v);
void smn_pq_buf_varint(smn_pq_buf *b, uint64_t v);
void smn_pq_buf_free(smn_pq_buf *b);

/* The compact protocol's element types (its spec, "Struct encoding"). */
enum {
    SMN_TC_TRUE = 1, SMN_TC_FALSE = 2, SMN_TC_BYTE = 3, SMN_TC_I16 = 4, SMN_TC_I32 = 5, SMN_TC_I64 = 6,
    SMN_TC_DOUBLE = 7, SMN_TC_BINARY = 8, SMN_TC_LIST = 9, SMN_TC_SET = 10, SMN_TC_MAP = 11,
    SMN_TC_STRUCT = 12
};

/* Structs nest no deeper than parquet.thrift's FileMetaData goes (schema element -> logical type
 * -> timestamp -> unit): the encoder keeps each open struct's last field id. */
#define SMN_TC_DEPTH 8

typedef struct smn_tc {
    smn_pq_buf *b;
    int16_t last[SMN_TC_DEPTH];
    int depth;
    int bad;            /* nested too deep: a bug of the caller, reported by smn_tc_end */
} smn_tc;

void smn_tc_init(smn_tc *t, smn_pq_buf *b);
void smn_tc_i32(smn_tc *t, int16_t id, int32_t v);
void smn_tc_i64(smn_tc *t, int16_t id, int64_t v);
void smn_tc_bool(smn_tc *t, int16_t id, int v);
void smn_tc_binary(smn_tc *t, int16_t id, const void *s, size_t len);
void smn_tc_string(smn_tc *t, int16_t id, const char *s);
/* A struct field (or, with id 0, a list element of struct type): fields follow until
 * smn_tc_struct_end. */
void smn_tc_struct_begin(smn_tc *t, int16_t id);
void smn_tc_struct_end(smn_tc *t);
/* A list field of n elements of type elem; its elements follow (smn_tc_elem_* or, for structs,
 * smn_tc_struct_begin with id 0). */
void smn_tc_list(smn_tc *t, int16_t id, int elem, size_t n);
void smn_tc_elem_i32(smn_tc *t, int32_t v);
void smn_tc_elem_string(smn_tc *t, const char *s);
/* 0, or -1 when the buffer ran out of memory or the structs did not close. */
int smn_tc_end(const smn_tc *t);

#endif
