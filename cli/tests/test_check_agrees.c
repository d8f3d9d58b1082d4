/* `greenbench check` and the campaign decide whether energy can be measured
 * with one probe (gb_energy_probe): on the same fake powercap tree, check's
 * verdict and the campaign's energy status agree, and where energy cannot be
 * measured the campaign records the very reason check gives. Each scenario
 * builds the tree twice, once for each, as a machine would be the same
 * machine twice. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/campaign.h"
#include "greenbench/cli.h"
#include "greenbench/records_read.h"
#include "helper_powercap.h"

typedef enum { MOVING, FROZEN, WRAPPING, VANISHING, NO_ZONE } scenario;

/* The fake tree of a scenario, its firmware started. */
static powercap_fake *tree(scenario sc) {
  powercap_fake *f = powercap_fake_create();
  if (sc == NO_ZONE)
    return f;
  /* 100 mJ wraps every 5 ms at 20 W: the sampler cannot follow it. */
  int pkg = powercap_fake_package(f, 0, 1234, sc == WRAPPING ? 100000u : 262143328850u);
  if (sc != FROZEN)
    powercap_fake_power(f, pkg, 20000);
  if (sc == VANISHING)
    powercap_fake_vanish(f, pkg, 150);
  powercap_fake_start(f);
  return f;
}

static char check_out[16384];

/* Each occurrence of the tree's root in s as "ROOT": the two trees of a
 * scenario lie in two temporary folders. */
static void unroot(char *s, const char *root) {
  size_t n = strlen(root);
  for (char *p; (p = strstr(s, root));) {
    memmove(p + 4, p + n, strlen(p + n) + 1);
    memcpy(p, "ROOT", 4);
  }
}

/* check on the scenario's tree: its exit status, its lines in check_out. */
static int check(scenario sc) {
  powercap_fake *f = tree(sc);
  setenv("GREENBENCH_POWERCAP_ROOT", powercap_fake_root(f), 1);
  FILE *out = fmemopen(check_out, sizeof check_out, "w"), *err = tmpfile();
  gb_cli_env env = {.workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                GB_NODE_PATH, GB_NODE_WORKER_PATH},
                    .out = out,
                    .err = err};
  const char *argv[] = {"check"};
  int rc = gb_cli_check(1, (char **)argv, &env);
  fclose(out);
  fclose(err);
  unroot(check_out, powercap_fake_root(f));
  unsetenv("GREENBENCH_POWERCAP_ROOT");
  powercap_fake_destroy(f);
  return rc;
}

/* A small campaign with --energy auto on the scenario's tree: whether it
 * measured energy, and the reason it records when not. */
static bool campaign(scenario sc, char *reason, size_t len) {
  powercap_fake *f = tree(sc);
  char out[] = "/tmp/gb-agree-XXXXXX";
  cr_assert_not_null(mkdtemp(out));
  cr_assert_eq(rmdir(out), 0);
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &s, &err), 0, "%s", err.msg);
  s.languages = 1u << GB_C;
  s.algorithms = 1u << GB_QUICK;
  s.orders = 1u << GB_RANDOM;
  s.sizes[0] = 50;
  s.nsizes = 1;
  s.runs = 1;
  s.warmups = 1;
  s.target_ms = 2;
  s.energy = GB_ENERGY_AUTO;
  s.order_seed = 42;
  static const char *const command[] = {"greenbench", "run"};
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  gb_sampler_opts so = {.clock = powercap_fake_clock(f)};
  FILE *log = tmpfile();
  gb_campaign_opts o = {.settings = s,
                        .out_dir = out,
                        .workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                    GB_NODE_PATH, GB_NODE_WORKER_PATH},
                        .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                        .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                        .argc = 2,
                        .argv = command,
                        .progress = GB_PROGRESS_QUIET,
                        .log = log,
                        .rapl = &ro,
                        .sampler = &so};
  gb_campaign_result res;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  fclose(log);
  gb_records *r;
  cr_assert_eq(gb_records_read_path(out, &r, &err), 0, "%s", err.msg);
  snprintf(reason, len, "%s", r->meta.energy.reason);
  unroot(reason, powercap_fake_root(f));
  bool ok = r->meta.energy.status == GB_REC_ENERGY_OK;
  cr_assert_eq(ok, res.energy);
  gb_records_free(r);
  char rm[128];
  snprintf(rm, sizeof rm, "rm -rf %s", out);
  cr_assert_eq(system(rm), 0);
  powercap_fake_destroy(f);
  return ok;
}

/* Both on the scenario; same_reason: the campaign's reason is in check's
 * verdict word for word. Returns whether they found energy measurable. */
static bool agree(scenario sc, bool same_reason) {
  char reason[1024];
  int rc = check(sc);
  bool measured = campaign(sc, reason, sizeof reason);
  cr_assert_eq(rc == 0, measured, "check exit %d, campaign energy %s (%s); check said:\n%s", rc,
               measured ? "ok" : "unavailable", reason, check_out);
  if (!measured && same_reason) {
    char verdict[1200];
    snprintf(verdict, sizeof verdict,
             "verdict: this machine cannot measure energy for the study: %s. ", reason);
    cr_assert(strstr(check_out, verdict), "'%s' not in:\n%s", verdict, check_out);
  }
  return measured;
}

Test(check_agrees, moving_counters_are_measured_by_both, .timeout = 60) {
  cr_assert(agree(MOVING, true));
}

Test(check_agrees, frozen_counters_are_refused_by_both_for_one_reason, .timeout = 60) {
  cr_assert_not(agree(FROZEN, true));
}

Test(check_agrees, a_counter_that_wraps_unseen_is_refused_by_both_for_one_reason,
     .timeout = 60) {
  cr_assert_not(agree(WRAPPING, true));
}

/* The zone goes 150 ms in: during the probe, or, on a slow machine, before
 * it is opened; either way neither measures energy. */
Test(check_agrees, a_vanishing_zone_is_refused_by_both, .timeout = 60) {
  cr_assert_not(agree(VANISHING, false));
}

Test(check_agrees, no_zone_is_refused_by_both_for_one_reason, .timeout = 60) {
  cr_assert_not(agree(NO_ZONE, true));
}
