/* Discovery, reading and probing of powercap trees, all on fake trees built
 * in a mkdtemp folder (helper_powercap.h). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "greenbench/clock.h"
#include "greenbench/rapl.h"
#include "helper_powercap.h"

#define RANGE_PKG 262143328850u /* a real Intel package's max_energy_range_uj */
#define RANGE_DRAM 65712999613u /* and its DRAM's */

static powercap_fake *fake;
static gb_rapl *rapl;

static void setup(void) {
  fake = powercap_fake_create();
  unsetenv(GB_RAPL_ROOT_ENV);
}

static void teardown(void) {
  gb_rapl_close(rapl);
  powercap_fake_destroy(fake);
}

TestSuite(rapl, .init = setup, .fini = teardown, .timeout = 20);

static gb_rapl *open_ok(void) {
  gb_rapl_opts o = powercap_fake_rapl_opts(fake);
  gb_err err = {{0}};
  int rc = gb_rapl_open(&o, &rapl, &err);
  cr_assert_eq(rc, 0, "gb_rapl_open: %d: %s", rc, err.msg);
  return rapl;
}

/* Opens the fake tree expecting failure; the out-param must stay untouched. */
static int open_fails(gb_err *err) {
  gb_rapl_opts o = powercap_fake_rapl_opts(fake);
  gb_rapl *sentinel = (gb_rapl *)&o, *r = sentinel;
  int rc = gb_rapl_open(&o, &r, err);
  cr_assert_lt(rc, 0, "gb_rapl_open should fail on this tree");
  cr_assert_eq(r, sentinel, "a failed open must not set its out-param");
  cr_assert_neq(err->msg[0], '\0', "a failure needs a message");
  return rc;
}

static void assert_zone(size_t i, const char *id, const char *name, gb_rapl_kind kind,
                        unsigned socket, uint64_t range) {
  const gb_rapl_zone *z = gb_rapl_zone_at(rapl, i);
  cr_assert_str_eq(z->id, id);
  cr_assert_str_eq(z->name, name);
  cr_assert_eq(z->kind, kind, "zone %s kind", id);
  cr_assert_eq(z->socket, socket, "zone %s socket", id);
  cr_assert_eq(z->max_energy_range_uj, range, "zone %s range", id);
}

Test(rapl, two_sockets_with_dram_come_in_socket_order) {
  powercap_fake_package(fake, 1, 10, RANGE_PKG);
  powercap_fake_dram(fake, 1, 0, 11, RANGE_DRAM);
  powercap_fake_package(fake, 0, 20, RANGE_PKG - 1);
  powercap_fake_dram(fake, 0, 0, 21, RANGE_DRAM - 1);
  open_ok();
  cr_assert_eq(gb_rapl_count(rapl), 4u);
  assert_zone(0, "intel-rapl:0", "package-0", GB_RAPL_PACKAGE, 0, RANGE_PKG - 1);
  assert_zone(1, "intel-rapl:0:0", "dram", GB_RAPL_DRAM, 0, RANGE_DRAM - 1);
  assert_zone(2, "intel-rapl:1", "package-1", GB_RAPL_PACKAGE, 1, RANGE_PKG);
  assert_zone(3, "intel-rapl:1:0", "dram", GB_RAPL_DRAM, 1, RANGE_DRAM);
  cr_assert(gb_rapl_has_dram(rapl));
  char want[1200];
  snprintf(want, sizeof want, "%s/intel-rapl:1/intel-rapl:1:0", powercap_fake_root(fake));
  cr_assert_str_eq(gb_rapl_zone_at(rapl, 3)->path, want);
  uint64_t uj[GB_RAPL_MAX_ZONES];
  gb_err err;
  cr_assert_eq(gb_rapl_read_all(rapl, uj, &err), 0, "%s", err.msg);
  cr_assert_eq(uj[0], 20u);
  cr_assert_eq(uj[1], 21u);
  cr_assert_eq(uj[2], 10u);
  cr_assert_eq(uj[3], 11u);
}

Test(rapl, amd_like_tree_has_packages_and_no_dram) {
  powercap_fake_package(fake, 0, 5, 4294967295u);
  powercap_fake_zone(fake, "intel-rapl:0:0", "core", 6, 4294967295u);
  open_ok();
  cr_assert_eq(gb_rapl_count(rapl), 1u);
  assert_zone(0, "intel-rapl:0", "package-0", GB_RAPL_PACKAGE, 0, 4294967295u);
  cr_assert_not(gb_rapl_has_dram(rapl));
}

Test(rapl, psys_core_uncore_and_mmio_are_not_counted) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_zone(fake, "intel-rapl:0:0", "core", 2, RANGE_PKG);
  powercap_fake_zone(fake, "intel-rapl:0:1", "uncore", 3, RANGE_PKG);
  powercap_fake_dram(fake, 0, 2, 4, RANGE_DRAM);
  powercap_fake_zone(fake, "intel-rapl:1", "psys", 5, RANGE_PKG);
  powercap_fake_zone(fake, "intel-rapl-mmio:0", "package-0", 6, RANGE_PKG);
  powercap_fake_zone(fake, "intel-rapl-mmio:0:0", "dram", 7, RANGE_DRAM);
  open_ok();
  cr_assert_eq(gb_rapl_count(rapl), 2u, "only package-0 and its dram, not the flat links");
  assert_zone(0, "intel-rapl:0", "package-0", GB_RAPL_PACKAGE, 0, RANGE_PKG);
  assert_zone(1, "intel-rapl:0:2", "dram", GB_RAPL_DRAM, 0, RANGE_DRAM);
}

Test(rapl, multi_die_packages_are_each_counted) {
  powercap_fake_zone(fake, "intel-rapl:1", "package-0-die-1", 1, RANGE_PKG);
  powercap_fake_zone(fake, "intel-rapl:0", "package-0-die-0", 2, RANGE_PKG);
  open_ok();
  cr_assert_eq(gb_rapl_count(rapl), 2u);
  assert_zone(0, "intel-rapl:0", "package-0-die-0", GB_RAPL_PACKAGE, 0, RANGE_PKG);
  assert_zone(1, "intel-rapl:1", "package-0-die-1", GB_RAPL_PACKAGE, 0, RANGE_PKG);
}

Test(rapl, two_zones_with_one_package_name_are_refused) {
  powercap_fake_zone(fake, "intel-rapl:0", "package-0", 1, RANGE_PKG);
  powercap_fake_zone(fake, "intel-rapl:1", "package-0", 2, RANGE_PKG);
  gb_err err;
  cr_assert_eq(open_fails(&err), -EINVAL);
  cr_assert(strstr(err.msg, "both named package-0"), "%s", err.msg);
}

static void assert_no_zone(const char *root) {
  gb_err err;
  cr_assert_eq(open_fails(&err), -ENOENT);
  cr_assert(strstr(err.msg, "no RAPL package zone under "), "%s", err.msg);
  cr_assert(strstr(err.msg, root), "the message names the root: %s", err.msg);
}

Test(rapl, empty_tree_has_no_zone) {
  assert_no_zone(powercap_fake_root(fake));
}

Test(rapl, psys_alone_is_no_zone) {
  powercap_fake_zone(fake, "intel-rapl:0", "psys", 1, RANGE_PKG);
  powercap_fake_zone(fake, "intel-rapl-mmio:0", "package-0", 1, RANGE_PKG);
  assert_no_zone(powercap_fake_root(fake));
}

Test(rapl, missing_root_has_no_zone) {
  char root[1024];
  snprintf(root, sizeof root, "%s/absent", powercap_fake_root(fake));
  gb_rapl_opts o = {.root = root};
  gb_rapl *r = NULL;
  gb_err err;
  cr_assert_eq(gb_rapl_open(&o, &r, &err), -ENOENT);
  cr_assert_null(r);
  cr_assert(strstr(err.msg, "no RAPL package zone under "), "%s", err.msg);
  cr_assert(strstr(err.msg, root), "%s", err.msg);
}

Test(rapl, env_root_is_used_when_no_root_is_given) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  cr_assert_eq(setenv(GB_RAPL_ROOT_ENV, powercap_fake_root(fake), 1), 0);
  gb_err err;
  cr_assert_eq(gb_rapl_open(NULL, &rapl, &err), 0, "%s", err.msg);
  cr_assert_str_eq(gb_rapl_root(rapl), powercap_fake_root(fake));
  cr_assert_eq(gb_rapl_count(rapl), 1u);
}

Test(rapl, explicit_root_beats_env_root) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  cr_assert_eq(setenv(GB_RAPL_ROOT_ENV, "/nonexistent/powercap", 1), 0);
  open_ok();
  cr_assert_str_eq(gb_rapl_root(rapl), powercap_fake_root(fake));
}

Test(rapl, without_root_or_env_the_sysfs_root_is_used) {
  gb_rapl_opts o = {.root = ""};
  gb_err err;
  int rc = gb_rapl_open(&o, &rapl, &err);
  if (rc == 0)
    cr_assert_str_eq(gb_rapl_root(rapl), GB_RAPL_DEFAULT_ROOT);
  else
    cr_assert(strstr(err.msg, GB_RAPL_DEFAULT_ROOT), "%d: %s", rc, err.msg);
}

/* Turns CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH on or off in this thread's
 * effective set (they stay permitted, so they can come back). Without them
 * root meets file modes like anyone else. */
static int dac_override(bool on) {
  struct __user_cap_header_struct h = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
  if (syscall(SYS_capget, &h, d) != 0)
    return -errno;
  unsigned bits = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH);
  d[0].effective = on ? d[0].effective | (d[0].permitted & bits) : d[0].effective & ~bits;
  return syscall(SYS_capset, &h, d) == 0 ? 0 : -errno;
}

Test(rapl, unreadable_energy_uj_says_how_to_get_access) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  char path[1024];
  snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", powercap_fake_root(fake));
  cr_assert_eq(chmod(path, 0), 0);
  /* Tests usually run as root, whom a mode of 000 does not stop: drop the
   * capabilities that let root ignore file modes, so the kernel itself says
   * EACCES, as it does for a normal user on Linux >= 5.10. */
  bool root = geteuid() == 0;
  if (root && dac_override(false) != 0)
    cr_skip_test("cannot drop CAP_DAC_OVERRIDE here, so root cannot meet EACCES");
  gb_err err;
  int rc = open_fails(&err);
  if (root)
    cr_assert_eq(dac_override(true), 0);
  cr_assert_eq(rc, -EACCES, "%s", err.msg);
  cr_assert(strstr(err.msg, path), "names the file: %s", err.msg);
  cr_assert(strstr(err.msg, "root-only since Linux 5.10"), "%s", err.msg);
  cr_assert(strstr(err.msg, "sudo"), "%s", err.msg);
  cr_assert(strstr(err.msg, "chmod a+r"), "%s", err.msg);
}

Test(rapl, directory_in_place_of_energy_uj_is_reported) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_make_dir(fake, "intel-rapl:0/energy_uj");
  gb_err err;
  cr_assert_eq(open_fails(&err), -EISDIR, "%s", err.msg);
  cr_assert(strstr(err.msg, "intel-rapl:0/energy_uj"), "%s", err.msg);
}

Test(rapl, malformed_max_energy_range_uj_is_refused_with_its_text) {
  static const struct {
    const char *text, *shown;
    int rc;
  } cases[] = {
      {"", "\"\"", -EINVAL},
      {"0\n", "\"0\\n\"", -EINVAL},
      {"-5\n", "\"-5\\n\"", -EINVAL},
      {"+5\n", "\"+5\\n\"", -EINVAL},
      {" 12\n", "\" 12\\n\"", -EINVAL},
      {"12x\n", "\"12x\\n\"", -EINVAL},
      {"1.5\n", "\"1.5\\n\"", -EINVAL},
      {"12\n\n", "\"12\\n\\n\"", -EINVAL},
      {"18446744073709551616\n", "\"18446744073709551616\\n\"", -ERANGE},
  };
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    powercap_fake_write(fake, "intel-rapl:0/max_energy_range_uj", cases[i].text);
    gb_err err;
    cr_assert_eq(open_fails(&err), cases[i].rc, "case %zu: %s", i, err.msg);
    cr_assert(strstr(err.msg, "intel-rapl:0/max_energy_range_uj"), "%s", err.msg);
    cr_assert(strstr(err.msg, cases[i].shown), "case %zu shows %s: %s", i, cases[i].shown,
              err.msg);
  }
  powercap_fake_write(fake, "intel-rapl:0/max_energy_range_uj", "18446744073709551615");
  open_ok();
  cr_assert_eq(gb_rapl_zone_at(rapl, 0)->max_energy_range_uj, UINT64_MAX,
               "digits without a newline are fine");
}

Test(rapl, missing_max_energy_range_uj_names_the_file) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  char path[1024];
  snprintf(path, sizeof path, "%s/intel-rapl:0/max_energy_range_uj", powercap_fake_root(fake));
  cr_assert_eq(unlink(path), 0);
  gb_err err;
  cr_assert_eq(open_fails(&err), -ENOENT);
  cr_assert(strstr(err.msg, path), "%s", err.msg);
}

Test(rapl, malformed_energy_uj_is_refused_at_open) {
  powercap_fake_package(fake, 0, 1, 1000);
  gb_err err;
  powercap_fake_write(fake, "intel-rapl:0/energy_uj", "abc\n");
  cr_assert_eq(open_fails(&err), -EINVAL);
  cr_assert(strstr(err.msg, "intel-rapl:0/energy_uj: expected a whole number of microjoules, "
                            "got \"abc\\n\""),
            "%s", err.msg);
  powercap_fake_write(fake, "intel-rapl:0/energy_uj", "1001\n");
  cr_assert_eq(open_fails(&err), -ERANGE);
  cr_assert(strstr(err.msg, "above max_energy_range_uj 1000"), "%s", err.msg);
  powercap_fake_write(fake, "intel-rapl:0/energy_uj", "");
  cr_assert_eq(open_fails(&err), -ENODATA);
  cr_assert(strstr(err.msg, "intel-rapl:0/energy_uj"), "%s", err.msg);
}

Test(rapl, malformed_energy_uj_later_fails_the_read_and_keeps_the_value) {
  powercap_fake_package(fake, 0, 1, 1000);
  open_ok();
  powercap_fake_write(fake, "intel-rapl:0/energy_uj", "7\x01\n");
  uint64_t uj = 42;
  gb_err err;
  cr_assert_eq(gb_rapl_read(rapl, 0, &uj, &err), -EINVAL);
  cr_assert_eq(uj, 42u);
  cr_assert(strstr(err.msg, "\"7\\x01\\n\""), "%s", err.msg);
}

static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  int n = 0;
  cr_assert_not_null(d);
  while (readdir(d))
    n++;
  closedir(d);
  return n;
}

Test(rapl, readings_pread_one_descriptor_per_zone) {
  int zone = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  open_ok();
  int fds = open_fds();
  uint64_t preads = powercap_fake_preads(fake);
  for (uint64_t v = 100; v < 200; v++) {
    powercap_fake_set(fake, zone, v);
    uint64_t uj;
    gb_err err;
    cr_assert_eq(gb_rapl_read(rapl, 0, &uj, &err), 0, "%s", err.msg);
    cr_assert_eq(uj, v, "each read sees the file as it is now");
  }
  cr_assert_eq(powercap_fake_preads(fake) - preads, 100u);
  cr_assert_eq(open_fds(), fds, "no descriptor is opened per reading");
}

Test(rapl, delta_counts_one_wrap_with_an_inclusive_range) {
  cr_assert_eq(gb_rapl_delta_uj(5, 10, 100), 5u);
  cr_assert_eq(gb_rapl_delta_uj(7, 7, 100), 0u);
  cr_assert_eq(gb_rapl_delta_uj(0, 100, 100), 100u);
  cr_assert_eq(gb_rapl_delta_uj(90, 5, 100), 16u, "10 to the top, 1 to wrap, 5 after");
  cr_assert_eq(gb_rapl_delta_uj(100, 0, 100), 1u);
  cr_assert_eq(gb_rapl_delta_uj(8, 7, 100), 100u, "one short of a full lap");
  cr_assert_eq(gb_rapl_delta_uj(RANGE_PKG - 10, 20, RANGE_PKG), 31u);
}

Test(rapl, a_wrapped_counter_reads_back_the_energy_added) {
  int zone = powercap_fake_package(fake, 0, RANGE_PKG - 1000, RANGE_PKG);
  open_ok();
  uint64_t before, after;
  gb_err err;
  cr_assert_eq(gb_rapl_read(rapl, 0, &before, &err), 0);
  powercap_fake_power(fake, zone, 3000);
  powercap_fake_tick(fake, 1);
  cr_assert_eq(gb_rapl_read(rapl, 0, &after, &err), 0);
  cr_assert_lt(after, before, "the counter wrapped");
  cr_assert_eq(gb_rapl_delta_uj(before, after, RANGE_PKG), 3000u);
}

Test(rapl, a_removed_zone_is_noticed) {
  int zone = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_dram(fake, 0, 0, 1, RANGE_DRAM);
  open_ok();
  gb_err err;
  cr_assert_eq(gb_rapl_check(rapl, 1, &err), 0);
  powercap_fake_vanish(fake, zone, 1);
  powercap_fake_tick(fake, 1);
  cr_assert_eq(gb_rapl_check(rapl, 0, &err), -ENODEV);
  cr_assert(strstr(err.msg, "intel-rapl:0/energy_uj was removed"), "%s", err.msg);
  cr_assert_eq(gb_rapl_check(rapl, 1, &err), -ENODEV, "the dram zone went with its package");
}

Test(rapl, watch_sees_a_frozen_counter_over_the_whole_window) {
  powercap_fake_package(fake, 0, 123456, RANGE_PKG);
  open_ok();
  gb_err err;
  gb_rapl_watched w[1];
  uint64_t t0 = gb_monotonic_raw_ns();
  cr_assert_eq(gb_rapl_watch(rapl, 50000000u, 1000000u, NULL, w, &err), 0, "%s", err.msg);
  cr_assert_geq(gb_monotonic_raw_ns() - t0, 50000000u, "it watched the whole window");
  cr_assert_not(w[0].moved);
  cr_assert_geq(w[0].longest_still_ns, 40000000u, "%lu", (unsigned long)w[0].longest_still_ns);
}

Test(rapl, watch_names_the_one_frozen_socket) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_package(fake, 1, 77, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  open_ok();
  powercap_fake_start(fake);
  gb_err err;
  gb_rapl_watched w[2];
  cr_assert_eq(gb_rapl_watch(rapl, 60000000u, 1000000u, NULL, w, &err), 0, "%s", err.msg);
  cr_assert(w[0].moved);
  cr_assert_not(w[1].moved);
}

/* Standstills are timed by the clock given: a fake held still in virtual
 * time stands still for no time at all, however long the real window. */
Test(rapl, watch_times_standstills_by_the_clock_given) {
  int p0 = powercap_fake_package(fake, 0, 1, RANGE_PKG);
  powercap_fake_power(fake, p0, 10000);
  open_ok();
  gb_clock virt = powercap_fake_clock(fake);
  gb_err err;
  gb_rapl_watched w[1];
  cr_assert_eq(gb_rapl_watch(rapl, 30000000u, 1000000u, &virt, w, &err), 0, "%s", err.msg);
  cr_assert_not(w[0].moved);
  cr_assert_eq(w[0].longest_still_ns, 0u, "the fake's clock never moved");
}

Test(rapl, watch_refuses_an_empty_window_or_step) {
  powercap_fake_package(fake, 0, 1, RANGE_PKG);
  open_ok();
  gb_err err;
  gb_rapl_watched w[1];
  cr_assert_eq(gb_rapl_watch(rapl, 0, 1000000u, NULL, w, &err), -EINVAL);
  cr_assert_eq(gb_rapl_watch(rapl, 1000000u, 0, NULL, w, &err), -EINVAL);
}

/* Intel Xeon 6's TPMI zones are listed (top level only, in name order) and
 * never read; a tree without them, or no tree, lists none. */
Test(rapl_tpmi, top_level_tpmi_zones_are_listed_not_read) {
  powercap_fake *f = powercap_fake_create();
  powercap_fake_package(f, 0, 1000, 262143328850u);
  powercap_fake_zone(f, "intel-rapl-tpmi:1", "package-1", 5, 262143328850u);
  powercap_fake_zone(f, "intel-rapl-tpmi:0", "package-0", 5, 262143328850u);
  powercap_fake_zone(f, "intel-rapl-tpmi-x", "package-9", 5, 262143328850u);
  char buf[256];
  int n = gb_rapl_tpmi_zones(powercap_fake_root(f), buf, sizeof buf);
  gb_rapl *r;
  gb_err err;
  gb_rapl_opts o = powercap_fake_rapl_opts(f);
  cr_assert_eq(gb_rapl_open(&o, &r, &err), 0, "%s", err.msg);
  size_t zones = gb_rapl_count(r);
  gb_rapl_close(r);
  powercap_fake_destroy(f);
  cr_assert_eq(n, 2);
  cr_assert_str_eq(buf, "intel-rapl-tpmi:0 (package-0), intel-rapl-tpmi:1 (package-1)");
  cr_assert_eq(zones, 1u, "only intel-rapl:0 is read");
}

Test(rapl_tpmi, no_tpmi_zones_or_no_tree_lists_none) {
  powercap_fake *f = powercap_fake_create();
  powercap_fake_package(f, 0, 1000, 262143328850u);
  char buf[64] = "x";
  cr_assert_eq(gb_rapl_tpmi_zones(powercap_fake_root(f), buf, sizeof buf), 0);
  cr_assert_str_empty(buf);
  powercap_fake_destroy(f);
  cr_assert_eq(gb_rapl_tpmi_zones("/nonexistent/powercap", NULL, 0), 0);
}
