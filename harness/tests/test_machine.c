/* Machine state against fake sysfs/procfs trees in data/sysfs-*:
 *   sysfs-intel    two-socket Xeon (CPUs 0-1 package 0, 2-3 package 1),
 *                  intel_pstate with turbo off, a coretemp hwmon per package
 *   sysfs-amd      Threadripper, acpi-cpufreq boost on, k10temp with Tdie on
 *                  temp1 and Tctl on temp2, CPU 1 reading 0 kHz, CPU 3 no freq
 *   sysfs-vm       kernel and CPU model only: no cpufreq, no sensors
 *   sysfs-thermal  no procfs, no package hwmon, x86_pkg_temp thermal zone,
 *                  per-policy boost off
 * and against trees built in a temporary directory where a test must change
 * files between samples. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "greenbench/machine.h"
#include "greenbench/numparse.h"

#define TREE(name) GB_TEST_DATA_DIR "/sysfs-" name

static gb_machine_info info_of(const char *root, const unsigned *cpus, size_t n) {
  gb_machine_info info;
  gb_err err = {{0}};
  cr_assert_eq(gb_machine_info_read(root, cpus, n, &info, &err), 0, "%s", err.msg);
  return info;
}

static gb_machine_sample sample_of(const char *root, const unsigned *cpus, size_t n, char *desc,
                                   size_t desc_len) {
  gb_machine_sampler *s;
  gb_err err = {{0}};
  cr_assert_eq(gb_machine_sampler_open(root, cpus, n, &s, &err), 0, "%s", err.msg);
  gb_machine_sample r;
  gb_machine_sample_read(s, &r);
  cr_assert_eq(gb_machine_sampler_describe(s, desc, desc_len), 0);
  gb_machine_sampler_close(s);
  return r;
}

Test(machine, intel_info) {
  unsigned cpus[] = {2, 3};
  gb_machine_info m = info_of(TREE("intel"), cpus, 2);
  cr_assert(m.has_cpu_model);
  cr_assert_str_eq(m.cpu_model, "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz");
  cr_assert(m.has_kernel);
  cr_assert_str_eq(m.kernel,
                   "Linux 6.1.0-18-amd64 #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)");
  cr_assert(m.has_governor);
  cr_assert_str_eq(m.governor, "performance");
  /* no_turbo = 1 means turbo is off. */
  cr_assert_eq(m.turbo, GB_TURBO_OFF);
  cr_assert_str_eq(m.turbo_source, "intel_pstate/no_turbo");
}

Test(machine, intel_sample_reads_the_pinned_package) {
  unsigned cpus[] = {2, 3};
  char desc[256];
  gb_machine_sample r = sample_of(TREE("intel"), cpus, 2, desc, sizeof desc);
  cr_assert(r.has_freq);
  cr_assert_eq(r.freq_khz, 2700000u);
  cr_assert_eq(r.freq_cpu_mask, 0x3u);
  cr_assert(r.has_temp);
  cr_assert_eq(r.temp_mc, 51000);
  cr_assert(strstr(desc, "hwmon2 coretemp temp1 \"Package id 1\""), "%s", desc);
  cr_assert(strstr(desc, "scaling_cur_freq of CPUs 2,3;"), "%s", desc);
}

Test(machine, intel_sample_package0_skips_other_hwmons_and_zones) {
  unsigned cpus[] = {1};
  char desc[256];
  gb_machine_sample r = sample_of(TREE("intel"), cpus, 1, desc, sizeof desc);
  cr_assert_eq(r.freq_khz, 2400000u);
  /* Not acpitz (hwmon0, 27.8) nor the thermal zone (99.0). */
  cr_assert(r.has_temp);
  cr_assert_eq(r.temp_mc, 45000);
}

Test(machine, amd_info) {
  unsigned cpus[] = {2, 3};
  gb_machine_info m = info_of(TREE("amd"), cpus, 2);
  cr_assert_str_eq(m.cpu_model, "AMD Ryzen Threadripper 1950X 16-Core Processor");
  cr_assert_str_eq(m.governor, "mixed: 2=schedutil 3=performance");
  cr_assert_eq(m.turbo, GB_TURBO_ON);
  cr_assert_str_eq(m.turbo_source, "cpufreq/boost");
}

Test(machine, amd_sample_prefers_tctl_and_says_which_cpus_were_read) {
  unsigned cpus[] = {2, 3};
  char desc[256];
  gb_machine_sample r = sample_of(TREE("amd"), cpus, 2, desc, sizeof desc);
  cr_assert(r.has_freq);
  cr_assert_eq(r.freq_khz, 3200000u, "the mean is over CPUs read, not all CPUs");
  cr_assert_eq(r.freq_cpu_mask, 0x1u);
  cr_assert(r.has_temp);
  cr_assert_eq(r.temp_mc, 61250, "Tctl (temp2), not Tdie (temp1)");
  cr_assert(strstr(desc, "CPUs 2 (none for 3)"), "%s", desc);
  cr_assert(strstr(desc, "hwmon2 k10temp temp2 \"Tctl\""), "%s", desc);
}

Test(machine, zero_frequency_is_missing) {
  unsigned cpus[] = {1};
  char desc[256];
  gb_machine_sample r = sample_of(TREE("amd"), cpus, 1, desc, sizeof desc);
  cr_assert_not(r.has_freq);
  cr_assert_eq(r.freq_cpu_mask, 0u);
}

Test(machine, vm_reports_everything_missing) {
  unsigned cpus[] = {1};
  gb_machine_info m = info_of(TREE("vm"), cpus, 1);
  cr_assert(m.has_cpu_model);
  cr_assert_str_eq(m.cpu_model, "QEMU Virtual CPU version 2.5+");
  cr_assert(m.has_kernel);
  cr_assert_not(m.has_governor);
  cr_assert_str_eq(m.governor, "");
  cr_assert_eq(m.turbo, GB_TURBO_UNKNOWN);
  cr_assert_str_eq(m.turbo_source, "");
  char desc[256];
  gb_machine_sample r = sample_of(TREE("vm"), cpus, 1, desc, sizeof desc);
  cr_assert_not(r.has_freq);
  cr_assert_not(r.has_temp);
  cr_assert_str_eq(desc, "freq: none; temp: none");
}

Test(machine, thermal_zone_and_per_policy_boost) {
  unsigned cpus[] = {1};
  gb_machine_info m = info_of(TREE("thermal"), cpus, 1);
  cr_assert_not(m.has_cpu_model);
  cr_assert_not(m.has_kernel);
  cr_assert_str_eq(m.governor, "powersave");
  cr_assert_eq(m.turbo, GB_TURBO_OFF);
  cr_assert_str_eq(m.turbo_source, "cpu1/cpufreq/boost");
  char desc[256];
  gb_machine_sample r = sample_of(TREE("thermal"), cpus, 1, desc, sizeof desc);
  cr_assert(r.has_temp);
  cr_assert_eq(r.temp_mc, 52000);
  cr_assert(strstr(desc, "thermal_zone2 x86_pkg_temp"), "%s", desc);
  cr_assert_eq(r.freq_khz, 1800000u);
}

Test(machine, absent_root_is_all_missing_not_an_error) {
  unsigned cpus[] = {0};
  gb_machine_info m = info_of("/nonexistent-greenbench-root", cpus, 1);
  cr_assert_not(m.has_cpu_model || m.has_kernel || m.has_governor);
  cr_assert_eq(m.turbo, GB_TURBO_UNKNOWN);
  char desc[64];
  gb_machine_sample r = sample_of("/nonexistent-greenbench-root", cpus, 1, desc, sizeof desc);
  cr_assert_not(r.has_freq || r.has_temp);
}

Test(machine, bad_cpu_counts_are_refused) {
  unsigned cpus[GB_MACHINE_MAX_CPUS + 1] = {0};
  gb_machine_info m = {.has_kernel = true};
  gb_machine_sampler *s = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_machine_info_read(NULL, cpus, 0, &m, &err), -EINVAL);
  cr_assert(m.has_kernel, "a refused call must leave *out alone");
  cr_assert_eq(gb_machine_sampler_open(NULL, cpus, GB_MACHINE_MAX_CPUS + 1, &s, &err), -EINVAL);
  cr_assert_null(s);
  cr_assert(strstr(err.msg, "65"), "%s", err.msg);
}

Test(machine, this_machine_kernel_matches_uname) {
  unsigned cpus[] = {0};
  gb_machine_info m = info_of(NULL, cpus, 1);
  struct utsname u;
  cr_assert_eq(uname(&u), 0);
  cr_assert(m.has_kernel);
  cr_assert(strstr(m.kernel, u.release), "%s vs %s", m.kernel, u.release);
  gb_machine_sampler *s;
  gb_err err = {{0}};
  cr_assert_eq(gb_machine_sampler_open(NULL, cpus, 1, &s, &err), 0, "%s", err.msg);
  gb_machine_sample r;
  gb_machine_sample_read(s, &r);
  cr_assert(!r.has_freq || r.freq_khz > 0);
  gb_machine_sampler_close(s);
}

/* A writable tree: cpu1's scaling_cur_freq and one coretemp hwmon. */
typedef struct {
  char root[64];
  char freq[PATH_MAX];
  char temp[PATH_MAX];
} live_tree;

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s: %s", path, strerror(errno));
  fputs(text, f);
  fclose(f);
}

static void mkdirs(const char *root, const char *rel) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  for (char *p = path + strlen(root) + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    mkdir(path, 0755);
    *p = '/';
  }
  mkdir(path, 0755);
}

static void live_make(live_tree *t) {
  snprintf(t->root, sizeof t->root, "/tmp/gb-sysfs-XXXXXX");
  cr_assert_not_null(mkdtemp(t->root));
  mkdirs(t->root, "sys/devices/system/cpu/cpu1/cpufreq");
  mkdirs(t->root, "sys/class/hwmon/hwmon0");
  snprintf(t->freq, sizeof t->freq, "%s/sys/devices/system/cpu/cpu1/cpufreq/scaling_cur_freq",
           t->root);
  snprintf(t->temp, sizeof t->temp, "%s/sys/class/hwmon/hwmon0/temp1_input", t->root);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/sys/class/hwmon/hwmon0/name", t->root);
  put(path, "coretemp\n");
  put(t->freq, "1000000\n");
  put(t->temp, "40000\n");
}

static void live_remove(live_tree *t) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->root);
  cr_assert_eq(system(cmd), 0);
}

Test(machine_sample, rereads_changed_values_and_marks_bad_ones_missing) {
  live_tree t;
  live_make(&t);
  unsigned cpus[] = {1};
  gb_machine_sampler *s;
  gb_err err = {{0}};
  cr_assert_eq(gb_machine_sampler_open(t.root, cpus, 1, &s, &err), 0, "%s", err.msg);
  gb_machine_sample r;
  gb_machine_sample_read(s, &r);
  cr_assert_eq(r.freq_khz, 1000000u);
  cr_assert_eq(r.temp_mc, 40000);
  put(t.freq, "3500000\n");
  put(t.temp, "87000\n");
  gb_machine_sample_read(s, &r);
  cr_assert_eq(r.freq_khz, 3500000u);
  cr_assert_eq(r.temp_mc, 87000);
  put(t.freq, "fast\n");
  put(t.temp, "0\n");
  gb_machine_sample_read(s, &r);
  cr_assert_not(r.has_freq);
  cr_assert_not(r.has_temp, "0 m°C is a missing reading, not a temperature");
  gb_machine_sampler_close(s);
  live_remove(&t);
}

Test(machine_sample, paths_are_resolved_once) {
  live_tree t;
  live_make(&t);
  unsigned cpus[] = {1};
  gb_machine_sampler *s;
  gb_err err = {{0}};
  cr_assert_eq(gb_machine_sampler_open(t.root, cpus, 1, &s, &err), 0, "%s", err.msg);
  /* Move both directories: a sampler that looked paths up again would lose
   * them; one that holds open files keeps reading them. */
  char from[PATH_MAX], to[PATH_MAX];
  snprintf(from, sizeof from, "%s/sys/class/hwmon", t.root);
  snprintf(to, sizeof to, "%s/sys/class/moved", t.root);
  cr_assert_eq(rename(from, to), 0);
  snprintf(from, sizeof from, "%s/sys/devices", t.root);
  snprintf(to, sizeof to, "%s/sys/moved-devices", t.root);
  cr_assert_eq(rename(from, to), 0);
  gb_machine_sample r;
  gb_machine_sample_read(s, &r);
  cr_assert(r.has_freq && r.has_temp);
  cr_assert_eq(r.freq_khz, 1000000u);
  cr_assert_eq(r.temp_mc, 40000);
  gb_machine_sampler_close(s);
  live_remove(&t);
}

Test(machine_sample, files_are_closed_on_exec) {
  live_tree t;
  live_make(&t);
  unsigned cpus[] = {1};
  gb_machine_sampler *s;
  gb_err err = {{0}};
  cr_assert_eq(gb_machine_sampler_open(t.root, cpus, 1, &s, &err), 0, "%s", err.msg);
  DIR *d = opendir("/proc/self/fd");
  cr_assert_not_null(d);
  int seen = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char link[PATH_MAX], target[PATH_MAX] = "";
    snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
    if (readlink(link, target, sizeof target - 1) < 0 ||
        strncmp(target, t.root, strlen(t.root)))
      continue;
    seen++;
    uint64_t fd;
    cr_assert_eq(gb_parse_u64(e->d_name, 0, INT32_MAX, &fd), 0, "%s", e->d_name);
    cr_assert(fcntl((int)fd, F_GETFD) & FD_CLOEXEC, "%s is inherited by workers", target);
  }
  closedir(d);
  cr_assert_eq(seen, 2, "expected the freq and temp files open, saw %d", seen);
  gb_machine_sampler_close(s);
  live_remove(&t);
}

/* environment.txt's machine facts, against the golden file facts-<tree>.txt
 * with the tree's path written ROOT. */
static void facts_match(const char *tree, const char *golden, unsigned cpu) {
  static char buf[8192], want[8192], got[8192];
  cr_assert_eq(gb_machine_facts_describe(tree, NULL, cpu, buf, sizeof buf), 0);
  size_t tl = strlen(tree), g = 0;
  for (const char *p = buf; *p && g + 5 < sizeof got;) {
    if (strncmp(p, tree, tl) == 0) {
      memcpy(got + g, "ROOT", 4);
      g += 4;
      p += tl;
    } else {
      got[g++] = *p++;
    }
  }
  got[g] = '\0';
  FILE *f = fopen(golden, "r");
  cr_assert_not_null(f, "%s", golden);
  want[fread(want, 1, sizeof want - 1, f)] = '\0';
  fclose(f);
  cr_assert_str_eq(got, want, "got:\n%s", got);
}

Test(machine_facts, intel_tree_gives_every_fact) {
  facts_match(TREE("intel"), GB_TEST_DATA_DIR "/facts-intel.txt", 2);
}

/* Every fact missing: each line says unavailable and why, nothing fails. */
Test(machine_facts, vm_tree_says_unavailable_and_why) {
  facts_match(TREE("vm"), GB_TEST_DATA_DIR "/facts-vm.txt", 0);
}

Test(machine_facts, a_short_buffer_is_truncated_not_overrun) {
  char buf[32];
  memset(buf, 'x', sizeof buf);
  cr_assert_eq(gb_machine_facts_describe(TREE("intel"), NULL, 2, buf, 16), -ENOSPC);
  cr_assert_eq(strlen(buf), 15);
  cr_assert_eq(buf[16], 'x');
  cr_assert_eq(gb_machine_facts_describe(TREE("intel"), NULL, 2, NULL, 16), -EINVAL);
}

/* An unreadable file (a directory where a file should be) is reported, with
 * the reason, like a missing one. */
Test(machine_facts, an_unreadable_fact_names_the_error) {
  char root[] = "/tmp/gb-facts-XXXXXX", path[PATH_MAX];
  cr_assert_not_null(mkdtemp(root));
  snprintf(path, sizeof path, "%s/proc", root);
  mkdir(path, 0755);
  snprintf(path, sizeof path, "%s/proc/cmdline", root);
  mkdir(path, 0755);
  char buf[4096];
  cr_assert_eq(gb_machine_facts_describe(root, NULL, 0, buf, sizeof buf), 0);
  rmdir(path);
  snprintf(path, sizeof path, "%s/proc", root);
  rmdir(path);
  rmdir(root);
  cr_assert(strstr(buf, "kernel command line: unavailable: cannot read "), "%s", buf);
  cr_assert(strstr(buf, "/proc/cmdline: Is a directory\n"), "%s", buf);
}
