/* Test-only: scratch folders for the files the parity tests hand to other
 * programs (hash inputs, patched worker copies). Failures are Criterion
 * assertions. */
#ifndef PARITY_SCRATCH_H
#define PARITY_SCRATCH_H

#include <stddef.h>

enum { PARITY_PATH_MAX = 4096 };

/* Creates a fresh empty folder under $TMPDIR (or /tmp) and writes its path
 * into dir. */
void parity_scratch_dir(char dir[PARITY_PATH_MAX]);

/* Writes len bytes of data to dir/name and its path into path. */
void parity_scratch_write(const char *dir, const char *name, const void *data, size_t len,
                          char path[PARITY_PATH_MAX]);

/* The text of the file src with `from` replaced by `to`, malloc'd. The test
 * fails if `from` does not occur exactly once, so a patch that no longer
 * applies can never pass silently. */
char *parity_patched_text(const char *src, const char *from, const char *to);

/* Removes dir and the files directly in it. */
void parity_scratch_remove(const char *dir);

#endif
