/* Writes a synthetic records folder of the study profile's size for the
 * report benchmark: 144 configurations (3 languages x 3 algorithms x 4
 * orders x 4 sizes) x 30 runs, 48 startup trials x 30 batches, 3 warm-ups
 * per configuration, energy ok. Rows go through the records writer
 * (gb_records_format_row, gb_meta_to_json), so the reader accepts them.
 * The numbers are plausible, not measured: per-sort cost grows with size,
 * power differs a little by language, every run has a few percent of
 * noise from a fixed xorshift stream, so the output is the same each time.
 *
 * usage: gen_records DIR */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "greenbench/meta.h"
#include "greenbench/records.h"
#include "greenbench/workload.h"

#define RUNS 30
#define WARMUPS 3
#define SEED 2463534242u

static const uint64_t sizes[] = {250, 500, 1000, 2000};
static uint32_t noise_state = 12345;

/* A factor of 1 +- spread, from xorshift32. */
static double noise(double spread) {
  noise_state ^= noise_state << 13;
  noise_state ^= noise_state >> 17;
  noise_state ^= noise_state << 5;
  return 1.0 + spread * ((double)noise_state / 4294967295.0 * 2.0 - 1.0);
}

/* ns per sort: quadratic sorts grow with n^2 (sorted input is cheap for
 * insertion), quick with n log n (quadratic on sorted input). */
static double per_sort_ns(int l, int a, int o, uint64_t n) {
  static const double lang[3] = {1.0, 60.0, 5.0};
  double x = (double)n;
  double cost = a == 2 ? 8.0 * x * log2(x) : 1.2 * x * x;
  if (a == 1 && o == 1) {
    cost = 4.0 * x;
  }
  if (a == 2 && o == 1) {
    cost = 1.0 * x * x;
  }
  return cost * lang[l] * 0.5;
}

static const double startup_ns[3] = {1.0e6, 18.0e6, 40.0e6};
static const double watts[3] = {18.0, 20.0, 23.0};
#define IDLE_W 5.0

static uint64_t sorts_of(int l, int a, int o, uint64_t n) {
  double s = 240e6 / per_sort_ns(l, a, o, n);
  return s < 1.0 ? 1 : (uint64_t)s;
}

static uint64_t launches_of(int l) {
  return (uint64_t)(240e6 / startup_ns[l]);
}

/* The workload's real counts and hash, as the reader re-derives them (the
 * same for every language), computed once per configuration. */
static void counts_of(int a, int o, uint64_t n, gb_run_row *r) {
  static gb_expected cache[3][4][4];
  static bool done[3][4][4];
  int z = 0;
  while (sizes[z] != n) {
    z++;
  }
  if (!done[a][o][z] &&
      gb_expected_compute((gb_algorithm)a, (gb_order)o, (size_t)n, SEED, &cache[a][o][z]) < 0) {
    fprintf(stderr, "gen_records: cannot compute the workload\n");
    exit(1);
  }
  done[a][o][z] = true;
  r->comparisons = (gb_rec_opt_u64){true, cache[a][o][z].counts.comparisons};
  r->writes = (gb_rec_opt_u64){true, cache[a][o][z].counts.writes};
  gb_hash_hex(cache[a][o][z].input_hash, r->input_hash);
}

static void energy_of(gb_run_row *r, double proc_ns, double work_ns, double w) {
  double e = w * work_ns * 1e-3 * noise(0.02) + IDLE_W * proc_ns * 1e-3;
  double idle_ns = proc_ns * noise(0.001);
  double idle = IDLE_W * idle_ns * 1e-3 * noise(0.01);
  r->energy = GB_REC_ENERGY_OK;
  r->pkg_uj = (gb_rec_opt_u64){true, (uint64_t)(e * 0.9)};
  r->dram_uj = (gb_rec_opt_u64){true, (uint64_t)(e * 0.1)};
  r->idle_ns = (gb_rec_opt_u64){true, (uint64_t)idle_ns};
  r->idle_pkg_uj = (gb_rec_opt_u64){true, (uint64_t)(idle * 0.9)};
  r->idle_dram_uj = (gb_rec_opt_u64){true, (uint64_t)(idle * 0.1)};
}

static void common(gb_run_row *r, int l, int a, int o, uint64_t n) {
  *r = (gb_run_row){.language = l,
                    .algorithm = a,
                    .order = o,
                    .size = n,
                    .seed = SEED,
                    .status = GB_REC_STATUS_OK};
  r->max_rss_kib = (gb_rec_opt_u64){true, 2000};
  r->freq_start_khz = (gb_rec_opt_u64){true, 3000000};
  r->freq_end_khz = (gb_rec_opt_u64){true, 2995000};
  r->temp_start_mc = (gb_rec_opt_i64){true, 45000};
  r->temp_end_mc = (gb_rec_opt_i64){true, 47000};
}

static void sort_row(gb_run_row *r, int l, int a, int o, uint64_t n, uint64_t sorts) {
  common(r, l, a, o, n);
  r->kind = GB_REC_KIND_SORT;
  r->sorts = sorts;
  r->launches = 1;
  double loop = (double)sorts * per_sort_ns(l, a, o, n) * noise(0.03);
  double wall = startup_ns[l] * noise(0.05) + loop;
  r->wall_ns = (gb_rec_opt_u64){true, (uint64_t)wall};
  r->user_ns = (gb_rec_opt_u64){true, (uint64_t)(wall * 0.97)};
  r->sys_ns = (gb_rec_opt_u64){true, (uint64_t)(wall * 0.02)};
  r->loop_ns = (gb_rec_opt_u64){true, (uint64_t)loop};
  counts_of(a, o, n, r);
  energy_of(r, wall, loop, watts[l]);
}

static void startup_row(gb_run_row *r, int l, int o, uint64_t n) {
  common(r, l, 2, o, n);
  r->kind = GB_REC_KIND_STARTUP;
  r->launches = launches_of(l);
  double wall = (double)r->launches * startup_ns[l] * noise(0.04);
  r->wall_ns = (gb_rec_opt_u64){true, (uint64_t)wall};
  r->user_ns = (gb_rec_opt_u64){true, (uint64_t)(wall * 0.9)};
  r->sys_ns = (gb_rec_opt_u64){true, (uint64_t)(wall * 0.08)};
  gb_run_row tmp;
  counts_of(0, o, n, &tmp);
  memcpy(r->input_hash, tmp.input_hash, sizeof r->input_hash);
  energy_of(r, wall, wall, 3.0);
}

typedef struct {
  gb_run_row *rows;
  size_t n, cap;
} rows_t;

static gb_run_row *push(rows_t *t) {
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 1024;
    t->rows = realloc(t->rows, t->cap * sizeof *t->rows);
    if (!t->rows) {
      perror("realloc");
      exit(1);
    }
  }
  return &t->rows[t->n++];
}

static void shuffle(rows_t *t) {
  for (size_t i = t->n - 1; i > 0; i--) {
    size_t j = (size_t)((noise(1.0) - 0.0) / 2.0000001 * (double)(i + 1));
    gb_run_row x = t->rows[i];
    t->rows[i] = t->rows[j];
    t->rows[j] = x;
  }
}

static int write_csv(const char *path, rows_t *t, bool renumber) {
  FILE *f = fopen(path, "w");
  char line[GB_REC_LINE_MAX];
  if (!f || gb_records_header(line, sizeof line) < 0) {
    return -1;
  }
  fputs(line, f);
  for (size_t i = 0; i < t->n; i++) {
    if (renumber) {
      t->rows[i].run = i;
    }
    t->rows[i].started_unix_ns = 1796281200000000000u + i * 500000000u;
    if (gb_records_format_row(&t->rows[i], line, sizeof line) < 0) {
      fprintf(stderr, "row %zu does not format\n", i);
      return -1;
    }
    fputs(line, f);
  }
  return fclose(f);
}

static void settings(gb_meta *m) {
  gb_settings *s = &m->settings;
  s->languages = (1u << GB_LANGUAGE_COUNT) - 1;
  s->algorithms = (1u << GB_ALGORITHM_COUNT) - 1;
  s->orders = (1u << GB_ORDER_COUNT) - 1;
  for (int i = 0; i < 4; i++) {
    s->sizes[i] = sizes[i];
  }
  s->nsizes = 4;
  s->runs = RUNS;
  s->warmups = WARMUPS;
  s->target_ms = 200;
  s->energy = GB_ENERGY_ON;
  s->seed = SEED;
  s->order_seed = 99;
  snprintf(m->python, sizeof m->python, "/usr/bin/python3");
  snprintf(m->node, sizeof m->node, "/usr/bin/node");
  s->timeout_s = 600;
}

static void machine(gb_meta *m) {
  snprintf(m->tool_version, sizeof m->tool_version, "0.1.0");
  m->settings.profile = GB_PROFILE_STUDY;
  m->energy.status = GB_REC_ENERGY_OK;
  m->energy.n_zones = 2;
  m->energy.zones[0] = (gb_meta_zone){.name = "package-0",
                                      .path = "intel-rapl:0",
                                      .kind = GB_META_ZONE_PACKAGE,
                                      .max_energy_range_uj = 262143328850};
  m->energy.zones[1] = (gb_meta_zone){.name = "dram",
                                      .path = "intel-rapl:0:0",
                                      .kind = GB_META_ZONE_DRAM,
                                      .max_energy_range_uj = 65712999613};
  snprintf(m->machine.cpu_model, sizeof m->machine.cpu_model, "Synthetic CPU");
  snprintf(m->machine.kernel, sizeof m->machine.kernel, "6.1.0");
  m->machine.cpus_online = 8;
  snprintf(m->pinning.cpus, sizeof m->pinning.cpus, "2,4");
  m->pinning.rule_held = true;
  snprintf(m->pinning.reason, sizeof m->pinning.reason, "synthetic");
  snprintf(m->runtimes[0], GB_META_TEXT_MAX, "gcc 12.2.0");
  snprintf(m->runtimes[1], GB_META_TEXT_MAX, "CPython 3.11.2");
  snprintf(m->runtimes[2], GB_META_TEXT_MAX, "v20.19.2");
  snprintf(m->git_commit, sizeof m->git_commit, "0000000000000000000000000000000000000000");
  snprintf(m->started_at, sizeof m->started_at, "2026-12-03T07:00:00Z");
  snprintf(m->finished_at, sizeof m->finished_at, "2026-12-03T09:00:00Z");
  m->has_finished_at = true;
  m->completed = true;
}

static int calibrate(gb_meta *m, rows_t *warm) {
  gb_err err;
  for (int l = 0; l < 3; l++) {
    for (int a = 0; a < 3; a++) {
      for (int o = 0; o < 4; o++) {
        for (int z = 0; z < 4; z++) {
          gb_meta_calibration c = {.language = l,
                                   .algorithm = a,
                                   .order = o,
                                   .size = sizes[z],
                                   .sorts = sorts_of(l, a, o, sizes[z]),
                                   .n_warmup_loop_ns = WARMUPS};
          for (int w = 0; w < WARMUPS; w++) {
            gb_run_row *r = push(warm);
            sort_row(r, l, a, o, sizes[z], w == 0 ? 1 : c.sorts);
            r->run = (uint64_t)w;
            c.warmup_loop_ns[w] = r->loop_ns.value;
          }
          if (gb_meta_add_calibration(m, &c, &err) < 0) {
            return -1;
          }
        }
      }
    }
  }
  return 0;
}

static int startups(gb_meta *m) {
  gb_err err;
  for (int l = 0; l < 3; l++) {
    for (int o = 0; o < 4; o++) {
      for (int z = 0; z < 4; z++) {
        gb_meta_startup s = {
            .language = l, .order = o, .size = sizes[z], .launches = launches_of(l)};
        if (gb_meta_add_startup(m, &s, &err) < 0) {
          return -1;
        }
      }
    }
  }
  return 0;
}

static void measured(rows_t *runs) {
  for (int l = 0; l < 3; l++) {
    for (int o = 0; o < 4; o++) {
      for (int z = 0; z < 4; z++) {
        for (int k = 0; k < RUNS; k++) {
          startup_row(push(runs), l, o, sizes[z]);
          for (int a = 0; a < 3; a++) {
            sort_row(push(runs), l, a, o, sizes[z], sorts_of(l, a, o, sizes[z]));
          }
        }
      }
    }
  }
  shuffle(runs);
}

static int write_meta(const char *dir, gb_meta *m) {
  char path[4096];
  gb_err err;
  snprintf(path, sizeof path, "%s/meta.json", dir);
  if (gb_meta_check(m, path, &err) < 0) {
    fprintf(stderr, "gen_records: %s\n", err.msg);
    return -1;
  }
  cJSON *j = gb_meta_to_json(m);
  char *text = j ? cJSON_Print(j) : NULL;
  FILE *f = fopen(path, "w");
  int rc = text && f && fputs(text, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
  if (f && fclose(f) != 0) {
    rc = -1;
  }
  free(text);
  cJSON_Delete(j);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_records DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
    perror(dir);
    return 1;
  }
  gb_meta m;
  gb_meta_init(&m);
  gb_err err;
  const char *cmd[] = {"greenbench", "run", "--profile", "study", "--out", dir};
  rows_t runs = {0}, warm = {0};
  settings(&m);
  machine(&m);
  if (gb_meta_set_command(&m, 6, cmd, &err) < 0 || calibrate(&m, &warm) < 0 ||
      startups(&m) < 0) {
    fprintf(stderr, "gen_records: cannot build meta.json\n");
    return 1;
  }
  measured(&runs);
  m.plan = (gb_meta_plan){.configurations = 144,
                          .sort_runs = 144 * RUNS,
                          .startup_runs = 48 * RUNS,
                          .measured_runs = 192 * RUNS};
  m.runs_done = m.plan.measured_runs;
  char path[4096];
  snprintf(path, sizeof path, "%s/runs.csv", dir);
  int rc = write_csv(path, &runs, true);
  snprintf(path, sizeof path, "%s/warmups.csv", dir);
  rc = rc == 0 ? write_csv(path, &warm, false) : rc;
  rc = rc == 0 ? write_meta(dir, &m) : rc;
  printf("%s: %zu measured rows, %zu warm-up rows\n", dir, runs.n, warm.n);
  gb_meta_free(&m);
  free(runs.rows);
  free(warm.rows);
  return rc == 0 ? 0 : 1;
}
