/* Strict number parsing for command-line values and environment variables:
 * decimal digits only (no sign, space, base prefix or exponent), within
 * explicit bounds. */
#ifndef GREENBENCH_NUMPARSE_H
#define GREENBENCH_NUMPARSE_H

#include <stddef.h>
#include <stdint.h>

/* Parses s into *out when it is a decimal integer in [min, max]. Returns 0,
 * -EINVAL for anything that is not digits, -ERANGE for a value out of bounds;
 * *out is untouched on failure. */
int gb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* The same for the len bytes at s, which need not be NUL-terminated (a
 * field of a CSV line, a sysfs file's contents). */
int gb_parse_u64_n(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out);

#endif
