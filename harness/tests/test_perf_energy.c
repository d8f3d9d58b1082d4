/* perf_event as the second way to read the RAPL counters, without a PMU: a
 * power PMU folder written by the test (type, cpumask, events and their
 * scale and unit) and a reader whose "perf fds" are files holding a count.
 * One test opens the machine's own power PMU and skips, with the reason,
 * where there is none or it may not be opened. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/perf_energy.h"
#include "greenbench/rapl.h"
#include "helper_powercap.h"

#define TWO_TO_32 4294967296ull

static powercap_fake *tree; /* a temporary folder: power/, counts/, cpus/ */
static char pmu[1100], counts[1100], cpus[1100];
static int open_error;     /* what the reader's open returns, when not 0 */
static uint32_t seen_type; /* the last type and config the reader was asked for */
static uint64_t seen_config;

static void mkdirs(const char *rel) {
  char path[1200];
  snprintf(path, sizeof path, "%s/%s", powercap_fake_root(tree), rel);
  for (char *p = path + strlen(powercap_fake_root(tree)) + 1;; p++) {
    p = strchr(p, '/');
    if (p)
      *p = '\0';
    cr_assert(mkdir(path, 0755) == 0 || errno == EEXIST, "%s", path);
    if (!p)
      return;
    *p = '/';
  }
}

static void put(const char *rel, const char *text) {
  char dir[256];
  snprintf(dir, sizeof dir, "%s", rel);
  *strrchr(dir, '/') = '\0';
  mkdirs(dir);
  powercap_fake_write(tree, rel, text);
}

/* The count file of event `config` on CPU cpu. */
static void set_count(uint64_t config, int cpu, uint64_t count) {
  char rel[64], text[32];
  snprintf(rel, sizeof rel, "counts/%llu-%d", (unsigned long long)config, cpu);
  snprintf(text, sizeof text, "%llu\n", (unsigned long long)count);
  put(rel, text);
}

static int file_open(void *ctx, uint32_t type, uint64_t config, int cpu) {
  char path[1200];
  (void)ctx;
  seen_type = type;
  seen_config = config;
  if (open_error)
    return open_error;
  snprintf(path, sizeof path, "%s/%llu-%d", counts, (unsigned long long)config, cpu);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

/* The count as the file holds it now (the test rewrites it: a new inode, so
 * the fd is reopened by path through /proc). */
static int file_read(void *ctx, int fd, uint64_t *count) {
  char link[64], path[1200], text[32];
  (void)ctx;
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t len = readlink(link, path, sizeof path - 1);
  if (len < 0)
    return -errno;
  path[len] = '\0';
  FILE *f = fopen(path, "r");
  if (!f)
    return -errno;
  bool ok = fgets(text, sizeof text, f) != NULL;
  fclose(f);
  return ok ? (*count = strtoull(text, NULL, 10), 0) : -ENODATA;
}

static void file_close(void *ctx, int fd) {
  (void)ctx;
  close(fd);
}

static const gb_perf_reader file_reader = {file_open, file_read, file_close, NULL};

static gb_perf_opts opts(void) {
  return (gb_perf_opts){.dir = pmu, .reader = &file_reader, .cpu_dir = cpus};
}

/* A two-socket server's PMU: CPUs 0 and 28, package and DRAM events. */
static void setup(void) {
  tree = powercap_fake_create();
  snprintf(pmu, sizeof pmu, "%s/power", powercap_fake_root(tree));
  snprintf(counts, sizeof counts, "%s/counts", powercap_fake_root(tree));
  snprintf(cpus, sizeof cpus, "%s/cpus", powercap_fake_root(tree));
  open_error = 0;
  put("power/type", "23\n");
  put("power/cpumask", "0,28\n");
  put("power/events/energy-pkg", "event=0x02\n");
  put("power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n");
  put("power/events/energy-pkg.unit", "Joules\n");
  put("power/events/energy-ram", "event=0x03\n");
  put("power/events/energy-ram.scale", "2.3283064365386962890625e-10\n");
  put("power/events/energy-ram.unit", "Joules\n");
  put("cpus/cpu0/topology/physical_package_id", "0\n");
  put("cpus/cpu28/topology/physical_package_id", "1\n");
  set_count(2, 0, 5 * TWO_TO_32);
  set_count(3, 0, 1 * TWO_TO_32);
  set_count(2, 28, 7 * TWO_TO_32);
  set_count(3, 28, TWO_TO_32 / 2);
}

static void teardown(void) {
  powercap_fake_destroy(tree);
}

TestSuite(perf_energy, .init = setup, .fini = teardown, .timeout = 30);

static gb_rapl *open_ok(void) {
  gb_perf_opts o = opts();
  gb_rapl *r = NULL;
  gb_err err;
  cr_assert_eq(gb_rapl_open_perf(&o, &r, &err), 0, "%s", err.msg);
  return r;
}

static void open_fails(int want, const char *says) {
  gb_perf_opts o = opts();
  gb_rapl *r = NULL;
  gb_err err;
  cr_assert_eq(gb_rapl_open_perf(&o, &r, &err), -want, "%s", err.msg);
  cr_assert_null(r);
  cr_assert(strstr(err.msg, says), "%s", err.msg);
}

Test(perf_energy, one_package_and_dram_zone_per_cpu_of_the_cpumask) {
  gb_rapl *r = open_ok();
  cr_assert_str_eq(gb_rapl_source(r), "perf_event");
  cr_assert_str_eq(gb_rapl_root(r), pmu);
  cr_assert_eq(gb_rapl_count(r), 4u);
  const char *ids[] = {"energy-pkg@cpu0", "energy-ram@cpu0", "energy-pkg@cpu28",
                       "energy-ram@cpu28"};
  const char *names[] = {"package-0", "dram", "package-1", "dram"};
  for (size_t i = 0; i < 4; i++) {
    const gb_rapl_zone *z = gb_rapl_zone_at(r, i);
    cr_assert_str_eq(z->id, ids[i]);
    cr_assert_str_eq(z->name, names[i]);
    cr_assert_eq(z->socket, i / 2);
    cr_assert_eq(z->kind, i % 2 ? GB_RAPL_DRAM : GB_RAPL_PACKAGE);
    cr_assert_eq(z->max_energy_range_uj, GB_PERF_MAX_UJ, "64 bits in the kernel: no wrap");
  }
  cr_assert(gb_rapl_has_dram(r));
  cr_assert_eq(seen_type, 23u);
  cr_assert_eq(seen_config, 3u, "the last opened: energy-ram's event=0x03");
  gb_rapl_close(r);
}

Test(perf_energy, counts_times_the_scale_are_microjoules) {
  gb_rapl *r = open_ok();
  uint64_t uj[4];
  gb_err err;
  cr_assert_eq(gb_rapl_read_all(r, uj, &err), 0, "%s", err.msg);
  cr_assert_eq(uj[0], 5000000u);
  cr_assert_eq(uj[1], 1000000u);
  cr_assert_eq(uj[2], 7000000u);
  cr_assert_eq(uj[3], 500000u);
  set_count(2, 0, 5 * TWO_TO_32 + TWO_TO_32 / 4); /* 1.25 J later */
  cr_assert_eq(gb_rapl_read(r, 0, &uj[0], &err), 0, "%s", err.msg);
  cr_assert_eq(uj[0], 5250000u);
  cr_assert_eq(gb_rapl_check(r, 0, &err), 0);
  gb_rapl_close(r);
}

Test(perf_energy, no_energy_ram_means_package_only) {
  char path[1200];
  snprintf(path, sizeof path, "%s/events/energy-ram", pmu);
  cr_assert_eq(unlink(path), 0);
  gb_rapl *r = open_ok();
  cr_assert_eq(gb_rapl_count(r), 2u);
  cr_assert_not(gb_rapl_has_dram(r));
  gb_rapl_close(r);
}

Test(perf_energy, two_dies_of_one_socket_are_package_s_die_d) {
  put("power/cpumask", "0-1\n");
  put("cpus/cpu1/topology/physical_package_id", "0\n");
  set_count(2, 1, 0);
  set_count(3, 1, 0);
  gb_rapl *r = open_ok();
  cr_assert_str_eq(gb_rapl_zone_at(r, 0)->name, "package-0");
  cr_assert_str_eq(gb_rapl_zone_at(r, 2)->name, "package-0-die-1");
  cr_assert_eq(gb_rapl_zone_at(r, 2)->socket, 0u);
  gb_rapl_close(r);
}

Test(perf_energy, a_cpu_without_topology_takes_its_place_in_the_mask) {
  char path[1200];
  snprintf(path, sizeof path, "%s/cpu28/topology/physical_package_id", cpus);
  cr_assert_eq(unlink(path), 0);
  gb_rapl *r = open_ok();
  cr_assert_eq(gb_rapl_zone_at(r, 2)->socket, 1u);
  gb_rapl_close(r);
}

Test(perf_energy, no_pmu_folder) {
  snprintf(pmu, sizeof pmu, "%s/none", powercap_fake_root(tree));
  open_fails(ENOENT, "no perf_event power PMU: ");
}

Test(perf_energy, no_energy_pkg_event) {
  char path[1200];
  snprintf(path, sizeof path, "%s/events/energy-pkg", pmu);
  cr_assert_eq(unlink(path), 0);
  open_fails(ENOENT, "the power PMU has no energy-pkg event");
}

Test(perf_energy, a_refused_open_names_perf_event_paranoid) {
  open_error = -EACCES;
  open_fails(EACCES, "perf_event_paranoid is ");
  open_error = -EPERM;
  open_fails(EACCES, "CAP_PERFMON, or root");
}

Test(perf_energy, other_open_and_read_errors_are_named) {
  open_error = -ENODEV;
  open_fails(ENODEV, "perf_event_open(power/energy-pkg/, CPU 0)");
  open_error = 0;
  char path[1200];
  snprintf(path, sizeof path, "%s/2-28", counts);
  cr_assert_eq(unlink(path), 0);
  open_fails(ENOENT, "CPU 28");
}

Test(perf_energy, bad_metadata_is_refused) {
  static const struct {
    const char *file, *text, *says;
  } cases[] = {
      {"power/type", "twenty\n", "/type: expected the PMU's type number"},
      {"power/cpumask", "\n", "/cpumask: expected at least one CPU"},
      {"power/cpumask", "0;1\n", "/cpumask: expected a list of CPUs"},
      {"power/cpumask", "3-1\n", "/cpumask: expected a list of CPUs"},
      {"power/events/energy-pkg", "event=2\n", "events/energy-pkg: expected event=0x"},
      {"power/events/energy-pkg", "event=0x02,umask=0x1\n", "expected event=0x"},
      {"power/events/energy-pkg.scale", "-1\n", "energy-pkg.scale: expected a positive"},
      {"power/events/energy-pkg.unit", "mJ\n", "energy-pkg.unit: expected Joules"},
      {"power/events/energy-ram.unit", "\n", "energy-ram.unit: expected Joules"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    teardown();
    setup();
    put(cases[i].file, cases[i].text);
    open_fails(EINVAL, cases[i].says);
  }
}

/* The machine's own power PMU, where it has one and it may be opened. */
Test(perf_energy, the_machine_s_power_pmu_or_why_not) {
  gb_rapl *r = NULL;
  gb_err err;
  gb_perf_opts o = {.dir = GB_PERF_POWER_DEFAULT_DIR};
  int rc = gb_rapl_open_perf(&o, &r, &err);
  if (rc == -ENOENT || rc == -EACCES)
    cr_skip_test("no perf_event energy here: %s", err.msg);
  cr_assert_eq(rc, 0, "%s", err.msg);
  uint64_t uj[GB_RAPL_MAX_ZONES];
  cr_assert_eq(gb_rapl_read_all(r, uj, &err), 0, "%s", err.msg);
  cr_assert_str_eq(gb_rapl_zone_at(r, 0)->name, "package-0");
  gb_rapl_close(r);
}
