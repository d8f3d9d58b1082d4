#include "greenbench/numparse.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int gb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
  return s ? gb_parse_u64_n(s, strlen(s), min, max, out) : -EINVAL;
}

int gb_parse_u64_n(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out) {
  uint64_t v = 0;
  bool over = false;
  if (len == 0)
    return -EINVAL;
  for (const char *p = s; p < s + len; p++) {
    if (*p < '0' || *p > '9')
      return -EINVAL;
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10)
      over = true;
    else
      v = v * 10 + d;
  }
  if (over || v < min || v > max)
    return -ERANGE;
  *out = v;
  return 0;
}

int gb_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out) {
  return s ? gb_parse_i64_n(s, strlen(s), min, max, out) : -EINVAL;
}

int gb_parse_i64_n(const char *s, size_t len, int64_t min, int64_t max, int64_t *out) {
  bool negative = len > 0 && s[0] == '-';
  uint64_t magnitude;
  /* INT64_MIN's magnitude is one more than INT64_MAX. */
  int rc = gb_parse_u64_n(s + negative, len - negative, 0, (uint64_t)INT64_MAX + negative,
                          &magnitude);
  if (rc < 0)
    return rc;
  int64_t v = negative ? (int64_t)(0 - magnitude) : (int64_t)magnitude;
  if (v < min || v > max)
    return -ERANGE;
  *out = v;
  return 0;
}

static int digit_value(char c, unsigned base) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (base == 16 && c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

int gb_scan_u64(const char **p, unsigned base, uint64_t max, uint64_t *out) {
  if (base != 10 && base != 16)
    return -EINVAL;
  const char *s = *p;
  uint64_t v = 0;
  bool over = false;
  int d;
  for (; (d = digit_value(*s, base)) >= 0; s++) {
    if (v > (UINT64_MAX - (unsigned)d) / base)
      over = true;
    else
      v = v * base + (unsigned)d;
  }
  if (s == *p)
    return -EINVAL;
  if (over || v > max)
    return -ERANGE;
  *p = s;
  *out = v;
  return 0;
}

/* Whether s is digits with at most one point, at least one digit, then (when
 * allowed) an exponent: what strtod reads, less signs, hex, inf and nan. */
static bool plain_decimal(const char *s, bool exponent) {
  size_t whole = strspn(s, "0123456789");
  s += whole;
  size_t frac = 0;
  if (*s == '.') {
    frac = strspn(++s, "0123456789");
    s += frac;
  }
  if (whole + frac == 0)
    return false;
  if (exponent && (*s == 'e' || *s == 'E')) {
    s += (s[1] == '+' || s[1] == '-') ? 2 : 1;
    size_t digits = strspn(s, "0123456789");
    if (digits == 0)
      return false;
    s += digits;
  }
  return *s == '\0';
}

int gb_parse_decimal(const char *s, unsigned flags, double *out) {
  if (!s || !plain_decimal(s, flags & GB_DECIMAL_EXPONENT))
    return -EINVAL;
  locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
  if (c == (locale_t)0)
    return -errno;
  errno = 0;
  char *end;
  double v = strtod_l(s, &end, c);
  int e = errno;
  freelocale(c);
  if (*end != '\0')
    return -EINVAL;
  if (e == ERANGE || !isfinite(v))
    return -ERANGE;
  *out = v;
  return 0;
}
