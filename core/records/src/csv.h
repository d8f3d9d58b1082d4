/* A small strict RFC 4180 field splitter for one line of the records.
 *
 * Why not a library: Debian ships no well-kept C CSV library that reports
 * errors precisely enough to name the line and the fault (libcsv is
 * unmaintained and accepts malformed quoting silently), and the records need
 * only single-line rows, so splitting one line is all the parser there is. */
#ifndef GREENBENCH_CSV_H
#define GREENBENCH_CSV_H

#include <stddef.h>

#include "greenbench/error.h"

typedef struct {
  const char *s; /* not NUL-terminated */
  size_t len;
  int quoted; /* the field was written in quotes */
} gb_csv_field;

/* Splits line[0..len) (without its line ending) at commas. A quoted field
 * may hold commas and doubled quotes; its text, unescaped, goes to scratch,
 * which must hold len bytes. Stores the first max fields in f and the
 * number of fields in *n (which may exceed max). Returns 0, or -EINVAL and
 * sets *why to a static phrase for a quote inside an unquoted field, text
 * after a closing quote, an unterminated quote or a NUL byte. */
GB_MUST_USE int gb_csv_split(const char *line, size_t len, char *scratch, gb_csv_field *f,
                             size_t max, size_t *n, const char **why);

#endif
