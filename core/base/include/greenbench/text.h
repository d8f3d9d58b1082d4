/* Bounded string copies for the fixed-size text fields of records and
 * messages, and the escaping of text echoed to a terminal. Part of gb_base,
 * which every other library links. */
#ifndef GREENBENCH_TEXT_H
#define GREENBENCH_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Copies src into dst[len] (len >= 1), cut short if it does not fit, always
 * terminated. Returns true when the whole of src fit. */
bool gb_str_copy(char *dst, size_t len, const char *src);

/* Appends printf-formatted text to the string in buf[len], cut short if it
 * does not fit; does nothing once buf is full. */
__attribute__((format(printf, 3, 4))) void gb_str_append(char *buf, size_t len, const char *fmt,
                                                         ...);

/* Most bytes of a user's or a file's text quoted in a message. */
#define GB_EXCERPT_MAX 64
/* Room for an excerpt: every byte escaped to four, "..." and the NUL. */
#define GB_EXCERPT_CAP (GB_EXCERPT_MAX * 4 + 4)

/* An excerpt's storage, so that one can be made inside an argument list:
 * gb_err_set(err, EINVAL, "bad '%s'", gb_excerpt(&(gb_excerpt_buf){0}, s)). */
typedef struct {
  char s[GB_EXCERPT_CAP];
} gb_excerpt_buf;

/* Makes the first max bytes of text[0..len) printable on one line: a newline
 * becomes \n; other control bytes, DEL, bytes >= 0x80, '"' and '\' become
 * \xHH; text longer than max ends in "...". Writes at most cap bytes (cap
 * >= 1), always terminated, never cutting an escape in half. */
void gb_str_excerpt(const char *text, size_t len, size_t max, char *out, size_t cap);

/* The first max bytes of text[0..len) in double quotes, for a message about
 * bytes that must be shown as they came (a worker's output line): every
 * byte that is not printable ASCII, the newline included, '"' and '\' as
 * \xHH, and "..." after the closing quote when text is longer than max:
 * "\"debug: done\x0a\"". Writes at most cap bytes, always terminated ("" when
 * cap < 3), never cutting an escape in half nor leaving out the closing
 * quote. */
void gb_str_quote(const char *text, size_t len, size_t max, char *out, size_t cap);

/* Writes text[0..len) into out[cap] (cap >= 1) with only the controls
 * escaped as \xHH (C0 bytes, newline included, DEL, and UTF-8 C1 controls
 * U+0080..U+009F), for text that is shown unquoted, such as a run's message;
 * other bytes are kept. Ends in "..." when out is too small; always
 * terminated. */
void gb_str_escape_controls(const char *text, size_t len, char *out, size_t cap);

/* gb_str_excerpt of the string s (NULL reads as ""), at most GB_EXCERPT_MAX
 * bytes, into *buf; returns buf->s. Reads at most GB_EXCERPT_MAX + 1 bytes of
 * s, so a huge argument costs nothing. */
const char *gb_excerpt(gb_excerpt_buf *buf, const char *s);

/* Writes prefix, line and "\n" to f, with every C0 control byte, DEL and
 * UTF-8 C1 control (U+0080..U+009F) in line written as \xHH: the last guard
 * before a message reaches a terminal. Other UTF-8 text is kept. */
void gb_str_put_line(FILE *f, const char *prefix, const char *line);

#endif
