/* A file of a test's folder read whole or written whole; a file that cannot
 * be opened fails the test (Criterion); a records folder's files held to be
 * compared after. */
#ifndef GREENBENCH_TESTS_HELPER_SLURP_H
#define GREENBENCH_TESTS_HELPER_SLURP_H

#include <stddef.h>

/* dir/name, up to 1 MiB - 1 bytes, NUL-terminated (malloc'd); *len its
 * length. */
char *gbt_slurp(const char *dir, const char *name, size_t *len);
/* text[0..len) as the whole of dir/name. */
void gbt_spit(const char *dir, const char *name, const char *text, size_t len);

/* A records folder's meta.json, runs.csv and warmups.csv, for a byte
 * comparison. */
typedef struct {
  char *text[3];
  size_t len[3];
} gbt_snapshot;

gbt_snapshot gbt_snapshot_take(const char *dir);
/* Fails the test unless dir's three files are still before's bytes ("<file>
 * changed"); frees before's and the new ones. */
void gbt_snapshot_same(const char *dir, gbt_snapshot *before);
void gbt_snapshot_free(gbt_snapshot *s);

#endif
