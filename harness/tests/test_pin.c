/* CPU choice against synthetic hwloc topologies in data/topo-*.xml, and the
 * binding on this machine. The fixtures were made with lstopo from minimal
 * hand-written XML and given CPU kinds with hwloc-annotate:
 *   desktop-smt      1 package, 8 cores x 2 PUs, siblings i and i+8 (Intel)
 *   server-2s        2 packages x 8 cores x 2 PUs, a NUMA node each, siblings i, i+16
 *   hybrid-laptop    4 P-cores x 2 PUs (0-7, siblings adjacent) + 8 E-cores (8-15)
 *   hybrid-2p        2 P-cores x 2 PUs (0-3) + 8 E-cores (4-11)
 *   hybrid-unranked  hybrid-laptop with kinds whose efficiency is unknown
 *   biglittle        Arm: 4 little cores (0-3) then 4 big ones (4-7)
 *   container-ryzen  8 cores x 2 PUs, siblings adjacent, only CPUs 5 and 9 allowed
 *   vm-2cpu, single-core-smt, 1cpu  machines where the rule cannot hold */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/pin.h"

#define TOPO(name) GB_TEST_DATA_DIR "/topo-" name ".xml"

static hwloc_topology_t load(const char *path) {
  hwloc_topology_t t;
  gb_err err = {{0}};
  int rc = gb_pin_topology_load(path, &t, &err);
  cr_assert_eq(rc, 0, "loading %s: %s", path ? path : "this machine", err.msg);
  return t;
}

static gb_pin_choice choose(const char *path) {
  hwloc_topology_t t = load(path);
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(gb_pin_choose(t, &c, &err), 0, "%s", err.msg);
  hwloc_topology_destroy(t);
  return c;
}

static void expect_cpus(const gb_pin_choice *c, const char *want) {
  char got[128];
  cr_assert_eq(gb_pin_format_cpus(c->cpus, c->ncpus, got, sizeof got), 0);
  cr_assert_str_eq(got, want, "chose CPUs %s, expected %s (%s)", got, want, c->reason);
}

static int override(const char *path, const char *list, gb_pin_choice *c, gb_err *err) {
  hwloc_topology_t t = load(path);
  int rc = gb_pin_override(t, list, c, err);
  hwloc_topology_destroy(t);
  return rc;
}

Test(pin, smt_desktop_skips_cpu0_and_its_sibling) {
  gb_pin_choice c = choose(TOPO("desktop-smt"));
  /* CPU 8 is CPU 0's sibling; by logical index the answer would be 2,4. */
  expect_cpus(&c, "1,2");
  cr_assert(c.rule_held, "%s", c.reason);
  cr_assert_not(c.hybrid);
  cr_assert_not(c.overridden);
  cr_assert_eq(c.numa_node, 0);
  cr_assert(strstr(c.reason, "package 0"), "%s", c.reason);
}

Test(pin, hybrid_laptop_uses_performance_cores_only) {
  gb_pin_choice c = choose(TOPO("hybrid-laptop"));
  expect_cpus(&c, "2,4");
  cr_assert(c.rule_held, "%s", c.reason);
  cr_assert(c.hybrid);
  cr_assert(strstr(c.reason, "performance"), "%s", c.reason);
}

Test(pin, big_little_skips_low_numbered_efficiency_cores) {
  gb_pin_choice c = choose(TOPO("biglittle"));
  expect_cpus(&c, "4,5");
  cr_assert(c.rule_held, "%s", c.reason);
  cr_assert(c.hybrid);
}

Test(pin, hybrid_with_one_free_performance_core_falls_back_to_it) {
  gb_pin_choice c = choose(TOPO("hybrid-2p"));
  /* Two E-cores would make two CPUs, but of the wrong kind. */
  expect_cpus(&c, "2");
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "only 1 eligible performance core"), "%s", c.reason);
}

Test(pin, unranked_kinds_do_not_claim_the_rule) {
  gb_pin_choice c = choose(TOPO("hybrid-unranked"));
  expect_cpus(&c, "2,4");
  cr_assert(c.hybrid);
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "could not be ranked"), "%s", c.reason);
}

Test(pin, two_socket_server_stays_on_one_package_and_its_node) {
  gb_pin_choice c = choose(TOPO("server-2s"));
  /* Package 1 has 8 eligible cores, package 0 only 7 without CPU 0's. */
  expect_cpus(&c, "8,9");
  cr_assert(c.rule_held, "%s", c.reason);
  cr_assert_eq(c.numa_node, 1);
  cr_assert(strstr(c.reason, "package 1"), "%s", c.reason);
}

Test(pin, container_uses_only_allowed_cpus) {
  gb_pin_choice c = choose(TOPO("container-ryzen"));
  expect_cpus(&c, "5,9");
  cr_assert(c.rule_held, "%s", c.reason);
}

Test(pin, two_cpu_vm_falls_back_to_cpu1) {
  gb_pin_choice c = choose(TOPO("vm-2cpu"));
  expect_cpus(&c, "1");
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "only 1 eligible core"), "%s", c.reason);
  cr_assert(strstr(c.reason, "using CPUs 1"), "%s", c.reason);
  cr_assert_eq(c.numa_node, 0);
}

Test(pin, single_core_falls_back_to_highest_numbered_pu) {
  gb_pin_choice c = choose(TOPO("single-core-smt"));
  expect_cpus(&c, "1");
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "no eligible core"), "%s", c.reason);
}

Test(pin, single_cpu_machine_uses_cpu0) {
  gb_pin_choice c = choose(TOPO("1cpu"));
  expect_cpus(&c, "0");
  cr_assert_not(c.rule_held);
}

Test(pin, this_machine_choice_is_allowed_and_explained) {
  hwloc_topology_t t = load(NULL);
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(gb_pin_choose(t, &c, &err), 0, "%s", err.msg);
  cr_assert(c.ncpus >= 1 && c.ncpus <= GB_PIN_RULE_NCPUS);
  for (size_t i = 0; i < c.ncpus; i++)
    cr_assert(hwloc_bitmap_isset(hwloc_topology_get_allowed_cpuset(t), c.cpus[i]));
  if (c.rule_held)
    cr_assert(c.ncpus == GB_PIN_RULE_NCPUS && c.cpus[0] != 0, "%s", c.reason);
  cr_assert_neq(c.reason[0], '\0');
  hwloc_topology_destroy(t);
}

Test(pin, missing_xml_is_an_error_naming_it) {
  hwloc_topology_t t = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_pin_topology_load(TOPO("nonexistent"), &t, &err), -ENOENT);
  cr_assert_null(t);
  cr_assert(strstr(err.msg, "topo-nonexistent.xml"), "%s", err.msg);
}

Test(pin, garbage_xml_is_an_error) {
  char path[] = "/tmp/gb-topo-XXXXXX";
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, "not xml\n", 8), 8);
  close(fd);
  hwloc_topology_t t = NULL;
  gb_err err = {{0}};
  int rc = gb_pin_topology_load(path, &t, &err);
  unlink(path);
  cr_assert_eq(rc, -EINVAL);
  cr_assert_null(t);
  cr_assert(strstr(err.msg, path), "%s", err.msg);
}

Test(pin_format, lists_without_ranges) {
  char buf[16];
  unsigned two[] = {2, 3};
  cr_assert_eq(gb_pin_format_cpus(two, 2, buf, sizeof buf), 0);
  cr_assert_str_eq(buf, "2,3");
  unsigned one[] = {1};
  cr_assert_eq(gb_pin_format_cpus(one, 1, buf, sizeof buf), 0);
  cr_assert_str_eq(buf, "1");
  cr_assert_eq(gb_pin_format_cpus(one, 0, buf, sizeof buf), 0);
  cr_assert_str_eq(buf, "");
}

Test(pin_format, short_buffer_is_enospc_and_terminated) {
  char buf[4];
  unsigned cpus[] = {10, 11};
  cr_assert_eq(gb_pin_format_cpus(cpus, 2, buf, sizeof buf), -ENOSPC);
  cr_assert_eq(strlen(buf), 3u);
}

Test(pin_override, valid_range_meets_the_rule) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "2-3", &c, &err), 0, "%s", err.msg);
  expect_cpus(&c, "2,3");
  cr_assert(c.overridden);
  cr_assert(c.rule_held, "%s", c.reason);
  cr_assert(strstr(c.reason, "meets the rule"), "%s", c.reason);
  cr_assert_eq(c.numa_node, 0);
}

Test(pin_override, list_is_sorted) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "5,1", &c, &err), 0, "%s", err.msg);
  expect_cpus(&c, "1,5");
}

Test(pin_override, cpu0_and_sibling_break_the_rule) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "0,8", &c, &err), 0, "%s", err.msg);
  expect_cpus(&c, "0,8");
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "uses CPU 0's core (CPUs 0,8)"), "%s", c.reason);
  cr_assert(strstr(c.reason, "CPUs 0,8 share a core"), "%s", c.reason);
}

Test(pin_override, smt_siblings_break_the_rule) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "3,11", &c, &err), 0, "%s", err.msg);
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "CPUs 3,11 share a core"), "%s", c.reason);
  cr_assert_null(strstr(c.reason, "CPU 0's core"), "%s", c.reason);
}

Test(pin_override, three_cpus_break_the_rule) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "1-3", &c, &err), 0, "%s", err.msg);
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "3 CPUs given, the rule uses 2"), "%s", c.reason);
}

Test(pin_override, two_packages_break_the_rule_and_lose_the_node) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("server-2s"), "7,8", &c, &err), 0, "%s", err.msg);
  cr_assert_not(c.rule_held);
  cr_assert(strstr(c.reason, "spans 2 packages"), "%s", c.reason);
  cr_assert_eq(c.numa_node, -1);
}

Test(pin_override, efficiency_core_breaks_the_rule) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("hybrid-laptop"), "2,8", &c, &err), 0, "%s", err.msg);
  cr_assert_not(c.rule_held);
  cr_assert(c.hybrid);
  cr_assert(strstr(c.reason, "not performance cores: CPUs 8"), "%s", c.reason);
}

Test(pin_override, absent_cpu_is_an_error_naming_the_list) {
  gb_pin_choice c = {.ncpus = 42};
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "2,99", &c, &err), -EINVAL);
  cr_assert(strstr(err.msg, "\"2,99\""), "%s", err.msg);
  cr_assert(strstr(err.msg, "CPU 99 does not exist"), "%s", err.msg);
  cr_assert_eq(c.ncpus, 42u, "a refused list must leave the choice alone");
}

Test(pin_override, disallowed_cpu_is_an_error) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("container-ryzen"), "2,4", &c, &err), -EINVAL);
  cr_assert(strstr(err.msg, "CPU 2 is not allowed (allowed: 5,9)"), "%s", err.msg);
}

Test(pin_override, malformed_lists_are_errors_naming_the_text) {
  const char *bad[] = {"2,,4",  "2,x", "1-",  "-1",  " 1",  "1 ",    "1,",       ",1",   "+1",
                       "1-2-3", "0x1", "1;2", "4-2", "2,2", "2-3,3", "99999999", "0-100"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    gb_pin_choice c = {.ncpus = 42};
    gb_err err = {{0}};
    cr_expect_eq(override(TOPO("desktop-smt"), bad[i], &c, &err), -EINVAL, "\"%s\"", bad[i]);
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", bad[i]);
    cr_expect(strstr(err.msg, quoted), "\"%s\" gave: %s", bad[i], err.msg);
    cr_expect_eq(c.ncpus, 42u);
  }
}

Test(pin_override, empty_list_is_an_error) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "", &c, &err), -EINVAL);
  cr_assert(strstr(err.msg, "empty"), "%s", err.msg);
}

Test(pin_override, specific_messages) {
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(override(TOPO("desktop-smt"), "2-3,3", &c, &err), -EINVAL);
  cr_assert(strstr(err.msg, "CPU 3 is listed twice"), "%s", err.msg);
  cr_assert_eq(override(TOPO("desktop-smt"), "4-2", &c, &err), -EINVAL);
  cr_assert(strstr(err.msg, "runs backwards"), "%s", err.msg);
  cr_assert_eq(override(TOPO("desktop-smt"), "2,y", &c, &err), -EINVAL);
  cr_assert(strstr(err.msg, "malformed entry \"y\""), "%s", err.msg);
  cr_assert_eq(override(TOPO("desktop-smt"), "0-100", &c, &err), -EINVAL);
  cr_assert(strstr(err.msg, "more than 64 CPUs"), "%s", err.msg);
}

Test(pin_apply, refuses_a_topology_from_xml) {
  hwloc_topology_t t = load(TOPO("vm-2cpu"));
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(gb_pin_choose(t, &c, &err), 0);
  cr_assert_eq(gb_pin_apply(t, &c, NULL, &err), -EINVAL);
  cr_assert(strstr(err.msg, "not this machine's"), "%s", err.msg);
  hwloc_topology_destroy(t);
}

static bool affinity_is(const gb_pin_choice *c) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) < 0 || (size_t)CPU_COUNT(&set) != c->ncpus)
    return false;
  for (size_t i = 0; i < c->ncpus; i++)
    if (!CPU_ISSET(c->cpus[i], &set))
      return false;
  return true;
}

typedef struct {
  pthread_barrier_t pinned;
  const gb_pin_choice *choice;
  bool ok;
} thread_check;

static void *check_after_pin(void *arg) {
  thread_check *tc = arg;
  pthread_barrier_wait(&tc->pinned);
  tc->ok = affinity_is(tc->choice);
  return NULL;
}

/* Criterion runs each test in its own process, so binding here is harmless. */
Test(pin_apply, binds_every_thread_and_children_inherit) {
  hwloc_topology_t t = load(NULL);
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(gb_pin_choose(t, &c, &err), 0, "%s", err.msg);
  thread_check tc = {.choice = &c};
  pthread_barrier_init(&tc.pinned, NULL, 2);
  pthread_t th;
  cr_assert_eq(pthread_create(&th, NULL, check_after_pin, &tc), 0);
  gb_pin_binding b;
  int rc = gb_pin_apply(t, &c, &b, &err);
  pthread_barrier_wait(&tc.pinned);
  pthread_join(th, NULL);
  cr_assert_eq(rc, 0, "%s", err.msg);
  cr_assert(affinity_is(&c), "the calling thread is not on CPUs of the choice");
  cr_assert(tc.ok, "a thread started before the binding was not moved");
  pid_t pid = fork();
  if (pid == 0)
    _exit(affinity_is(&c) ? 0 : 1);
  int status;
  cr_assert_eq(waitpid(pid, &status, 0), pid);
  cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a child did not inherit the CPUs");
  cr_assert(b.mem_bound || b.mem_note[0] != '\0', "a refused memory binding must say why");
  hwloc_topology_destroy(t);
}

Test(pin_apply, memory_is_bound_to_the_choice_node) {
  hwloc_topology_t t = load(NULL);
  gb_pin_choice c;
  gb_err err = {{0}};
  cr_assert_eq(gb_pin_choose(t, &c, &err), 0, "%s", err.msg);
  gb_pin_binding b;
  cr_assert_eq(gb_pin_apply(t, &c, &b, &err), 0, "%s", err.msg);
  if (!b.mem_bound)
    cr_skip_test("memory binding refused here: %s", b.mem_note);
  hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
  hwloc_membind_policy_t policy;
  cr_assert_eq(hwloc_get_membind(t, nodes, &policy, HWLOC_MEMBIND_BYNODESET), 0);
  cr_assert_eq(policy, HWLOC_MEMBIND_BIND);
  cr_assert_geq(c.numa_node, 0);
  cr_assert(hwloc_bitmap_isset(nodes, (unsigned)c.numa_node));
  cr_assert_eq(hwloc_bitmap_weight(nodes), 1);
  hwloc_bitmap_free(nodes);
  hwloc_topology_destroy(t);
}

Test(pin_format, the_longest_list_fits_gb_pin_list_max_and_one_byte_less_does_not) {
  unsigned cpus[GB_PIN_MAX];
  for (size_t i = 0; i < GB_PIN_MAX; i++)
    cpus[i] = 1048575u - (unsigned)i; /* 7 digits each */
  char buf[GB_PIN_LIST_MAX];
  cr_assert_eq(gb_pin_format_cpus(cpus, GB_PIN_MAX, buf, sizeof buf), 0);
  cr_assert_eq(strlen(buf), (size_t)GB_PIN_LIST_MAX - 1);
  cr_assert_eq(gb_pin_format_cpus(cpus, GB_PIN_MAX, buf, sizeof buf - 1), -ENOSPC);
}
