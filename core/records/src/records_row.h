/* What records.c (the schema) lends the reader in records_read.c. */
#ifndef GREENBENCH_RECORDS_ROW_H
#define GREENBENCH_RECORDS_ROW_H

#include "greenbench/error.h"
#include "greenbench/meta.h"
#include "greenbench/records.h"

typedef struct {
  const char *const *names;
  size_t n;
} gb_rec_name_set;

#define GB_REC_SET(a) ((gb_rec_name_set){a, sizeof a / sizeof *a})

/* The names of gb_rec_energy, and of meta.json's profiles, energy modes and
 * zone kinds (meta_codec.c), for the tables that read and write them. */
extern const char *const gb_rec_energy_names[GB_REC_ENERGY_COUNT];
extern const char *const gb_meta_profile_names[GB_META_PROFILE_COUNT];
extern const char *const gb_energy_mode_names[GB_ENERGY_MODE_COUNT];
extern const char *const gb_meta_zone_kind_names[GB_META_ZONE_KIND_COUNT];

/* names[v], or NULL when v is out of range. */
const char *gb_rec_set_name(gb_rec_name_set s, unsigned v);
/* The index of str[0..len) in s, or -1. */
GB_MUST_USE int gb_rec_set_find(gb_rec_name_set s, const char *str, size_t len);

/* type_name(v) and type_parse(name, &v) over the array names. */
#define GB_REC_NAME_FUNCS(type, names)                                                         \
  const char *type##_name(type v) {                                                            \
    return gb_rec_set_name(GB_REC_SET(names), (unsigned)v);                                    \
  }                                                                                            \
  int type##_parse(const char *name, type *out) {                                              \
    int i = gb_rec_set_find(GB_REC_SET(names), name, strlen(name));                            \
    if (i < 0)                                                                                 \
      return -EINVAL;                                                                          \
    *out = (type)i;                                                                            \
    return 0;                                                                                  \
  }

/* Parses the text of column c (s[0..len), unescaped) into row. Returns 0,
 * or -EINVAL with a message naming the column but no file or line. */
GB_MUST_USE int gb_rec_parse_field(gb_run_row *row, gb_rec_col c, const char *s, size_t len,
                                   gb_err *err);

#endif
