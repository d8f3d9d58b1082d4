#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "greenbench/select.h"

static gb_settings profile(const char *name) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile(name, &s, &err), 0);
  return s;
}

Test(select, empty_expression_selects_everything) {
  gb_settings s = profile("study"), before = s;
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "", &err), 0);
  cr_assert_eq(gb_settings_select(&s, NULL, &err), 0);
  cr_assert_eq(memcmp(&s, &before, sizeof s), 0);
}

Test(select, only_python) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "language=python", &err), 0, "%s", err.msg);
  cr_assert_eq(s.languages, 1u << GB_PYTHON);
  cr_assert_eq(s.algorithms, 7u);
  cr_assert_eq(s.nsizes, 4u);
}

Test(select, quick_at_2000_across_terms) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "algorithm=quick size=2000", &err), 0, "%s", err.msg);
  cr_assert_eq(s.algorithms, 1u << GB_QUICK);
  cr_assert_eq(s.nsizes, 1u);
  cr_assert_eq(s.sizes[0], 2000u);
  gb_plan p;
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0);
  cr_assert_eq(p.nconfigs, 3u * 4u);
  gb_plan_free(&p);
}

Test(select, lists_keep_profile_order) {
  gb_settings s = profile("study");
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "size=2000,250;order=sorted,nearly", &err), 0);
  cr_assert_eq(s.nsizes, 2u);
  cr_assert_eq(s.sizes[0], 250u);
  cr_assert_eq(s.sizes[1], 2000u);
  cr_assert_eq(s.orders, (1u << GB_SORTED) | (1u << GB_NEARLY));
}

Test(select, errors_name_what_was_wrong_and_change_nothing) {
  static const struct {
    const char *expr, *msg;
  } cases[] = {
      {"language=ruby", "unknown language 'ruby' (expected c, python or node)"},
      {"colour=red",
       "unknown selection key 'colour' (expected language, algorithm, order or size)"},
      {"size=300", "size 300 is not one of the study profile's sizes"},
      {"size=abc", "size must be an integer from 1 to 10000000, got 'abc'"},
      {"python", "selection term 'python' is not KEY=LIST"},
      {"language=c,c", "language 'c' given twice"},
      {"language=c,", "bad language list 'c,'"},
      {"order=", "bad order list ''"},
      {"language=python language=c",
       "language is given in two terms, but terms are AND-ed (a case must match all of "
       "them): list the alternatives in one term, language=A,B"},
      {"size=250;algorithm=quick size=250",
       "size is given in two terms, but terms are AND-ed (a case must match all of "
       "them): list the alternatives in one term, size=A,B"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    gb_settings s = profile("study"), before = s;
    gb_err err = {{0}};
    cr_assert_eq(gb_settings_select(&s, cases[i].expr, &err), -EINVAL, "%s", cases[i].expr);
    cr_assert_str_eq(err.msg, cases[i].msg);
    cr_assert_eq(memcmp(&s, &before, sizeof s), 0);
  }
}

Test(select, a_selection_that_leaves_nothing_is_refused) {
  gb_settings s = profile("smoke");
  s.languages = 1u << GB_C;
  gb_err err;
  cr_assert_eq(gb_settings_select(&s, "language=python", &err), -EINVAL);
  cr_assert_str_eq(err.msg, "selection 'language=python' leaves no case of the smoke profile");
}
