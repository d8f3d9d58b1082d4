/* Time as text (greenbench/timefmt.h): exact UTC texts and stamps on both
 * sides of 1970, leap days and the ends of the four-digit years, checked
 * against the C library's gmtime_r and timegm; the strict parser's
 * refusals; durations for a person. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "base_internal.h"
#include "greenbench/timefmt.h"

static void iso_is(int64_t seconds, const char *want) {
  char buf[GB_UTC_ISO8601_SIZE];
  cr_assert_eq(gb_utc_iso8601(seconds, buf, sizeof buf), 0, "%lld", (long long)seconds);
  cr_assert_str_eq(buf, want);
  int64_t back = 0;
  cr_assert_eq(gb_utc_parse(want, &back), 0, "%s", want);
  cr_assert_eq(back, seconds, "%s", want);
}

Test(timefmt, iso8601_exact_texts) {
  iso_is(0, "1970-01-01T00:00:00Z");
  iso_is(1714564800, "2024-05-01T12:00:00Z");
  iso_is(1709164800, "2024-02-29T00:00:00Z");
  iso_is(1709251199, "2024-02-29T23:59:59Z");
  iso_is(951782400, "2000-02-29T00:00:00Z");
  iso_is(-1, "1969-12-31T23:59:59Z");
  iso_is(-2208988800, "1900-01-01T00:00:00Z");
  iso_is(-62167219200, "0000-01-01T00:00:00Z");
  iso_is(253402300799, "9999-12-31T23:59:59Z");
}

Test(timefmt, stamp_exact_texts) {
  char buf[GB_UTC_STAMP_SIZE];
  cr_assert_eq(gbi_utc_stamp(1714564800 + 3661, buf, sizeof buf), 0);
  cr_assert_str_eq(buf, "20240501T130101Z");
  cr_assert_eq(gbi_utc_stamp(-1, buf, sizeof buf), 0);
  cr_assert_str_eq(buf, "19691231T235959Z");
}

Test(timefmt, a_name_stamp_is_empty_past_four_digit_years) {
  char buf[GB_UTC_STAMP_SIZE] = "untouched";
  gb_utc_stamp_or_empty(1714564800 + 3661, buf);
  cr_assert_str_eq(buf, "20240501T130101Z");
  gb_utc_stamp_or_empty(253402300800, buf);
  cr_assert_str_eq(buf, "");
  gb_utc_stamp_or_empty(INT64_MIN, buf);
  cr_assert_str_eq(buf, "");
}

Test(timefmt, refuses_a_small_buffer_and_years_past_four_digits) {
  char buf[GB_UTC_ISO8601_SIZE] = "untouched";
  cr_assert_eq(gb_utc_iso8601(0, buf, GB_UTC_ISO8601_SIZE - 1), -ENOSPC);
  cr_assert_str_eq(buf, "", "never a time cut short");
  cr_assert_eq(gbi_utc_stamp(0, buf, GB_UTC_STAMP_SIZE - 1), -ENOSPC);
  cr_assert_eq(gb_utc_iso8601(0, buf, 0), -ENOSPC, "no room at all");
  cr_assert_eq(gb_utc_iso8601(-62167219201, buf, sizeof buf), -ERANGE);
  cr_assert_eq(gb_utc_iso8601(253402300800, buf, sizeof buf), -ERANGE);
  cr_assert_eq(gbi_utc_stamp(INT64_MIN, buf, sizeof buf), -ERANGE);
  cr_assert_eq(gbi_utc_stamp(INT64_MAX, buf, sizeof buf), -ERANGE);
  cr_assert_str_eq(buf, "");
}

/* The C library agrees from 1900 to 2200, hour by hour plus odd seconds. */
Test(timefmt, agrees_with_gmtime_and_timegm) {
  char got[GB_UTC_ISO8601_SIZE], want[32], stamp[GB_UTC_STAMP_SIZE], want_stamp[32];
  for (int64_t t = -2208988800; t < 7258118400; t += 3600 * 7 + 13) {
    time_t tt = (time_t)t;
    struct tm tm;
    cr_assert_not_null(gmtime_r(&tt, &tm));
    strftime(want, sizeof want, "%Y-%m-%dT%H:%M:%SZ", &tm);
    strftime(want_stamp, sizeof want_stamp, "%Y%m%dT%H%M%SZ", &tm);
    cr_assert_eq(gb_utc_iso8601(t, got, sizeof got), 0);
    cr_assert_str_eq(got, want);
    cr_assert_eq(gbi_utc_stamp(t, stamp, sizeof stamp), 0);
    cr_assert_str_eq(stamp, want_stamp);
    int64_t back;
    cr_assert_eq(gb_utc_parse(want, &back), 0, "%s", want);
    cr_assert_eq(back, (int64_t)timegm(&tm), "%s", want);
  }
}

Test(timefmt, a_leap_second_reads_as_the_next_minute) {
  int64_t t;
  cr_assert_eq(gb_utc_parse("2016-12-31T23:59:60Z", &t), 0);
  cr_assert_eq(t, 1483228800, "2017-01-01T00:00:00Z");
}

Test(timefmt, refuses_anything_but_the_one_shape_and_real_dates) {
  static const char *const bad[] = {
      "",
      "2024-05-01",
      "2024-05-01T12:00:00",
      "2024-05-01T12:00:00z",
      "2024-05-01 12:00:00Z",
      "2024-05-01T12:00:00+00:00",
      "2024-05-01T12:00:00.5Z",
      " 2024-05-01T12:00:00Z",
      "2024-05-01T12:00:00Z ",
      "+024-05-01T12:00:00Z",
      "2024-5-01T12:00:00Z",
      "20240501T120000Z",
      "2024-00-01T12:00:00Z",
      "2024-13-01T12:00:00Z",
      "2024-05-00T12:00:00Z",
      "2024-04-31T12:00:00Z",
      "2023-02-29T12:00:00Z",
      "1900-02-29T12:00:00Z",
      "2024-05-01T24:00:00Z",
      "2024-05-01T12:60:00Z",
      "2024-05-01T12:00:61Z",
      "2024-05-01T1a:00:00Z",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    int64_t t = 42;
    cr_assert_eq(gb_utc_parse(bad[i], &t), -EINVAL, "'%s'", bad[i]);
    cr_assert_eq(t, 42, "untouched on failure: '%s'", bad[i]);
  }
  int64_t t = 42;
  cr_assert_eq(gb_utc_parse(NULL, &t), -EINVAL);
  cr_assert_eq(gb_utc_parse("2000-02-29T00:00:00Z", &t), 0, "2000 is a leap year");
}

Test(timefmt, durations_in_one_whole_unit) {
  static const struct {
    uint64_t ns;
    const char *want;
  } cases[] = {
      {0, "0 us"},
      {999, "0 us"},
      {100000, "100 us"},
      {9999999, "9999 us"},
      {10000000, "10 ms"},
      {25000000, "25 ms"},
      {9999999999ull, "9999 ms"},
      {10000000000ull, "10 s"},
      {262000000000ull, "262 s"},
      {UINT64_MAX - 1, "18446744073 s"},
      {UINT64_MAX, "never"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char buf[GB_DURATION_TEXT_SIZE];
    gb_duration_text(cases[i].ns, buf, sizeof buf);
    cr_assert_str_eq(buf, cases[i].want);
  }
  char small[4];
  gb_duration_text(262000000000ull, small, sizeof small);
  cr_assert_str_eq(small, "262", "cut short, and terminated");
}
