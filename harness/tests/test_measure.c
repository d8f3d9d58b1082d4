/* One measured run of each language's real worker: wall and CPU time, peak
 * RSS and the parsed line, with its idle window; and a startup batch. */
#include <criterion/criterion.h>
#include <string.h>

#include "greenbench/measure.h"

static const gb_workers workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                   GB_NODE_PATH, GB_NODE_WORKER_PATH};

static void measure_language(gb_language l) {
  gb_measure_env env = {.workers = &workers, .timeout_ns = 30000000000ull, .idle = true};
  gb_job job = {GB_RUN_SORT, l, GB_QUICK, GB_RANDOM, 4000, GB_DEFAULT_SEED, 3, 1};
  gb_measurement m;
  gb_err err;
  cr_assert_eq(gb_measure(&env, &job, &m, &err), 0, "%s", err.msg);
  cr_assert_eq(m.status, GB_REC_STATUS_OK, "%s", m.message);
  cr_assert(m.has_line);
  cr_assert_str_eq(m.line.language, gb_language_name(l));
  cr_assert_eq(m.line.comparisons, 55119u);
  cr_assert_eq(m.line.writes, 56984u);
  cr_assert_str_eq(m.line.input_hash_hex, "9f662f292f0c2286");
  cr_assert_eq(m.line.sorts, 3u);
  cr_assert_geq(m.wall_ns, m.line.loop_ns, "the process outlasts its own loop");
  cr_assert_gt(m.user_ns + m.sys_ns, 0u);
  cr_assert_gt(m.max_rss_kib, 0u);
  cr_assert_not(m.energy_read, "no sampler, no energy");
  cr_assert_geq(m.idle_ns, m.wall_ns, "the idle window lasts as long as the run");
}

Test(measure, c_worker) {
  measure_language(GB_C);
}

Test(measure, python_worker) {
  measure_language(GB_PYTHON);
}

Test(measure, node_worker) {
  measure_language(GB_NODE);
}

Test(measure, startup_batch_counts_its_launches) {
  gb_measure_env env = {.workers = &workers, .timeout_ns = 30000000000ull};
  gb_job job = {
      GB_RUN_STARTUP, GB_C, GB_STARTUP_ALGORITHM, GB_SORTED, 1000, GB_DEFAULT_SEED, 1, 7};
  gb_measurement m;
  gb_err err;
  cr_assert_eq(gb_measure(&env, &job, &m, &err), 0, "%s", err.msg);
  cr_assert_eq(m.status, GB_REC_STATUS_OK, "%s", m.message);
  cr_assert_eq(m.launches_done, 7u);
  cr_assert(m.has_line);
  cr_assert_eq(m.line.kind, GB_WORKERLINE_STARTUP);
  cr_assert_eq(m.idle_ns, 0u, "no idle window was asked for");
}

Test(measure, argv_is_the_worker_contract) {
  char *argv[16], buf[96];
  gb_job job = {GB_RUN_STARTUP, GB_PYTHON, GB_QUICK, GB_NEARLY, 250, 7, 1, 3};
  gb_job_argv(&workers, &job, argv, buf);
  const char *want[] = {GB_PYTHON_PATH,   GB_PYTHON_WORKER_PATH,
                        "--algorithm",    "quick",
                        "--order",        "nearly",
                        "--size",         "250",
                        "--sorts",        "1",
                        "--seed",         "7",
                        "--startup-only", NULL};
  for (size_t i = 0; want[i]; i++)
    cr_assert_str_eq(argv[i], want[i]);
  cr_assert_null(argv[13]);
}
