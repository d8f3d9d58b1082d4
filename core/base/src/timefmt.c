#include "greenbench/timefmt.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base_internal.h"
#include "greenbench/numparse.h"

/* The C library's calendar (gmtime_r, timegm) does the arithmetic; the
 * digits are printed here, not by strftime, so that every year has four and
 * no locale or time zone can change them. */

static bool is_leap(int64_t y) {
  return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
}

static unsigned month_days(int64_t y, unsigned m) {
  static const unsigned days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* Formats the instant with fmt, which takes year, month, day, hour, minute
 * and second. */
static int format(int64_t seconds, const char *fmt, size_t size, char *buf, size_t len) {
  static const int64_t first = -62167219200; /* 0000-01-01T00:00:00Z */
  static const int64_t last = 253402300799;  /* 9999-12-31T23:59:59Z */
  time_t t = (time_t)seconds;
  struct tm tm;
  int rc = seconds < first || seconds > last || !gmtime_r(&t, &tm) ? -ERANGE : 0;
  if (rc == 0 && len < size)
    rc = -ENOSPC;
  if (rc < 0) {
    if (len > 0)
      buf[0] = '\0';
    return rc;
  }
  int n = snprintf(buf, len, fmt, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                   tm.tm_min, tm.tm_sec);
  return n >= 0 && (size_t)n < len ? 0 : -ENOSPC;
}

int gb_utc_iso8601(int64_t seconds, char *buf, size_t len) {
  return format(seconds, "%04d-%02d-%02dT%02d:%02d:%02dZ", GB_UTC_ISO8601_SIZE, buf, len);
}

int gbi_utc_stamp(int64_t seconds, char *buf, size_t len) {
  return format(seconds, "%04d%02d%02dT%02d%02d%02dZ", GB_UTC_STAMP_SIZE, buf, len);
}

void gb_utc_stamp_or_empty(int64_t seconds, char buf[GB_UTC_STAMP_SIZE]) {
  if (gbi_utc_stamp(seconds, buf, GB_UTC_STAMP_SIZE) < 0)
    buf[0] = '\0'; /* -ERANGE only: the buffer always fits */
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
  struct tm tm = {.tm_year = (int)y - 1900,
                  .tm_mon = (int)mo - 1,
                  .tm_mday = (int)d,
                  .tm_hour = (int)h,
                  .tm_min = (int)mi,
                  .tm_sec = (int)sec};
  *seconds = (int64_t)timegm(&tm); /* a leap second is the next minute's first */
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
