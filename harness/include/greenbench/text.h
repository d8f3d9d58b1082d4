/* Bounded string copies for the fixed-size text fields of records and
 * messages. */
#ifndef GREENBENCH_TEXT_H
#define GREENBENCH_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Copies src into dst[len] (len >= 1), cut short if it does not fit, always
 * terminated. Returns true when the whole of src fit. */
bool gb_str_copy(char *dst, size_t len, const char *src);

#endif
