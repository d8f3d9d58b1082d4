/* The campaign on small settings: strict records, energy from a fake
 * powercap tree, parity mismatches, failed workers, interruption and resume.
 * Workers are scripted (helper_script.h), so every row, every sort count
 * calibration picks and the order of every launch are known exactly; a few
 * tests run the real workers end to end. The topology and the machine's
 * sysfs are fixtures. */
#include <criterion/criterion.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "greenbench/campaign.h"
#include "greenbench/machine.h"
#include "greenbench/privilege.h"
#include "greenbench/records_read.h"
#include "helper_powercap.h"
#include "helper_script.h"

/* The C worker's runtime names the compiler that built it and its version,
 * "gcc 12.2.0" or "clang 14.0.6 ...": its form, not this machine's compiler. */
static void assert_compiler_form(const char *runtime) {
  regex_t re;
  cr_assert_eq(regcomp(&re, "^(gcc|clang) [0-9]+(\\.[0-9]+)+( .*)?$", REG_EXTENDED | REG_NOSUB),
               0);
  int rc = regexec(&re, runtime, 0, NULL, 0);
  regfree(&re);
  cr_assert_eq(rc, 0, "the C runtime \"%s\" is not \"<compiler> <version>\"", runtime);
}

static char *new_out(void) {
  static char dir[128];
  char base[] = "/tmp/gb-campaign-XXXXXX";
  cr_assert_not_null(mkdtemp(base));
  snprintf(dir, sizeof dir, "%s/records", base);
  return dir;
}

/* This file's campaign: 3 runs and 1 warm-up each, 2 ms loops, no energy. */
static gb_settings small(void) {
  return script_settings(3, 1, 2, GB_ENERGY_OFF);
}

static const char *const command[] = {"greenbench", "run", "--profile", "smoke"};

static const gb_workers workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                   GB_NODE_PATH, GB_NODE_WORKER_PATH};

/* Real workers. */
static gb_campaign_opts opts_for(const char *out, gb_settings s) {
  return (gb_campaign_opts){.settings = s,
                            .out_dir = out,
                            .workers = workers,
                            .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                            .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                            .argc = 4,
                            .argv = command,
                            .progress = GB_PROGRESS_QUIET};
}

/* Scripted workers: a new script, in *script, that the campaign uses. */
static gb_campaign_opts scripted_opts(const char *out, gb_settings s, worker_script **script) {
  *script = script_create(&workers);
  gb_campaign_opts o = opts_for(out, s);
  o.spawner = script_spawner(*script);
  return o;
}

static gb_records *read_records(const char *dir) {
  gb_records *r;
  gb_err err;
  cr_assert_eq(gb_records_read(dir, &r, &err), 0, "%s", err.msg);
  return r;
}

/* ---- What small() does with the scripted C worker -------------------------------------
 *
 * The C model: 400 us of start-up per launch, 2 ns per operation of a sort.
 * c/quick/random/50 sorts with 229 comparisons and 176 writes (505
 * operations with the copy and the check: 1010 ns a sort), c/quick/sorted/50
 * with 1225 and 0 (1325: 2650 ns). Aim: 6/5 x 2 ms = 2.4 ms.
 *
 *   random: warm-up 0 probes 1 sort (1010 ns, off target), warm-up 1 runs
 *           ceil(2.4 ms / 1010 ns) = 2377 (2400770 ns, on target), which
 *           predicts 2377 again: sorts 2377, wall 2800770 ns.
 *   sorted: predicted from random: ceil(2377 x 505 x 2.4 ms / (2400770 x
 *           1325)) = 906 sorts (2400900 ns, on target) in its one warm-up:
 *           sorts 906, wall 2800900 ns.
 *   startup batches: one warm-up launch each (400 us); round(2800770 /
 *           400000) = round(2800900 / 400000) = 7 launches.
 *
 * Calls: 1 the runtime probe, 2-4 the sorting warm-ups, 5-6 the startup
 * warm-ups, then the measured runs from call 7 in the plan's order. */
#define C_STARTUP_NS 400000u
#define C_SYS_NS 50000u
#define C_RSS_KIB 1200u
#define RANDOM_SORTS 2377u
#define RANDOM_LOOP_NS 2400770u
#define SORTED_SORTS 906u
#define SORTED_LOOP_NS 2400900u
#define BATCH 7u
#define FIRST_RUN_CALL 7u

/* small()'s plan with order seed 42: S = sorting run, U = startup batch,
 * 0 = random, 1 = sorted. */
static const char *const small_plan[] = {"S0", "S0", "U1", "S1", "U1", "U1",
                                         "S1", "U0", "U0", "U0", "S1", "S0"};

static void assert_call(worker_script *w, unsigned n, const char *argv) {
  cr_assert_geq(script_calls(w), n, "no call %u", n);
  cr_assert_str_eq(script_call_at(w, n)->argv, argv, "call %u", n);
}

/* A measured run of small() that the scripted worker finished: every column
 * from the model, the counts and hash from the C library. */
static void assert_scripted_row(const gb_run_row *row, size_t i, const char *key) {
  bool sort = key[0] == 'S', random = key[1] == '0';
  cr_assert_eq(row->run, i);
  cr_assert_eq(row->status, GB_REC_STATUS_OK, "row %zu: %s", i, row->message);
  cr_assert_str_eq(row->message, "", "row %zu", i);
  cr_assert_eq(row->kind, sort ? GB_REC_KIND_SORT : GB_REC_KIND_STARTUP, "row %zu", i);
  cr_assert_eq(row->language, GB_C);
  cr_assert_eq(row->algorithm, GB_QUICK);
  cr_assert_eq(row->order, random ? GB_RANDOM : GB_SORTED, "row %zu", i);
  cr_assert_eq(row->size, 50u);
  cr_assert_eq(row->seed, GB_DEFAULT_SEED);
  cr_assert_str_eq(row->input_hash, random ? "5c066794156b4d53" : "68777e17d94aed74");
  cr_assert_eq(row->max_rss_kib.value, C_RSS_KIB);
  cr_assert(row->idle_ns.present && row->idle_ns.value >= row->wall_ns.value,
            "row %zu: the idle window lasts as long as the run", i);
  if (!sort) {
    cr_assert_eq(row->sorts, 0u);
    cr_assert_eq(row->launches, BATCH, "row %zu", i);
    cr_assert_eq(row->wall_ns.value, BATCH * C_STARTUP_NS, "row %zu", i);
    cr_assert_eq(row->sys_ns.value, BATCH * C_SYS_NS);
    cr_assert_eq(row->user_ns.value, BATCH * (C_STARTUP_NS - C_SYS_NS));
    cr_assert_not(row->loop_ns.present || row->comparisons.present || row->writes.present);
    return;
  }
  uint64_t loop = random ? RANDOM_LOOP_NS : SORTED_LOOP_NS;
  cr_assert_eq(row->sorts, random ? RANDOM_SORTS : SORTED_SORTS, "row %zu", i);
  cr_assert_eq(row->launches, 1u);
  cr_assert_eq(row->loop_ns.value, loop, "row %zu", i);
  cr_assert_eq(row->comparisons.value, random ? 229u : 1225u);
  cr_assert_eq(row->writes.value, random ? 176u : 0u);
  cr_assert_eq(row->wall_ns.value, C_STARTUP_NS + loop, "row %zu", i);
  cr_assert_eq(row->sys_ns.value, C_SYS_NS);
  cr_assert_eq(row->user_ns.value, C_STARTUP_NS + loop - C_SYS_NS);
}

/* The argv of small()'s measured run of key (as in small_plan). */
static const char *run_argv(const char *key) {
  static char buf[160];
  bool sort = key[0] == 'S', random = key[1] == '0';
  snprintf(buf, sizeof buf, "--algorithm quick --order %s --size 50 --sorts %u --seed %u%s",
           random ? "random" : "sorted", sort ? (random ? RANDOM_SORTS : SORTED_SORTS) : 1u,
           GB_DEFAULT_SEED, sort ? "" : " --startup-only");
  return buf;
}

/* A campaign's log, in a temporary file: the warnings it printed. */
static FILE *new_log(void) {
  FILE *f = tmpfile();
  cr_assert_not_null(f);
  return f;
}

/* The lines of the log about measured runs (others depend on the machine:
 * a harness run as root is warned about, for one). */
static const char *run_warnings(FILE *f) {
  static char text[16384], runs[16384];
  rewind(f);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  runs[0] = '\0';
  size_t used = 0;
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
    if (strncmp(line, "greenbench: warning: run ", 25) == 0)
      used += (size_t)snprintf(runs + used, sizeof runs - used, "%s\n", line);
  return runs;
}

/* Each configuration's rows all use the same calibrated sorts. */
static void assert_constant_sorts(const gb_records *r) {
  for (size_t g = 0; g < r->runs.n_groups; g++) {
    const gb_rec_group *grp = &r->runs.groups[g];
    for (size_t i = 1; i < grp->n_rows; i++) {
      cr_assert_eq(grp->rows[i]->sorts, grp->rows[0]->sorts);
      cr_assert_eq(grp->rows[i]->launches, grp->rows[0]->launches);
    }
  }
}

/* End to end with the real C worker: the records it leaves, environment.txt,
 * and the runtime the worker names. */
Test(campaign, real_workers_complete_with_strict_records) {
  char *out = new_out();
  gb_campaign_opts o = opts_for(out, small());
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  cr_assert_eq(res.runs_total, (2u + 2u) * 3u);
  gb_records *r = read_records(out);
  cr_assert(r->meta.completed);
  cr_assert_eq(r->runs.n_rows, 12u);
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    cr_assert_eq(row->status, GB_REC_STATUS_OK, "row %zu: %s", i, row->message);
    cr_assert_eq(row->energy, GB_REC_ENERGY_OFF);
    cr_assert(row->idle_ns.present && row->idle_ns.value > 0, "every run has its idle window");
    cr_assert(row->freq_start_khz.present, "the fixture's CPUs have a frequency");
  }
  assert_constant_sorts(r);
  cr_assert_eq(r->meta.n_calibration, 2u);
  cr_assert_eq(r->meta.n_startup, 2u);
  cr_assert(r->has_warmups && r->warmups.n_rows >= 2u + 2u);
  cr_assert(r->meta.pinning.rule_held, "%s", r->meta.pinning.reason);
  cr_assert(r->meta.machine.has_label && gb_meta_label_valid(r->meta.machine.label),
            "the machine's label is recorded");
  assert_compiler_form(r->meta.runtimes[GB_C]);
  gb_records_free(r);
  char env[256];
  snprintf(env, sizeof env, "%s/environment.txt", out);
  cr_assert_eq(access(env, R_OK), 0);
  static char text[65536];
  FILE *f = fopen(env, "r");
  cr_assert_not_null(f);
  text[fread(text, 1, sizeof text - 1, f)] = '\0';
  fclose(f);
  /* The build, the access method and the machine facts of the fixture. */
  const char *want[] = {"\n# build\ncompiler: ",
                        "\nCMAKE_BUILD_TYPE: ",
                        "\nC flags: ",
                        "\nC worker flags: ",
                        "\n# access\naccess: ",
                        "\nspawner: clone(CLONE_VM|CLONE_VFORK)",
                        "\n# machine\nkernel command line: BOOT_IMAGE=",
                        "\nscaling driver (cpu",
                        "\nmicrocode: 0x2007006 0x2006e05\n",
                        "\nbios version: 2.19.0\n",
                        "\nsmt active: 1\n",
                        ("\nrapl power limit: intel-rapl:0 (package-0) constraint_0 long_term: "
                         "125000000 uW\n"),
                        "\n# per-run machine readings\n"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    cr_assert(strstr(text, want[i]), "'%s' not in:\n%s", want[i], text);
}

Test(campaign, scripted_workers_give_exact_rows) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed && !res.interrupted);
  cr_assert_eq(res.runs_done, 12u);
  cr_assert_eq(res.runs_total, 12u);

  /* Every launch, in order. */
  cr_assert_eq(script_calls(w), FIRST_RUN_CALL - 1 + 12);
  char want[160];
  snprintf(want, sizeof want,
           "--algorithm quick --order random --size 1 --sorts 1 --seed %u --startup-only",
           GB_DEFAULT_SEED);
  assert_call(w, 1, want);
  const struct {
    const char *order;
    unsigned sorts;
  } warmups[] = {{"random", 1}, {"random", RANDOM_SORTS}, {"sorted", SORTED_SORTS}};
  for (unsigned i = 0; i < 3; i++) {
    snprintf(want, sizeof want, "--algorithm quick --order %s --size 50 --sorts %u --seed %u",
             warmups[i].order, warmups[i].sorts, GB_DEFAULT_SEED);
    assert_call(w, 2 + i, want);
  }
  for (unsigned g = 0; g < 2; g++) {
    snprintf(want, sizeof want,
             "--algorithm quick --order %s --size 50 --sorts 1 --seed %u --startup-only",
             g ? "sorted" : "random", GB_DEFAULT_SEED);
    assert_call(w, 5 + g, want);
    cr_assert_eq(script_call_at(w, 5 + g)->launches, 1u);
  }
  for (unsigned i = 0; i < 12; i++) {
    assert_call(w, FIRST_RUN_CALL + i, run_argv(small_plan[i]));
    cr_assert_eq(script_call_at(w, FIRST_RUN_CALL + i)->launches,
                 small_plan[i][0] == 'S' ? 1u : BATCH);
  }

  gb_records *r = read_records(out);
  cr_assert(r->meta.completed);
  cr_assert_eq(r->meta.runs_done, 12u);
  cr_assert_str_eq(r->meta.runtimes[GB_C], "c (scripted)");
  /* The warm-ups, row by row. */
  cr_assert(r->has_warmups);
  cr_assert_eq(r->warmups.n_rows, 5u);
  const uint64_t warm_loop[] = {1010u, RANDOM_LOOP_NS, SORTED_LOOP_NS};
  const uint64_t warm_run[] = {0, 1, 0, 0, 0};
  for (size_t i = 0; i < 5; i++) {
    const gb_run_row *row = &r->warmups.rows[i];
    cr_assert_eq(row->status, GB_REC_STATUS_OK, "warm-up %zu: %s", i, row->message);
    cr_assert_eq(row->run, warm_run[i], "warm-up %zu", i);
    cr_assert_eq(row->energy, GB_REC_ENERGY_OFF);
    cr_assert_not(row->idle_ns.present, "warm-ups have no idle window");
    if (i < 3) {
      cr_assert_eq(row->kind, GB_REC_KIND_SORT);
      cr_assert_eq(row->order, i < 2 ? GB_RANDOM : GB_SORTED);
      cr_assert_eq(row->sorts, warmups[i].sorts, "warm-up %zu", i);
      cr_assert_eq(row->loop_ns.value, warm_loop[i], "warm-up %zu", i);
      cr_assert_eq(row->wall_ns.value, C_STARTUP_NS + warm_loop[i]);
    } else {
      cr_assert_eq(row->kind, GB_REC_KIND_STARTUP);
      cr_assert_eq(row->order, i == 3 ? GB_RANDOM : GB_SORTED);
      cr_assert_eq(row->launches, 1u);
      cr_assert_eq(row->wall_ns.value, C_STARTUP_NS);
    }
  }
  /* The calibration meta.json keeps. */
  cr_assert_eq(r->meta.n_calibration, 2u);
  cr_assert_eq(r->meta.calibration[0].order, GB_RANDOM);
  cr_assert_eq(r->meta.calibration[0].sorts, RANDOM_SORTS);
  cr_assert_eq(r->meta.calibration[0].n_warmup_loop_ns, 2u);
  cr_assert_eq(r->meta.calibration[0].warmup_loop_ns[1], RANDOM_LOOP_NS);
  cr_assert_eq(r->meta.calibration[1].sorts, SORTED_SORTS);
  cr_assert_eq(r->meta.n_startup, 2u);
  cr_assert_eq(r->meta.startup[0].launches, BATCH);
  cr_assert_eq(r->meta.startup[1].launches, BATCH);
  /* The measured runs: the plan's shuffled order, row by row. */
  gb_plan plan;
  gb_settings s = small();
  cr_assert_eq(gb_plan_build(&s, &plan, &err), 0, "%s", err.msg);
  cr_assert_eq(r->runs.n_rows, 12u);
  for (size_t i = 0; i < 12; i++) {
    const gb_planned_run *p = &plan.runs[i];
    cr_assert_eq(small_plan[i][0] == 'S', p->kind == GB_RUN_SORT, "run %zu", i);
    cr_assert_eq((unsigned)(small_plan[i][1] - '0'), p->target, "run %zu", i);
    assert_scripted_row(&r->runs.rows[i], i, small_plan[i]);
    cr_assert_eq(r->runs.rows[i].energy, GB_REC_ENERGY_OFF);
    cr_assert(r->runs.rows[i].freq_start_khz.present, "the fixture's CPUs have a frequency");
  }
  gb_plan_free(&plan);
  gb_records_free(r);
  script_destroy(w);
}

/* The command line hands the campaign its argv from the subcommand on; the
 * records name the binary all the same. */
Test(campaign, the_recorded_command_names_the_binary_and_the_access, .timeout = 60) {
  static const char *const from_cli[] = {"run", "--profile", "smoke"};
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  o.argc = 3;
  o.argv = from_cli;
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert_eq(r->meta.n_command, 4u);
  cr_assert_str_eq(r->meta.command[0], "greenbench");
  cr_assert_str_eq(r->meta.command[1], "run");
  cr_assert_str_eq(r->meta.command_line, "greenbench run --profile smoke");
  /* How energy_uj was read and the workers started, round-tripped. */
  cr_assert(r->meta.has_access);
  gb_privilege owner;
  cr_assert_eq(gb_privilege_detect(&owner, &err), 0, "%s", err.msg);
  bool drops = gb_privilege_drops(&owner);
  cr_assert_str_eq(r->meta.access, geteuid() != 0 ? "unprivileged" : drops ? "sudo" : "root");
  cr_assert_str_eq(r->meta.spawner,
                   drops ? "clone(CLONE_VM|CLONE_VFORK), drop to the sudo user, execve"
                         : "clone(CLONE_VM|CLONE_VFORK), execve");
  gb_records_free(r);
  script_destroy(w);
}

Test(campaign, energy_from_a_live_counter, .timeout = 60) {
  powercap_fake *f = powercap_fake_create();
  int pkg_zone = powercap_fake_package(f, 0, 1000, 262143328850u);
  int dram_zone = powercap_fake_dram(f, 0, 0, 5000, 65712999613u);
  powercap_fake_power(f, pkg_zone, 10000); /* 10 W */
  powercap_fake_power(f, dram_zone, 1000); /* 1 W */
  powercap_fake_start(f);
  char *out = new_out();
  gb_settings s = small();
  s.energy = GB_ENERGY_ON;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, s, &w);
  script_sleep(w, true); /* each window lasts as long as its run */
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  o.rapl = &ro;
  /* The fake's virtual clock: a starved firmware thread must not look like
   * a stalled counter. */
  gb_sampler_opts so = {.clock = powercap_fake_clock(f)};
  o.sampler = &so;
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.energy);
  gb_records *r = read_records(out);
  cr_assert_eq(r->meta.energy.status, GB_REC_ENERGY_OK);
  cr_assert_eq(r->meta.energy.n_zones, 2u);
  cr_assert_eq(r->meta.energy.zones[0].max_energy_range_uj, 262143328850u);
  uint64_t pkg = 0, dram = 0;
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    /* A window of a few ms may see no tick of a starved fake: then it is
     * energy_stalled with no energy, never ok with 0 uJ. */
    if (row->status == GB_REC_STATUS_ENERGY_STALLED) {
      cr_assert_eq(row->energy, GB_REC_ENERGY_UNAVAILABLE, "row %zu", i);
      cr_assert(!row->pkg_uj.present && !row->idle_pkg_uj.present, "row %zu", i);
      continue;
    }
    cr_assert_eq(row->energy, GB_REC_ENERGY_OK, "row %zu: %s", i, row->message);
    cr_assert(row->pkg_uj.present && row->dram_uj.present && row->idle_pkg_uj.present &&
              row->idle_dram_uj.present);
    cr_assert_gt(row->pkg_uj.value, 0u, "row %zu: ok with 0 uJ", i);
    cr_assert_gt(row->idle_pkg_uj.value, 0u, "row %zu: ok with 0 uJ", i);
    pkg += row->pkg_uj.value + row->idle_pkg_uj.value;
    dram += row->dram_uj.value + row->idle_dram_uj.value;
  }
  /* Windows never overlap, so together they hold at most what the fake
   * injected, and the 10:1 package to DRAM power shows in the sums. */
  cr_assert_gt(pkg, 0u);
  cr_assert_leq(pkg, powercap_fake_injected(f, pkg_zone));
  cr_assert_leq(dram, powercap_fake_injected(f, dram_zone));
  cr_assert(pkg > 5 * dram && pkg < 20 * dram, "package %lu uJ, DRAM %lu uJ",
            (unsigned long)pkg, (unsigned long)dram);
  cr_assert_eq(r->runs.n_rows, 12u);
  gb_records_free(r);
  powercap_fake_destroy(f);
  script_destroy(w);
}

Test(campaign, energy_on_without_counters_fails_before_recording) {
  powercap_fake *f = powercap_fake_create();
  char *out = new_out();
  gb_settings s = small();
  s.energy = GB_ENERGY_ON;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, s, &w);
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  o.rapl = &ro;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -ENODEV);
  cr_assert(strstr(err.msg, "energy is unavailable: no RAPL package zone"), "%s", err.msg);
  cr_assert(strstr(err.msg, "greenbench check"), "%s", err.msg);
  cr_assert_eq(access(out, F_OK), -1, "nothing was recorded");
  cr_assert_eq(script_calls(w), 0u, "no worker was started");
  powercap_fake_destroy(f);
  script_destroy(w);
}

Test(campaign, a_bad_machine_label_fails_before_anything_runs) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  o.machine_label = "bench.example.org";
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "machine label 'bench.example.org' is not a label: 1 to 63 "
                            "letters, digits, '_' or '-' (no dots)");
  cr_assert_eq(access(out, F_OK), -1, "nothing was recorded");
  cr_assert_eq(script_calls(w), 0u, "no worker was started");
  script_destroy(w);
}

/* Issue 35: gb_campaign_run holds the settings' bounds itself, so the suite
 * and every caller get the command line's checks. */
Test(campaign, settings_outside_their_bounds_fail_before_anything_runs) {
  char *out = new_out();
  worker_script *w;
  gb_settings s = small();
  s.warmups = 0;
  gb_campaign_opts o = scripted_opts(out, s, &w);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "settings.warmups: 0 is outside 1..64");
  cr_assert_eq(access(out, F_OK), -1, "nothing was recorded");
  cr_assert_eq(script_calls(w), 0u, "no worker was started");
  script_destroy(w);
}

Test(campaign, the_machine_label_is_recorded) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  o.machine_label = "bench-01";
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert(r->meta.machine.has_label);
  cr_assert_str_eq(r->meta.machine.label, "bench-01");
  gb_records_free(r);
  script_destroy(w);
}

Test(campaign, the_default_machine_label_is_the_host_name_and_cpu_model_made_a_label) {
  char want[GB_META_NAME_MAX], got[GB_META_NAME_MAX];
  struct utsname u;
  cr_assert_eq(uname(&u), 0);
  gb_machine_info info;
  gb_err err;
  const unsigned cpu0 = 0;
  cr_assert_eq(gb_machine_info_read("/", &cpu0, 1, &info, &err), 0, "%s", err.msg);
  gb_meta_label_from_machine(u.nodename, info.cpu_model, want, sizeof want);
  cr_assert_eq(gb_machine_label(NULL, got, sizeof got, &err), 0, "%s", err.msg);
  cr_assert_str_eq(got, want);
  cr_assert(gb_meta_label_valid(got), "%s", got);
  cr_assert_eq(gb_machine_label("a.b", got, sizeof got, &err), -EINVAL);
}

Test(campaign, energy_auto_without_counters_records_why) {
  powercap_fake *f = powercap_fake_create();
  int pkg = powercap_fake_package(f, 0, 1000, 262143328850u);
  (void)pkg; /* never advanced: frozen, as in a virtual machine */
  char *out = new_out();
  gb_settings s = small();
  s.energy = GB_ENERGY_AUTO;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, s, &w);
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  o.rapl = &ro;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert_eq(r->meta.energy.status, GB_REC_ENERGY_UNAVAILABLE);
  cr_assert(strlen(r->meta.energy.reason) > 0);
  cr_assert_eq(r->runs.n_rows, 12u);
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    assert_scripted_row(&r->runs.rows[i], i, small_plan[i]);
    cr_assert_eq(r->runs.rows[i].energy, GB_REC_ENERGY_UNAVAILABLE);
    cr_assert_not(r->runs.rows[i].pkg_uj.present, "never a zero for a missing reading");
  }
  gb_records_free(r);
  powercap_fake_destroy(f);
  script_destroy(w);
}

/* Workers get a fixed environment (workerenv.h), so the liar's settings are
 * baked into a wrapper script beside the records folder: the real C worker,
 * truthful in the warm-ups and the first measured run, then one comparison
 * too many. */
static gb_campaign_opts liar_opts(const char *out) {
  static char wrapper[160];
  snprintf(wrapper, sizeof wrapper, "%s.liar.sh", out);
  FILE *f = fopen(wrapper, "w");
  cr_assert_not_null(f);
  fprintf(f, "#!/bin/sh\nexport GB_REAL_WORKER='%s'\n", GB_WORKER_C_PATH);
  fprintf(f, "export GB_LIE_ONCE_RECORDED='%s/runs.csv'\n", out);
  fprintf(f, "exec '%s/workers/liar.sh' \"$@\"\n", GB_TEST_DATA_DIR);
  cr_assert_eq(fclose(f), 0);
  cr_assert_eq(chmod(wrapper, 0755), 0);
  gb_campaign_opts o = opts_for(out, small());
  o.workers.worker_c = wrapper;
  return o;
}

/* End to end with a real process that lies. */
Test(campaign, a_real_lying_worker_stops_the_campaign) {
  char *out = new_out();
  gb_campaign_opts o = liar_opts(out);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EPROTO);
  cr_assert(strstr(err.msg, "parity mismatch in c/quick/"), "%s", err.msg);
  cr_assert(strstr(err.msg, "the c worker counted comparisons"), "%s", err.msg);
  cr_assert(strstr(err.msg, "the campaign stopped"), "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert_not(r->meta.completed);
  const gb_run_row *last = &r->runs.rows[r->runs.n_rows - 1];
  cr_assert_eq(last->status, GB_REC_STATUS_PARITY_MISMATCH);
  for (size_t i = 0; i + 1 < r->runs.n_rows; i++)
    cr_assert_eq(r->runs.rows[i].status, GB_REC_STATUS_OK, "earlier rows are kept whole");
  gb_records_free(r);
}

/* The rows before a stop are on disk, whole; meta.json says how far they go. */
static void assert_stopped_after(const char *out, size_t rows, size_t ok) {
  gb_records *r = read_records(out);
  cr_assert_not(r->meta.completed);
  cr_assert_eq(r->meta.runs_done, rows);
  cr_assert_eq(r->runs.n_rows, rows);
  for (size_t i = 0; i < ok; i++)
    assert_scripted_row(&r->runs.rows[i], i, small_plan[i]);
  gb_records_free(r);
}

/* Measured run 3 (c/quick/sorted/50) counts one comparison too many. */
Test(campaign, a_parity_mismatch_stops_the_campaign_with_the_rows_before_it) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  script_at(w, FIRST_RUN_CALL + 3, 0, SCRIPT_LIE, 0);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "parity mismatch in c/quick/sorted/50: the c worker counted "
                            "comparisons 1226, the C library counts 1225 (run 3; the "
                            "campaign stopped)");
  cr_assert_eq(script_calls(w), FIRST_RUN_CALL + 3, "nothing ran after it");
  cr_assert_eq(res.runs_done, 4u);
  cr_assert_not(res.completed);
  assert_stopped_after(out, 4, 3);
  gb_records *r = read_records(out);
  const gb_run_row *row = &r->runs.rows[3];
  cr_assert_eq(row->status, GB_REC_STATUS_PARITY_MISMATCH);
  cr_assert_eq(row->comparisons.value, 1226u, "the row keeps what the worker said");
  cr_assert_str_eq(row->message, "parity mismatch in c/quick/sorted/50: the c worker counted "
                                 "comparisons 1226, the C library counts 1225");
  gb_records_free(r);
  script_destroy(w);
}

/* Measured run 2 is a startup batch of c/sorted/50 whose last launch
 * reports another input. */
Test(campaign, a_startup_batch_on_another_input_stops_the_campaign) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  script_at(w, FIRST_RUN_CALL + 2, BATCH, SCRIPT_LIE, 0);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "parity mismatch in c/startup/sorted/50: the c worker's input_hash "
                            "is 68777e17d94aed75, the C library's is 68777e17d94aed74 (run 2; "
                            "the campaign stopped)");
  cr_assert_eq(script_calls(w), FIRST_RUN_CALL + 2);
  assert_stopped_after(out, 3, 2);
  script_destroy(w);
}

Test(campaign, a_lying_warmup_cannot_be_calibrated) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  script_at(w, 2, 0, SCRIPT_LIE, 0);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "warm-up 1 of c/quick/random/50 failed, so it cannot be "
                            "calibrated: parity_mismatch: parity mismatch in "
                            "c/quick/random/50: the c worker counted comparisons 230, the C "
                            "library counts 229");
  cr_assert_eq(script_calls(w), 2u);
  gb_records *r = read_records(out);
  cr_assert_eq(r->warmups.n_rows, 1u, "the failed warm-up is recorded");
  cr_assert_eq(r->warmups.rows[0].status, GB_REC_STATUS_PARITY_MISMATCH);
  cr_assert_eq(r->runs.n_rows, 0u);
  cr_assert_eq(r->meta.n_calibration, 0u);
  cr_assert_not(r->meta.completed);
  gb_records_free(r);
  script_destroy(w);
}

Test(campaign, a_crashing_warmup_cannot_be_calibrated) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  script_at(w, 3, 0, SCRIPT_CRASH, SIGSEGV);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -ECHILD);
  cr_assert_str_eq(err.msg, "warm-up 2 of c/quick/random/50 failed, so it cannot be "
                            "calibrated: crashed: crashed: killed by SIGSEGV (signal 11)");
  cr_assert_eq(script_calls(w), 3u);
  gb_records *r = read_records(out);
  cr_assert_eq(r->warmups.n_rows, 2u);
  cr_assert_eq(r->warmups.rows[0].status, GB_REC_STATUS_OK);
  cr_assert_eq(r->warmups.rows[1].status, GB_REC_STATUS_CRASHED);
  cr_assert_eq(r->runs.n_rows, 0u);
  gb_records_free(r);
  script_destroy(w);
}

/* A worker that fails once is recorded with why, and the campaign goes on:
 * one of each failure a launch can have, at measured runs 1, 2, 3, 6, 7. */
Test(campaign, failed_runs_are_recorded_and_the_campaign_goes_on, .timeout = 60) {
  char *out = new_out();
  gb_settings s = small();
  s.timeout_s = 1; /* the timed-out run's idle window lasts as long */
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, s, &w);
  FILE *log = new_log();
  o.log = log;
  script_at(w, FIRST_RUN_CALL + 1, 0, SCRIPT_EXIT, 3);
  script_at(w, FIRST_RUN_CALL + 2, 3, SCRIPT_CRASH, SIGABRT); /* launch 3 of the batch */
  script_at(w, FIRST_RUN_CALL + 3, 0, SCRIPT_TIMEOUT, 0);
  script_at(w, FIRST_RUN_CALL + 6, 0, SCRIPT_NO_EXEC, ENOENT);
  script_at(w, FIRST_RUN_CALL + 7, 0, SCRIPT_GARBAGE, 0);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  cr_assert_eq(script_calls(w), FIRST_RUN_CALL - 1 + 12);
  gb_records *r = read_records(out);
  cr_assert(r->meta.completed);
  cr_assert_eq(r->runs.n_rows, 12u);
  const struct {
    gb_rec_status status;
    uint64_t wall_ns;
    const char *message;
  } failed[12] = {
      [1] = {GB_REC_STATUS_EXIT_NONZERO, C_STARTUP_NS,
             "exited with code 3: worker: error: scripted failure"},
      [2] = {GB_REC_STATUS_CRASHED, 3 * C_STARTUP_NS,
             "launch 3 of 7: crashed: killed by SIGABRT (signal 6)"},
      [3] = {GB_REC_STATUS_TIMEOUT, 1000000000u,
             "timed out after 1.0 s; killed process group 4000010"},
      [6] = {GB_REC_STATUS_SPAWN_FAILED, 0,
             "cannot execute " GB_WORKER_C_PATH ": No such file or directory (ENOENT)"},
      [7] = {GB_REC_STATUS_BAD_OUTPUT, C_STARTUP_NS, NULL},
  };
  char warnings[4096] = "";
  for (size_t i = 0; i < 12; i++) {
    const gb_run_row *row = &r->runs.rows[i];
    if (!failed[i].status) {
      assert_scripted_row(row, i, small_plan[i]);
      continue;
    }
    cr_assert_eq(row->status, failed[i].status, "row %zu: %s", i, row->message);
    cr_assert_eq(row->wall_ns.value, failed[i].wall_ns, "row %zu", i);
    cr_assert_not(row->loop_ns.present || row->input_hash[0], "row %zu: no line, no figures",
                  i);
    if (failed[i].message)
      cr_assert_str_eq(row->message, failed[i].message, "row %zu", i);
    else
      cr_assert(strstr(row->message, "launch 1 of 7: "), "row %zu: %s", i, row->message);
    char label[64];
    snprintf(label, sizeof label, "c/%s/%s/50", small_plan[i][0] == 'S' ? "quick" : "startup",
             small_plan[i][1] == '0' ? "random" : "sorted");
    size_t used = strlen(warnings);
    snprintf(warnings + used, sizeof warnings - used,
             "greenbench: warning: run %zu (%s): %s: %s\n", i, label,
             gb_rec_status_name(row->status), row->message);
  }
  cr_assert_str_eq(run_warnings(log), warnings);
  gb_records_free(r);
  fclose(log);
  script_destroy(w);
}

/* The spawner itself fails (the harness, not a worker): the campaign stops
 * with its error and the rows before it. */
Test(campaign, a_spawner_failure_stops_the_campaign_with_the_rows_before_it) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  script_at(w, FIRST_RUN_CALL + 5, 0, SCRIPT_BROKEN, EMFILE);
  gb_campaign_result res;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), -EMFILE);
  cr_assert_str_eq(err.msg, "scripted spawner failure at call 12");
  cr_assert_eq(res.runs_done, 5u);
  cr_assert_not(res.completed || res.interrupted);
  cr_assert_eq(script_calls(w), FIRST_RUN_CALL + 5);
  assert_stopped_after(out, 5, 5);
  script_destroy(w);
}

/* End to end with a real program that exits non-zero. */
Test(campaign, a_worker_that_does_not_run_is_named) {
  char *out = new_out();
  gb_settings s = small();
  s.languages |= 1u << GB_PYTHON;
  gb_campaign_opts o = opts_for(out, s);
  o.workers.python = GB_TEST_DATA_DIR "/workers/fail.sh";
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -ENOEXEC);
  cr_assert(strstr(err.msg, "the python worker does not run: exited with code"), "%s", err.msg);
}

/* The runtimes are probed in language order, before anything is recorded. */
Test(campaign, a_worker_that_cannot_start_is_named_before_anything_is_recorded) {
  char *out = new_out();
  gb_settings s = small();
  s.languages |= 1u << GB_PYTHON;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, s, &w);
  script_at(w, 2, 0, SCRIPT_NO_EXEC, ENOENT);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -ENOEXEC);
  cr_assert_str_eq(err.msg, "the python worker does not run: cannot execute " GB_PYTHON_PATH
                            ": No such file or directory (ENOENT)");
  cr_assert_eq(script_calls(w), 2u);
  cr_assert_eq(script_call_at(w, 1)->language, GB_C);
  cr_assert_eq(script_call_at(w, 2)->language, GB_PYTHON);
  cr_assert(script_call_at(w, 2)->startup);
  cr_assert_eq(access(out, F_OK), -1, "nothing was recorded");
  script_destroy(w);
}

static char *slurp(const char *dir, const char *name) {
  static char text[2][65536];
  static int next;
  char path[256], *buf = text[next++ % 2];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f, "%s", path);
  buf[fread(buf, 1, sizeof text[0] - 1, f)] = '\0';
  fclose(f);
  return buf;
}

Test(campaign, records_are_never_overwritten) {
  char *out = new_out();
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  char runs[65536];
  snprintf(runs, sizeof runs, "%s", slurp(out, "runs.csv"));
  script_destroy(w);
  o = scripted_opts(out, small(), &w);
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EEXIST);
  cr_assert(strstr(err.msg, "is not empty"), "%s", err.msg);
  for (unsigned i = 1; i <= script_calls(w); i++)
    cr_assert(script_call_at(w, i)->startup && script_call_at(w, i)->size == 1,
              "call %u: only the runtime probe runs before the refusal", i);
  cr_assert_str_eq(slurp(out, "runs.csv"), runs);
  script_destroy(w);
}

/* Everything of a row but when it ran and the machine readings around it. */
static void assert_same_row(const gb_run_row *a, const gb_run_row *b, size_t i) {
  cr_assert(a->run == b->run && a->kind == b->kind && a->language == b->language &&
                a->algorithm == b->algorithm && a->order == b->order && a->size == b->size &&
                a->seed == b->seed && a->sorts == b->sorts && a->launches == b->launches,
            "run %zu: another configuration", i);
  cr_assert_eq(a->status, b->status, "run %zu", i);
  cr_assert_eq(a->wall_ns.value, b->wall_ns.value, "run %zu", i);
  cr_assert_eq(a->user_ns.value, b->user_ns.value, "run %zu", i);
  cr_assert_eq(a->sys_ns.value, b->sys_ns.value, "run %zu", i);
  cr_assert_eq(a->max_rss_kib.value, b->max_rss_kib.value, "run %zu", i);
  cr_assert_eq(a->loop_ns.value, b->loop_ns.value, "run %zu", i);
  cr_assert_eq(a->comparisons.value, b->comparisons.value, "run %zu", i);
  cr_assert_eq(a->writes.value, b->writes.value, "run %zu", i);
  cr_assert_str_eq(a->input_hash, b->input_hash, "run %zu", i);
  cr_assert_eq(a->energy, b->energy, "run %zu", i);
  cr_assert_str_eq(a->message, b->message, "run %zu", i);
}

/* small() with 5 runs: 20 measured runs after the same calibration. A Ctrl-C
 * arrives in launch 3 of measured run 7 (a startup batch): runs 0 to 6 are
 * kept, run 7 is not a row. The resume probes the runtime, then measures
 * runs 7 to 19 with the recorded calibration, exactly as the uninterrupted
 * campaign did. */
Test(campaign, interrupted_then_resumed_equals_uninterrupted, .timeout = 60) {
  gb_settings s = small();
  s.runs = 5;
  char whole[128], cut[128];
  snprintf(whole, sizeof whole, "%s", new_out());
  snprintf(cut, sizeof cut, "%s", new_out());
  worker_script *all, *first, *rest;
  gb_campaign_opts o = scripted_opts(whole, s, &all);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  cr_assert_eq(script_calls(all), FIRST_RUN_CALL - 1 + 20);

  volatile sig_atomic_t stop = 0;
  o = scripted_opts(cut, s, &first);
  o.stop = &stop;
  script_at(first, FIRST_RUN_CALL + 7, 3, SCRIPT_INTERRUPT, 0);
  cr_assert_eq(script_call_at(all, FIRST_RUN_CALL + 7)->launches, BATCH, "run 7 is a batch");
  gb_campaign_result res;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.interrupted && !res.completed);
  cr_assert_eq(res.runs_done, 7u);
  cr_assert_eq(res.runs_total, 20u);
  cr_assert_eq(script_calls(first), FIRST_RUN_CALL + 7, "nothing ran after the stop");
  cr_assert_eq(script_call_at(first, FIRST_RUN_CALL + 7)->status, GB_SPAWN_INTERRUPTED);
  gb_records *before = read_records(cut);
  cr_assert_not(before->meta.completed);
  cr_assert_eq(before->meta.runs_done, 7u);
  cr_assert_eq(before->runs.n_rows, 7u);

  gb_campaign_opts again = scripted_opts(cut, small(), &rest); /* settings from the records */
  again.resume = true;
  cr_assert_eq(gb_campaign_run(&again, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  cr_assert_eq(res.runs_done, 20u);
  cr_assert_eq(script_calls(rest), 1u + 13u, "the probe, then runs 7 to 19");
  cr_assert(script_call_at(rest, 1)->startup && script_call_at(rest, 1)->size == 1);
  for (unsigned i = 7; i < 20; i++)
    cr_assert_str_eq(script_call_at(rest, 2 + i - 7)->argv,
                     script_call_at(all, FIRST_RUN_CALL + i)->argv, "run %u", i);
  gb_records *a = read_records(whole), *b = read_records(cut);
  cr_assert_eq(b->runs.n_rows, 20u);
  cr_assert_eq(b->warmups.n_rows, a->warmups.n_rows, "the resume ran no warm-up");
  for (size_t i = 0; i < 20; i++)
    assert_same_row(&a->runs.rows[i], &b->runs.rows[i], i);
  for (size_t i = 0; i < 7; i++)
    cr_assert_eq(before->runs.rows[i].started_unix_ns, b->runs.rows[i].started_unix_ns,
                 "rows before the interruption are kept as they were");
  gb_records_free(a);
  gb_records_free(b);
  gb_records_free(before);
  script_destroy(rest);

  again = scripted_opts(cut, small(), &rest);
  again.resume = true;
  cr_assert_eq(gb_campaign_run(&again, NULL, &err), -EALREADY);
  cr_assert(strstr(err.msg, "already complete"), "%s", err.msg);
  cr_assert_eq(script_calls(rest), 0u);
  script_destroy(all);
  script_destroy(first);
  script_destroy(rest);
}

Test(campaign, resume_refuses_other_settings) {
  gb_settings s = small();
  s.runs = 5;
  char *out = new_out();
  volatile sig_atomic_t stop = 0;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, s, &w);
  o.stop = &stop;
  script_at(w, FIRST_RUN_CALL + 1, 0, SCRIPT_INTERRUPT, 0);
  gb_err err;
  gb_campaign_result res;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  cr_assert(res.interrupted);
  cr_assert_eq(res.runs_done, 1u);
  script_destroy(w);
  s.runs = 4;
  o = scripted_opts(out, s, &w);
  o.resume = true;
  o.settings_given = true;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert(strstr(err.msg, "the setting runs given on the command line differs"), "%s",
            err.msg);
  cr_assert_eq(script_calls(w), 0u, "refused before any worker started");
  script_destroy(w);
  /* The recorded label (the host name's) is kept; another one is refused. */
  o = scripted_opts(out, small(), &w);
  o.resume = true;
  o.machine_label = "another-machine";
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert(strstr(err.msg, "the machine label differs (recorded '"), "%s", err.msg);
  cr_assert(strstr(err.msg, "now 'another-machine')"), "%s", err.msg);
  script_destroy(w);
  gb_records *r = read_records(out);
  cr_assert_eq(r->runs.n_rows, 1u, "the refused resumes measured nothing");
  gb_records_free(r);
}

/* Writes text to dir/name, replacing it. */
static void rewrite(const char *dir, const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  cr_assert_not_null(f, "%s", path);
  cr_assert_eq(fputs(text, f) >= 0 && fclose(f) == 0, true, "%s", path);
}

/* Issue 35: a resumed campaign's settings, read back from meta.json, are
 * held to the bounds a new campaign's are (gb_settings_check): settings out
 * of bounds are refused in one line before any worker starts, and the
 * records are left as they were. */
Test(campaign, resume_refuses_recorded_settings_out_of_bounds) {
  char *out = new_out();
  volatile sig_atomic_t stop = 0;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  o.stop = &stop;
  script_at(w, FIRST_RUN_CALL + 1, 0, SCRIPT_INTERRUPT, 0);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  script_destroy(w);
  static char meta[65536], runs[65536], warmups[65536];
  snprintf(meta, sizeof meta, "%s", slurp(out, "meta.json"));
  char *at = strstr(meta, "\"warmups\":\t1,");
  cr_assert_not_null(at, "%s", meta);
  at[strlen("\"warmups\":\t")] = '0';
  rewrite(out, "meta.json", meta);
  snprintf(runs, sizeof runs, "%s", slurp(out, "runs.csv"));
  snprintf(warmups, sizeof warmups, "%s", slurp(out, "warmups.csv"));
  o = scripted_opts(out, small(), &w);
  o.resume = true;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert(strstr(err.msg, "meta.json: settings.warmups: 0 is outside 1..64"), "%s", err.msg);
  cr_assert_null(strchr(err.msg, '\n'), "one line: %s", err.msg);
  cr_assert_eq(script_calls(w), 0u, "refused before any worker started");
  script_destroy(w);
  cr_assert_str_eq(slurp(out, "meta.json"), meta, "meta.json is as it was");
  cr_assert_str_eq(slurp(out, "runs.csv"), runs, "runs.csv is as it was");
  cr_assert_str_eq(slurp(out, "warmups.csv"), warmups, "warmups.csv is as it was");
}

Test(campaign, an_interrupt_before_calibration_leaves_nothing_to_resume) {
  char *out = new_out();
  volatile sig_atomic_t stop = 1;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  o.stop = &stop;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINTR);
  cr_assert(strstr(err.msg, "interrupted while calibrating, before any measured run"), "%s",
            err.msg);
  cr_assert_eq(script_calls(w), 1u, "the runtime probe, which a stop does not cut");
  script_destroy(w);
}

/* A Ctrl-C in the second warm-up: the first one's row stays in warmups.csv,
 * the campaign cannot resume, and says so. */
Test(campaign, an_interrupt_during_calibration_leaves_nothing_to_resume) {
  char *out = new_out();
  volatile sig_atomic_t stop = 0;
  worker_script *w;
  gb_campaign_opts o = scripted_opts(out, small(), &w);
  o.stop = &stop;
  script_at(w, 3, 0, SCRIPT_INTERRUPT, 0);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINTR);
  cr_assert_str_eq(err.msg, "interrupted while calibrating, before any measured run: nothing "
                            "to resume; start the campaign again in a new folder");
  cr_assert_eq(script_calls(w), 3u);
  gb_records *r = read_records(out);
  cr_assert_eq(r->warmups.n_rows, 1u);
  cr_assert_eq(r->warmups.rows[0].sorts, 1u);
  cr_assert_eq(r->runs.n_rows, 0u);
  gb_records_free(r);
  script_destroy(w);
  o = scripted_opts(out, small(), &w);
  o.resume = true;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert(strstr(err.msg, "calibration did not finish, so no measured run was recorded"),
            "%s", err.msg);
  cr_assert_eq(script_calls(w), 0u);
  script_destroy(w);
}
