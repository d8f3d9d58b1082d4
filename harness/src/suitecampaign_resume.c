/* --resume of a suite campaign (suitecampaign.h), as the study resumes
 * (campaign_resume.c, resume.h): the suite and the settings are the
 * records', the plan is rebuilt from them (the same shuffled order), the
 * calibration is replayed from warmups.csv (the study's rule on the
 * recorded loop times gives the same reps and batch sizes), the rows on
 * disk must be the plan's first runs, and parity starts from the first ok
 * process of each case that was recorded. Nothing is written until every
 * check has passed. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "calibration.h"
#include "greenbench/files.h"
#include "greenbench/paths.h"
#include "resume.h"
#include "suitecampaign_internal.h"

/* ---- the suite, before the campaign (the command line) ---- */

static void hash_hex(const char *text, size_t len, char out[GB_SUITE_HASH_LEN + 1]) {
  XXH128_canonical_t h;
  XXH128_canonicalFromHash(&h, XXH3_128bits(text, len));
  for (size_t i = 0; i < sizeof h.digest; i++)
    snprintf(out + 2 * i, 3, "%02x", h.digest[i]);
}

/* dir/name's bytes into buf (cap); 0 or -errno naming the file. */
static int read_in(const char *dir, const char *name, char *buf, size_t cap, size_t *len,
                   gb_err *err) {
  char path[PATH_MAX];
  gb_err e;
  int rc = gb_path_join(path, sizeof path, dir, name, &e);
  if (rc == 0)
    rc = gb_read_small_file(path, buf, cap, len, &e);
  return rc < 0 ? gb_err_set(err, -rc, "cannot resume %s: %s", dir, e.msg) : 0;
}

static int load_suite(const char *dir, const char *file, const gb_srec_meta *m, char *text,
                      size_t *len, gb_suite *s, gb_err *err) {
  char hash[GB_SUITE_HASH_LEN + 1];
  int rc = read_in(dir, "suite.json", text, GB_SUITE_FILE_MAX + 1, len, err);
  if (rc < 0)
    return rc;
  hash_hex(text, *len, hash);
  if (strcmp(hash, m->suite_hash) != 0)
    return gb_err_set(err, EINVAL,
                      "cannot resume %s: the suite changed: %s/suite.json's XXH128 is %s, "
                      "meta.json records %s",
                      dir, dir, hash, m->suite_hash);
  if (file) {
    char *given = malloc(GB_SUITE_FILE_MAX + 1);
    size_t n = 0;
    gb_err e;
    if (!given)
      return gb_err_set(err, ENOMEM, "out of memory");
    rc = gb_read_small_file(file, given, GB_SUITE_FILE_MAX + 1, &n, &e);
    if (rc == 0)
      hash_hex(given, n, hash);
    free(given);
    if (rc < 0)
      return gb_err_set(err, -rc, "cannot resume %s: suite %s: %s", dir, file, e.msg);
    if (strcmp(hash, m->suite_hash) != 0)
      return gb_err_set(err, EINVAL,
                        "cannot resume %s: the suite changed: %s's XXH128 is %s, meta.json "
                        "records %s",
                        dir, file, hash, m->suite_hash);
  }
  char path[PATH_MAX];
  gb_err e;
  if (!file && (rc = gb_path_join(path, sizeof path, dir, "suite.json", err)) < 0)
    return rc;
  if ((rc = gb_suite_parse(text, *len, file ? file : path, s, &e)) < 0)
    return gb_err_set(err, -rc, "cannot resume %s: %s", dir, e.msg);
  if (!file && gb_suite_uses(s, "suitedir")) {
    gb_suite_free(s);
    return gb_err_set(err, EINVAL,
                      "cannot resume %s: the suite's commands use {suitedir}, the suite file's "
                      "folder, which the records do not hold: give the suite file too (--suite "
                      "FILE)",
                      dir);
  }
  return 0;
}

int gb_suite_resume_load(const char *dir, const char *file, gb_suite *s, char **text,
                         size_t *len, gb_err *err) {
  char *buf = malloc(GB_SUITE_FILE_MAX + 1);
  gb_srec_meta *m = calloc(1, sizeof *m);
  int rc = buf && m ? 0 : gb_err_set(err, ENOMEM, "out of memory");
  gb_err e;
  if (rc == 0)
    rc = read_in(dir, "meta.json", buf, GB_SUITE_FILE_MAX + 1, len, err);
  if (rc == 0 && (rc = gb_srec_meta_parse(buf, *len, m, &e)) < 0)
    gb_err_set(err, -rc, "cannot resume %s: %s", dir, e.msg);
  if (rc == 0 && m->complete)
    rc = gbi_resume_complete(dir, err);
  if (rc == 0)
    rc = load_suite(dir, file, m, buf, len, s, err);
  free(m);
  if (rc < 0) {
    free(buf);
    return rc;
  }
  *text = buf;
  return 0;
}

/* ---- the records, in the campaign ---- */

static const char *dir_of(const gbi_suite_campaign *k) {
  return k->c.o->out_dir;
}

/* The configuration a row is of, or nconfigs. */
static size_t config_of(const gbi_suite_campaign *k, const gb_srec_row *row) {
  for (size_t i = 0; i < k->plan.nconfigs; i++) {
    const gb_suite_config *cf = &k->plan.configs[i];
    const gb_suite_workload *w = &k->s->workloads[cf->workload];
    char params[GB_SREC_PARAMS_MAX];
    if (strcmp(row->language, k->s->languages[cf->language].name) == 0 &&
        strcmp(row->workload, w->name) == 0 &&
        gb_srec_params_text(w, cf->values, params, sizeof params) >= 0 &&
        strcmp(row->params, params) == 0)
      return i;
  }
  return k->plan.nconfigs;
}

static int not_calibration(const gbi_suite_campaign *k, const gb_srec_row *row, gb_err *err) {
  return gb_err_set(err, EINVAL,
                    "cannot resume %s: warmups.csv line %zu is not the calibration's warm-up "
                    "(were the records edited?)",
                    dir_of(k), row->line);
}

/* The next warm-up row of configuration i and kind after *pos. */
static const gb_srec_row *next_warmup(const gbi_suite_campaign *k, const gb_srec_records *r,
                                      size_t i, gb_srec_kind kind, size_t *pos) {
  for (; *pos < r->n_warmups; (*pos)++) {
    const gb_srec_row *row = &r->warmups[*pos];
    if (row->kind == kind && config_of(k, row) == i) {
      (*pos)++;
      return row;
    }
  }
  return NULL;
}

/* Configuration i's calibration, as gbi_suite_calibrate ran it, on the
 * recorded warm-ups. */
static int replay_config(gbi_suite_campaign *k, const gb_srec_records *r, size_t i,
                         gbi_calibration *done, uint64_t *expected_wall, gb_err *err) {
  gbi_calibration cb;
  gbi_suite_calibration_start(k, i, done, &cb);
  size_t pos = 0;
  const gb_srec_row *first = next_warmup(k, r, i, GB_SREC_KIND_WORK, &pos);
  if (first && first->reps == 1 && gbi_calibration_next(&cb) != 1)
    /* Recorded before first warm-ups were predicted: a probe, as then. */
    gbi_calibration_start(&cb, (unsigned)k->c.s.warmups, k->c.s.target_ms * 1000000u, 0);
  gbi_warmup_time t = {0, 0};
  pos = 0;
  for (uint64_t count; (count = gbi_calibration_next(&cb)) != 0;) {
    const gb_srec_row *w = next_warmup(k, r, i, GB_SREC_KIND_WORK, &pos);
    if (!w || w->status != GB_REC_STATUS_OK)
      return gbi_resume_uncalibrated(dir_of(k), err);
    if (w->reps != count)
      return not_calibration(k, w, err);
    t = (gbi_warmup_time){w->loop_ns.value, w->wall_ns.value};
    gbi_calibration_record(&cb, count, t.loop_ns);
  }
  const gb_srec_row *extra = next_warmup(k, r, i, GB_SREC_KIND_WORK, &pos);
  if (extra)
    return not_calibration(k, extra, err);
  done[i] = cb;
  k->reps[i] = gbi_calibration_sorts(&cb);
  *expected_wall = gbi_expected_wall(t, cb.last_sorts, k->reps[i]);
  gbi_suite_cost_config(&k->cost[i], 0, t, *expected_wall, (unsigned)k->c.s.warmups);
  return 0;
}

static int replay_startup(gbi_suite_campaign *k, const gb_srec_records *r, size_t i,
                          uint64_t expected_wall, gb_err *err) {
  double walls[64], run = (double)expected_wall;
  size_t n = 0, pos = 0;
  for (unsigned w = 0; w < k->c.s.warmups && w < 64; w++) {
    const gb_srec_row *row = next_warmup(k, r, i, GB_SREC_KIND_STARTUP, &pos);
    if (!row || row->status != GB_REC_STATUS_OK)
      return gbi_resume_uncalibrated(dir_of(k), err);
    walls[n++] = (double)row->wall_ns.value;
  }
  const gb_srec_row *extra = next_warmup(k, r, i, GB_SREC_KIND_STARTUP, &pos);
  if (extra)
    return not_calibration(k, extra, err);
  if (gbi_startup_batch(walls, n, &run, 1, &k->launches[i]) < 0)
    return gbi_resume_uncalibrated(dir_of(k), err);
  gbi_suite_cost_startup(&k->cost[i], k->launches[i], walls, n);
  return 0;
}

/* The rows on disk must be the plan's first runs, in order, with the
 * calibrated reps and batch sizes; a parity mismatch stopped the campaign
 * for good. */
static int check_rows(gbi_suite_campaign *k, const gb_srec_records *r, gb_err *err) {
  if (r->n_runs > k->plan.nruns)
    return gb_err_set(err, EINVAL, "cannot resume %s: runs.csv has more rows than planned",
                      dir_of(k));
  for (size_t i = 0; i < r->n_runs; i++) {
    const gb_srec_row *row = &r->runs[i];
    const gb_planned_run *p = &k->plan.runs[i];
    bool startup = p->kind == GB_RUN_STARTUP;
    bool same =
        row->kind == (startup ? GB_SREC_KIND_STARTUP : GB_SREC_KIND_WORK) &&
        config_of(k, row) == p->target &&
        (startup ? row->launches == k->launches[p->target] : row->reps == k->reps[p->target]);
    if (!same)
      return gbi_resume_not_planned(dir_of(k), row->line, i, err);
    if (row->status == GB_REC_STATUS_PARITY_MISMATCH)
      return gb_err_set(err, EINVAL,
                        "cannot resume %s: runs.csv line %zu is a parity mismatch, which "
                        "stopped the campaign: its programs disagree, so start a new campaign "
                        "once they agree",
                        dir_of(k), row->line);
  }
  return 0;
}

/* A recorded ok work row as the contract line it was. */
static int line_of(const gb_srec_row *row, gb_contract_line *l) {
  *l = (gb_contract_line){.kind = GB_CONTRACT_MEASURED, .loop_ns = row->loop_ns.value};
  memcpy(l->input_hash_hex, row->input_hash, sizeof l->input_hash_hex);
  memcpy(l->output_hash_hex, row->output_hash, sizeof l->output_hash_hex);
  l->input_hash = strtoull(row->input_hash, NULL, 16);
  l->output_hash = strtoull(row->output_hash, NULL, 16);
  for (const char *p = row->counters; *p;) {
    if (l->n_counters == GB_SUITE_COUNTERS_MAX)
      return -EINVAL;
    gb_suite_counter *c = &l->counters[l->n_counters++];
    size_t n = strcspn(p, "=");
    if (p[n] != '=' || n > GB_SUITE_NAME_MAX)
      return -EINVAL;
    memcpy(c->name, p, n);
    c->name[n] = '\0';
    char *end;
    c->value = strtoull(p + n + 1, &end, 10);
    p = *end == ';' ? end + 1 : end;
  }
  return 0;
}

/* Parity goes on from the first ok work process of each case recorded:
 * calibration's warm-ups (run first), then the measured runs. */
static int restore_refs(gbi_suite_campaign *k, const gb_srec_records *r, gb_err *err) {
  for (size_t f = 0; f < 2; f++) {
    const gb_srec_row *rows = f ? r->runs : r->warmups;
    for (size_t i = 0, n = f ? r->n_runs : r->n_warmups; i < n; i++) {
      size_t c = config_of(k, &rows[i]);
      if (rows[i].kind != GB_SREC_KIND_WORK || rows[i].status != GB_REC_STATUS_OK ||
          c == k->plan.nconfigs)
        continue;
      const gb_suite_config *cf = &k->plan.configs[c];
      gbi_suite_ref *ref = &k->refs[cf->kase];
      if (ref->have)
        continue;
      if (line_of(&rows[i], &ref->line) < 0)
        return gb_err_set(err, EINVAL,
                          "cannot resume %s: %s line %zu: counters: cannot read %s", dir_of(k),
                          f ? "runs.csv" : "warmups.csv", rows[i].line, rows[i].counters);
      ref->have = true;
      snprintf(ref->from, sizeof ref->from, "%s", k->s->languages[cf->language].name);
    }
  }
  return 0;
}

static int check_settings(gbi_suite_campaign *k, gb_err *err) {
  static const gbi_resume_field fields[] = {
#define F GBI_RESUME_FIELD
      F(runs), F(warmups), F(target_ms), F(energy), F(seed), F(timeout_s),
#undef F
  };
  if (!k->c.o->settings_given)
    return 0;
  return gbi_resume_compare(dir_of(k), &k->c.s, &k->c.o->settings, fields,
                            sizeof fields / sizeof fields[0], err);
}

int gbi_suite_resume_load(gbi_suite_campaign *k, gb_srec_meta *meta, gb_err *err) {
  gb_srec_records *r;
  gb_err e;
  int rc = gb_srec_read(dir_of(k), &r, &e);
  if (rc < 0)
    return gb_err_set(err, -rc, "cannot resume %s: %s", dir_of(k), e.msg);
  if (r->meta.complete)
    rc = gbi_resume_complete(dir_of(k), err);
  else if (strcmp(r->meta.suite_hash, k->s->hash) != 0)
    rc = gb_err_set(
        err, EINVAL,
        "cannot resume %s: the suite changed: its XXH128 is %s, meta.json records %s",
        dir_of(k), k->s->hash, r->meta.suite_hash);
  k->c.s = r->meta.settings;
  if (rc == 0)
    rc = check_settings(k, err);
  if (rc == 0 && (rc = gb_suite_plan_build(k->s, &k->c.s, &k->plan, &e)) < 0)
    gb_err_set(err, -rc, "cannot resume %s: %s", dir_of(k), e.msg);
  size_t n = k->plan.nconfigs;
  uint64_t *walls = NULL;
  gbi_calibration *done = NULL;
  if (rc == 0) {
    k->reps = calloc(n, sizeof *k->reps);
    k->launches = calloc(n, sizeof *k->launches);
    k->refs = calloc(k->plan.ncases, sizeof *k->refs);
    k->cost = calloc(n, sizeof *k->cost);
    walls = calloc(n, sizeof *walls);
    done = calloc(n, sizeof *done);
    if (!k->reps || !k->launches || !k->refs || !k->cost || !walls || !done)
      rc = gb_err_set(err, ENOMEM, "out of memory");
  }
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = replay_config(k, r, i, done, &walls[i], err);
  for (size_t i = 0; i < n && rc == 0; i++)
    rc = replay_startup(k, r, i, walls[i], err);
  free(walls);
  free(done);
  if (rc == 0)
    rc = check_rows(k, r, err);
  if (rc == 0)
    rc = restore_refs(k, r, err);
  if (rc == 0) {
    k->runs_done = r->n_runs;
    *meta = r->meta;
  }
  gb_srec_free(r);
  return rc;
}

int gbi_suite_resume_check(gbi_suite_campaign *k, const gb_srec_meta *rec, gb_err *err) {
  const char *dir = dir_of(k);
  if (k->c.o->machine_label && rec->has_label &&
      strcmp(rec->machine_label, k->c.o->machine_label))
    return gbi_resume_refuse(dir, err, "the machine label", rec->machine_label,
                             k->c.o->machine_label);
  if (rec->energy_status != k->meta.energy_status)
    return gbi_resume_refuse(dir, err, "the energy status",
                             gb_rec_energy_name(rec->energy_status),
                             gb_rec_energy_name(k->meta.energy_status));
  if (strcmp(rec->pinning, k->meta.pinning) != 0)
    return gbi_resume_refuse(dir, err, "the pinning", rec->pinning, k->meta.pinning);
  for (size_t l = 0; l < rec->n_languages; l++)
    if (strcmp(rec->languages[l].version, k->meta.languages[l].version) != 0) {
      char what[GB_SUITE_NAME_MAX + 32];
      snprintf(what, sizeof what, "the version of %s", rec->languages[l].name);
      return gbi_resume_refuse(dir, err, what, rec->languages[l].version,
                               k->meta.languages[l].version);
    }
  return 0;
}
