#include <criterion/criterion.h>

#include "greenbench/text.h"

Test(text, copies_whole_strings_and_cuts_long_ones) {
  char buf[6];
  cr_assert(gb_str_copy(buf, sizeof buf, "abcde"));
  cr_assert_str_eq(buf, "abcde");
  cr_assert_not(gb_str_copy(buf, sizeof buf, "abcdef"));
  cr_assert_str_eq(buf, "abcde");
  cr_assert(gb_str_copy(buf, 1, ""));
  cr_assert_not(gb_str_copy(buf, 1, "x"));
  cr_assert_str_eq(buf, "");
}
