#include "programs.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "contract_check.h"

const char *const ex_language_names[EX_LANGUAGE_COUNT] = {"c", "python", "node", "lua"};
const char *const ex_workload_names[EX_WORKLOAD_COUNT] = {"nbody", "spectral-norm"};

static const char *const extensions[EX_LANGUAGE_COUNT] = {"", "py", "js", "lua"};
static const char *const interpreters[EX_LANGUAGE_COUNT] = {
    NULL, EXAMPLES_PYTHON_EXE, EXAMPLES_NODE_EXE, EXAMPLES_LUA_EXE};

void ex_skip_if_missing(ex_language l) {
  if (l == EX_LUA && EXAMPLES_LUA_MISSING[0])
    cr_skip_test("%s (install lua5.3 and lua-posix: ci/setup does, then configure again)",
                 EXAMPLES_LUA_MISSING);
}

void ex_program(parity_run *r, ex_language l, ex_workload w) {
  if (l == EX_C) {
    parity_argf(r, "%s/%s", EXAMPLES_C_DIR, ex_workload_names[w]);
    return;
  }
  parity_arg(r, interpreters[l]);
  parity_argf(r, "%s/nbody/%s/%s.%s", EXAMPLES_SOURCE_DIR, ex_language_names[l],
              ex_workload_names[w], extensions[l]);
}

cJSON *ex_run_line(ex_language l, ex_workload w, long n, long reps) {
  parity_run r = {0};
  ex_program(&r, l, w);
  parity_argf(&r, "%ld", n);
  if (reps)
    parity_argf(&r, "%ld", reps);
  else
    parity_arg(&r, "--startup-only");
  r.timeout_s = 120;
  parity_run_all(&r, 1, 1);
  char status[300];
  cr_assert(!r.spawn_errno && !r.timed_out && r.exited && r.exit_code == 0,
            "%s %s n=%ld: %s\nstderr: %s", ex_language_names[l], ex_workload_names[w], n,
            parity_run_status(&r, status, sizeof status), r.err ? r.err : "");
  cr_assert_eq(r.err_len, 0, "%s %s: wrote on stderr: %s", ex_language_names[l],
               ex_workload_names[w], r.err);
  cJSON *line = NULL;
  const char *problem = contract_problem(r.out, r.out_len, reps == 0, &line);
  cr_assert_null(problem, "%s %s n=%ld: not a contract line: %s\n%s", ex_language_names[l],
                 ex_workload_names[w], n, problem, r.out);
  parity_run_free(&r);
  return line;
}

int ex_formula(ex_workload w, long n, const char *names[2], double values[2]) {
  if (w == EX_NBODY) {
    names[0] = "advances";
    values[0] = (double)n;
    names[1] = "pairs";
    values[1] = 10.0 * (double)n;
    return 2;
  }
  names[0] = "products";
  values[0] = 40.0 * (double)n * (double)n;
  return 1;
}

const char *ex_reference_text(ex_workload w, long n) {
  if (w == EX_NBODY && n == 1000)
    return "-0.169075164\n-0.169087605\n";
  if (w == EX_SPECTRAL && n == 100)
    return "1.274219991\n";
  return NULL;
}
