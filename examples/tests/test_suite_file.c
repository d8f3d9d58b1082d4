/* examples/nbody.json: an expect entry for every parameter value, matching
 * the formulas and the published outputs, and every language's templates,
 * filled in and run, print exactly what the entries expect. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract_check.h"
#include "programs.h"
#include "suite_file.h"

/* The entry of expect for n; asserts there is exactly one. */
static const cJSON *entry_for(const cJSON *workload, long n) {
  const cJSON *entry, *found = NULL;
  cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(workload, "expect")) {
    if (contract_number(entry, "n", false) == (double)n) {
      cr_assert_null(found, "two expect entries for n = %ld", n);
      found = entry;
    }
  }
  cr_assert_not_null(found, "no expect entry for n = %ld", n);
  return found;
}

static const cJSON *values_of(const cJSON *workload) {
  const cJSON *params = cJSON_GetObjectItemCaseSensitive(workload, "parameters");
  cr_assert_eq(cJSON_GetArraySize(params), 1, "the example workloads have one parameter, n");
  cr_assert_str_eq(contract_string(params->child, "name"), "n");
  return cJSON_GetObjectItemCaseSensitive(params->child, "values");
}

Test(suite_file, names_the_four_languages_and_two_workloads) {
  cJSON *suite = ex_suite_load();
  cr_expect_str_eq(contract_string(suite, "format"), "greenbench-suite-1");
  cr_expect_str_eq(contract_string(suite, "name"), "nbody");
  cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(suite, "languages")),
               EX_LANGUAGE_COUNT);
  for (ex_language l = 0; l < EX_LANGUAGE_COUNT; l++)
    cr_expect_not_null(ex_suite_language(suite, ex_language_names[l]), "no language %s",
                       ex_language_names[l]);
  cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(suite, "workloads")),
               EX_WORKLOAD_COUNT);
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++)
    cr_expect_not_null(ex_suite_workload(suite, ex_workload_names[w]), "no workload %s",
                       ex_workload_names[w]);
  cJSON_Delete(suite);
}

Test(suite_file, expects_every_value_with_the_formulas_and_published_outputs) {
  cJSON *suite = ex_suite_load();
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++) {
    const cJSON *workload = ex_suite_workload(suite, ex_workload_names[w]);
    cr_assert_not_null(workload);
    const cJSON *values = values_of(workload), *value;
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(workload, "expect")),
                 cJSON_GetArraySize(values), "%s: expect entries that name no value",
                 ex_workload_names[w]);
    bool has_reference = false;
    cJSON_ArrayForEach(value, values) {
      long n = (long)value->valuedouble;
      const cJSON *entry = entry_for(workload, n);
      cr_expect_eq(cJSON_GetArraySize((cJSON *)entry), 3, "%s n=%ld: n, output_hash, counters",
                   ex_workload_names[w], n);
      const char *names[2];
      double want[2];
      int count = ex_formula(w, n, names, want);
      const cJSON *counters = cJSON_GetObjectItemCaseSensitive(entry, "counters");
      cr_expect_eq(cJSON_GetArraySize(counters), count);
      for (int i = 0; i < count; i++)
        cr_expect_eq(contract_number(entry, names[i], true), want[i], "%s n=%ld: %s",
                     ex_workload_names[w], n, names[i]);
      const char *text = ex_reference_text(w, n);
      char fnv[17];
      if (text) {
        has_reference = true;
        cr_expect_str_eq(contract_string(entry, "output_hash"), contract_fnv(text, fnv),
                         "%s n=%ld: output_hash is not the FNV-1a 64 of the published output",
                         ex_workload_names[w], n);
      }
    }
    cr_expect(has_reference, "%s: the published output's n is not among the values",
              ex_workload_names[w]);
  }
  cJSON_Delete(suite);
}

/* Runs the suite's build step of l (the C one) for each workload into
 * builddir. */
static void build(const cJSON *lang, const char *builddir) {
  const cJSON *tmpl = cJSON_GetObjectItemCaseSensitive(lang, "build");
  if (!tmpl)
    return;
  parity_run runs[EX_WORKLOAD_COUNT] = {0};
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++)
    ex_suite_argv(&runs[w], tmpl, builddir, ex_workload_names[w], 0, -1);
  parity_run_all(runs, EX_WORKLOAD_COUNT, 2);
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++) {
    char status[300];
    cr_assert(runs[w].exited && runs[w].exit_code == 0, "the build step of %s: %s\n%s",
              ex_workload_names[w], parity_run_status(&runs[w], status, sizeof status),
              runs[w].err ? runs[w].err : "");
    parity_run_free(&runs[w]);
  }
}

static cJSON *line_of(parity_run *r, bool startup) {
  char status[300];
  cr_assert(r->exited && r->exit_code == 0 && r->err_len == 0, "%s: %s\n%s", r->argv[0],
            parity_run_status(r, status, sizeof status), r->err ? r->err : "");
  cJSON *line = NULL;
  const char *problem = contract_problem(r->out, r->out_len, startup, &line);
  cr_assert_null(problem, "%s: %s\n%s", r->argv[0], problem, r->out);
  return line;
}

/* The measured and startup lines of one expect entry. */
static void expect_entry(parity_run *measured, parity_run *startup, const cJSON *entry,
                         ex_language l, ex_workload w) {
  cJSON *m = line_of(measured, false), *s = line_of(startup, true);
  long n = (long)contract_number(entry, "n", false);
  cr_expect_str_eq(contract_string(m, "output_hash"), contract_string(entry, "output_hash"),
                   "%s %s n=%ld: output_hash differs from the suite file's",
                   ex_language_names[l], ex_workload_names[w], n);
  cr_expect(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(m, "counters"),
                          cJSON_GetObjectItemCaseSensitive(entry, "counters"), true),
            "%s %s n=%ld: counters differ from the suite file's", ex_language_names[l],
            ex_workload_names[w], n);
  cr_expect_str_eq(contract_string(s, "input_hash"), contract_string(m, "input_hash"),
                   "%s %s n=%ld: the startup form's input_hash differs", ex_language_names[l],
                   ex_workload_names[w], n);
  cJSON_Delete(m);
  cJSON_Delete(s);
}

enum { MAX_ENTRIES = 16 };

static void suite_commands(ex_language l) {
  ex_skip_if_missing(l);
  cJSON *suite = ex_suite_load();
  const cJSON *lang = ex_suite_language(suite, ex_language_names[l]);
  cr_assert_not_null(lang);
  char builddir[] = "/tmp/greenbench-examples-XXXXXX";
  cr_assert_not_null(mkdtemp(builddir));
  build(lang, builddir);
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++) {
    const cJSON *workload = ex_suite_workload(suite, ex_workload_names[w]), *entry;
    parity_run runs[2 * MAX_ENTRIES] = {0};
    size_t count = 0;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(workload, "expect")) {
      cr_assert_lt(count, 2 * MAX_ENTRIES);
      long n = (long)contract_number(entry, "n", false);
      ex_suite_argv(&runs[count++], cJSON_GetObjectItemCaseSensitive(lang, "command"), builddir,
                    ex_workload_names[w], n, 1);
      ex_suite_argv(&runs[count++], cJSON_GetObjectItemCaseSensitive(lang, "startup"), builddir,
                    ex_workload_names[w], n, -1);
    }
    parity_run_all(runs, count, 2);
    size_t i = 0;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(workload, "expect")) {
      expect_entry(&runs[i], &runs[i + 1], entry, l, w);
      i += 2;
    }
    for (i = 0; i < count; i++)
      parity_run_free(&runs[i]);
  }
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++) {
    char path[sizeof builddir + 32];
    snprintf(path, sizeof path, "%s/%s", builddir, ex_workload_names[w]);
    remove(path);
  }
  cr_expect_eq(remove(builddir), 0, "%s is not empty after the test", builddir);
  cJSON_Delete(suite);
}

Test(suite_file, c_builds_and_prints_the_expected_lines, .timeout = 180) {
  suite_commands(EX_C);
}
Test(suite_file, python_prints_the_expected_lines, .timeout = 180) {
  suite_commands(EX_PYTHON);
}
Test(suite_file, node_prints_the_expected_lines, .timeout = 180) {
  suite_commands(EX_NODE);
}
Test(suite_file, lua_prints_the_expected_lines, .timeout = 180) {
  suite_commands(EX_LUA);
}
