#include "textbuf.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gb_tb_init(gb_textbuf *b) {
  *b = (gb_textbuf){0};
}

void gb_tb_free(gb_textbuf *b) {
  free(b->data);
  gb_tb_init(b);
}

/* Room for n more bytes and the NUL; false (and sticky failure) if not. */
static bool reserve(gb_textbuf *b, size_t n) {
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

void gb_tb_putn(gb_textbuf *b, const char *s, size_t n) {
  if (!reserve(b, n)) {
    return;
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void gb_tb_puts(gb_textbuf *b, const char *s) {
  gb_tb_putn(b, s, strlen(s));
}

void gb_tb_printf(gb_textbuf *b, const char *fmt, ...) {
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
    gb_tb_putn(b, small, (size_t)n);
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

int gb_tb_take(gb_textbuf *b, char **out, size_t *len, const char *what, gb_err *err) {
  if (b->failed || !reserve(b, 0)) {
    gb_tb_free(b);
    return gb_err_set(err, ENOMEM, "%s: out of memory", what);
  }
  b->data[b->len] = '\0';
  *out = b->data;
  *len = b->len;
  gb_tb_init(b);
  return 0;
}

void gb_tb_c_numeric(gb_tb_numeric *s) {
  s->c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  s->old = s->c ? uselocale(s->c) : (locale_t)0;
}

void gb_tb_restore_numeric(gb_tb_numeric *s) {
  if (s->c) {
    uselocale(s->old);
    freelocale(s->c);
  }
  s->c = (locale_t)0;
}

void gb_fmt_sig(char *buf, size_t len, double v, int sig) {
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

void gb_tb_sig(gb_textbuf *b, double v, int sig) {
  char buf[400];
  gb_fmt_sig(buf, sizeof buf, v, sig);
  gb_tb_puts(b, buf);
}

void gb_tb_interval(gb_textbuf *b, double point, double lo, double hi, int sig) {
  gb_tb_sig(b, point, sig);
  if (isnan(lo) || isnan(hi)) {
    gb_tb_puts(b, " [n/a]");
    return;
  }
  gb_tb_puts(b, " [");
  gb_tb_sig(b, lo, sig);
  gb_tb_puts(b, ", ");
  gb_tb_sig(b, hi, sig);
  gb_tb_puts(b, "]");
}
