#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>

#include "greenbench/options.h"

enum { OUT, RUNS, CARBON, QUIET, HELP };
static const gb_opt table[] = {
    {"--out", NULL, GB_OPT_VALUE, OUT},
    {"--runs", NULL, GB_OPT_VALUE, RUNS},
    {"--carbon-intensity", NULL, GB_OPT_VALUE | GB_OPT_MANY, CARBON},
    {"--quiet", NULL, 0, QUIET},
    {"--help", "-h", 0, HELP},
    {NULL, NULL, 0, 0},
};

/* Every result of gb_opt_next over argv (from index 1) until the end or an
 * error, as "id=value" words joined by spaces, the error's text last. */
static void walk(int argc, char **argv, char *out, size_t cap) {
  gb_opt_state st;
  gb_opt_start(&st, 1);
  out[0] = '\0';
  for (;;) {
    const char *value = NULL;
    gb_err err;
    int id = gb_opt_next(table, &st, argc, argv, &value, &err);
    size_t n = strlen(out);
    if (id == GB_OPT_END)
      return;
    if (id == -EINVAL) {
      snprintf(out + n, cap - n, "%serror: %s", n ? " " : "", err.msg);
      return;
    }
    snprintf(out + n, cap - n, "%s%d=%s", n ? " " : "", id, value ? value : "-");
  }
}

#define WALK(want, ...)                                                                        \
  do {                                                                                         \
    char *argv[] = {"cmd", __VA_ARGS__};                                                       \
    char got[512];                                                                             \
    walk((int)(sizeof argv / sizeof argv[0]), argv, got, sizeof got);                          \
    cr_assert_str_eq(got, want);                                                               \
  } while (0)

Test(options, a_value_with_a_space_or_an_equals_sign) {
  WALK("0=dir 1=30", "--out", "dir", "--runs=30");
  WALK("0=a=b", "--out=a=b");
}

Test(options, flags_aliases_and_positional_arguments) {
  WALK("3=- 4=- -1001=records 4=-", "--quiet", "-h", "records", "--help");
  WALK("-1001=-", "-");
}

Test(options, a_double_dash_ends_the_options) {
  WALK("3=- -1001=--runs -1001=--", "--quiet", "--", "--runs", "--");
}

Test(options, a_repeatable_option_comes_back_each_time) {
  WALK("2=A,1 2=B,2", "--carbon-intensity", "A,1", "--carbon-intensity=B,2");
}

Test(options, a_flag_given_twice_is_not_an_error) {
  WALK("3=- 3=-", "--quiet", "--quiet");
}

Test(options, a_value_option_given_twice_is_an_error) {
  WALK("1=3 error: option '--runs' given twice", "--runs", "3", "--runs=4");
}

Test(options, unknown_options_are_named_without_their_value) {
  WALK("error: unknown option '--bogus'", "--bogus=secret");
  WALK("error: unknown option '-x'", "-x");
  WALK("error: unknown option '--ou'", "--ou", "dir");
  WALK("error: unknown option '--bad\\x1b'", "--bad\x1b");
}

Test(options, values_missing_empty_or_unwanted) {
  WALK("error: option '--out' needs a value", "--out");
  WALK("error: option '--out' needs a value, got an empty one", "--out=");
  WALK("error: option '--out' needs a value, got an empty one", "--out", "");
  WALK("error: option '--quiet' takes no value", "--quiet=1");
}

Test(options, a_value_may_start_with_a_dash) {
  WALK("0=-", "--out", "-");
  WALK("0=--quiet", "--out", "--quiet");
}
