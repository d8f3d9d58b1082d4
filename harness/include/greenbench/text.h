/* Bounded string copies for the fixed-size text fields of records and
 * messages. */
#ifndef GREENBENCH_TEXT_H
#define GREENBENCH_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Copies src into dst[len] (len >= 1), cut short if it does not fit, always
 * terminated. Returns true when the whole of src fit. */
bool gb_str_copy(char *dst, size_t len, const char *src);

/* Appends printf-formatted text to the string in buf[len], cut short if it
 * does not fit; does nothing once buf is full. */
__attribute__((format(printf, 3, 4))) void gb_str_append(char *buf, size_t len, const char *fmt,
                                                         ...);

#endif
