#include "greenbench/perf_energy.h"

#include "greenbench/files.h"
#include "greenbench/numparse.h"
#include "greenbench/paths.h"
#include "greenbench/text.h"
#include "harness_internal.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PARANOID_PATH "/proc/sys/kernel/perf_event_paranoid"
#define TEXT_MAX 256

static int sys_open(void *ctx, uint32_t type, uint64_t config, int cpu) {
  struct perf_event_attr a;
  (void)ctx;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = type;
  a.config = config;
  long fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
  return fd < 0 ? -errno : (int)fd;
}

static int sys_read(void *ctx, int fd, uint64_t *count) {
  (void)ctx;
  ssize_t got = read(fd, count, sizeof *count);
  if (got < 0)
    return -errno;
  return got == (ssize_t)sizeof *count ? 0 : -ENODATA;
}

static void sys_close(void *ctx, int fd) {
  (void)ctx;
  close(fd);
}

static const gb_perf_reader sys_reader = {sys_open, sys_read, sys_close, NULL};

const char *gb_perf_dir(const gb_perf_opts *opts) {
  if (opts && opts->dir && opts->dir[0])
    return opts->dir;
  const char *env = getenv(GB_PERF_POWER_DIR_ENV);
  return env && env[0] ? env : GB_PERF_POWER_DEFAULT_DIR;
}

/* dir/leaf whole, without its trailing newline. */
static int read_text(const char *dir, const char *leaf, char *buf, gb_err *err) {
  char path[GB_RAPL_PATH_MAX + 64];
  size_t len;
  int rc = gb_path_join(path, sizeof path, dir, leaf, err);
  if (rc == 0)
    rc = gb_read_small_file(path, buf, TEXT_MAX, &len, err);
  if (rc == 0 && len > 0 && buf[len - 1] == '\n')
    buf[len - 1] = '\0';
  return rc;
}

static int bad(const char *dir, const char *leaf, const char *text, const char *want,
               gb_err *err) {
  char shown[TEXT_MAX * 4];
  gb_str_excerpt(text, strlen(text), 60, shown, sizeof shown);
  return gb_err_set(err, EINVAL, "%s/%s: expected %s, got \"%s\"", dir, leaf, want, shown);
}

/* events/<name>: "event=0xNN", the whole of the config. */
static int read_config(const char *dir, const char *name, uint64_t *config, gb_err *err) {
  char leaf[64], text[TEXT_MAX];
  snprintf(leaf, sizeof leaf, "events/%s", name);
  int rc = read_text(dir, leaf, text, err);
  if (rc < 0)
    return rc;
  const char *p = text;
  if (strncmp(p, "event=0x", 8) != 0)
    return bad(dir, leaf, text, "event=0x followed by hex digits", err);
  p += 8;
  if (gb_scan_u64(&p, 16, UINT64_MAX, config) < 0 || *p != '\0')
    return bad(dir, leaf, text, "event=0x followed by hex digits", err);
  return 0;
}

/* events/<name>.scale (Joules per count) and events/<name>.unit ("Joules"). */
static int read_scale(const char *dir, const char *name, long double *scale, gb_err *err) {
  char leaf[64], text[TEXT_MAX];
  double v;
  snprintf(leaf, sizeof leaf, "events/%s.scale", name);
  int rc = read_text(dir, leaf, text, err);
  if (rc < 0)
    return rc;
  if (gb_parse_decimal(text, GB_DECIMAL_EXPONENT, &v) < 0 || !(v > 0))
    return bad(dir, leaf, text, "a positive number of Joules per count", err);
  *scale = v;
  snprintf(leaf, sizeof leaf, "events/%s.unit", name);
  rc = read_text(dir, leaf, text, err);
  if (rc < 0)
    return rc;
  return strcmp(text, "Joules") == 0 ? 0 : bad(dir, leaf, text, "Joules", err);
}

/* "0", "0,28", "0-1": the CPUs, one per package, in order. */
static int read_cpus(const char *dir, int *cpus, size_t *n, gb_err *err) {
  char text[TEXT_MAX];
  int rc = read_text(dir, "cpumask", text, err);
  if (rc < 0)
    return rc;
  const char *p = text;
  *n = 0;
  while (*p) {
    uint64_t lo, hi;
    if (gb_scan_u64(&p, 10, 1u << 20, &lo) < 0)
      return bad(dir, "cpumask", text, "a list of CPUs such as 0,28", err);
    hi = lo;
    if (*p == '-' && (p++, gb_scan_u64(&p, 10, 1u << 20, &hi) < 0 || hi < lo))
      return bad(dir, "cpumask", text, "a list of CPUs such as 0,28", err);
    for (uint64_t c = lo; c <= hi; c++) {
      if (*n == GB_RAPL_MAX_ZONES / 2)
        return gb_err_set(err, E2BIG, "%s/cpumask: more than %d packages", dir,
                          GB_RAPL_MAX_ZONES / 2);
      cpus[(*n)++] = (int)c;
    }
    if (*p == ',')
      p++;
    else if (*p)
      return bad(dir, "cpumask", text, "a list of CPUs such as 0,28", err);
  }
  return *n ? 0 : bad(dir, "cpumask", text, "at least one CPU", err);
}

static int refused(const char *dir, const char *name, int cpu, int rc, gb_err *err) {
  char paranoid[TEXT_MAX];
  gb_err ignored;
  if (read_text("/proc/sys/kernel", "perf_event_paranoid", paranoid, &ignored) < 0)
    gb_str_copy(paranoid, sizeof paranoid, "unreadable");
  return gb_err_set(err, EACCES,
                    "perf_event_open(power/%s/, CPU %d) under %s: %s; perf_event_paranoid is "
                    "%s (" PARANOID_PATH "): system-wide events need it at 0 or below, "
                    "CAP_PERFMON, or root",
                    name, cpu, dir, strerror(-rc), paranoid);
}

typedef struct {
  const char *name; /* the event */
  gb_rapl_kind kind;
  bool present;
  uint64_t config;
  long double scale;
} event_kind;

/* cpuN/topology/physical_package_id, or k where it cannot be read. */
static unsigned socket_of(const gb_rapl *r, int cpu, size_t k) {
  char dir[GB_RAPL_PATH_MAX + 64], text[TEXT_MAX];
  uint64_t v;
  gb_err ignored;
  snprintf(dir, sizeof dir, "%s/cpu%d/topology", r->cpu_dir, cpu);
  if (read_text(dir, "physical_package_id", text, &ignored) < 0 ||
      gb_parse_u64(text, 0, 999999, &v) < 0)
    return (unsigned)k;
  return (unsigned)v;
}

/* Opens event e on the CPU of package k as the next zone, and reads it. */
static int add_zone(gb_rapl *r, const event_kind *e, uint32_t type, size_t k, int cpu,
                    gb_err *err) {
  if (r->n == GB_RAPL_MAX_ZONES)
    return gb_err_set(err, E2BIG, "more than %d perf_event zones", GB_RAPL_MAX_ZONES);
  gb_rapl_zone *z = &r->zone[r->n];
  unsigned socket = socket_of(r, cpu, k), die = 0;
  for (size_t j = 0; j < r->n; j++)
    die += r->zone[j].kind == e->kind && r->zone[j].socket == socket;
  snprintf(z->id, sizeof z->id, "%s@cpu%d", e->name, cpu);
  if (e->kind == GB_RAPL_DRAM)
    gb_str_copy(z->name, sizeof z->name, "dram");
  else if (die == 0)
    snprintf(z->name, sizeof z->name, "package-%u", socket);
  else
    snprintf(z->name, sizeof z->name, "package-%u-die-%u", socket, die);
  int len = snprintf(z->path, sizeof z->path, "%s/events/%s", r->root, e->name);
  if (len < 0 || (size_t)len >= sizeof z->path) /* setup bounds the root: never */
    return gb_err_set(err, ENAMETOOLONG, "perf PMU folder too long: %s", r->root);
  z->kind = e->kind;
  z->socket = socket;
  z->max_energy_range_uj = GB_PERF_MAX_UJ;
  r->scale[r->n] = e->scale;
  int fd = r->perf_reader.open(r->perf_reader.ctx, type, e->config, cpu);
  if (fd == -EACCES || fd == -EPERM)
    return refused(r->root, e->name, cpu, fd, err);
  if (fd < 0)
    return gb_err_set(err, -fd, "perf_event_open(power/%s/, CPU %d) under %s: %s", e->name, cpu,
                      r->root, strerror(-fd));
  r->fd[r->n++] = fd;
  uint64_t uj;
  return gbi_perf_read(r, r->n - 1, &uj, err);
}

/* Whether events/<name> exists; then its config, scale and unit. */
static int load_event(const char *dir, event_kind *e, gb_err *err) {
  char path[GB_RAPL_PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/events/%s", dir, e->name);
  e->present = access(path, F_OK) == 0;
  if (!e->present && e->kind == GB_RAPL_PACKAGE)
    return gb_err_set(err, ENOENT, "the power PMU has no energy-pkg event: %s does not exist",
                      path);
  int rc = e->present ? read_config(dir, e->name, &e->config, err) : 0;
  return rc == 0 && e->present ? read_scale(dir, e->name, &e->scale, err) : rc;
}

static int setup(gb_rapl *r, const gb_perf_opts *opts, gb_err *err) {
  char text[TEXT_MAX];
  uint64_t type;
  int cpus[GB_RAPL_MAX_ZONES];
  size_t ncpus;
  event_kind ev[] = {{"energy-pkg", GB_RAPL_PACKAGE, false, 0, 0},
                     {"energy-ram", GB_RAPL_DRAM, false, 0, 0}};
  const char *dir = gb_perf_dir(opts);
  if (strlen(dir) >= sizeof r->root - 64)
    return gb_err_set(err, ENAMETOOLONG, "perf PMU folder too long: %s", dir);
  gb_str_copy(r->root, sizeof r->root, dir);
  r->perf = true;
  r->perf_reader = opts && opts->reader ? *opts->reader : sys_reader;
  const char *cpu_dir =
      opts && opts->cpu_dir && opts->cpu_dir[0] ? opts->cpu_dir : "/sys/devices/system/cpu";
  if (strlen(cpu_dir) >= sizeof r->cpu_dir)
    return gb_err_set(err, ENAMETOOLONG, "CPU folder too long: %s", cpu_dir);
  gb_str_copy(r->cpu_dir, sizeof r->cpu_dir, cpu_dir);
  if (access(dir, F_OK) != 0)
    return gb_err_set(err, ENOENT,
                      "no perf_event power PMU: %s does not exist (the kernel's RAPL perf "
                      "events need RAPL hardware and CONFIG_PERF_EVENTS_INTEL_RAPL; virtual "
                      "machines usually have none)",
                      dir);
  int rc = read_text(dir, "type", text, err);
  if (rc == 0 && gb_parse_u64(text, 0, UINT32_MAX, &type) < 0)
    rc = bad(dir, "type", text, "the PMU's type number", err);
  if (rc == 0)
    rc = read_cpus(dir, cpus, &ncpus, err);
  for (size_t e = 0; rc == 0 && e < 2; e++)
    rc = load_event(dir, &ev[e], err);
  for (size_t k = 0; rc == 0 && k < ncpus; k++)
    for (size_t e = 0; rc == 0 && e < 2; e++)
      if (ev[e].present)
        rc = add_zone(r, &ev[e], (uint32_t)type, k, cpus[k], err);
  return rc;
}

int gb_rapl_open_perf(const gb_perf_opts *opts, gb_rapl **out, gb_err *err) {
  gb_rapl *r = gbi_rapl_alloc();
  if (!r)
    return gb_err_set(err, ENOMEM, "out of memory for the perf_event zones");
  int rc = setup(r, opts, err);
  if (rc < 0) {
    gb_rapl_close(r);
    return rc;
  }
  *out = r;
  return 0;
}

int gbi_perf_read(gb_rapl *r, size_t i, uint64_t *uj, gb_err *err) {
  uint64_t count;
  int rc = r->perf_reader.read(r->perf_reader.ctx, r->fd[i], &count);
  if (rc < 0)
    return gb_err_set(err, -rc, "cannot read %s (%s): %s", r->zone[i].id, r->zone[i].path,
                      strerror(-rc));
  long double v = (long double)count * r->scale[i] * 1e6L;
  if (v > (long double)GB_PERF_MAX_UJ)
    return gb_err_set(err, ERANGE, "%s (%s): %.0Lf uJ is above %llu", r->zone[i].id,
                      r->zone[i].path, v, (unsigned long long)GB_PERF_MAX_UJ);
  *uj = (uint64_t)v;
  return 0;
}
