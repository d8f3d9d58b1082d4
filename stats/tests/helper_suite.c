/* The synthetic suite campaign of helper_suite.h. */
#include "helper_suite.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_report.h"

/* A fixed generator (a 64-bit LCG's top bits), uniform in [-1, 1). */
static double noise(uint64_t *s) {
  *s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
  return (double)(*s >> 11) * 0x1p-52 - 1.0;
}

/* Time per repetition of each language is multiplied by this
 * (gbt_suite_synth_slower; 1 otherwise). */
static double slowdown[3] = {1.0, 1.0, 1.0};
/* The suite: suite-synth, or suite-named (gbt_suite_synth_named). */
static bool named_suite;

/* The model: nanoseconds per repetition, W of package power, startup per
 * launch in ns. */
static double rep_ns(size_t l, const char *workload, uint64_t n, uint64_t m) {
  bool spin = strcmp(workload, "spin") == 0;
  double base = (spin ? 5.0 : 40.0) * (double)n * (double)m;
  const double factor[3] = {1.0, 30.0, spin ? 8.0 : 1.0};
  return base * factor[l] * slowdown[l];
}

static const double pkg_w[3] = {20.0, 15.0, 18.0};
static const double startup_ns[3] = {1e6, 20e6, 3e6};

static gb_rec_opt_u64 some(double v) {
  return (gb_rec_opt_u64){.present = true, .value = (uint64_t)llround(v)};
}

static void energy_of(gb_srec_row *r, bool energy, double wall, double watts) {
  r->energy = energy ? GB_REC_ENERGY_OK : GB_REC_ENERGY_OFF;
  if (!energy) {
    return;
  }
  r->pkg_uj = some(watts * wall / 1e3);
  r->dram_uj = some(2.0 * wall / 1e3);
  r->idle_ns = some(100e6);
  r->idle_pkg_uj = some(5.0 * 100e6 / 1e3);
  r->idle_dram_uj = some(1.0 * 100e6 / 1e3);
}

static void row_of(gb_srec_row *r, const gb_suite *s, size_t l, size_t w, const char *params,
                   uint64_t n, uint64_t m, bool startup, bool energy, uint64_t *rng) {
  snprintf(r->language, sizeof r->language, "%s", s->languages[l].name);
  snprintf(r->workload, sizeof r->workload, "%s", s->workloads[w].name);
  snprintf(r->params, sizeof r->params, "%s", params);
  snprintf(r->input_hash, sizeof r->input_hash, "%016" PRIx64, n * 1000003 + m);
  r->seed = 2463534242;
  r->status = GB_REC_STATUS_OK;
  double st = startup_ns[l] * (1.0 + 0.05 * noise(rng));
  double watts = pkg_w[l] * (1.0 + 0.02 * noise(rng));
  if (startup) {
    r->kind = GB_SREC_KIND_STARTUP;
    r->launches = GBT_SUITE_LAUNCHES;
    double wall = GBT_SUITE_LAUNCHES * st;
    r->wall_ns = some(wall);
    r->user_ns = some(0.9 * wall);
    r->sys_ns = some(0.05 * wall);
    r->max_rss_kib = some(2000 + 1000 * l);
    energy_of(r, energy, wall, watts);
    return;
  }
  double t = rep_ns(l, r->workload, n, m);
  r->kind = GB_SREC_KIND_WORK;
  r->launches = 1;
  r->reps = (uint64_t)fmax(1.0, floor(50e6 / t));
  double loop = (double)r->reps * t * (1.0 + 0.03 * noise(rng));
  double wall = st + loop;
  r->wall_ns = some(wall);
  r->user_ns = some(0.93 * wall);
  r->sys_ns = some(0.02 * wall);
  r->max_rss_kib = some(3000 + 1000 * l);
  r->loop_ns = some(loop);
  snprintf(r->counters, sizeof r->counters, "%s=%" PRIu64,
           strcmp(r->workload, "spin") == 0 ? "spins" : "mixes", n * m);
  snprintf(r->output_hash, sizeof r->output_hash, "%016" PRIx64, n * 7919 + m * 31);
  energy_of(r, energy, wall, watts);
}

static void meta_of(gb_srec_meta *m, const gb_suite *s, bool energy) {
  snprintf(m->suite_name, sizeof m->suite_name, "%s", s->name);
  snprintf(m->suite_hash, sizeof m->suite_hash, "%s", s->hash);
  snprintf(m->greenbench_version, sizeof m->greenbench_version, "0.1.0");
  m->settings = (gb_settings){.profile = GB_PROFILE_CUSTOM,
                              .runs = GBT_SUITE_RUNS,
                              .warmups = 2,
                              .target_ms = 50,
                              .energy = energy ? GB_ENERGY_ON : GB_ENERGY_OFF,
                              .seed = 2463534242,
                              .order_seed = 123,
                              .timeout_s = 60};
  m->energy_status = energy ? GB_REC_ENERGY_OK : GB_REC_ENERGY_OFF;
  snprintf(m->energy_reason, sizeof m->energy_reason, "%s",
           energy ? "" : "--energy off was given");
  m->cpus_online = 12;
  snprintf(m->pinning, sizeof m->pinning, "CPUs 2,4 (two physical cores of package 0)");
  /* suite-synth's records carry a machine label; suite-named's, as records
   * written before the field, none (their JUnit names say "unlabelled"). */
  m->has_label = !named_suite;
  snprintf(m->machine_label, sizeof m->machine_label, "%s", named_suite ? "" : "bench-01");
  m->started_unix_ns = UINT64_C(1796284800) * 1000000000;
  m->finished_unix_ns = m->started_unix_ns + UINT64_C(300) * 1000000000;
  m->complete = true;
  const char *versions[3] = {"gcc 12.2.0", "Python 3.11.2", "Lua 5.3.6"};
  m->n_languages = s->n_languages;
  for (size_t l = 0; l < s->n_languages; l++) {
    snprintf(m->languages[l].name, sizeof m->languages[l].name, "%s", s->languages[l].name);
    snprintf(m->languages[l].title, sizeof m->languages[l].title, "%s", s->languages[l].title);
    snprintf(m->languages[l].version, sizeof m->languages[l].version, "%s", versions[l]);
  }
}

gb_srec_records *gbt_suite_synth(bool energy) {
  gb_srec_records *r = calloc(1, sizeof *r);
  cr_assert(r);
  char path[4096];
  snprintf(path, sizeof path, "%s/suite-%s/suite.json", GB_TEST_DATA_DIR,
           named_suite ? "named" : "synth");
  size_t len = 0;
  char *text = gbt_slurp(path, &len);
  cr_assert(text, "cannot read %s", path);
  gb_err err;
  cr_assert(gb_suite_parse(text, len, "suite.json", &r->suite, &err) == 0, "%s", err.msg);
  free(text);
  meta_of(&r->meta, &r->suite, energy);
  /* Every run of every configuration: a startup batch, then a work run,
   * round by round, the configurations in a fixed interleaved order. In
   * suite-named, m is the named parameter order (2 sorted, 3 reversed, 1
   * nearly-sorted), the model the same. */
  static const struct {
    size_t w;
    uint64_t n, m;
    const char *params[2];
  } cases[] = {{0, 1000, 2, {"n=1000;m=2", "n=1000;order=sorted"}},
               {0, 4000, 2, {"n=4000;m=2", "n=4000;order=sorted"}},
               {1, 500, 3, {"n=500;m=3", "n=500;order=reversed"}},
               {1, 500, 1, {"n=500;m=1", "n=500;order=nearly-sorted"}}};
  size_t ncases = sizeof cases / sizeof *cases, nl = r->suite.n_languages;
  r->runs = calloc(GBT_SUITE_RUNS * ncases * nl * 2, sizeof *r->runs);
  cr_assert(r->runs);
  uint64_t rng = 42;
  for (size_t i = 0; i < GBT_SUITE_RUNS; i++) {
    for (size_t j = 0; j < ncases * nl; j++) {
      size_t k = (j * 5 + i) % (ncases * nl), l = k % nl, c = k / nl;
      for (int startup = 1; startup >= 0; startup--) {
        gb_srec_row *row = &r->runs[r->n_runs];
        row_of(row, &r->suite, l, cases[c].w, cases[c].params[named_suite], cases[c].n,
               cases[c].m, startup, energy, &rng);
        row->run = r->n_runs++;
        row->started_unix_ns = r->meta.started_unix_ns + row->run * UINT64_C(100000000);
      }
    }
  }
  /* One Python run of mix n=500;m=3 (order=reversed) timed out. */
  for (size_t i = 0; i < r->n_runs; i++) {
    gb_srec_row *row = &r->runs[i];
    if (row->kind == GB_SREC_KIND_WORK && strcmp(row->language, "python") == 0 &&
        strcmp(row->params, cases[2].params[named_suite]) == 0) {
      row->status = GB_REC_STATUS_TIMEOUT;
      row->wall_ns = some(60e9);
      row->loop_ns = row->pkg_uj = row->dram_uj = (gb_rec_opt_u64){0};
      row->idle_ns = row->idle_pkg_uj = row->idle_dram_uj = (gb_rec_opt_u64){0};
      row->counters[0] = row->output_hash[0] = '\0';
      snprintf(row->message, sizeof row->message, "timed out after 60 s");
      break;
    }
  }
  return r;
}

gb_srec_records *gbt_suite_synth_slower(bool energy, size_t language, double factor) {
  cr_assert(language < 3);
  slowdown[language] = factor;
  gb_srec_records *r = gbt_suite_synth(energy);
  slowdown[language] = 1.0;
  return r;
}

gb_srec_records *gbt_suite_synth_named(bool energy) {
  named_suite = true;
  gb_srec_records *r = gbt_suite_synth(energy);
  named_suite = false;
  return r;
}

void gbt_suite_free(gb_srec_records *r) {
  if (r) {
    gb_suite_free(&r->suite);
    free(r->runs);
    free(r->warmups);
    free(r);
  }
}

static void write_rows(const gb_srec_row *rows, size_t n, const char *path) {
  FILE *f = fopen(path, "w");
  cr_assert(f, "cannot write %s", path);
  char line[GB_SREC_LINE_MAX];
  cr_assert(gb_srec_header(line, sizeof line) > 0);
  fputs(line, f);
  for (size_t i = 0; i < n; i++) {
    gb_err err;
    cr_assert(gb_srec_row_check(&rows[i], &err) == 0, "row %zu: %s", i, err.msg);
    cr_assert(gb_srec_format_row(&rows[i], line, sizeof line) > 0, "row %zu", i);
    fputs(line, f);
  }
  cr_assert(fclose(f) == 0, "cannot write %s", path);
}

void gbt_suite_write(const gb_srec_records *r, const char *dir) {
  char path[4096], *text = NULL;
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  write_rows(r->runs, r->n_runs, path);
  snprintf(path, sizeof path, "%s/warmups.csv", dir);
  write_rows(r->warmups, r->n_warmups, path);
  gb_err err;
  cr_assert(gb_srec_meta_write(&r->meta, &text, &err) == 0, "%s", err.msg);
  snprintf(path, sizeof path, "%s/meta.json", dir);
  gbt_spit(path, text);
  free(text);
  snprintf(path, sizeof path, "%s/suite-%s/suite.json", GB_TEST_DATA_DIR, r->suite.name);
  text = gbt_slurp_or_fail(path);
  snprintf(path, sizeof path, "%s/suite.json", dir);
  gbt_spit(path, text);
  free(text);
}
