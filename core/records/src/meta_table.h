/* The macros that write a table of meta.json's fields (gbi_meta_field,
 * records_internal.h): meta.json's own (meta_codec.c) and a suite
 * campaign's (suiterecords_meta.c). Each table defines T, the struct whose
 * members its entries name. Private to those two files. */
#ifndef GREENBENCH_META_TABLE_H
#define GREENBENCH_META_TABLE_H

#include <stddef.h>

/* A table entry by its key and member; T is the struct the member is in. */
#define NELEM(a) (sizeof(a) / sizeof *(a))
#define AT(f) .off = offsetof(T, f), .size = sizeof(((T *)0)->f)
#define FLAG(k, f) .has_off = offsetof(T, f), .flags = (k) | GB_MF_HAS
#define NULLS(f) .null_off = offsetof(T, f), .flags = GB_MF_NULL
#define LIST(k, f, n, entry)                                                                   \
  k, GB_MT_ARRAY, AT(f), .n_off = offsetof(T, n), .sub = entry, .n_sub = 1
#define FIELD(...)                                                                             \
  { __VA_ARGS__ }
#define STR(k, f, ...) FIELD(k, GB_MT_STR, AT(f), __VA_ARGS__)
#define UINT(k, f, ...) FIELD(k, GB_MT_UINT, AT(f), __VA_ARGS__)
#define BOOL(k, f) FIELD(k, GB_MT_BOOL, AT(f))
#define ENUM(k, f, set) FIELD(k, GB_MT_ENUM, AT(f), .names = {set, NELEM(set)})
#define MASK(k, f, set) FIELD(k, GB_MT_MASK, AT(f), .names = {set, NELEM(set)})
#define OBJECT(k, t) FIELD(k, GB_MT_OBJECT, .sub = t, .n_sub = NELEM(t))
#define ARRAY(k, f, n, entry, ...)                                                             \
  FIELD(LIST(k, f, n, entry), .max = NELEM(((T *)0)->f), __VA_ARGS__)
#define HEAP_ARRAY(k, f, n, entry)                                                             \
  FIELD(LIST(k, f, n, entry), .flags = GB_MF_HEAP, .max = SIZE_MAX)
#define HOOK(k, f, h, ...)                                                                     \
  FIELD(k, GB_MT_HOOK, AT(f), .parse = parse_##h, .write = write_##h, __VA_ARGS__)
#define ENTRY(t, fields)                                                                       \
  FIELD(NULL, GB_MT_OBJECT, .size = sizeof(t), .sub = fields, .n_sub = NELEM(fields))

#endif
