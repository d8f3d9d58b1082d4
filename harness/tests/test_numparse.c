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
