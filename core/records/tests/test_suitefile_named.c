/* Named parameter values (greenbench/suitefile.h): a parameter whose values
 * are names, each its index in the file's list; the reader's rules for
 * them, each broken once with its exact one-line message; the value's text
 * both ways; and the expansion of a template. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/suitefile.h"

/* Two workloads: nbody's n numeric, spectral-norm's n named. */
static const char good[] =
    "{\"format\":\"greenbench-suite-1\",\"name\":\"demo\",\n"
    "\"languages\":[\n"
    "{\"name\":\"python\",\"command\":[\"python3\",\"{workload}.py\",\"--n={n}\",\"{reps}\"],\n"
    " \"startup\":[\"python3\",\"{workload}.py\",\"--n={n}\",\"--startup-only\"],\n"
    " \"version\":[\"python3\",\"--version\"]}],\n"
    "\"workloads\":[\n"
    "{\"name\":\"nbody\",\"parameters\":[{\"name\":\"n\",\"values\":[1000,100000]}]},\n"
    "{\"name\":\"spectral-norm\",\"parameters\":[{\"name\":\"n\",\"values\":[\"small\",\"large-"
    "2\",\"x_9\"]}],\n"
    " \"expect\":[{\"n\":\"large-2\",\"output_hash\":\"0123456789abcdef\"}]}]}\n";

static gb_suite parsed(const char *text) {
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(text, strlen(text), "t/demo.json", &s, &err), 0, "%s", err.msg);
  return s;
}

/* good with the one occurrence of from replaced by to, refused with msg. */
static void refused_change(const char *from, const char *to, const char *msg) {
  const char *at = strstr(good, from);
  cr_assert_not_null(at, "no '%s' in the good suite", from);
  cr_assert_null(strstr(at + 1, from), "'%s' is not unique in the good suite", from);
  char *text = malloc(sizeof good + strlen(to));
  sprintf(text, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_expect_eq(gb_suite_parse(text, strlen(text), "t/demo.json", &s, &err), -EINVAL, "%s", msg);
  cr_expect_str_eq(err.msg, msg);
  cr_expect_null(strchr(err.msg, '\n'));
  cr_expect_null(s.languages);
  free(text);
}

Test(suitefile_named, a_named_parameter_is_read_as_indexes_with_its_names) {
  gb_suite s = parsed(good);
  const gb_suite_parameter *n = &s.workloads[0].parameters[0];
  const gb_suite_parameter *m = &s.workloads[1].parameters[0];
  cr_assert_not(n->named);
  cr_assert(m->named);
  cr_assert_eq(m->n_values, 3);
  for (uint64_t i = 0; i < 3; i++)
    cr_assert_eq(m->values[i], i, "a named value is its index");
  cr_assert_str_eq(m->names[0], "small");
  cr_assert_str_eq(m->names[1], "large-2");
  cr_assert_str_eq(m->names[2], "x_9");
  cr_assert_eq(s.workloads[1].n_expect, 1);
  cr_assert_eq(s.workloads[1].expect[0].values[0], 1);
  uint64_t large = 1;
  cr_assert_eq(gb_suite_find_expect(&s.workloads[1], &large), &s.workloads[1].expect[0]);
  gb_suite_free(&s);
}

Test(suitefile_named, a_value_is_printed_and_read_back_as_text) {
  gb_suite s = parsed(good);
  const gb_suite_parameter *n = &s.workloads[0].parameters[0];
  const gb_suite_parameter *m = &s.workloads[1].parameters[0];
  char buf[GB_SUITE_VALUE_TEXT_MAX];
  uint64_t v = 77;
  cr_assert_eq(gb_suite_value_text(m, 1, buf, sizeof buf), 7);
  cr_assert_str_eq(buf, "large-2");
  cr_assert_eq(gb_suite_value_text(m, 3, buf, sizeof buf), -EINVAL, "no name at index 3");
  cr_assert_eq(gb_suite_value_text(m, 1, buf, 7), -ENOSPC);
  cr_assert_str_eq(buf, "");
  cr_assert_eq(gb_suite_value_text(n, 100000, buf, sizeof buf), 6);
  cr_assert_str_eq(buf, "100000");
  cr_assert_eq(gb_suite_value_text(n, GB_SUITE_VALUE_MAX, buf, sizeof buf), 16);
  cr_assert_str_eq(buf, "9007199254740991");
  /* Back: a name to its index, a number to itself, only the list's values. */
  cr_assert_eq(gb_suite_value_parse(m, "x_9 trailing", 3, &v), 0);
  cr_assert_eq(v, 2);
  cr_assert_eq(gb_suite_value_parse(n, "100000", 6, &v), 0);
  cr_assert_eq(v, 100000);
  v = 77;
  static const char *const bad_m[] = {"smal", "small ", "Small", "1", "0", ""};
  for (size_t i = 0; i < sizeof bad_m / sizeof *bad_m; i++)
    cr_assert_eq(gb_suite_value_parse(m, bad_m[i], strlen(bad_m[i]), &v), -EINVAL, "%s",
                 bad_m[i]);
  static const char *const bad_n[] = {"01000", "999", "small", "", "1000 ", "-1000", "+1000"};
  for (size_t i = 0; i < sizeof bad_n / sizeof *bad_n; i++)
    cr_assert_eq(gb_suite_value_parse(n, bad_n[i], strlen(bad_n[i]), &v), -EINVAL, "%s",
                 bad_n[i]);
  cr_assert_eq(v, 77, "untouched on failure");
  gb_suite_free(&s);
}

Test(suitefile_named, a_parameter_set_is_joined_as_name_value_pairs) {
  gb_suite_workload w = {.name = "sort", .n_parameters = 2};
  strcpy(w.parameters[0].name, "order");
  w.parameters[0].named = true;
  w.parameters[0].n_values = 2;
  strcpy(w.parameters[0].names[0], "random");
  strcpy(w.parameters[0].names[1], "sorted");
  w.parameters[0].values[1] = 1;
  strcpy(w.parameters[1].name, "size");
  w.parameters[1].n_values = 1;
  w.parameters[1].values[0] = 1000;
  uint64_t values[] = {1, 1000};
  char buf[64];
  cr_assert_eq(gb_suite_params_join(&w, values, ";", buf, sizeof buf), 22);
  cr_assert_str_eq(buf, "order=sorted;size=1000");
  cr_assert_eq(gb_suite_params_join(&w, values, ", ", buf, sizeof buf), 23);
  cr_assert_str_eq(buf, "order=sorted, size=1000");
  cr_assert_eq(gb_suite_params_join(&w, values, ";", buf, 22), -ENOSPC);
  cr_assert_str_eq(buf, "order=sorted;size=100", "cut short as snprintf cuts");
  values[0] = 2;
  cr_assert_eq(gb_suite_params_join(&w, values, ";", buf, sizeof buf), -EINVAL);
}

Test(suitefile_named, expand_writes_a_named_value_as_its_name) {
  gb_suite s = parsed(good);
  uint64_t n = 2;
  gb_suite_vars v = {.workload = &s.workloads[1], .values = &n, .has_reps = true, .reps = 3};
  char **argv = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_expand(&s.languages[0].t[GB_SUITE_COMMAND], &v, &argv, &err), 0, "%s",
               err.msg);
  const char *const want[] = {"python3", "spectral-norm.py", "--n=x_9", "3"};
  for (size_t i = 0; i < 4; i++)
    cr_assert_str_eq(argv[i], want[i]);
  cr_assert_null(argv[4]);
  gb_suite_argv_free(argv);
  n = 3; /* no name at index 3 */
  cr_assert_eq(gb_suite_expand(&s.languages[0].t[GB_SUITE_COMMAND], &v, &argv, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "argument 2: no value for placeholder {n}");
  gb_suite_free(&s);
}

#define VALUES "suite t/demo.json: workloads[1].parameters[0].values"

Test(suitefile_named, names_and_numbers_do_not_mix) {
  refused_change("\"large-2\",\"x_9\"]", "\"large-2\",9]",
                 VALUES "[2]: expected a name, as values[0] is, got a number");
  refused_change("[\"small\",", "[5,", VALUES "[1]: expected a whole number, got a string");
}

Test(suitefile_named, a_bad_or_repeated_name_is_refused) {
  static const struct {
    const char *name, *shown;
  } bad[] = {{"", "\"\""},
             {"Large", "\"Large\""},
             {"9x", "\"9x\""},
             {"a b", "\"a b\""},
             {"-a", "\"-a\""},
             {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\""}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char to[64], msg[300];
    snprintf(to, sizeof to, "\"%s\",\"x_9\"]", bad[i].name);
    snprintf(msg, sizeof msg,
             VALUES "[1]: a name must be 1 to 32 characters of a-z, 0-9, _ and -, starting "
                    "with a letter, got %s",
             bad[i].shown);
    refused_change("\"large-2\",\"x_9\"]", to, msg);
  }
  refused_change("\"large-2\",\"x_9\"]", "\"large-2\",\"small\"]",
                 VALUES "[2]: small is already values[0]");
}

Test(suitefile_named, an_expect_entry_names_a_value_by_its_name) {
  refused_change("{\"n\":\"large-2\"", "{\"n\":\"huge\"",
                 "suite t/demo.json: workloads[1].expect[0].n: \"huge\" is not one of the "
                 "values of parameter n");
  refused_change("{\"n\":\"large-2\"", "{\"n\":1",
                 "suite t/demo.json: workloads[1].expect[0].n: expected one of the names of "
                 "parameter n, got a number");
  refused_change("{\"n\":\"large-2\"",
                 "{\"n\":\"large-2\",\"output_hash\":\"0123456789abcdef\"},"
                 "{\"n\":\"large-2\"",
                 "suite t/demo.json: workloads[1].expect[1]: the same parameters as "
                 "workloads[1].expect[0]");
}
