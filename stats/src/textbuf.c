#include "textbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gbi_tb_init(gbi_textbuf *b) {
  *b = (gbi_textbuf){0};
}

void gbi_tb_free(gbi_textbuf *b) {
  free(b->data);
  gbi_tb_init(b);
}

/* Room for n more bytes and the NUL; false (and sticky failure) if not. */
static bool reserve(gbi_textbuf *b, size_t n) {
  if (b->failed) {
    return false;
  }
  if (n < b->cap - b->len) {
    return true;
  }
  size_t cap = b->cap ? b->cap : 4096;
  while (cap - b->len <= n) {
    if (cap > SIZE_MAX / 2) {
      b->failed = true;
      return false;
    }
    cap *= 2;
  }
  char *p = realloc(b->data, cap);
  if (!p) {
    b->failed = true;
    return false;
  }
  b->data = p;
  b->cap = cap;
  return true;
}

void gbi_tb_putn(gbi_textbuf *b, const char *s, size_t n) {
  if (!reserve(b, n)) {
    return;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void gbi_tb_puts(gbi_textbuf *b, const char *s) {
  gbi_tb_putn(b, s, strlen(s));
}

void gbi_tb_printf(gbi_textbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char small[256];
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->failed = true;
    return;
  }
  if ((size_t)n < sizeof small) {
    gbi_tb_putn(b, small, (size_t)n);
    return;
  }
  if (!reserve(b, (size_t)n)) {
    return;
  }
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

int gbi_tb_take(gbi_textbuf *b, char **out, size_t *len, const char *what, gb_err *err) {
  if (b->failed || !reserve(b, 0)) {
    gbi_tb_free(b);
    return gb_err_set(err, ENOMEM, "%s: out of memory", what);
  }
  b->data[b->len] = '\0';
  *out = b->data;
  *len = b->len;
  gbi_tb_init(b);
  return 0;
}

void gbi_tb_c_numeric(gbi_tb_numeric *s) {
  s->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  s->old = s->c ? uselocale(s->c) : (locale_t)0;
}

void gbi_tb_restore_numeric(gbi_tb_numeric *s) {
  if (s->c) {
    uselocale(s->old);
    freelocale(s->c);
  }
  s->c = (locale_t)0;
}

void gbi_fmt_sig(char *buf, size_t len, double v, int sig) {
  if (!isfinite(v)) {
    snprintf(buf, len, "n/a");
    return;
  }
  if (v == 0.0) {
    snprintf(buf, len, "0");
    return;
  }
  int e = (int)floor(log10(fabs(v)));
  int dec = sig - 1 - e;
  dec = dec < 0 ? 0 : dec > 15 ? 15 : dec;
  /* Rounding can carry into a new leading digit (9.9996 -> 10.000): one
   * decimal fewer keeps the number of significant digits. */
  if (dec > 0 && round(fabs(v) * pow(10.0, dec)) >= pow(10.0, sig)) {
    dec--;
  }
  snprintf(buf, len, "%.*f", dec, v);
}

void gbi_tb_sig(gbi_textbuf *b, double v, int sig) {
  char buf[400];
  gbi_fmt_sig(buf, sizeof buf, v, sig);
  gbi_tb_puts(b, buf);
}

/* Decimals that show sig significant digits of x > 0, clamped to 0..15. */
static int decimals_for(double x, int sig) {
  int dec = sig - 1 - (int)floor(log10(x));
  return dec < 0 ? 0 : dec > 15 ? 15 : dec;
}

int gbi_interval_decimals(double point, double lo, double hi, int sig) {
  if (!isfinite(point) || !isfinite(lo) || !isfinite(hi)) {
    return -1;
  }
  double big = fmax(fabs(point), fmax(fabs(lo), fabs(hi)));
  if (big == 0.0) {
    return -1;
  }
  int dec = decimals_for(big, sig);
  double half = (hi - lo) / 2.0;
  if (half > 0.0) {
    int by_width = decimals_for(half, GB_INTERVAL_HALF_WIDTH_DIGITS);
    dec = by_width < dec ? by_width : dec;
  }
  return dec;
}

/* v with dec decimals; never "-0". */
static void put_fixed(gbi_textbuf *b, double v, int dec) {
  char buf[400];
  snprintf(buf, sizeof buf, "%.*f", dec, v);
  gbi_tb_puts(b, buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1) ? buf + 1 : buf);
}

/* "p<open>lo<mid>hi<close>" with dec decimals each. */
static void put_three(gbi_textbuf *b, const double v[3], int dec, const char *const sep[3]) {
  for (int i = 0; i < 3; i++) {
    put_fixed(b, v[i], dec);
    gbi_tb_puts(b, sep[i]);
  }
}

int gbi_range_decimals(double median, double min, double max, int sig) {
  int dec = gbi_interval_decimals(median, min, max, sig);
  if (dec < 0 || !(min > 0.0)) {
    return dec;
  }
  /* A range of positive figures (ratios) keeps two significant digits of
   * its smallest, as the ends of an interval in the same table have: never
   * "0.004" for 0.003756 beside "0.0020"; but never more than sig digits
   * of the largest, where the range spans too many decades to share
   * decimals (-1: each figure with sig significant digits). */
  int keep = decimals_for(min, GB_INTERVAL_HALF_WIDTH_DIGITS);
  if (keep <= dec) {
    return dec;
  }
  return keep <= decimals_for(max, sig) ? keep : -1;
}

void gbi_tb_range(gbi_textbuf *b, double median, double min, double max, int sig) {
  static const char *const sep[3] = {" (", " to ", ")"};
  int dec = gbi_range_decimals(median, min, max, sig);
  if (dec < 0) {
    const double v[3] = {median, min, max};
    for (int i = 0; i < 3; i++) {
      gbi_tb_sig(b, v[i], sig);
      gbi_tb_puts(b, sep[i]);
    }
    return;
  }
  put_three(b, (const double[3]){median, min, max}, dec, sep);
}

void gbi_tb_interval(gbi_textbuf *b, double point, double lo, double hi, int sig) {
  int dec = gbi_interval_decimals(point, lo, hi, sig);
  if (dec < 0) {
    gbi_tb_sig(b, point, sig);
    if (isnan(lo) || isnan(hi)) {
      gbi_tb_puts(b, " [n/a]");
      return;
    }
    gbi_tb_puts(b, " [");
    gbi_tb_sig(b, lo, sig);
    gbi_tb_puts(b, ", ");
    gbi_tb_sig(b, hi, sig);
    gbi_tb_puts(b, "]");
    return;
  }
  static const char *const sep[3] = {" [", ", ", "]"};
  put_three(b, (const double[3]){point, lo, hi}, dec, sep);
}

/* Whether v printed with dec decimals lies on the same side of 1 as v. */
static bool keeps_side_of_one(double v, int dec) {
  double shown = round(v * pow(10.0, dec)) / pow(10.0, dec);
  return (v > 1.0) == (shown > 1.0) && (v < 1.0) == (shown < 1.0);
}

void gbi_tb_ratio_interval(gbi_textbuf *b, double point, double lo, double hi, int sig) {
  int dec = gbi_interval_decimals(point, lo, hi, sig);
  if (dec < 0 || isnan(lo) || isnan(hi)) {
    gbi_tb_interval(b, point, lo, hi, sig);
    return;
  }
  while (dec < 15 && !(keeps_side_of_one(lo, dec) && keeps_side_of_one(hi, dec))) {
    dec++;
  }
  static const char *const sep[3] = {" [", ", ", "]"};
  put_three(b, (const double[3]){point, lo, hi}, dec, sep);
}

int gbi_text_file(char *text, char **out, size_t *len, const char *what, gb_err *err) {
  size_t n = text ? strlen(text) : 0;
  char *bytes = text ? realloc(text, n + 2) : NULL;
  if (!bytes) {
    free(text);
    return gb_err_set(err, ENOMEM, "%s: out of memory", what);
  }
  memcpy(bytes + n, "\n", 2);
  *out = bytes;
  *len = n + 1;
  return 0;
}
