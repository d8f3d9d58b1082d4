/* The number formats the report writers share (textbuf.h): a figure with
 * an interval is printed to what its interval supports. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "textbuf.h"

/* What write (gbi_tb_interval or gbi_tb_range) makes of three figures. */
static void expect_three(void (*write)(gbi_textbuf *, double, double, double, int), double v0,
                         double v1, double v2, const char *want) {
  gbi_textbuf b;
  gbi_tb_init(&b);
  write(&b, v0, v1, v2, 4);
  char *got = NULL;
  size_t len = 0;
  gb_err err = {""};
  cr_assert_eq(gbi_tb_take(&b, &got, &len, "figures", &err), 0);
  cr_expect_str_eq(got, want, "%g, %g, %g", v0, v1, v2);
  free(got);
}

static void expect_interval(double point, double lo, double hi, const char *want) {
  expect_three(gbi_tb_interval, point, lo, hi, want);
}

Test(textbuf, a_wide_interval_drops_the_digits_it_does_not_support) {
  /* About +-30%: two digits of the half-width (26) leave no decimal. */
  expect_interval(88.0, 62.1, 114.3, "88 [62, 114]");
  expect_interval(133.9, 128.9, 178.6, "134 [129, 179]");
  expect_interval(0.4431, 0.3843, 0.5711, "0.443 [0.384, 0.571]");
}

Test(textbuf, a_narrow_interval_keeps_at_most_four_significant_digits) {
  expect_interval(12.3456, 12.3401, 12.3502, "12.35 [12.34, 12.35]");
  expect_interval(2.55, 2.5, 2.6, "2.550 [2.500, 2.600]");
  expect_interval(103409.2, 99358.4, 113428.9, "103409 [99358, 113429]");
}

Test(textbuf, point_and_ends_share_one_number_of_decimals) {
  /* 4 significant digits of the largest (1164) allow none: all three
   * without decimals, though 753.2 alone would keep one. */
  expect_interval(861.8, 753.2, 1164.0, "862 [753, 1164]");
  expect_interval(0.0012345, 0.0012001, 0.0012702, "0.001234 [0.001200, 0.001270]");
}

Test(textbuf, negative_figures_and_zero) {
  expect_interval(-656.2, -6532.0, 6611.0, "-656 [-6532, 6611]");
  expect_interval(-0.3, -40.0, 41.0, "0 [-40, 41]");
  expect_interval(0.0, 0.0, 0.0, "0 [0, 0]");
}

Test(textbuf, without_an_interval_four_significant_digits) {
  expect_interval(45.78, NAN, NAN, "45.78 [n/a]");
  expect_interval(45.78, 45.78, 45.78, "45.78 [45.78, 45.78]");
  cr_expect_eq(gbi_interval_decimals(0.0, 0.0, 0.0, 4), -1);
  cr_expect_eq(gbi_interval_decimals(1.0, NAN, 2.0, 4), -1);
  cr_expect_eq(gbi_interval_decimals(88.0, 62.1, 114.3, 4), 0);
  cr_expect_eq(gbi_interval_decimals(1.0, 0.99, 1.01, 4), 3);
}

static void expect_range(double median, double min, double max, const char *want) {
  expect_three(gbi_tb_range, median, min, max, want);
}

/* Issue 32, E: a group range keeps the precision of the figures beside it,
 * two significant digits of its smallest, never "0.004" for 0.003756. */
Test(textbuf, a_range_keeps_two_digits_of_its_smallest) {
  expect_range(0.01201, 0.003756, 0.03102, "0.0120 (0.0038 to 0.0310)");
  expect_range(0.0061, 0.0020, 0.0157, "0.0061 (0.0020 to 0.0157)");
  expect_range(88.0, 59.2, 128.4, "88 (59 to 128)");
  expect_range(1.08, 0.85, 1.28, "1.08 (0.85 to 1.28)");
  /* Too many decades for shared decimals: each with four digits. */
  expect_range(12.5, 0.003756, 134113.0, "12.50 (0.003756 to 134113)");
  /* Ranges that reach 0 or below (rhos) keep the interval rule. */
  expect_range(0.35, -0.02, 0.61, "0.35 (-0.02 to 0.61)");
}

Test(textbuf, a_ratio_interval_shows_on_which_side_of_1_its_ends_lie) {
  /* The node/nbody/n=20000 ratio of a smoke run: [1.29, 26.2] is wholly
   * above 1 ("slower"), and printed by the width rule alone it read
   * "15 [1, 26]", an interval that seems to hold 1. */
  expect_three(gbi_tb_ratio_interval, 15.4888, 1.2948, 26.2194, "15.5 [1.3, 26.2]");
  expect_three(gbi_tb_ratio_interval, 0.5, 0.21, 0.996, "0.500 [0.210, 0.996]");
  expect_three(gbi_tb_ratio_interval, 3.0, 0.9996, 8.1, "3.0000 [0.9996, 8.1000]");
  /* An end that is exactly 1, or an interval already read right, keeps
   * the width rule's decimals. */
  expect_three(gbi_tb_ratio_interval, 15.0, 1.0, 26.0, "15 [1, 26]");
  expect_three(gbi_tb_ratio_interval, 88.0, 62.1, 114.3, "88 [62, 114]");
  expect_three(gbi_tb_ratio_interval, 41.0, NAN, NAN, "41.00 [n/a]");
}
