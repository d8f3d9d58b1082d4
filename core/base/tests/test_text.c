#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

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

Test(text, an_excerpt_escapes_and_cuts) {
  char out[GB_EXCERPT_CAP];
  gb_str_excerpt("a\033]0;t\a\"\\\n\xc3\xa9", 12, 64, out, sizeof out);
  cr_assert_str_eq(out, "a\\x1b]0;t\\x07\\x22\\x5c\\n\\xc3\\xa9");
  gb_str_excerpt("abcdef", 6, 3, out, sizeof out);
  cr_assert_str_eq(out, "abc...");
  /* A small buffer cuts between escapes, never inside one. */
  char small[8];
  gb_str_excerpt("\033\033\033", 3, 64, small, sizeof small);
  cr_assert_str_eq(small, "\\x1b...");
}

Test(text, gb_excerpt_reads_a_huge_string_only_to_its_bound) {
  gb_excerpt_buf b;
  char huge[100000];
  memset(huge, 'x', sizeof huge - 1);
  huge[sizeof huge - 1] = '\0';
  const char *s = gb_excerpt(&b, huge);
  cr_assert_eq(strlen(s), GB_EXCERPT_MAX + 3);
  cr_assert_str_eq(s + GB_EXCERPT_MAX, "...");
  cr_assert_str_eq(gb_excerpt(&b, NULL), "");
}

Test(text, controls_only_keeps_quotes_and_utf8) {
  char out[64];
  const char *msg = "killed \"hard\" \xc2\xb5s \033[2J \xc2\x9b";
  gb_str_escape_controls(msg, strlen(msg), out, sizeof out);
  cr_assert_str_eq(out, "killed \"hard\" \xc2\xb5s \\x1b[2J \\xc2\\x9b");
}

Test(text, a_quote_shows_every_byte_as_it_came) {
  char out[64];
  gb_str_quote("debug: done\n", 12, 40, out, sizeof out);
  cr_assert_str_eq(out, "\"debug: done\\x0a\"", "a newline is a byte like any other");
  gb_str_quote("a\"b\\\xc3\xa9\0z", 8, 40, out, sizeof out);
  cr_assert_str_eq(out, "\"a\\x22b\\x5c\\xc3\\xa9\\x00z\"");
  gb_str_quote("abcdef", 6, 3, out, sizeof out);
  cr_assert_str_eq(out, "\"abc\"...", "the cut is marked after the closing quote");
  gb_str_quote("", 0, 40, out, sizeof out);
  cr_assert_str_eq(out, "\"\"");
  /* A small buffer keeps the closing quote and cuts between escapes. */
  char small[9];
  gb_str_quote("\033\033\033", 3, 40, small, sizeof small);
  cr_assert_str_eq(small, "\"\\x1b\"", "one escape, and no room left for ...");
  char tiny[2] = "x";
  gb_str_quote("abc", 3, 40, tiny, sizeof tiny);
  cr_assert_str_eq(tiny, "");
}

Test(text, a_line_reaches_the_terminal_without_controls) {
  char buf[256] = "";
  FILE *f = fmemopen(buf, sizeof buf, "w");
  gb_str_put_line(f, "greenbench: error: ", "a\033]0;pwned\a \xc2\xb5J \xc2\x85");
  fclose(f);
  cr_assert_str_eq(buf, "greenbench: error: a\\x1b]0;pwned\\x07 \xc2\xb5J \\xc2\\x85\n");
}
