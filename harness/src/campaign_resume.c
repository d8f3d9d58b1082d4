/* --resume: continue a campaign from the records it left, with the same
 * settings, the same plan (the shuffle is rebuilt from the recorded seed),
 * the same calibration, and the same machine. A resumed campaign therefore
 * yields the same set of runs as an uninterrupted one. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "campaign_internal.h"
#include "resume.h"

static int refuse(gbi_campaign *c, gb_err *err, const char *what, const char *was,
                  const char *now) {
  return gbi_resume_refuse(c->o->out_dir, err, what, was, now);
}

static int compare_settings(gbi_campaign *c, const gb_settings *given, gb_err *err) {
  const gb_settings *rec = &c->s;
  static const gbi_resume_field fields[] = {
#define F GBI_RESUME_FIELD
      F(languages), F(algorithms), F(orders), F(nsizes),    F(runs), F(warmups),
      F(target_ms), F(energy),     F(seed),   F(timeout_s), F(omit),
#undef F
  };
  int rc = gbi_resume_compare(c->o->out_dir, rec, given, fields,
                              sizeof fields / sizeof fields[0], err);
  if (rc < 0)
    return rc;
  if (memcmp(rec->sizes, given->sizes, rec->nsizes * sizeof rec->sizes[0]) != 0)
    return gb_err_set(err, EINVAL,
                      "cannot resume %s: the setting sizes given on the command line differs "
                      "from the records' (leave the settings out to use the recorded ones)",
                      c->o->out_dir);
  return 0;
}

static int restore_calibration(gbi_campaign *c, gb_err *err) {
  const gb_meta *m = &c->meta;
  for (size_t i = 0; i < c->plan.nconfigs; i++) {
    const gb_config *k = &c->plan.configs[i];
    for (size_t j = 0; j < m->n_calibration; j++) {
      const gb_meta_calibration *e = &m->calibration[j];
      if (e->language == k->language && e->algorithm == k->algorithm && e->order == k->order &&
          e->size == k->size)
        c->sorts[i] = e->sorts;
    }
    char label[64];
    gb_config_label(k, label, sizeof label);
    if (!c->sorts[i])
      return gb_err_set(err, EINVAL, "cannot resume %s: meta.json has no calibration for %s",
                        c->o->out_dir, label);
  }
  for (size_t g = 0; g < c->plan.nstartups; g++) {
    const gb_startup_group *k = &c->plan.startups[g];
    for (size_t j = 0; j < m->n_startup; j++) {
      const gb_meta_startup *e = &m->startup[j];
      if (e->language == k->language && e->order == k->order && e->size == k->size)
        c->launches[g] = e->launches;
    }
    char label[64];
    gb_startup_label(k, label, sizeof label);
    if (!c->launches[g])
      return gb_err_set(err, EINVAL, "cannot resume %s: meta.json has no batch size for %s",
                        c->o->out_dir, label);
  }
  return 0;
}

/* The rows on disk must be the plan's first runs, in order. */
static int check_rows(gbi_campaign *c, const gb_rec_table *t, gb_err *err) {
  if (t->n_rows > c->plan.nruns)
    return gb_err_set(err, EINVAL, "cannot resume %s: runs.csv has more rows than planned",
                      c->o->out_dir);
  for (size_t i = 0; i < t->n_rows; i++) {
    const gb_run_row *row = &t->rows[i];
    const gb_planned_run *p = &c->plan.runs[i];
    bool same = (row->kind == GB_REC_KIND_SORT) == (p->kind == GB_RUN_SORT);
    if (same && p->kind == GB_RUN_SORT) {
      const gb_config *k = &c->plan.configs[p->target];
      same = row->language == k->language && row->algorithm == k->algorithm &&
             row->order == k->order && row->size == k->size;
    } else if (same) {
      const gb_startup_group *g = &c->plan.startups[p->target];
      same = row->language == g->language && row->order == g->order && row->size == g->size;
    }
    if (!same)
      return gbi_resume_not_planned(c->o->out_dir, row->line, i, err);
  }
  return 0;
}

/* The recorded settings, held to the bounds a new campaign's are held to
 * (gb_settings_check; the reader has checked them too). */
static int settings_of_records(gbi_campaign *c, gb_err *err) {
  gb_err why;
  c->s = c->meta.settings;
  if (gb_settings_check(&c->s, &why) < 0)
    return gb_err_set(err, EINVAL, "cannot resume %s: meta.json: %s", c->o->out_dir, why.msg);
  return 0;
}

/* meta.json is written before calibration and again after it: a campaign
 * stopped in between (a kill -9) has no measured run to continue. */
static int check_calibrated(gbi_campaign *c, const gb_records *r, gb_err *err) {
  if (c->meta.n_calibration > 0 || r->runs.n_rows > 0)
    return 0;
  return gbi_resume_uncalibrated(c->o->out_dir, err);
}

int gbi_campaign_resume_load(gbi_campaign *c, gb_err *err) {
  gb_records *r;
  int rc = gbi_recorder_read(c->rec, &r, err);
  if (rc < 0)
    return rc;
  gb_meta_free(&c->meta);
  c->meta = r->meta; /* taken over: the records no longer own it */
  memset(&r->meta, 0, sizeof r->meta);
  if (c->meta.completed)
    rc = gbi_resume_complete(c->o->out_dir, err);
  if (rc == 0)
    rc = check_calibrated(c, r, err);
  if (rc == 0)
    rc = settings_of_records(c, err);
  if (rc == 0 && c->o->settings_given)
    rc = compare_settings(c, &c->o->settings, err);
  if (rc == 0 && (strcmp(c->meta.python, c->o->workers.python) ||
                  strcmp(c->meta.node, c->o->workers.node)))
    rc =
        gb_err_set(err, EINVAL, "cannot resume %s: --python or --node differs from the records",
                   c->o->out_dir);
  if (rc == 0)
    rc = gb_plan_build(&c->s, &c->plan, err);
  if (rc == 0)
    rc = gbi_campaign_setup_expected(c, err);
  if (rc == 0)
    rc = restore_calibration(c, err);
  if (rc == 0)
    rc = check_rows(c, &r->runs, err);
  if (rc == 0)
    c->runs_done = r->runs.n_rows;
  gb_records_free(r);
  return rc;
}

int gbi_campaign_resume_check(gbi_campaign *c, gb_err *err) {
  const gb_meta *m = &c->meta;
  char cpus[GB_PIN_LIST_MAX];
  if (gb_pin_format_cpus(c->pin.cpus, c->pin.ncpus, cpus, sizeof cpus) < 0) /* never: fits */
    return gb_err_set(err, ENOSPC, "cannot resume %s: the list of %zu pinned CPUs is too long",
                      c->o->out_dir, c->pin.ncpus);
  const char *model = c->info.has_cpu_model ? c->info.cpu_model : "unknown";
  const char *kernel = c->info.has_kernel ? c->info.kernel : "unknown";
  if (c->o->machine_label && m->machine.has_label &&
      strcmp(m->machine.label, c->o->machine_label))
    return refuse(c, err, "the machine label", m->machine.label, c->o->machine_label);
  if (strcmp(m->machine.cpu_model, model))
    return refuse(c, err, "the CPU model", m->machine.cpu_model, model);
  if (strcmp(m->machine.kernel, kernel))
    return refuse(c, err, "the kernel", m->machine.kernel, kernel);
  if (strcmp(m->pinning.cpus, cpus))
    return refuse(c, err, "the pinned CPUs", m->pinning.cpus, cpus);
  if (m->energy.status != c->energy)
    return refuse(c, err, "the energy status", gb_rec_energy_name(m->energy.status),
                  gb_rec_energy_name(c->energy));
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    if ((c->s.languages >> l & 1) && strcmp(m->runtimes[l], c->runtimes[l]))
      return refuse(c, err, "a runtime", m->runtimes[l], c->runtimes[l]);
  return 0;
}
