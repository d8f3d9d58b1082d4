#include "helper_counters.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RAW_MASK 0xFFFFFFFFull
#define MAX_FDS 1024
#define CLOCK_COST_NS 1000u
#define PREAD_COST_NS 3000u

typedef struct {
  char rel[96]; /* energy_uj below the root: "intel-rapl:0/intel-rapl:0:0/energy_uj" */
  bool counted, dram;
  counters_behaviour b;
  double unit_j;       /* the hardware's unit */
  uint64_t raw_start;  /* raw value at time 0 */
  int64_t raw_offset;  /* added by a reset */
  uint64_t raw;        /* raw count since time 0, from reported_j */
  double reported_j;   /* what the updates have shown so far */
  uint64_t next_ns;    /* the next scheduled update */
  unsigned missed_run; /* updates missed in a row so far */
  bool reset_done;
  unsigned socket; /* S of package-S or package-S-die-D */
} zone_model;

typedef struct {
  uint64_t t, busy_ns; /* busy time accumulated up to t */
  bool busy;           /* from t on */
} busy_mark;

struct counters {
  powercap_fake *fake;
  uint64_t now, rng;
  size_t n;
  zone_model z[COUNTERS_MAX_ZONES];
  busy_mark *marks;
  size_t nmarks, capmarks;
  uint64_t stop_at, reset_at, vanish_at;
  int vanish_errno;
  signed char fd_zone[MAX_FDS]; /* zone of an fd + 1; 0: not looked up yet */
  double skew;                  /* perf counts against the raw counters */
  gb_perf_reader perf;
  char perf_dir[600], cpu_dir[600];
};

static const char *const machine_names[] = {
    [COUNTERS_INTEL_CLIENT] = "intel-client", [COUNTERS_INTEL_SERVER] = "intel-server",
    [COUNTERS_MULTI_DIE] = "multi-die",       [COUNTERS_AMD_ZEN] = "amd-zen",
    [COUNTERS_XEON6_TPMI] = "xeon6-tpmi",     [COUNTERS_HARSH] = "harsh",
};

const char *counters_machine_name(counters_machine m) {
  return machine_names[m];
}

static uint64_t rnd(counters *c) { /* xorshift64 (Marsaglia 2003) */
  c->rng ^= c->rng << 13;
  c->rng ^= c->rng >> 7;
  c->rng ^= c->rng << 17;
  return c->rng;
}

static double unit_rnd(counters *c) { /* [0, 1) */
  return (double)(rnd(c) >> 11) * (1.0 / 9007199254740992.0);
}

static double unit_of(uint64_t unit_nj) {
  if (unit_nj == 61035)
    return 1.0 / 16384.0; /* 2^-14 J; the kernel rounds it to 61035 nJ */
  if (unit_nj == 15258)
    return 1.0 / 65536.0;        /* 2^-16 J */
  return (double)unit_nj * 1e-9; /* DRAM's fixed 15.3 uJ */
}

static uint64_t shown_uj(const zone_model *z) {
  uint64_t raw = (uint64_t)((int64_t)(z->raw_start + z->raw) + z->raw_offset) & RAW_MASK;
  return raw * z->b.unit_nj / 1000u;
}

/* Busy time from 0 to t. */
static uint64_t busy_until(const counters *c, uint64_t t) {
  size_t lo = 0, hi = c->nmarks; /* the last mark with mark.t <= t */
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (c->marks[mid].t <= t)
      lo = mid;
    else
      hi = mid;
  }
  const busy_mark *m = &c->marks[lo];
  return m->busy_ns + (m->busy ? t - m->t : 0);
}

static double energy_at(const counters *c, const zone_model *z, uint64_t t) {
  double busy = (double)busy_until(c, t) * 1e-9, all = (double)t * 1e-9;
  return z->b.idle_w * (all - busy) + z->b.busy_w * busy;
}

/* The energy of one update interval at the power drawn at t. */
static double update_j(const counters *c, const zone_model *z, uint64_t t) {
  const busy_mark *m = &c->marks[c->nmarks - 1];
  double w = m->t <= t && m->busy ? z->b.busy_w : z->b.idle_w;
  return w * (double)z->b.interval_ns * 1e-9;
}

static bool missed(counters *c, zone_model *z) {
  if (z->b.miss_p <= 0 || z->missed_run >= z->b.miss_burst || unit_rnd(c) >= z->b.miss_p)
    return false;
  z->missed_run++;
  return true;
}

static void update(counters *c, zone_model *z, uint64_t t) {
  bool faulty = z->counted; /* the faults strike the zones greenbench reads */
  if ((faulty && c->stop_at && t >= c->stop_at) || missed(c, z))
    return;
  z->missed_run = 0;
  double target = energy_at(c, z, t);
  if (z->b.filter_share > 0)
    target += (2.0 * unit_rnd(c) - 1.0) * z->b.filter_share * update_j(c, z, t);
  if (target > z->reported_j)
    z->reported_j = target;
  z->raw = (uint64_t)floor(z->reported_j / z->unit_j);
  if (faulty && c->reset_at && t >= c->reset_at && !z->reset_done) { /* back to 0, once */
    z->raw_offset = -(int64_t)(z->raw_start + z->raw);
    z->reset_done = true;
  }
}

/* Runs every update due by t. */
static void run_to(counters *c, uint64_t t) {
  for (size_t i = 0; i < c->n; i++) {
    zone_model *z = &c->z[i];
    while (z->next_ns <= t) {
      update(c, z, z->next_ns);
      int64_t j = z->b.jitter_ns
                      ? (int64_t)(rnd(c) % (2 * z->b.jitter_ns + 1)) - (int64_t)z->b.jitter_ns
                      : 0;
      z->next_ns += (uint64_t)((int64_t)z->b.interval_ns + j);
    }
  }
}

void counters_advance(counters *c, uint64_t t) {
  if (t > c->now)
    c->now = t;
}

uint64_t counters_now(const counters *c) {
  return c->now;
}

static uint64_t clock_now(void *ctx) {
  counters *c = ctx;
  c->now += CLOCK_COST_NS;
  return c->now;
}

gb_clock counters_clock(counters *c) {
  return (gb_clock){clock_now, c};
}

void counters_busy(counters *c, bool busy) {
  if (c->nmarks == c->capmarks) {
    c->capmarks = c->capmarks ? 2 * c->capmarks : 1024;
    c->marks = realloc(c->marks, c->capmarks * sizeof *c->marks);
    if (!c->marks)
      abort();
  }
  uint64_t so_far = c->nmarks ? busy_until(c, c->now) : 0;
  c->marks[c->nmarks] = (busy_mark){c->now, so_far, busy};
  c->nmarks++;
}

static int zone_of_fd(counters *c, int fd) {
  if (fd < 0 || fd >= MAX_FDS)
    return -1;
  if (c->fd_zone[fd] == 0) {
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t len = readlink(link, path, sizeof path - 1);
    path[len > 0 ? len : 0] = '\0';
    c->fd_zone[fd] = -1;
    size_t root = strlen(powercap_fake_root(c->fake));
    for (size_t i = 0; i < c->n && (size_t)len > root; i++)
      if (strcmp(path + root + 1, c->z[i].rel) == 0)
        c->fd_zone[fd] = (signed char)(i + 1);
  }
  return c->fd_zone[fd] - 1;
}

static ssize_t model_pread(int fd, void *buf, size_t len, off_t off, void *ctx) {
  counters *c = ctx;
  int i = zone_of_fd(c, fd);
  (void)off;
  c->now += PREAD_COST_NS;
  if (i < 0) {
    errno = EBADF;
    return -1;
  }
  if (c->vanish_at && c->now >= c->vanish_at && c->z[i].counted) {
    errno = c->vanish_errno;
    return -1;
  }
  run_to(c, c->now);
  char text[32];
  int n = snprintf(text, sizeof text, "%llu\n", (unsigned long long)shown_uj(&c->z[i]));
  if ((size_t)n > len)
    n = (int)len;
  memcpy(buf, text, (size_t)n);
  return n;
}

gb_rapl_opts counters_rapl_opts(counters *c) {
  return (gb_rapl_opts){
      .root = powercap_fake_root(c->fake), .pread = model_pread, .pread_ctx = c};
}

/* Adds zone `id` (a subzone when it has two colons) named name. */
static void add(counters *c, const char *id, const char *name, bool counted, bool dram,
                counters_behaviour b) {
  zone_model *z = &c->z[c->n++];
  z->b = b;
  z->counted = counted;
  z->dram = dram;
  if (sscanf(name, "package-%u", &z->socket) != 1 && c->n > 1)
    z->socket = c->z[c->n - 2].socket; /* a subzone: its package's */
  z->unit_j = unit_of(b.unit_nj);
  z->raw_start = RAW_MASK - 200000 - rnd(c) % 100000; /* wraps within a minute */
  z->next_ns = rnd(c) % b.interval_ns;
  uint64_t max = RAW_MASK * b.unit_nj / 1000u;
  powercap_fake_zone(c->fake, id, name, shown_uj(z), max);
  const char *colon = strchr(id, ':'), *second = colon ? strchr(colon + 1, ':') : NULL;
  if (second)
    snprintf(z->rel, sizeof z->rel, "%.*s/%s/energy_uj", (int)(second - id), id, id);
  else
    snprintf(z->rel, sizeof z->rel, "%s/energy_uj", id);
}

/* Published behaviour, docs/bare-metal.md: Intel packages in 2^-14 J,
 * updated every ms with small jitter (Hahnel et al. 2012; Khan et al. 2018). */
static const counters_behaviour intel_pkg = {61035, 1000000, 50000, 0.02, 2, 0, 4.0, 25.0};
static const counters_behaviour intel_dram = {15300, 1000000, 50000, 0.02, 2, 0, 2.0, 6.0};

static void build(counters *c, counters_machine m) {
  counters_behaviour pkg = intel_pkg, other = intel_pkg;
  char id[32], name[32];
  switch (m) {
  case COUNTERS_INTEL_CLIENT:
    pkg.filter_share = 0.5; /* Intel: up to 50% */
    pkg.idle_w = 1.5;
    pkg.busy_w = 15.0;
    add(c, "intel-rapl:0", "package-0", true, false, pkg);
    add(c, "intel-rapl:0:0", "core", false, false, other);
    add(c, "intel-rapl:0:1", "uncore", false, false, other);
    other.idle_w = pkg.idle_w + 3;
    other.busy_w = pkg.busy_w + 3;
    add(c, "intel-rapl:1", "psys", false, false, other); /* the package and more */
    break;
  case COUNTERS_INTEL_SERVER:
  case COUNTERS_XEON6_TPMI:
    for (unsigned s = 0; s < 2; s++) {
      snprintf(id, sizeof id, "intel-rapl:%u", s);
      snprintf(name, sizeof name, "package-%u", s);
      add(c, id, name, true, false, pkg);
      snprintf(id, sizeof id, "intel-rapl:%u:0", s);
      add(c, id, "dram", true, true, intel_dram);
      if (m == COUNTERS_XEON6_TPMI) { /* the same package through TPMI: not read */
        snprintf(id, sizeof id, "intel-rapl-tpmi:%u", s);
        add(c, id, name, false, false, pkg);
      }
    }
    if (m == COUNTERS_XEON6_TPMI)
      add(c, "intel-rapl:2", "psys", false, false, other);
    break;
  case COUNTERS_MULTI_DIE:
    for (unsigned s = 0; s < 4; s++) { /* Cascade Lake-AP: two dies per socket */
      snprintf(id, sizeof id, "intel-rapl:%u", s);
      snprintf(name, sizeof name, "package-%u-die-%u", s / 2, s % 2);
      add(c, id, name, true, false, pkg);
      snprintf(id, sizeof id, "intel-rapl:%u:0", s);
      add(c, id, "dram", true, true, intel_dram);
    }
    break;
  case COUNTERS_AMD_ZEN:
    pkg.unit_nj = 15258; /* 2^-16 J (Schone et al. 2021) */
    pkg.idle_w = 60.0;
    pkg.busy_w = 90.0;
    other = pkg;
    other.idle_w = 10;
    other.busy_w = 30;
    for (unsigned s = 0; s < 2; s++) {
      snprintf(id, sizeof id, "intel-rapl:%u", s);
      snprintf(name, sizeof name, "package-%u", s);
      add(c, id, name, true, false, pkg);
      snprintf(id, sizeof id, "intel-rapl:%u:0", s);
      add(c, id, "core", false, false, other);
    }
    break;
  case COUNTERS_HARSH:
  default:
    pkg.jitter_ns = 500000;
    pkg.miss_p = 0.15;
    pkg.miss_burst = 4;
    pkg.filter_share = 0.5;
    pkg.idle_w = 2.0;
    pkg.busy_w = 20.0;
    add(c, "intel-rapl:0", "package-0", true, false, pkg);
    break;
  }
}

counters *counters_create(counters_machine m, uint64_t seed) {
  counters *c = calloc(1, sizeof *c);
  if (!c)
    abort();
  c->fake = powercap_fake_create();
  c->rng = seed | 1;
  c->now = 1;
  counters_busy(c, false);
  build(c, m);
  return c;
}

void counters_destroy(counters *c) {
  if (!c)
    return;
  powercap_fake_destroy(c->fake);
  free(c->marks);
  free(c);
}

double counters_true_j(const counters *c, bool dram, uint64_t a, uint64_t b) {
  double sum = 0;
  for (size_t i = 0; i < c->n; i++)
    if (c->z[i].counted && c->z[i].dram == dram)
      sum += energy_at(c, &c->z[i], b) - energy_at(c, &c->z[i], a);
  return sum;
}

double counters_slack_j(const counters *c, bool dram) {
  double sum = 0;
  for (size_t i = 0; i < c->n; i++) {
    const zone_model *z = &c->z[i];
    if (!z->counted || z->dram != dram)
      continue;
    double stale = (double)((z->b.miss_burst + 1) * z->b.interval_ns + 2 * z->b.jitter_ns +
                            PREAD_COST_NS * COUNTERS_MAX_ZONES) *
                   1e-9;
    double filter = z->b.filter_share * z->b.busy_w * (double)z->b.interval_ns * 1e-9;
    sum += 2 * (z->b.busy_w * stale + z->unit_j + filter);
  }
  return sum;
}

void counters_stop(counters *c, uint64_t t) {
  c->stop_at = t;
}

void counters_reset(counters *c, uint64_t t) {
  c->reset_at = t;
}

void counters_vanish(counters *c, uint64_t t, int e) {
  c->vanish_at = t;
  c->vanish_errno = e;
}

#define PERF_FD_BASE 1000
#define PERF_TYPE 23u
#define PERF_CPU_STEP 10

/* The zone the k-th counted package zone is (config 2), or its DRAM (3). */
static int perf_zone(const counters *c, uint64_t config, int cpu) {
  int k = cpu / PERF_CPU_STEP;
  for (size_t i = 0; i < c->n; i++) {
    const zone_model *z = &c->z[i];
    if (!z->counted || z->dram || k-- > 0)
      continue;
    if (config == 2)
      return (int)i;
    return i + 1 < c->n && c->z[i + 1].dram ? (int)i + 1 : -1;
  }
  return -1;
}

static int perf_open(void *ctx, uint32_t type, uint64_t config, int cpu) {
  const counters *c = ctx;
  int i = type == PERF_TYPE ? perf_zone(c, config, cpu) : -1;
  return i < 0 ? -ENOENT : PERF_FD_BASE + i;
}

static int perf_read(void *ctx, int fd, uint64_t *count) {
  counters *c = ctx;
  const zone_model *z = &c->z[fd - PERF_FD_BASE];
  c->now += PREAD_COST_NS;
  if (c->vanish_at && c->now >= c->vanish_at && z->counted)
    return -c->vanish_errno;
  run_to(c, c->now);
  uint64_t raw = (uint64_t)((int64_t)(z->raw_start + z->raw) + z->raw_offset);
  unsigned shift = z->b.unit_nj == 61035 ? 18 : 16; /* to 2^-32 J */
  *count = (uint64_t)((double)raw * c->skew) << shift;
  return 0;
}

static void perf_close(void *ctx, int fd) {
  (void)ctx;
  (void)fd;
}

/* Makes every folder of ROOT/rel's parent. */
static void make_parents(const counters *c, const char *rel) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", powercap_fake_root(c->fake), rel);
  for (char *p = path + strlen(powercap_fake_root(c->fake)) + 1; (p = strchr(p, '/')); p++) {
    *p = '\0';
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
      abort();
    *p = '/';
  }
}

static void write_file(counters *c, const char *rel, const char *text) {
  make_parents(c, rel);
  powercap_fake_write(c->fake, rel, text);
}

void counters_perf(counters *c, double skew, gb_perf_opts *opts) {
  static const char scale[] = "2.3283064365386962890625e-10\n";
  char mask[256] = "", path[128], socket[16];
  bool dram = false;
  unsigned k = 0;
  for (size_t i = 0; i < c->n; i++) {
    const zone_model *z = &c->z[i];
    dram = dram || (z->counted && z->dram);
    if (!z->counted || z->dram)
      continue;
    size_t len = strlen(mask);
    snprintf(mask + len, sizeof mask - len, "%s%u", k ? "," : "", k * PERF_CPU_STEP);
    snprintf(socket, sizeof socket, "%u\n", z->socket);
    snprintf(path, sizeof path, "cpus/cpu%u/topology/physical_package_id", k * PERF_CPU_STEP);
    write_file(c, path, socket);
    k++;
  }
  strcat(mask, "\n");
  write_file(c, "power/type", "23\n");
  write_file(c, "power/cpumask", mask);
  write_file(c, "power/events/energy-pkg", "event=0x02\n");
  write_file(c, "power/events/energy-pkg.scale", scale);
  write_file(c, "power/events/energy-pkg.unit", "Joules\n");
  if (dram) {
    write_file(c, "power/events/energy-ram", "event=0x03\n");
    write_file(c, "power/events/energy-ram.scale", scale);
    write_file(c, "power/events/energy-ram.unit", "Joules\n");
  }
  c->skew = skew;
  c->perf = (gb_perf_reader){perf_open, perf_read, perf_close, c};
  snprintf(c->perf_dir, sizeof c->perf_dir, "%s/power", powercap_fake_root(c->fake));
  snprintf(c->cpu_dir, sizeof c->cpu_dir, "%s/cpus", powercap_fake_root(c->fake));
  *opts = (gb_perf_opts){.dir = c->perf_dir, .reader = &c->perf, .cpu_dir = c->cpu_dir};
}
