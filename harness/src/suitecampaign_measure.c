/* One process of a suite campaign measured into a row, its parity, and the
 * calibration of {reps} and of the startup batches (the study's rule,
 * calibration.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibration.h"
#include "greenbench/clock.h"
#include "greenbench/text.h"
#include "suitecampaign_internal.h"

typedef struct {
  gb_contract_kind kind;
  gb_contract_line line;
} contract_ctx;

/* Each launch's stdout, parsed as the contract's line of its kind. */
static int check_contract(void *p, const char *out, size_t len, bool truncated, char *msg,
                          size_t msglen) {
  contract_ctx *c = p;
  gb_err err;
  (void)truncated;
  if (gb_contractline_parse(out, len, c->kind, &c->line, &err) < 0) {
    snprintf(msg, msglen, "%s", err.msg);
    return -1;
  }
  return 0;
}

/* The argv of configuration i's process of template t, argv[0] resolved. */
static int expand(const gbi_suite_campaign *k, size_t i, gb_suite_template_kind t,
                  uint64_t reps, char ***argv, char *program, size_t len, gb_err *err) {
  const gb_suite_config *cf = &k->plan.configs[i];
  const gb_suite_language *l = &k->s->languages[cf->language];
  gb_suite_vars v = {.workload = &k->s->workloads[cf->workload],
                     .values = cf->values,
                     .has_reps = t == GB_SUITE_COMMAND,
                     .reps = reps,
                     .has_seed = true,
                     .seed = k->c.s.seed,
                     .suitedir = k->s->dir,
                     .builddir = k->builddir,
                     .workers = gbi_suite_workers(k)};
  char label[128];
  gb_suite_config_label(k->s, cf, label, sizeof label);
  gb_err e;
  int rc = gb_suite_expand(&l->t[t], &v, argv, &e);
  if (rc < 0)
    return gb_err_set(err, -rc, "%s: %s: %s", label,
                      t == GB_SUITE_COMMAND ? "command" : "startup", e.msg);
  if ((rc = gb_suite_resolve_program((*argv)[0], program, len)) < 0) {
    gb_err_set(err, -rc, "%s: program %s not found%s", label, (*argv)[0],
               strchr((*argv)[0], '/') ? "" : " on PATH");
    gb_suite_argv_free(*argv);
    return rc;
  }
  return 0;
}

/* The measured columns, by the study's rules (gbi_campaign_fill_*). */
static void fill_measured(const gbi_suite_campaign *k, const gb_measurement *m, bool idle,
                          uint64_t started, gb_srec_row *row) {
  gb_run_row t = {.status = m->status};
  gbi_campaign_fill_measured(&k->c, m, &t);
  gbi_campaign_fill_run(&k->c, m, idle, started, &t);
  row->status = t.status;
  row->wall_ns = (gb_rec_opt_u64){true, m->wall_ns};
  row->user_ns = (gb_rec_opt_u64){true, m->user_ns};
  row->sys_ns = (gb_rec_opt_u64){true, m->sys_ns};
  row->max_rss_kib = (gb_rec_opt_u64){true, m->max_rss_kib};
  row->energy = t.energy;
  row->pkg_uj = t.pkg_uj;
  row->dram_uj = t.dram_uj;
  row->idle_ns = t.idle_ns;
  row->idle_pkg_uj = t.idle_pkg_uj;
  row->idle_dram_uj = t.idle_dram_uj;
  row->freq_start_khz = t.freq_start_khz;
  row->freq_end_khz = t.freq_end_khz;
  row->temp_start_mc = t.temp_start_mc;
  row->temp_end_mc = t.temp_end_mc;
  row->started_unix_ns = t.started_unix_ns;
  gb_str_copy(row->message, sizeof row->message, t.message);
}

static void mismatch(gb_srec_row *row, const char *what) {
  row->status = GB_REC_STATUS_PARITY_MISMATCH;
  char msg[sizeof((gb_err *)0)->msg + 32];
  snprintf(msg, sizeof msg, "parity mismatch: %s", what);
  gb_str_copy(row->message, sizeof row->message, msg);
}

/* Parity (docs/suites.md): the suite's expect entry, then the case's first
 * ok process, which an ok process that finds none becomes. */
static void check_parity(gbi_suite_campaign *k, size_t i, const gb_contract_line *l,
                         gb_srec_row *row) {
  const gb_suite_config *cf = &k->plan.configs[i];
  gbi_suite_ref *ref = &k->refs[cf->kase];
  gb_err e;
  if (l->kind == GB_CONTRACT_STARTUP) {
    if (ref->have && strcmp(l->input_hash_hex, ref->line.input_hash_hex) != 0) {
      char what[160];
      snprintf(what, sizeof what, "input_hash %s differs from %s's %s", l->input_hash_hex,
               ref->from, ref->line.input_hash_hex);
      mismatch(row, what);
    }
    return;
  }
  const gb_suite_expect *x = gb_suite_find_expect(&k->s->workloads[cf->workload], cf->values);
  if ((x && gb_contractline_expect(l, x, &e) < 0) ||
      (ref->have && gb_contractline_compare(l, &ref->line, ref->from, &e) < 0)) {
    mismatch(row, e.msg);
    return;
  }
  if (!ref->have) {
    *ref = (gbi_suite_ref){.have = true, .line = *l};
    snprintf(ref->from, sizeof ref->from, "%s", k->s->languages[cf->language].name);
  }
}

static void fill_line(const gb_contract_line *l, gb_srec_row *row) {
  memcpy(row->input_hash, l->input_hash_hex, sizeof row->input_hash);
  if (l->kind != GB_CONTRACT_MEASURED)
    return;
  row->loop_ns = (gb_rec_opt_u64){true, l->loop_ns};
  memcpy(row->output_hash, l->output_hash_hex, sizeof row->output_hash);
  if (gb_srec_counters_text(l->counters, l->n_counters, row->counters, sizeof row->counters) <
      0)
    row->counters[0] = '\0'; /* cannot happen: 8 counters of 32 characters fit */
}

int gbi_suite_measure_row(gbi_suite_campaign *k, size_t i, bool startup, uint64_t count,
                          bool idle, uint64_t index, gb_srec_row *row, gb_err *err) {
  const gb_suite_config *cf = &k->plan.configs[i];
  char **argv, program[PATH_MAX];
  int rc = expand(k, i, startup ? GB_SUITE_STARTUP : GB_SUITE_COMMAND, count, &argv, program,
                  sizeof program, err);
  if (rc < 0)
    return rc;
  char *given = argv[0];
  argv[0] = program;
  gb_measure_env env = k->c.env;
  env.idle = idle;
  if (!idle)
    env.sampler = NULL; /* warm-ups: time only, no idle window */
  contract_ctx ctx = {.kind = startup ? GB_CONTRACT_STARTUP : GB_CONTRACT_MEASURED};
  uint64_t started = gb_realtime_ns();
  gb_measurement m;
  rc = gbi_measure_argv(&env, argv, startup ? (unsigned)count : 1, check_contract, &ctx, &m,
                        err);
  argv[0] = given;
  gb_suite_argv_free(argv);
  if (rc < 0)
    return rc;
  if (m.interrupted)
    return gb_err_set(err, EINTR, "interrupted during run %" PRIu64, index);
  *row = (gb_srec_row){.run = index,
                       .kind = startup ? GB_SREC_KIND_STARTUP : GB_SREC_KIND_WORK,
                       .seed = k->c.s.seed,
                       .reps = startup ? 0 : count,
                       .launches = startup ? count : 1};
  snprintf(row->language, sizeof row->language, "%s", k->s->languages[cf->language].name);
  snprintf(row->workload, sizeof row->workload, "%s", k->s->workloads[cf->workload].name);
  if ((rc = gb_srec_params_text(&k->s->workloads[cf->workload], cf->values, row->params,
                                sizeof row->params)) < 0)
    return gb_err_set(err, -rc, "the parameters of configuration %zu do not fit a row", i);
  fill_measured(k, &m, idle, started, row);
  if (m.has_line)
    fill_line(&ctx.line, row);
  if (m.status == GB_REC_STATUS_OK && m.has_line)
    check_parity(k, i, &ctx.line, row);
  return 0;
}

int gbi_suite_stop_reason(const gb_srec_row *row, bool warmup, gb_err *err) {
  if (row->status == GB_REC_STATUS_PARITY_MISMATCH)
    return gb_err_set(err, EPROTO,
                      "parity mismatch: language %s, workload %s, params %s: %s (%s %" PRIu64
                      "; the campaign stopped)",
                      row->language, row->workload, row->params,
                      row->message + strlen("parity mismatch: "), warmup ? "warm-up" : "run",
                      row->run);
  if (row->status == GB_REC_STATUS_ENERGY_VANISHED)
    return gb_err_set(err, ENODEV, "energy counters vanished in run %" PRIu64 ": %s", row->run,
                      row->message);
  return 0;
}

int gbi_suite_append(gbi_suite_campaign *k, gb_rec_file which, const gb_srec_row *row,
                     gb_err *err) {
  char line[GB_SREC_LINE_MAX];
  int len = gb_srec_format_row(row, line, sizeof line);
  if (len < 0)
    return gb_err_set(err, -len, "cannot format row %" PRIu64 " for %s", row->run,
                      which == GB_REC_FILE_WARMUPS ? "warmups.csv" : "runs.csv");
  return gbi_recorder_append_line(k->c.rec, which, line, (size_t)len, err);
}

/* ---- calibration ---- */

static int check_stop(const gbi_suite_campaign *k, gb_err *err) {
  if (k->c.o->stop && *k->c.o->stop)
    return gb_err_set(err, EINTR,
                      "interrupted while calibrating, before any measured run: start the "
                      "campaign again in a new folder");
  return 0;
}

/* Warm-up w of configuration i (or of its startup group), into warmups.csv;
 * a failed one ends the calibration. */
static int warmup(gbi_suite_campaign *k, size_t i, bool startup, unsigned w, uint64_t count,
                  gbi_warmup_time *t, gb_err *err) {
  gb_srec_row row;
  int rc = gbi_suite_measure_row(k, i, startup, count, false, w, &row, err);
  if (rc == -EINTR)
    return check_stop(k, err) < 0 ? -EINTR : rc;
  if (rc < 0 || (rc = gbi_suite_append(k, GB_REC_FILE_WARMUPS, &row, err)) < 0)
    return rc;
  if (row.status == GB_REC_STATUS_PARITY_MISMATCH)
    return gbi_suite_stop_reason(&row, true, err);
  if (row.status != GB_REC_STATUS_OK) {
    char label[128];
    (startup ? gb_suite_startup_label : gb_suite_config_label)(k->s, &k->plan.configs[i], label,
                                                               sizeof label);
    return gb_err_set(err, ECHILD,
                      "warm-up %u of %s failed, so it cannot be calibrated: %s: %s", w + 1,
                      label, gb_rec_status_name(row.status), row.message);
  }
  *t = (gbi_warmup_time){row.loop_ns.value, row.wall_ns.value};
  return 0;
}

static void progress(gbi_suite_campaign *k, size_t item, bool startup) {
  char label[128];
  (startup ? gb_suite_startup_label : gb_suite_config_label)(
      k->s, &k->plan.configs[item % k->plan.nconfigs], label, sizeof label);
  gbi_progress_update(&k->c.progress, "calibrating", item, 2 * k->plan.nconfigs, label);
}

void gbi_suite_calibration_start(const gbi_suite_campaign *k, size_t i,
                                 const gbi_calibration *done, gbi_calibration *cb) {
  uint64_t target = k->c.s.target_ms * 1000000u;
  gbi_calibration_start(cb, (unsigned)k->c.s.warmups, target,
                        gbi_suite_predict_reps(k->s, &k->plan, i, done, target));
}

/* Configuration i (into done[i]): the study's rule from a first warm-up
 * predicted from the configurations before it (done[0..i)); its reps, and
 * (for the startup batches and the ETA) what a measured run is expected to
 * last. */
static int calibrate_config(gbi_suite_campaign *k, size_t i, gbi_calibration *done,
                            uint64_t *expected_wall, gb_err *err) {
  gbi_calibration cb;
  gbi_suite_calibration_start(k, i, done, &cb);
  gbi_warmup_time t = {0, 0};
  for (uint64_t count; (count = gbi_calibration_next(&cb)) != 0;) {
    int rc = warmup(k, i, false, cb.done, count, &t, err);
    if (rc < 0)
      return rc;
    gbi_calibration_record(&cb, count, t.loop_ns);
  }
  done[i] = cb;
  k->reps[i] = gbi_calibration_sorts(&cb);
  *expected_wall = gbi_expected_wall(t, cb.last_sorts, k->reps[i]);
  /* Its warm-ups, measured; the model of them was its reference's. */
  uint64_t took = gb_monotonic_raw_ns() - k->c.progress.mark_ns;
  size_t ref = gbi_suite_eta_reference(&k->plan, k->cost, i);
  gbi_progress_done(&k->c.progress, GB_ETA_WARMUPS,
                    ref < k->plan.nconfigs ? k->cost[ref].warmups_ns : took);
  gbi_suite_cost_config(&k->cost[i], took, t, *expected_wall, (unsigned)k->c.s.warmups);
  gbi_suite_eta_ahead(&k->c.progress.eta, &k->plan, k->cost, i + 1, 0, 0);
  return 0;
}

/* Startup group i: `warmups` single launches, and the batch that lasts
 * about as long as the configuration's measured runs. */
static int calibrate_startup(gbi_suite_campaign *k, size_t i, uint64_t expected_wall,
                             gb_err *err) {
  double walls[64], run = (double)expected_wall;
  size_t n = 0;
  for (unsigned w = 0; w < k->c.s.warmups && w < 64; w++) {
    gbi_warmup_time t;
    int rc = warmup(k, i, true, w, 1, &t, err);
    if (rc < 0)
      return rc;
    walls[n++] = (double)t.wall_ns;
  }
  if (gbi_startup_batch(walls, n, &run, 1, &k->launches[i]) < 0)
    return gb_err_set(err, EINVAL, "no warm-up to size the startup batches");
  /* Its warm-ups, measured against what its configuration predicted. */
  gbi_progress_done(&k->c.progress, GB_ETA_WARMUPS, k->cost[i].startup_warmups_ns);
  gbi_suite_cost_startup(&k->cost[i], k->launches[i], walls, n);
  gbi_suite_eta_ahead(&k->c.progress.eta, &k->plan, k->cost, k->plan.nconfigs, i + 1, 0);
  return 0;
}

int gbi_suite_calibrate(gbi_suite_campaign *k, gb_err *err) {
  size_t n = k->plan.nconfigs;
  uint64_t *walls = calloc(n, sizeof *walls);
  gbi_calibration *done = calloc(n, sizeof *done);
  if (!walls || !done) {
    free(walls);
    free(done);
    return gb_err_set(err, ENOMEM, "out of memory");
  }
  gbi_progress_phase(&k->c.progress);
  int rc = 0;
  for (size_t i = 0; i < n && rc == 0; i++) {
    progress(k, i, false);
    if ((rc = check_stop(k, err)) == 0)
      rc = calibrate_config(k, i, done, &walls[i], err);
  }
  for (size_t i = 0; i < n && rc == 0; i++) {
    progress(k, n + i, true);
    if ((rc = check_stop(k, err)) == 0)
      rc = calibrate_startup(k, i, walls[i], err);
  }
  free(walls);
  free(done);
  if (rc == 0)
    gbi_progress_update(&k->c.progress, "calibrating", 2 * n, 2 * n, "done");
  gbi_progress_break(&k->c.progress);
  return rc;
}
