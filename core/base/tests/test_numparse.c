#include <criterion/criterion.h>
#include <errno.h>

#include "greenbench/numparse.h"

Test(numparse, accepts_plain_decimal_within_bounds) {
  uint64_t v = 0;
  cr_assert_eq(gb_parse_u64("30", 1, 100, &v), 0);
  cr_assert_eq(v, 30u);
  cr_assert_eq(gb_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
  cr_assert_eq(v, UINT64_MAX);
  cr_assert_eq(gb_parse_u64("007", 1, 10, &v), 0);
  cr_assert_eq(v, 7u);
}

Test(numparse, refuses_what_is_not_digits_and_leaves_out_alone) {
  static const char *bad[] = {"", "-1", "+1", " 1", "1 ", "0x10", "1e3", "1.5", "abc", "2k"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint64_t v = 99;
    cr_assert_eq(gb_parse_u64(bad[i], 0, 1000, &v), -EINVAL, "'%s'", bad[i]);
    cr_assert_eq(v, 99u);
  }
  uint64_t v = 99;
  cr_assert_eq(gb_parse_u64(NULL, 0, 1, &v), -EINVAL);
}

Test(numparse, bounds_and_overflow_are_range_errors) {
  uint64_t v = 99;
  cr_assert_eq(gb_parse_u64("0", 1, 10, &v), -ERANGE);
  cr_assert_eq(gb_parse_u64("11", 1, 10, &v), -ERANGE);
  cr_assert_eq(gb_parse_u64("18446744073709551616", 0, UINT64_MAX, &v), -ERANGE);
  cr_assert_eq(gb_parse_u64("99999999999999999999999", 0, UINT64_MAX, &v), -ERANGE);
  cr_assert_eq(v, 99u);
}

Test(numparse, i64_takes_one_minus_sign_and_its_bounds) {
  int64_t v = 0;
  cr_assert_eq(gb_parse_i64("-40", -273, 200, &v), 0);
  cr_assert_eq(v, -40);
  cr_assert_eq(gb_parse_i64("9223372036854775807", INT64_MIN, INT64_MAX, &v), 0);
  cr_assert_eq(v, INT64_MAX);
  cr_assert_eq(gb_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &v), 0);
  cr_assert_eq(v, INT64_MIN);
  v = 5;
  static const char *bad[] = {"", "-", "--1", "+1", " 1", "1\n", "0x1", "1.0"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_assert_eq(gb_parse_i64(bad[i], INT64_MIN, INT64_MAX, &v), -EINVAL, "'%s'", bad[i]);
  cr_assert_eq(gb_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &v), -ERANGE);
  cr_assert_eq(gb_parse_i64("-9223372036854775809", INT64_MIN, INT64_MAX, &v), -ERANGE);
  cr_assert_eq(gb_parse_i64("-1", 0, 1, &v), -ERANGE);
  cr_assert_eq(gb_parse_i64("2", 0, 1, &v), -ERANGE);
  cr_assert_eq(gb_parse_i64_n("-12,7", 3, INT64_MIN, INT64_MAX, &v), 0);
  cr_assert_eq(v, -12);
  cr_assert_eq(gb_parse_i64_n("-", 1, INT64_MIN, INT64_MAX, &v), -EINVAL);
  cr_assert_eq(gb_parse_i64_n("7", 0, INT64_MIN, INT64_MAX, &v), -EINVAL);
  cr_assert_eq(v, -12);
}

Test(numparse, scan_reads_leading_digits_in_a_base_and_says_where_it_stopped) {
  const char *p = "259:3:1234 rest";
  uint64_t v = 0;
  cr_assert_eq(gb_scan_u64(&p, 16, UINT32_MAX, &v), 0);
  cr_assert_eq(v, 0x259u);
  cr_assert_str_eq(p, ":3:1234 rest");
  p++;
  cr_assert_eq(gb_scan_u64(&p, 10, 10, &v), 0);
  cr_assert_eq(v, 3u);
  p++;
  cr_assert_eq(gb_scan_u64(&p, 10, UINT64_MAX, &v), 0);
  cr_assert_eq(v, 1234u);
  cr_assert_str_eq(p, " rest");
  const char *q = "ff";
  cr_assert_eq(gb_scan_u64(&q, 16, UINT64_MAX, &v), 0);
  cr_assert_eq(v, 255u);
  cr_assert_str_eq(q, "");
}

Test(numparse, scan_refuses_no_digits_and_values_over_max_and_moves_nothing) {
  uint64_t v = 7;
  const char *s = " 12", *p = s;
  cr_assert_eq(gb_scan_u64(&p, 10, 100, &v), -EINVAL);
  cr_assert_eq(p, s);
  s = "-1", p = s;
  cr_assert_eq(gb_scan_u64(&p, 10, 100, &v), -EINVAL);
  s = "101", p = s;
  cr_assert_eq(gb_scan_u64(&p, 10, 100, &v), -ERANGE);
  cr_assert_eq(p, s);
  s = "18446744073709551616", p = s;
  cr_assert_eq(gb_scan_u64(&p, 10, UINT64_MAX, &v), -ERANGE);
  s = "12", p = s;
  cr_assert_eq(gb_scan_u64(&p, 8, 100, &v), -EINVAL); /* only 10 and 16 */
  cr_assert_eq(v, 7u);
}

Test(numparse, decimal_is_plain_and_read_in_the_c_locale) {
  double v = 0;
  cr_assert_eq(gb_parse_decimal("0.05", 0, &v), 0);
  cr_assert_float_eq(v, 0.05, 1e-15);
  cr_assert_eq(gb_parse_decimal("12", 0, &v), 0);
  cr_assert_float_eq(v, 12.0, 0);
  cr_assert_eq(gb_parse_decimal(".5", 0, &v), 0);
  cr_assert_float_eq(v, 0.5, 0);
  cr_assert_eq(gb_parse_decimal("7.", 0, &v), 0);
  cr_assert_float_eq(v, 7.0, 0);
  cr_assert_eq(gb_parse_decimal("1.5e2", GB_DECIMAL_EXPONENT, &v), 0);
  cr_assert_float_eq(v, 150.0, 0);
  cr_assert_eq(gb_parse_decimal("25E-1", GB_DECIMAL_EXPONENT, &v), 0);
  cr_assert_float_eq(v, 2.5, 0);
  v = 3;
  static const char *bad[] = {"",     ".",   "-1",  "+1", " 1",  "1 ", "1,5",  "1.2.3",
                              "0x10", "inf", "nan", "1e", "1e+", "e5", "1.5f", "1e3"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_assert_eq(gb_parse_decimal(bad[i], 0, &v), -EINVAL, "'%s'", bad[i]);
  cr_assert_eq(gb_parse_decimal("1e999", GB_DECIMAL_EXPONENT, &v), -ERANGE);
  cr_assert_eq(gb_parse_decimal(NULL, 0, &v), -EINVAL);
  cr_assert_float_eq(v, 3.0, 0);
}
