#include "greenbench/timefmt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/numparse.h"

#define DAY_S 86400

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar, and
 * back: Howard Hinnant's days_from_civil and civil_from_days ("chrono-
 * Compatible Low-Level Date Algorithms"), which count in 400-year eras of
 * 146097 days from March, so that February's length comes last. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y) {
  return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static unsigned month_days(int64_t y, unsigned m) {
  static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* The fields of the instant, or -ERANGE outside the years 0000 to 9999. */
typedef struct {
  int64_t year;
  unsigned month, day, hour, minute, second;
} civil;

static int split(int64_t seconds, civil *c) {
  static const int64_t first = -62167219200; /* 0000-01-01T00:00:00Z */
  static const int64_t last = 253402300799;  /* 9999-12-31T23:59:59Z */
  if (seconds < first || seconds > last)
    return -ERANGE;
  int64_t days = seconds / DAY_S, rest = seconds % DAY_S;
  if (rest < 0) {
    days--;
    rest += DAY_S;
  }
  civil_from_days(days, &c->year, &c->month, &c->day);
  c->hour = (unsigned)(rest / 3600);
  c->minute = (unsigned)(rest / 60 % 60);
  c->second = (unsigned)(rest % 60);
  return 0;
}

/* Formats the instant with fmt, which takes its six fields. */
static int format(int64_t seconds, const char *fmt, size_t size, char *buf, size_t len) {
  civil c;
  int rc = split(seconds, &c);
  if (rc == 0 && len < size)
    rc = -ENOSPC;
  if (rc < 0) {
    if (len > 0)
      buf[0] = '\0';
    return rc;
  }
  snprintf(buf, len, fmt, (int)c.year, c.month, c.day, c.hour, c.minute, c.second);
  return 0;
}

int gb_utc_iso8601(int64_t seconds, char *buf, size_t len) {
  return format(seconds, "%04d-%02u-%02uT%02u:%02u:%02uZ", GB_UTC_ISO8601_SIZE, buf, len);
}

int gb_utc_stamp(int64_t seconds, char *buf, size_t len) {
  return format(seconds, "%04d%02u%02uT%02u%02u%02uZ", GB_UTC_STAMP_SIZE, buf, len);
}

int gb_utc_parse(const char *s, int64_t *seconds) {
  static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
  if (!s || strlen(s) != sizeof shape - 1)
    return -EINVAL;
  for (size_t i = 0; shape[i]; i++)
    if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != shape[i])
      return -EINVAL;
  uint64_t y, mo, d, h, mi, sec;
  if (gb_parse_u64_n(s, 4, 0, 9999, &y) < 0 || gb_parse_u64_n(s + 5, 2, 1, 12, &mo) < 0 ||
      gb_parse_u64_n(s + 8, 2, 1, month_days((int64_t)y, (unsigned)mo), &d) < 0 ||
      gb_parse_u64_n(s + 11, 2, 0, 23, &h) < 0 || gb_parse_u64_n(s + 14, 2, 0, 59, &mi) < 0 ||
      gb_parse_u64_n(s + 17, 2, 0, 60, &sec) < 0)
    return -EINVAL;
  int64_t days = days_from_civil((int64_t)y, (unsigned)mo, (unsigned)d);
  *seconds = days * DAY_S + (int64_t)(h * 3600 + mi * 60 + sec);
  return 0;
}

void gb_duration_text(uint64_t ns, char *buf, size_t len) {
  if (ns == UINT64_MAX)
    snprintf(buf, len, "never");
  else if (ns >= 10000000000ull)
    snprintf(buf, len, "%" PRIu64 " s", ns / 1000000000u);
  else if (ns >= 10000000u)
    snprintf(buf, len, "%" PRIu64 " ms", ns / 1000000u);
  else
    snprintf(buf, len, "%" PRIu64 " us", ns / 1000u);
}
