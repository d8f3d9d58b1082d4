/* A suite campaign (suitecampaign.h): set-up with the study's machinery,
 * the build steps and version commands, the checks of every process's
 * command before anything is measured, then the calibration
 * (suitecampaign_measure.c) and the shuffled measured runs. */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/clock.h"
#include "greenbench/machine.h"
#include "greenbench/paths.h"
#include "greenbench/text.h"
#include "suitecampaign_internal.h"

#ifndef GB_VERSION
#define GB_VERSION "unknown"
#endif

/* A regular file we may execute. */
static bool executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int gb_suite_resolve_program(const char *name, char *buf, size_t len) {
  if (strchr(name, '/')) {
    if (snprintf(buf, len, "%s", name) >= (int)len)
      return -ENAMETOOLONG;
    return executable(buf) ? 0 : -ENOENT;
  }
  const char *path = getenv("PATH");
  for (const char *d = path ? path : "/usr/bin:/bin"; *d;) {
    size_t n = strcspn(d, ":");
    if (snprintf(buf, len, "%.*s%s%s", (int)n, d, n ? "/" : "", name) < (int)len &&
        executable(buf))
      return 0;
    d += n + (d[n] == ':');
  }
  return -ENOENT;
}

/* A build step or version command: run once, not measured, as the workers
 * run. Returns 0 with *r (free it) when it exited 0; else -errno with one
 * line naming what. */
static int run_plain(gbi_suite_campaign *k, const gb_suite_language *l,
                     const gb_suite_workload *w, gb_suite_template_kind t, gb_spawn_result *r,
                     gb_err *err) {
  const char *what = t == GB_SUITE_BUILD ? "build step" : "version command";
  char who[GB_SUITE_NAME_MAX * 2 + 2];
  snprintf(who, sizeof who, "%s%s%s", l->name, w ? " " : "", w ? w->name : "");
  gb_suite_vars v = {.workload = w,
                     .suitedir = k->s->dir,
                     .builddir = k->builddir,
                     .workers = gbi_suite_workers(k)};
  char **argv, program[PATH_MAX];
  gb_err e;
  int rc = gb_suite_expand(&l->t[t], &v, &argv, &e);
  if (rc < 0)
    return gb_err_set(err, -rc, "the %s of %s: %s", what, who, e.msg);
  if ((rc = gb_suite_resolve_program(argv[0], program, sizeof program)) < 0) {
    gb_err_set(err, -rc, "the %s of %s: program %s not found%s", what, who, argv[0],
               strchr(argv[0], '/') ? "" : " on PATH");
    gb_suite_argv_free(argv);
    return rc;
  }
  char *given = argv[0];
  argv[0] = program;
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = k->c.env.timeout_ns;
  o.run_as = k->c.env.run_as;
  o.envp = k->c.env.envp;
  o.stop = k->c.o->stop;
  rc = gb_spawn_run(&o, r, &e);
  argv[0] = given;
  gb_suite_argv_free(argv);
  if (rc < 0)
    return gb_err_set(err, -rc, "the %s of %s: %s", what, who, e.msg);
  if (r->status == GB_SPAWN_OK)
    return 0;
  size_t n = r->err_tail ? strcspn(r->err_tail, "\n") : 0;
  gb_err_set(err, ENOEXEC, "the %s of %s failed: %s%s%.*s", what, who, r->message,
             n ? ": " : "", (int)(n > 300 ? 300 : n), n ? r->err_tail : "");
  gb_spawn_result_free(r);
  return -ENOEXEC;
}

/* Whether the plan measures language l (on workload w; SIZE_MAX: any). */
static bool planned(const gbi_suite_campaign *k, size_t l, size_t w) {
  for (size_t i = 0; i < k->plan.nconfigs; i++)
    if (k->plan.configs[i].language == l && (w == SIZE_MAX || k->plan.configs[i].workload == w))
      return true;
  return false;
}

/* {builddir}, then every build step: each workload, each language that has
 * one. */
static int build(gbi_suite_campaign *k, gb_err *err) {
  int rc = gb_path_join(k->builddir, sizeof k->builddir, k->c.o->out_dir, "build", err);
  if (rc < 0)
    return rc;
  if (mkdir(k->builddir, 0755) < 0 && errno != EEXIST)
    return gb_err_set(err, errno, "cannot create folder %s: %s", k->builddir, strerror(errno));
  if (gb_privilege_drops(&k->c.owner) &&
      (rc = gb_privilege_chown_path(&k->c.owner, k->builddir, err)) < 0)
    return rc;
  for (size_t w = 0; w < k->s->n_workloads; w++)
    for (size_t l = 0; l < k->s->n_languages; l++) {
      if (k->s->languages[l].t[GB_SUITE_BUILD].n == 0 || !planned(k, l, w))
        continue;
      gb_spawn_result r;
      if ((rc = run_plain(k, &k->s->languages[l], &k->s->workloads[w], GB_SUITE_BUILD, &r,
                          err)) < 0)
        return rc;
      gb_spawn_result_free(&r);
    }
  return 0;
}

/* Every measured language's version command: the first line of its
 * stdout. */
static int versions(gbi_suite_campaign *k, gb_err *err) {
  k->meta.n_languages = 0;
  for (size_t l = 0; l < k->s->n_languages; l++) {
    if (!planned(k, l, SIZE_MAX))
      continue;
    const gb_suite_language *lang = &k->s->languages[l];
    gb_srec_language *m = &k->meta.languages[k->meta.n_languages++];
    snprintf(m->name, sizeof m->name, "%s", lang->name);
    snprintf(m->title, sizeof m->title, "%s", lang->title);
    gb_spawn_result r;
    int rc = run_plain(k, lang, NULL, GB_SUITE_VERSION, &r, err);
    if (rc < 0)
      return rc;
    size_t n = strcspn(r.out, "\n");
    snprintf(m->version, sizeof m->version, "%.*s", (int)n, r.out);
    gb_spawn_result_free(&r);
    for (char *p = m->version; *p; p++)
      if ((unsigned char)*p < 0x20 || *p == 0x7f)
        *p = ' ';
    if (n == 0)
      return gb_err_set(err, ENOEXEC,
                        "the version command of %s printed nothing on stdout (its first line "
                        "is the version)",
                        lang->name);
  }
  return 0;
}

/* Every measured process's command can be made and its program found:
 * checked before anything is measured (after the builds, which make
 * programs). */
static int check_commands(gbi_suite_campaign *k, gb_err *err) {
  for (size_t i = 0; i < k->plan.nconfigs; i++) {
    const gb_suite_config *cf = &k->plan.configs[i];
    const gb_suite_language *l = &k->s->languages[cf->language];
    for (gb_suite_template_kind t = GB_SUITE_COMMAND; t <= GB_SUITE_STARTUP; t++) {
      gb_suite_vars v = {.workload = &k->s->workloads[cf->workload],
                         .values = cf->values,
                         .has_reps = t == GB_SUITE_COMMAND,
                         .reps = 1,
                         .has_seed = true,
                         .seed = k->c.s.seed,
                         .suitedir = k->s->dir,
                         .builddir = k->builddir,
                         .workers = gbi_suite_workers(k)};
      char **argv, program[PATH_MAX], label[128];
      gb_err e;
      gb_suite_config_label(k->s, cf, label, sizeof label);
      const char *what = t == GB_SUITE_COMMAND ? "command" : "startup";
      int rc = gb_suite_expand(&l->t[t], &v, &argv, &e);
      if (rc < 0)
        return gb_err_set(err, -rc, "%s: %s: %s", label, what, e.msg);
      rc = gb_suite_resolve_program(argv[0], program, sizeof program);
      if (rc < 0)
        gb_err_set(err, -rc, "%s: %s: program %s not found%s", label, what, argv[0],
                   strchr(argv[0], '/') ? "" : " on PATH");
      gb_suite_argv_free(argv);
      if (rc < 0)
        return rc;
    }
  }
  return 0;
}

static int write_meta(gbi_suite_campaign *k, gb_err *err) {
  char *text;
  int rc = gb_srec_meta_write(&k->meta, &text, err);
  if (rc < 0)
    return rc;
  rc = gbi_recorder_write_text(k->c.rec, "meta.json", text, err);
  free(text);
  return rc;
}

static int write_suite(gbi_suite_campaign *k, gb_err *err) {
  char *text = malloc(k->o->suite_len + 1);
  if (!text)
    return gb_err_set(err, ENOMEM, "out of memory");
  memcpy(text, k->o->suite_text, k->o->suite_len);
  text[k->o->suite_len] = '\0';
  int rc = gbi_recorder_write_text(k->c.rec, "suite.json", text, err);
  free(text);
  return rc;
}

static void meta_new(gbi_suite_campaign *k) {
  gb_srec_meta *m = &k->meta;
  snprintf(m->suite_name, sizeof m->suite_name, "%s", k->s->name);
  snprintf(m->suite_hash, sizeof m->suite_hash, "%s", k->s->hash);
  snprintf(m->greenbench_version, sizeof m->greenbench_version, "%s", GB_VERSION);
  m->settings = k->c.s;
  m->energy_status = k->c.energy;
  gb_str_copy(m->energy_reason, sizeof m->energy_reason,
              k->c.energy == GB_REC_ENERGY_OK ? "" : k->c.energy_reason);
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  m->cpus_online = online > 0 ? (uint64_t)online : 0;
  char cpus[GB_PIN_LIST_MAX] = "";
  if (gb_pin_format_cpus(k->c.pin.cpus, k->c.pin.ncpus, cpus, sizeof cpus) < 0)
    snprintf(cpus, sizeof cpus, "?");
  char pinning[GB_PIN_LIST_MAX + 512];
  snprintf(pinning, sizeof pinning, "CPUs %s: %s; %s", cpus, k->c.pin.reason,
           k->c.binding.mem_bound ? "memory bound to their node" : k->c.binding.mem_note);
  gb_str_copy(m->pinning, sizeof m->pinning, pinning);
  m->has_label = true;
  gb_str_copy(m->machine_label, sizeof m->machine_label, k->c.label);
  m->started_unix_ns = gb_realtime_ns();
}

static int open_records(gbi_suite_campaign *k, gb_err *err) {
  gbi_recorder_opts ro = {.dir = k->c.o->out_dir,
                          .resume = k->c.o->resume,
                          .owner = gb_privilege_drops(&k->c.owner) ? &k->c.owner : NULL,
                          .header = gb_srec_header};
  return gbi_recorder_open(&ro, &k->c.rec, err);
}

/* {workers}, greenbench's own workers' folder, when a template names it:
 * a suite that needs them does not start without them. */
static int find_workers(gbi_suite_campaign *k, gb_err *err) {
  k->workers[0] = '\0';
  return gb_suite_uses(k->s, "workers")
             ? gb_workers_dir_find(k->workers, sizeof k->workers, err)
             : 0;
}

/* Everything before the first measured process. */
static int start(gbi_suite_campaign *k, gb_err *err) {
  int rc;
  if ((rc = find_workers(k, err)) < 0)
    return rc;
  k->c.s = k->c.o->settings;
  if ((rc = gb_suite_plan_select(k->s, &k->c.s, k->o->selected, &k->plan, err)) < 0 ||
      (rc = gbi_recorder_check_new(k->c.o->out_dir, err)) < 0)
    return rc;
  size_t n = k->plan.nconfigs;
  k->reps = calloc(n, sizeof *k->reps);
  k->launches = calloc(n, sizeof *k->launches);
  k->refs = calloc(k->plan.ncases, sizeof *k->refs);
  k->cost = calloc(n, sizeof *k->cost);
  if (!k->reps || !k->launches || !k->refs || !k->cost)
    return gb_err_set(err, ENOMEM, "out of memory");
  if ((rc = gbi_campaign_rig(&k->c, err)) < 0 || (rc = open_records(k, err)) < 0 ||
      (rc = build(k, err)) < 0 || (rc = versions(k, err)) < 0 ||
      (rc = check_commands(k, err)) < 0)
    return rc;
  meta_new(k);
  k->meta_live = true;
  if ((rc = write_suite(k, err)) < 0 || (rc = write_meta(k, err)) < 0)
    return rc;
  return gbi_suite_calibrate(k, err);
}

/* A resumed campaign: every check before anything is written; then the
 * recorded meta.json goes on (its start, versions and facts). */
static int resume(gbi_suite_campaign *k, gb_err *err) {
  gb_srec_meta *rec = calloc(1, sizeof *rec);
  if (!rec)
    return gb_err_set(err, ENOMEM, "out of memory");
  int rc;
  if ((rc = find_workers(k, err)) < 0 || (rc = open_records(k, err)) < 0 ||
      (rc = gbi_suite_resume_load(k, rec, err)) < 0 ||
      (rc = gbi_campaign_rig(&k->c, err)) < 0 || (rc = build(k, err)) < 0 ||
      (rc = versions(k, err)) < 0 || (rc = check_commands(k, err)) < 0) {
    free(rec);
    return rc;
  }
  meta_new(k); /* this machine's facts, to compare */
  if ((rc = gbi_suite_resume_check(k, rec, err)) == 0) {
    k->meta = *rec;
    k->meta_live = true;
  }
  free(rec);
  return rc;
}

static int execute(gbi_suite_campaign *k, gb_campaign_result *res, gb_err *err) {
  size_t n = k->plan.nconfigs;
  gbi_suite_eta_ahead(&k->c.progress.eta, &k->plan, k->cost, n, n, k->runs_done);
  gbi_progress_phase(&k->c.progress);
  res->runs_done = k->runs_done;
  for (size_t i = k->runs_done; i < k->plan.nruns; i++) {
    if (k->c.o->stop && *k->c.o->stop) {
      res->interrupted = true;
      break;
    }
    const gb_planned_run *r = &k->plan.runs[i];
    bool startup = r->kind == GB_RUN_STARTUP;
    char label[128];
    (startup ? gb_suite_startup_label
             : gb_suite_config_label)(k->s, &k->plan.configs[r->target], label, sizeof label);
    gbi_progress_update(&k->c.progress, "run", i, k->plan.nruns, label);
    gb_srec_row row;
    int rc = gbi_suite_measure_row(k, r->target, startup,
                                   startup ? k->launches[r->target] : k->reps[r->target], true,
                                   i, &row, err);
    if (rc == -EINTR) {
      res->interrupted = true;
      break;
    }
    if (rc < 0 || (rc = gbi_suite_append(k, GB_REC_FILE_RUNS, &row, err)) < 0)
      return rc;
    res->runs_done = i + 1;
    const gbi_suite_cost *cost = &k->cost[r->target];
    gbi_progress_done(&k->c.progress, startup ? GB_ETA_STARTUP : GB_ETA_SORT,
                      startup ? cost->batch_ns : cost->run_ns);
    if (row.status != GB_REC_STATUS_OK)
      gbi_campaign_warn(&k->c, "run %zu (%s): %s: %s", i, label, gb_rec_status_name(row.status),
                        row.message);
    if ((rc = gbi_suite_stop_reason(&row, false, err)) < 0)
      return rc;
  }
  if (res->runs_done == k->plan.nruns)
    gbi_progress_update(&k->c.progress, "run", res->runs_done, k->plan.nruns, "done");
  gbi_progress_break(&k->c.progress);
  return 0;
}

int gb_suite_campaign_run(const gb_suite_campaign_opts *o, gb_campaign_result *result,
                          gb_err *err) {
  gbi_suite_campaign *k = calloc(1, sizeof *k);
  if (!k)
    return gb_err_set(err, ENOMEM, "out of memory");
  k->o = o;
  k->s = o->suite;
  k->c.o = &o->base;
  k->c.log = o->base.log ? o->base.log : stderr;
  gb_meta_init(&k->c.meta);
  gbi_progress_init(&k->c.progress, k->c.log, o->base.progress);
  gb_campaign_result res = {0};
  int rc = gb_machine_label(o->base.machine_label, k->c.label, sizeof k->c.label, err);
  if (rc == 0)
    rc = gbi_campaign_enter(&k->c, err);
  if (rc == 0)
    rc = o->base.resume ? resume(k, err) : start(k, err);
  if (rc == 0)
    rc = execute(k, &res, err);
  if (k->meta_live) {
    /* Whatever happened, meta.json says how far the records go. */
    k->meta.finished_unix_ns = gb_realtime_ns();
    k->meta.complete = rc == 0 && res.runs_done == k->plan.nruns;
    gb_err merr;
    int mrc = write_meta(k, &merr);
    if (rc == 0 && mrc < 0) {
      rc = mrc;
      *err = merr;
    }
  }
  res.runs_total = k->plan.nruns;
  res.completed = rc == 0 && res.runs_done == k->plan.nruns;
  res.energy = k->c.energy == GB_REC_ENERGY_OK;
  gbi_campaign_unrig(&k->c);
  gb_meta_free(&k->c.meta);
  gb_privilege_fs_leave(&k->c.fs);
  gb_suite_plan_free(&k->plan);
  free(k->reps);
  free(k->launches);
  free(k->refs);
  free(k->cost);
  free(k);
  if (result)
    *result = res;
  return rc;
}
