#include "campaign_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/clock.h"
#include "greenbench/energy_probe.h"
#include "greenbench/energy_ways.h"
#include "greenbench/findings.h"

void gbi_campaign_warn(gbi_campaign *c, const char *fmt, ...) {
  va_list ap;
  gbi_progress_break(&c->progress);
  fputs("greenbench: warning: ", c->log);
  va_start(ap, fmt);
  vfprintf(c->log, fmt, ap);
  va_end(ap);
  fputc('\n', c->log);
}

gb_job gbi_campaign_sort_job(const gbi_campaign *c, size_t config, uint64_t sorts) {
  return gb_job_sort(&c->plan.configs[config], c->s.seed, sorts);
}

gb_job gbi_campaign_startup_job(const gbi_campaign *c, size_t group, uint64_t launches) {
  return gb_job_startup(&c->plan.startups[group], c->s.seed, launches);
}

static int setup_pinning(gbi_campaign *c, gb_err *err) {
  int rc = gb_pin_topology_load(c->o->topology_xml, &c->topo, err);
  if (rc < 0)
    return rc;
  rc = c->o->cpus ? gb_pin_override(c->topo, c->o->cpus, &c->pin, err)
                  : gb_pin_choose(c->topo, &c->pin, err);
  if (rc < 0)
    return rc;
  if (!c->pin.rule_held)
    gbi_campaign_warn(c, "the pinning rule does not hold here: %s", c->pin.reason);
  if (c->o->topology_xml) {
    c->binding = (gb_pin_binding){false, "synthetic topology: nothing was bound"};
    return 0;
  }
  /* Before any thread starts: the memory policy is per thread. */
  rc = gb_pin_apply(c->topo, &c->pin, &c->binding, err);
  if (rc == 0 && !c->binding.mem_bound)
    gbi_campaign_warn(c, "memory not bound to the CPUs' NUMA node: %s", c->binding.mem_note);
  return rc;
}

static int setup_machine(gbi_campaign *c, gb_err *err) {
  int rc = gb_machine_info_read(c->o->machine_root, c->pin.cpus, c->pin.ncpus, &c->info, err);
  if (rc == 0)
    rc = gb_machine_sampler_open(c->o->machine_root, c->pin.cpus, c->pin.ncpus, &c->machine,
                                 err);
  return rc;
}

static void energy_unavailable(gbi_campaign *c, const char *why) {
  c->energy = GB_REC_ENERGY_UNAVAILABLE;
  snprintf(c->energy_reason, sizeof c->energy_reason, "%s", why);
}

static int setup_energy(gbi_campaign *c, gb_err *err) {
  if (c->s.energy == GB_ENERGY_OFF) {
    c->energy = GB_REC_ENERGY_OFF;
    snprintf(c->energy_reason, sizeof c->energy_reason, "--energy off: energy was not read");
    return 0;
  }
  /* The counters are root's: opened with root's identity, then the files
   * are the user's again. */
  gb_privilege_fs_leave(&c->fs);
  gb_energy_ways ways;
  gb_energy_ways_open(c->o->rapl, c->o->perf, &ways);
  int rc = gb_privilege_fs_enter(&c->owner, &c->fs);
  if (rc < 0) {
    gb_energy_ways_close(&ways);
    return gb_err_set(err, -rc, "cannot open files as uid %u: %s", (unsigned)c->owner.uid,
                      strerror(-rc));
  }
  gb_sampler_opts so = c->o->sampler ? *c->o->sampler : (gb_sampler_opts){0};
  so.cross = gb_energy_ways_cross(&ways);
  /* The one probe that `greenbench check` runs too (energy_probe.h): the
   * campaign measures energy exactly where check says it can. */
  char why[GB_META_TEXT_MAX];
  gb_findings findings;
  gb_findings_init(&findings, NULL);
  bool ok = gb_energy_probe(&ways, &so, &findings, why, sizeof why);
  gb_findings_free(&findings);
  if (ok) {
    gb_energy_ways_take(&ways, &c->rapl, &c->cross);
    c->energy = GB_REC_ENERGY_OK;
    return gb_sampler_create(c->rapl, &so, &c->sampler, err);
  }
  gb_energy_ways_close(&ways);
  energy_unavailable(c, why); /* none, frozen, standing still, a wrap unseen, a read failed */
  if (c->s.energy == GB_ENERGY_ON)
    return gb_err_set(err, ENODEV,
                      "energy is unavailable: %s (see `greenbench check`; --energy auto or "
                      "off measures time only)",
                      c->energy_reason);
  gbi_campaign_warn(c, "energy is unavailable, measuring time only: %s", c->energy_reason);
  return 0;
}

/* Starts each selected language's worker once: it must run, and its line
 * names the runtime the records will describe. */
static int probe_runtimes(gbi_campaign *c, gb_err *err) {
  gb_measure_env env = c->env;
  env.sampler = NULL;
  env.idle = false;
  env.stop = NULL; /* one short launch each; a stop is seen at calibration */
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    if (!(c->s.languages >> l & 1))
      continue;
    gb_startup_group smallest = {.language = l, .order = GB_RANDOM, .size = 1};
    gb_job job = gb_job_startup(&smallest, c->s.seed, 1);
    gb_measurement m;
    int rc = gb_measure(&env, &job, &m, err);
    if (rc < 0)
      return rc;
    if (m.status != GB_REC_STATUS_OK)
      return gb_err_set(err, ENOEXEC, "the %s worker does not run: %s", gb_language_name(l),
                        m.message);
    snprintf(c->runtimes[l], sizeof c->runtimes[l], "%s", m.line.runtime);
  }
  return 0;
}

int gbi_campaign_setup_expected(gbi_campaign *c, gb_err *err) {
  c->expected = calloc(c->plan.nconfigs, sizeof *c->expected);
  c->sorts = calloc(c->plan.nconfigs, sizeof *c->sorts);
  c->launches = calloc(c->plan.nstartups, sizeof *c->launches);
  c->startup_hash = calloc(c->plan.nstartups, sizeof *c->startup_hash);
  if (!c->expected || !c->sorts || !c->launches || !c->startup_hash)
    return gb_err_set(err, ENOMEM, "out of memory");
  for (size_t i = 0; i < c->plan.nconfigs; i++) {
    const gb_config *k = &c->plan.configs[i];
    int rc = gb_expected_compute(k->algorithm, k->order, k->size, c->s.seed, &c->expected[i]);
    if (rc < 0)
      return gb_err_set(err, -rc, "cannot compute the expected counts of a configuration");
    /* A startup group generates the same input as its configurations. */
    c->startup_hash[gb_plan_startup_of(&c->plan, k)] = c->expected[i].input_hash;
  }
  return 0;
}

/* Parity (study.md, "Checks that the comparison is fair"): the worker's
 * input hash and counts against the C library's for the same input, which
 * also holds every language to the others. */
static void check_parity(const gbi_campaign *c, const gb_job *job, size_t index,
                         const gb_worker_line *line, gb_run_row *row) {
  /* index is a configuration's for a sort and a startup group's otherwise:
   * startup_hash has only nstartups entries. */
  gb_expected startup = {.input_hash = job->kind == GB_RUN_SORT ? 0 : c->startup_hash[index]};
  const gb_expected *e = job->kind == GB_RUN_SORT ? &c->expected[index] : &startup;
  const char *field = NULL;
  uint64_t got = 0, want = 0;
  if (line->input_hash != e->input_hash)
    field = "input_hash", got = line->input_hash, want = e->input_hash;
  else if (job->kind == GB_RUN_SORT && line->comparisons != e->counts.comparisons)
    field = "comparisons", got = line->comparisons, want = e->counts.comparisons;
  else if (job->kind == GB_RUN_SORT && line->writes != e->counts.writes)
    field = "writes", got = line->writes, want = e->counts.writes;
  if (!field)
    return;
  gb_config k = {job->language, job->algorithm, job->order, job->size};
  char label[64];
  if (job->kind == GB_RUN_SORT)
    gb_config_label(&k, label, sizeof label);
  else
    gb_startup_label(&(gb_startup_group){job->language, job->order, job->size}, label,
                     sizeof label);
  row->status = GB_REC_STATUS_PARITY_MISMATCH;
  if (strcmp(field, "input_hash") == 0)
    snprintf(row->message, sizeof row->message,
             "parity mismatch in %s: the %s worker's input_hash is %016" PRIx64
             ", the C library's is %016" PRIx64,
             label, gb_language_name(job->language), got, want);
  else
    snprintf(row->message, sizeof row->message,
             "parity mismatch in %s: the %s worker counted %s %" PRIu64
             ", the C library counts %" PRIu64,
             label, gb_language_name(job->language), field, got, want);
}

static gb_rec_opt_u64 some(uint64_t v) {
  return (gb_rec_opt_u64){true, v};
}

static void fill_energy(const gbi_campaign *c, const gb_measurement *m, gb_run_row *row) {
  if (!m->energy_read) {
    row->energy = c->energy;
    return;
  }
  bool ok =
      m->energy.status == GB_ENERGY_OK && (!m->idled || m->idle_energy.status == GB_ENERGY_OK);
  row->energy = ok ? GB_REC_ENERGY_OK : GB_REC_ENERGY_UNAVAILABLE;
  if (!ok)
    return;
  row->pkg_uj = some(m->energy.pkg_uj);
  if (m->energy.has_dram)
    row->dram_uj = some(m->energy.dram_uj);
  if (m->idled) {
    row->idle_pkg_uj = some(m->idle_energy.pkg_uj);
    if (m->idle_energy.has_dram)
      row->idle_dram_uj = some(m->idle_energy.dram_uj);
  }
}

static void fill_machine(const gb_machine_sample *before, const gb_machine_sample *after,
                         gb_run_row *row) {
  if (before->has_freq)
    row->freq_start_khz = some(before->freq_khz);
  if (after->has_freq)
    row->freq_end_khz = some(after->freq_khz);
  if (before->has_temp)
    row->temp_start_mc = (gb_rec_opt_i64){true, before->temp_mc};
  if (after->has_temp)
    row->temp_end_mc = (gb_rec_opt_i64){true, after->temp_mc};
}

void gbi_campaign_fill_measured(const gbi_campaign *c, const gb_measurement *m,
                                gb_run_row *row) {
  if (m->idled)
    row->idle_ns = some(m->idle_ns);
  fill_energy(c, m, row);
  snprintf(row->message, sizeof row->message, "%s", m->message);
}

void gbi_campaign_fill_run(const gbi_campaign *c, const gb_measurement *m, bool idle,
                           uint64_t started, gb_run_row *row) {
  if (!idle && c->energy == GB_REC_ENERGY_OK)
    row->energy = GB_REC_ENERGY_OFF;
  row->started_unix_ns = started;
  fill_machine(&m->machine_start, &m->machine_end, row);
}

static void fill_row(const gbi_campaign *c, const gb_job *job, const gb_measurement *m,
                     uint64_t index, gb_run_row *row) {
  *row = (gb_run_row){.run = index,
                      .kind = job->kind == GB_RUN_SORT ? GB_REC_KIND_SORT : GB_REC_KIND_STARTUP,
                      .language = job->language,
                      .algorithm = job->algorithm,
                      .order = job->order,
                      .size = job->size,
                      .seed = job->seed,
                      .sorts = job->kind == GB_RUN_SORT ? job->sorts : 0,
                      .launches = job->kind == GB_RUN_SORT ? 1 : job->launches,
                      .status = m->status,
                      .wall_ns = some(m->wall_ns),
                      .user_ns = some(m->user_ns),
                      .sys_ns = some(m->sys_ns),
                      .max_rss_kib = some(m->max_rss_kib)};
  if (m->has_line) {
    memcpy(row->input_hash, m->line.input_hash_hex, sizeof row->input_hash);
    if (job->kind == GB_RUN_SORT) {
      row->loop_ns = some(m->line.loop_ns);
      row->comparisons = some(m->line.comparisons);
      row->writes = some(m->line.writes);
    }
  }
  gbi_campaign_fill_measured(c, m, row);
}

int gbi_campaign_measure_row(gbi_campaign *c, const gb_job *job, size_t config_or_group,
                             bool idle, uint64_t index, gb_run_row *row, gb_err *err) {
  gb_measure_env env = c->env;
  env.idle = idle;
  if (!idle)
    env.sampler = NULL; /* warm-ups: time only, no idle window */
  uint64_t started = gb_realtime_ns();
  gb_measurement m;
  int rc = gb_measure(&env, job, &m, err);
  if (rc < 0)
    return rc;
  if (m.interrupted)
    return gb_err_set(err, EINTR, "interrupted during run %" PRIu64, index);
  fill_row(c, job, &m, index, row);
  gbi_campaign_fill_run(c, &m, idle, started, row);
  if (m.status == GB_REC_STATUS_OK && m.has_line)
    check_parity(c, job, config_or_group, &m.line, row);
  return 0;
}

static void label_of(const gbi_campaign *c, const gb_planned_run *r, char *buf, size_t len) {
  if (r->kind == GB_RUN_SORT)
    gb_config_label(&c->plan.configs[r->target], buf, len);
  else
    gb_startup_label(&c->plan.startups[r->target], buf, len);
}

/* A fault that leaves nothing more to measure, or a result that must not be
 * trusted, stops the campaign; a worker that failed once is recorded and
 * the campaign goes on (its case then fails validation). */
static int stop_reason(const gb_run_row *row, gb_err *err) {
  if (row->status == GB_REC_STATUS_PARITY_MISMATCH)
    return gb_err_set(err, EPROTO, "%s (run %" PRIu64 "; the campaign stopped)", row->message,
                      row->run);
  if (row->status == GB_REC_STATUS_ENERGY_VANISHED)
    return gb_err_set(err, ENODEV, "energy counters vanished in run %" PRIu64 ": %s", row->run,
                      row->message);
  return 0;
}

static gb_language run_language(const gbi_campaign *c, const gb_planned_run *r) {
  return r->kind == GB_RUN_SORT ? c->plan.configs[r->target].language
                                : c->plan.startups[r->target].language;
}

static int execute(gbi_campaign *c, gb_campaign_result *res, gb_err *err) {
  c->checkpoint_at = gb_monotonic_raw_ns();
  gbi_progress_phase(&c->progress);
  for (size_t i = c->runs_done; i < c->plan.nruns; i++) {
    if (c->o->stop && *c->o->stop) {
      res->interrupted = true;
      break;
    }
    const gb_planned_run *r = &c->plan.runs[i];
    char label[64];
    label_of(c, r, label, sizeof label);
    gbi_progress_update(&c->progress, "run", i, c->plan.nruns, label);
    gb_job job = r->kind == GB_RUN_SORT
                     ? gbi_campaign_sort_job(c, r->target, c->sorts[r->target])
                     : gbi_campaign_startup_job(c, r->target, c->launches[r->target]);
    gb_run_row row;
    int rc = gbi_campaign_measure_row(c, &job, r->target, true, i, &row, err);
    if (rc == -EINTR) { /* the run was cut short: not a row; resume measures it again */
      res->interrupted = true;
      break;
    }
    if (rc < 0 || (rc = gbi_recorder_append(c->rec, GB_REC_FILE_RUNS, &row, err)) < 0)
      return rc;
    c->runs_done = i + 1;
    gbi_progress_done(&c->progress, r->kind == GB_RUN_SORT ? GB_ETA_SORT : GB_ETA_STARTUP,
                      c->estimate.run_ns[run_language(c, r)]);
    if ((rc = gbi_campaign_meta_checkpoint(c, err)) < 0)
      return rc;
    if (row.status != GB_REC_STATUS_OK)
      gbi_campaign_warn(c, "run %zu (%s): %s: %s", i, label, gb_rec_status_name(row.status),
                        row.message);
    if ((rc = stop_reason(&row, err)) < 0)
      return rc;
  }
  if (c->runs_done == c->plan.nruns)
    gbi_progress_update(&c->progress, "run", c->runs_done, c->plan.nruns, "done");
  gbi_progress_break(&c->progress);
  return 0;
}

int gbi_campaign_rig(gbi_campaign *c, gb_err *err) {
  int rc = setup_pinning(c, err);
  if (rc == 0)
    rc = setup_machine(c, err);
  if (rc == 0)
    rc = setup_energy(c, err);
  if (rc < 0)
    return rc;
  if (geteuid() == 0 && !gb_privilege_drops(&c->owner))
    gbi_campaign_warn(c, "running as root without sudo: the workers run as root too (start "
                         "greenbench with sudo from your own account to run them as you)");
  c->env = (gb_measure_env){.workers = &c->o->workers,
                            .spawner = c->o->spawner,
                            .sampler = c->sampler,
                            .machine = c->machine,
                            .timeout_ns = (uint64_t)c->s.timeout_s * 1000000000u,
                            .idle = true,
                            .stop = c->o->stop};
  gb_workerenv_apply(&c->owner, &c->workerenv, &c->env);
  return 0;
}

static int prepare(gbi_campaign *c, gb_err *err) {
  int rc = gbi_campaign_rig(c, err);
  return rc < 0 ? rc : probe_runtimes(c, err);
}

int gbi_campaign_enter(gbi_campaign *c, gb_err *err) {
  int rc = gb_workerenv_for_caller(&c->owner, &c->workerenv, err);
  /* Under sudo every path of the user's (--out, --resume and what is in
   * them) is opened as the user would open it (docs/security.md). */
  if (rc == 0 && (rc = gb_privilege_fs_enter(&c->owner, &c->fs)) < 0)
    rc = gb_err_set(err, -rc, "cannot open files as uid %u: %s", (unsigned)c->owner.uid,
                    strerror(-rc));
  return rc;
}

int gb_campaign_check_out(const char *out_dir, gb_err *err) {
  return gbi_recorder_check_new(out_dir, err);
}

static int open_records(gbi_campaign *c, gb_err *err) {
  gbi_recorder_opts ro = {.dir = c->o->out_dir,
                          .resume = c->o->resume,
                          .owner = gb_privilege_drops(&c->owner) ? &c->owner : NULL};
  return gbi_recorder_open(&ro, &c->rec, err);
}

/* A resume changes nothing before every check has passed: only then is a
 * cut-short last line cut off. */
static int repair_records(gbi_campaign *c, gb_err *err) {
  bool dropped = false;
  int rc = gbi_recorder_repair(c->rec, &dropped, err);
  if (rc == 0 && dropped)
    gbi_campaign_warn(c,
                      "%s/runs.csv ended in a cut-short line; it was dropped and that run "
                      "will be measured again",
                      c->o->out_dir);
  return rc;
}

/* The model of the plan, and the items ahead for the progress line's ETA.
 * Without a model (it cannot fail on a plan that was built) the ETA reads
 * "?": a campaign never stops for its estimate. */
static void plan_eta(gbi_campaign *c, bool calibration_ahead) {
  gb_err ignored;
  if (gb_estimate_plan(&c->s, &c->plan, &c->estimate, &ignored) == 0)
    gb_eta_start(&c->progress.eta, &c->estimate, &c->plan, calibration_ahead, c->runs_done);
}

/* A new campaign: plan, records, calibration. A resumed one: the recorded
 * settings' plan, the recorded calibration, the rows already done. c->started
 * is set once the records are the campaign's own: from then on meta.json
 * says how far they go. */
static int start(gbi_campaign *c, gb_err *err) {
  int rc;
  if (c->o->resume) {
    if ((rc = open_records(c, err)) < 0 || (rc = gbi_campaign_resume_load(c, err)) < 0 ||
        (rc = prepare(c, err)) < 0 || (rc = gbi_campaign_resume_check(c, err)) < 0 ||
        (rc = repair_records(c, err)) < 0)
      return rc;
    c->started = true;
    plan_eta(c, false);
    return 0;
  }
  c->s = c->o->settings;
  if ((rc = gb_settings_check(&c->s, err)) < 0 ||
      (rc = gb_plan_build(&c->s, &c->plan, err)) < 0 ||
      (rc = gbi_campaign_setup_expected(c, err)) < 0 || (rc = prepare(c, err)) < 0 ||
      (rc = open_records(c, err)) < 0 || (rc = gbi_campaign_meta_new(c, err)) < 0)
    return rc;
  c->started = true;
  plan_eta(c, true);
  if ((rc = gbi_campaign_write_environment(c, err)) < 0 ||
      (rc = gbi_campaign_calibrate(c, err)) < 0)
    return rc;
  return gbi_campaign_meta_calibration(c, err);
}

void gbi_campaign_unrig(gbi_campaign *c) {
  gb_sampler_destroy(c->sampler);
  gb_rapl_close(c->rapl);
  gb_rapl_close(c->cross);
  gb_machine_sampler_close(c->machine);
  if (c->topo)
    hwloc_topology_destroy(c->topo);
  gbi_recorder_close(c->rec);
}

static void teardown(gbi_campaign *c) {
  gbi_campaign_unrig(c);
  gb_meta_free(&c->meta);
  gb_plan_free(&c->plan);
  free(c->expected);
  free(c->sorts);
  free(c->launches);
  free(c->startup_hash);
}

int gb_campaign_run(const gb_campaign_opts *o, gb_campaign_result *result, gb_err *err) {
  gbi_campaign c = {.o = o, .log = o->log ? o->log : stderr};
  gb_meta_init(&c.meta);
  gbi_progress_init(&c.progress, c.log, o->progress);
  gb_campaign_result res = {0};
  int rc = gb_machine_label(o->machine_label, c.label, sizeof c.label, err);
  if (rc == 0)
    rc = gbi_campaign_enter(&c, err);
  if (rc == 0)
    rc = start(&c, err);
  if (rc == 0)
    rc = execute(&c, &res, err);
  if (c.started) {
    /* Whatever happened, meta.json says how far the records go. */
    gb_err merr;
    int mrc = gbi_campaign_meta_finish(&c, rc == 0 && c.runs_done == c.plan.nruns, &merr);
    if (rc == 0 && mrc < 0) {
      rc = mrc;
      *err = merr;
    }
  }
  res.runs_done = c.runs_done;
  res.runs_total = c.plan.nruns;
  res.completed = rc == 0 && c.runs_done == c.plan.nruns;
  res.energy = c.energy == GB_REC_ENERGY_OK;
  teardown(&c);
  gb_privilege_fs_leave(&c.fs);
  if (result)
    *result = res;
  return rc;
}
