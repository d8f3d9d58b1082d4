/* A file of a test's folder read whole or written whole; a file that cannot
 * be opened fails the test (Criterion). */
#ifndef GREENBENCH_TESTS_HELPER_SLURP_H
#define GREENBENCH_TESTS_HELPER_SLURP_H

#include <stddef.h>

/* dir/name, up to 1 MiB - 1 bytes, NUL-terminated (malloc'd); *len its
 * length. */
char *gbt_slurp(const char *dir, const char *name, size_t *len);
/* text[0..len) as the whole of dir/name. */
void gbt_spit(const char *dir, const char *name, const char *text, size_t len);

#endif
