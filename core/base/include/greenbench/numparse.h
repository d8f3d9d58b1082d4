/* Strict number parsing for command-line values, environment variables,
 * records and kernel files: decimal digits only (no sign, space or base
 * prefix unless a function says otherwise), within explicit bounds. The one
 * place in the project that turns text into numbers: nothing else calls
 * strtol, strtoul, strtod, atoi or sscanf. */
#ifndef GREENBENCH_NUMPARSE_H
#define GREENBENCH_NUMPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"

/* Parses s into *out when it is a decimal integer in [min, max]. Returns 0,
 * -EINVAL for anything that is not digits, -ERANGE for a value out of bounds;
 * *out is untouched on failure. */
GB_MUST_USE int gb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
/* The same for the len bytes at s, which need not be NUL-terminated (a
 * field of a CSV line, a sysfs file's contents). */
GB_MUST_USE int gb_parse_u64_n(const char *s, size_t len, uint64_t min, uint64_t max,
                               uint64_t *out);
/* A decimal integer with at most one leading '-' (a hwmon temperature in
 * millidegrees), in [min, max]; errors as gb_parse_u64. */
GB_MUST_USE int gb_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/* The same for the len bytes at s, which need not be NUL-terminated. */
GB_MUST_USE int gb_parse_i64_n(const char *s, size_t len, int64_t min, int64_t max,
                               int64_t *out);

/* The digits at *p, in base 10 or 16 (lower or upper case, no "0x"), as a
 * value of at most max; on success *p is moved past them, so that a caller
 * walks a line of fields ("259:3:1234"). Returns 0, -EINVAL when *p does not
 * start with a digit (or base is neither 10 nor 16), -ERANGE above max; *p
 * and *out are untouched on failure. */
GB_MUST_USE int gb_scan_u64(const char **p, unsigned base, uint64_t max, uint64_t *out);

/* gb_parse_decimal's flags. */
enum { GB_DECIMAL_EXPONENT = 1 }; /* an exponent is allowed: 2.5e-3 */

/* A plain decimal: digits with at most one point and at least one digit
 * ("0.05", ".5", "7."), then, with GB_DECIMAL_EXPONENT, an optional exponent
 * ("e", an optional sign, digits). No sign, space, hex, inf or nan. Read in
 * the "C" locale whatever the process's. Returns 0, -EINVAL for any other
 * text, -ERANGE when the value is not a finite double; *out is untouched on
 * failure. Callers check their own bounds. */
GB_MUST_USE int gb_parse_decimal(const char *s, unsigned flags, double *out);

#endif
