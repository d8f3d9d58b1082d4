/* A growable text buffer for the report writers, and the number formats
 * they share. Private to the stats library: the writers hand their callers
 * plain malloc'd bytes.
 *
 * Errors are sticky (like curl's dynbuf, but checked once): after a failed
 * allocation every append is a no-op and gbi_tb_take reports -ENOMEM, so a
 * writer appends freely and checks at the end. */
#ifndef GREENBENCH_TEXTBUF_H
#define GREENBENCH_TEXTBUF_H

#include "greenbench/error.h"

#include <locale.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
  char *data; /* NUL-terminated once anything was appended */
  size_t len, cap;
  bool failed; /* an allocation failed: the content is incomplete */
} gbi_textbuf;

void gbi_tb_init(gbi_textbuf *b);
void gbi_tb_free(gbi_textbuf *b);
void gbi_tb_putn(gbi_textbuf *b, const char *s, size_t n);
void gbi_tb_puts(gbi_textbuf *b, const char *s);
__attribute__((format(printf, 2, 3))) void gbi_tb_printf(gbi_textbuf *b, const char *fmt, ...);

/* Hands the bytes (NUL-terminated, len without the NUL) to the caller, who
 * frees them, and resets b. -ENOMEM (message naming what) when an append
 * failed; b is freed either way. */
GB_MUST_USE int gbi_tb_take(gbi_textbuf *b, char **out, size_t *len, const char *what,
                            gb_err *err);

/* Hands out text (malloc'd, NUL-terminated; NULL when building it ran out
 * of memory) as a text file's bytes, ending in a newline: *out (the
 * caller frees) and *len without the NUL. -ENOMEM naming what otherwise;
 * text is taken either way. */
GB_MUST_USE int gbi_text_file(char *text, char **out, size_t *len, const char *what,
                              gb_err *err);

/* Numbers are written in the "C" locale whatever the process locale, so
 * results.md, XML and SVG always use a dot (as Criterion's reporters do).
 * gbi_tb_c_numeric switches this thread's LC_NUMERIC to "C" until
 * gbi_tb_restore_numeric; both are no-ops when newlocale fails, leaving the
 * thread's locale alone. */
typedef struct {
  locale_t c, old;
} gbi_tb_numeric;

void gbi_tb_c_numeric(gbi_tb_numeric *s);
void gbi_tb_restore_numeric(gbi_tb_numeric *s);

/* v with sig significant digits in fixed-point notation (never an
 * exponent): 1234.5 -> "1235" for 4 digits, 0.0012345 -> "0.001235",
 * 123456 -> "123456" (an integer part is never cut). NAN or an infinity
 * gives "n/a". */
void gbi_tb_sig(gbi_textbuf *b, double v, int sig);
/* The same into buf (at least 64 bytes). */
void gbi_fmt_sig(char *buf, size_t len, double v, int sig);

/* A figure is printed to what its interval supports: two significant
 * digits of the interval's half-width, and never more than sig
 * significant digits of the largest of point, lo and hi. */
#define GB_INTERVAL_HALF_WIDTH_DIGITS 2

/* The decimals point, lo and hi share under that rule (0..15), or -1 when
 * all three are 0 or one is not finite. */
GB_MUST_USE int gbi_interval_decimals(double point, double lo, double hi, int sig);

/* "88 [62, 114]", "12.34 [12.30, 12.41]": point and interval with the
 * decimals of gbi_interval_decimals; without a finite interval the point
 * with sig significant digits and " [n/a]". */
void gbi_tb_interval(gbi_textbuf *b, double point, double lo, double hi, int sig);
/* A ratio's interval, read against 1: as gbi_tb_interval, with decimals
 * added (up to 15) until each end prints on its own side of 1, so that an
 * interval that excludes 1 never prints as one that holds it ("[1.3, 26]",
 * not "[1, 26]"). */
void gbi_tb_ratio_interval(gbi_textbuf *b, double point, double lo, double hi, int sig);
/* The decimals of a range: gbi_interval_decimals with the range in place of
 * the interval, but a range of positive figures (min > 0) also keeps two
 * significant digits of its smallest, as long as that gives the largest no
 * more than sig; -1 when it would (each figure is then printed with sig
 * significant digits) or as gbi_interval_decimals gives. */
GB_MUST_USE int gbi_range_decimals(double median, double min, double max, int sig);
/* "1.08 (0.85 to 1.28)": a median over a group with its range, with the
 * decimals of gbi_range_decimals (a spread that wide leaves the median no
 * more digits; "0.0120 (0.0038 to 0.0310)" keeps two digits of 0.0038). */
void gbi_tb_range(gbi_textbuf *b, double median, double min, double max, int sig);

#endif
