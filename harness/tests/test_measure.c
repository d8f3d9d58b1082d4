/* One measured run of each language's real worker: wall and CPU time, peak
 * RSS and the parsed line, with its idle window; and a startup batch. Then
 * the same through an injected spawner (scripted workers, helper_script.h),
 * which gb_measure uses instead of starting processes. */
#include <criterion/criterion.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/measure.h"
#include "harness_internal.h"
#include "helper_script.h"

static const gb_workers workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                   GB_NODE_PATH, GB_NODE_WORKER_PATH};

static void measure_language(gb_language l) {
  gb_measure_env env = {.workers = &workers, .timeout_ns = 30000000000ull, .idle = true};
  gb_config k = {.language = l, .algorithm = GB_QUICK, .order = GB_RANDOM, .size = 4000};
  gb_job job = gb_job_sort(&k, GB_DEFAULT_SEED, 3);
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
  gb_startup_group g = {.language = GB_C, .order = GB_SORTED, .size = 1000};
  gb_job job = gb_job_startup(&g, GB_DEFAULT_SEED, 7);
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
  gb_startup_group g = {.language = GB_PYTHON, .order = GB_NEARLY, .size = 250};
  gb_job job = gb_job_startup(&g, 7, 3);
  gbi_job_argv(&workers, &job, argv, buf);
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

/* The scripted C worker on quick/random/4000: 55119 comparisons and 56984
 * writes, 120103 operations with the copy and the check, 2 ns each. */
Test(measure, an_injected_spawner_runs_instead_of_a_process) {
  worker_script *w = script_create(&workers);
  gb_measure_env env = {.workers = &workers, .spawner = script_spawner(w), .idle = true};
  gb_config k = {.language = GB_C, .algorithm = GB_QUICK, .order = GB_RANDOM, .size = 4000};
  gb_job job = gb_job_sort(&k, GB_DEFAULT_SEED, 3);
  gb_measurement m;
  gb_err err;
  cr_assert_eq(gb_measure(&env, &job, &m, &err), 0, "%s", err.msg);
  cr_assert_eq(m.status, GB_REC_STATUS_OK, "%s", m.message);
  cr_assert_eq(script_calls(w), 1u);
  char want[128];
  snprintf(want, sizeof want,
           "--algorithm quick --order random --size 4000 --sorts 3 --seed %u", GB_DEFAULT_SEED);
  cr_assert_str_eq(script_call_at(w, 1)->argv, want);
  cr_assert(m.has_line);
  cr_assert_eq(m.line.comparisons, 55119u);
  cr_assert_eq(m.line.writes, 56984u);
  cr_assert_str_eq(m.line.input_hash_hex, "9f662f292f0c2286");
  cr_assert_str_eq(m.line.runtime, "c (scripted)");
  cr_assert_eq(m.line.loop_ns, 3u * 120103u * 2u);
  cr_assert_eq(m.wall_ns, 400000u + 3u * 120103u * 2u);
  cr_assert_eq(m.sys_ns, 50000u);
  cr_assert_eq(m.user_ns, m.wall_ns - 50000u);
  cr_assert_eq(m.max_rss_kib, 1200u);
  cr_assert(m.idled && m.idle_ns >= m.wall_ns, "the idle window follows the scripted run");
  script_destroy(w);
}

Test(measure, an_injected_spawner_fails_a_batch_at_a_given_launch) {
  worker_script *w = script_create(&workers);
  script_at(w, 1, 4, SCRIPT_CRASH, SIGBUS);
  gb_measure_env env = {.workers = &workers, .spawner = script_spawner(w)};
  gb_startup_group g = {.language = GB_NODE, .order = GB_SORTED, .size = 1000};
  gb_job job = gb_job_startup(&g, GB_DEFAULT_SEED, 6);
  gb_measurement m;
  gb_err err;
  cr_assert_eq(gb_measure(&env, &job, &m, &err), 0, "%s", err.msg);
  cr_assert_eq(m.status, GB_REC_STATUS_CRASHED);
  cr_assert_str_eq(m.message, "launch 4 of 6: crashed: killed by SIGBUS (signal 7)");
  cr_assert_eq(m.launches_done, 4u);
  cr_assert_not(m.has_line, "a failed batch has no line");
  cr_assert_eq(m.wall_ns, 4u * 3000000u, "the Node.js model starts in 3 ms");
  cr_assert_eq(script_call_at(w, 1)->language, GB_NODE);
  cr_assert_eq(script_call_at(w, 1)->launches, 6u);
  script_destroy(w);
}

Test(measure, an_injected_spawner_that_fails_is_a_harness_error) {
  worker_script *w = script_create(&workers);
  script_at(w, 1, 0, SCRIPT_BROKEN, ENOMEM);
  gb_measure_env env = {.workers = &workers, .spawner = script_spawner(w), .idle = true};
  gb_config k = {.language = GB_PYTHON, .algorithm = GB_BUBBLE, .order = GB_NEARLY, .size = 10};
  gb_job job = gb_job_sort(&k, 7, 1);
  gb_measurement m;
  gb_err err;
  cr_assert_eq(gb_measure(&env, &job, &m, &err), -ENOMEM);
  cr_assert_str_eq(err.msg, "scripted spawner failure at call 1");
  script_destroy(w);
}
