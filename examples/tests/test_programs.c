/* The example suite's programs (examples/nbody/) in every language: the
 * benchmarks game's published outputs, the counters' formulas, the startup
 * form, bad arguments, and agreement with the C programs. Every line they
 * print is read strictly as the contract (contract_check.h). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "contract_check.h"
#include "programs.h"

/* The n at which each workload's published output is checked. */
static const struct {
  ex_workload w;
  long n;
} references[] = {{EX_NBODY, 1000}, {EX_SPECTRAL, 100}};

/* Asserts line's counters are exactly those of the formulas for w at n. */
static void expect_formulas(const cJSON *line, ex_language l, ex_workload w, long n) {
  const char *names[2];
  double values[2];
  int count = ex_formula(w, n, names, values);
  cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(line, "counters")), count,
               "%s %s n=%ld: counters other than the formulas'", ex_language_names[l],
               ex_workload_names[w], n);
  for (int i = 0; i < count; i++)
    cr_expect_eq(contract_number(line, names[i], true), values[i],
                 "%s %s n=%ld: %s is %.0f, the formula gives %.0f", ex_language_names[l],
                 ex_workload_names[w], n, names[i], contract_number(line, names[i], true),
                 values[i]);
}

static void reference_texts(ex_language l) {
  ex_skip_if_missing(l);
  for (size_t i = 0; i < sizeof references / sizeof references[0]; i++) {
    char want[17];
    /* Two repetitions: the programs compare them and hash the last. */
    cJSON *line = ex_run_line(l, references[i].w, references[i].n, 2);
    const char *text = ex_reference_text(references[i].w, references[i].n);
    cr_expect_str_eq(contract_string(line, "output_hash"), contract_fnv(text, want),
                     "%s %s n=%ld: output_hash %s is not the FNV-1a 64 of \"%s\"",
                     ex_language_names[l], ex_workload_names[references[i].w], references[i].n,
                     contract_string(line, "output_hash"), text);
    expect_formulas(line, l, references[i].w, references[i].n);
    cJSON_Delete(line);
  }
}

static void counters_formulas(ex_language l) {
  ex_skip_if_missing(l);
  static const long ns[] = {1, 2, 7, 250};
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++)
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
      cJSON *line = ex_run_line(l, w, ns[i], 3);
      expect_formulas(line, l, w, ns[i]);
      cJSON_Delete(line);
    }
}

static void startup_form(ex_language l) {
  ex_skip_if_missing(l);
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++) {
    long n = w == EX_NBODY ? 1000 : 100;
    cJSON *startup = ex_run_line(l, w, n, 0);
    cJSON *measured = ex_run_line(l, w, n, 1);
    cr_expect_str_eq(contract_string(startup, "input_hash"),
                     contract_string(measured, "input_hash"),
                     "%s %s: the startup line's input_hash differs from the measured line's",
                     ex_language_names[l], ex_workload_names[w]);
    cr_expect_str_eq(contract_string(startup, "runtime"), contract_string(measured, "runtime"));
    char want[17];
    if (w == EX_SPECTRAL)
      cr_expect_str_eq(contract_string(startup, "input_hash"), contract_fnv("100\n", want),
                       "%s spectral-norm: input_hash is not the FNV-1a 64 of \"100\\n\"",
                       ex_language_names[l]);
    cJSON_Delete(startup);
    cJSON_Delete(measured);
  }
}

enum { MAX_ARGS = 4 };
static const char *const bad_args[][MAX_ARGS] = {
    {NULL},
    {"1000", NULL},
    {"1000", "1", "1", NULL},
    {"1000", "--startup-only", "1", NULL},
    {"0", "1", NULL},
    {"-5", "1", NULL},
    {"+5", "1", NULL},
    {"1e3", "1", NULL},
    {"0x10", "1", NULL},
    {" 100", "1", NULL},
    {"100 ", "1", NULL},
    {"", "1", NULL},
    {"abc", "1", NULL},
    {"1000000000000000", "1", NULL},
    {"100", "0", NULL},
    {"100", "1.5", NULL},
    {"100", "1000001", NULL},
    {"100", "--startup", NULL},
    {"100", "--startup-only=1", NULL},
};

static void bad_arguments(ex_language l) {
  ex_skip_if_missing(l);
  enum { COUNT = sizeof bad_args / sizeof bad_args[0] };
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++) {
    parity_run runs[COUNT + 1] = {0};
    for (size_t i = 0; i < COUNT; i++) {
      ex_program(&runs[i], l, w);
      for (size_t k = 0; bad_args[i][k]; k++)
        parity_arg(&runs[i], bad_args[i][k]);
    }
    /* Past each program's largest n. */
    ex_program(&runs[COUNT], l, w);
    parity_args(&runs[COUNT], w == EX_NBODY ? "1000000001" : "20001", "1", NULL);
    parity_run_all(runs, COUNT + 1, 2);
    for (size_t i = 0; i <= COUNT; i++) {
      char status[300];
      const parity_run *r = &runs[i];
      const char *nl = r->err ? memchr(r->err, '\n', r->err_len) : NULL;
      cr_expect(r->exited && r->exit_code == 2 && r->out_len == 0 && nl &&
                    nl == r->err + r->err_len - 1,
                "%s %s, arguments #%zu: expected exit 2, no stdout and one stderr line; got "
                "%s\nstdout: %s\nstderr: %s",
                ex_language_names[l], ex_workload_names[w], i,
                parity_run_status(r, status, sizeof status), r->out ? r->out : "",
                r->err ? r->err : "");
    }
    for (size_t i = 0; i <= COUNT; i++)
      parity_run_free(&runs[i]);
  }
}

/* Every key but loop_ns and runtime equal to the C program's, at each n. */
static void agrees_with_c(ex_language l) {
  ex_skip_if_missing(l);
  static const long ns[EX_WORKLOAD_COUNT][3] = {{1, 1000, 5000}, {1, 100, 300}};
  for (ex_workload w = 0; w < EX_WORKLOAD_COUNT; w++)
    for (size_t i = 0; i < 3; i++) {
      long n = ns[w][i];
      cJSON *c = ex_run_line(EX_C, w, n, 1), *other = ex_run_line(l, w, n, 1);
      const char *keys[] = {"input_hash", "output_hash"};
      for (size_t k = 0; k < 2; k++)
        cr_expect_str_eq(contract_string(other, keys[k]), contract_string(c, keys[k]),
                         "%s %s n=%ld: %s differs from C's", ex_language_names[l],
                         ex_workload_names[w], n, keys[k]);
      cr_expect(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(other, "counters"),
                              cJSON_GetObjectItemCaseSensitive(c, "counters"), true),
                "%s %s n=%ld: counters differ from C's", ex_language_names[l],
                ex_workload_names[w], n);
      cJSON_Delete(c);
      cJSON_Delete(other);
    }
}

#define LANGUAGE_TESTS(suite, lang)                                                            \
  Test(suite, reference_texts, .timeout = 120) {                                               \
    reference_texts(lang);                                                                     \
  }                                                                                            \
  Test(suite, counters_match_the_formulas, .timeout = 120) {                                   \
    counters_formulas(lang);                                                                   \
  }                                                                                            \
  Test(suite, startup_line_has_the_input_hash, .timeout = 60) {                                \
    startup_form(lang);                                                                        \
  }                                                                                            \
  Test(suite, bad_arguments_exit_2_with_one_line, .timeout = 120) {                            \
    bad_arguments(lang);                                                                       \
  }

#define PORT_TESTS(suite, lang)                                                                \
  LANGUAGE_TESTS(suite, lang)                                                                  \
  Test(suite, agrees_with_c, .timeout = 180) {                                                 \
    agrees_with_c(lang);                                                                       \
  }

LANGUAGE_TESTS(example_c, EX_C)
PORT_TESTS(example_python, EX_PYTHON)
PORT_TESTS(example_node, EX_NODE)
PORT_TESTS(example_lua, EX_LUA)
