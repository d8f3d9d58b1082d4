/* The campaign end to end, on small settings: strict records, energy from a
 * fake powercap tree, parity mismatches, interruption and resume. Workers
 * are the real ones; the topology and the machine's sysfs are fixtures. */
#include <criterion/criterion.h>
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "greenbench/calibration.h"
#include "greenbench/campaign.h"
#include "greenbench/machine.h"
#include "greenbench/privilege.h"
#include "greenbench/records.h"
#include "helper_powercap.h"

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

static gb_settings small(void) {
  gb_settings s;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &s, &err), 0);
  s.languages = 1u << GB_C;
  s.algorithms = 1u << GB_QUICK;
  s.orders = (1u << GB_RANDOM) | (1u << GB_SORTED);
  s.sizes[0] = 50;
  s.nsizes = 1;
  s.runs = 3;
  s.warmups = 1;
  s.target_ms = 2;
  s.energy = GB_ENERGY_OFF;
  s.order_seed = 42;
  s.timeout_s = 20;
  return s;
}

static const char *const command[] = {"greenbench", "run", "--profile", "smoke"};

static gb_campaign_opts opts_for(const char *out, gb_settings s) {
  return (gb_campaign_opts){.settings = s,
                            .out_dir = out,
                            .workers = {GB_WORKER_C_PATH, GB_PYTHON_PATH, GB_PYTHON_WORKER_PATH,
                                        GB_NODE_PATH, GB_NODE_WORKER_PATH},
                            .topology_xml = GB_TEST_DATA_DIR "/topo-desktop-smt.xml",
                            .machine_root = GB_TEST_DATA_DIR "/sysfs-intel",
                            .argc = 4,
                            .argv = command,
                            .progress = GB_PROGRESS_QUIET};
}

static gb_records *read_records(const char *dir) {
  gb_records *r;
  gb_err err;
  cr_assert_eq(gb_records_read(dir, &r, &err), 0, "%s", err.msg);
  return r;
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

Test(campaign, completes_with_strict_records) {
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
                        "\nrapl power limit: intel-rapl:0 (package-0) constraint_0 long_term: "
                        "125000000 uW\n",
                        "\n# per-run machine readings\n"};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
    cr_assert(strstr(text, want[i]), "'%s' not in:\n%s", want[i], text);
}

/* The command line hands the campaign its argv from the subcommand on; the
 * records name the binary all the same. */
Test(campaign, the_recorded_command_names_the_binary_and_the_access, .timeout = 60) {
  static const char *const from_cli[] = {"run", "--profile", "smoke"};
  char *out = new_out();
  gb_settings s = small();
  s.languages = 1u << GB_C;
  gb_campaign_opts o = opts_for(out, s);
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
  gb_campaign_opts o = opts_for(out, s);
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
  gb_records_free(r);
  powercap_fake_destroy(f);
}

Test(campaign, energy_on_without_counters_fails_before_recording) {
  powercap_fake *f = powercap_fake_create();
  char *out = new_out();
  gb_settings s = small();
  s.energy = GB_ENERGY_ON;
  gb_campaign_opts o = opts_for(out, s);
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  o.rapl = &ro;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -ENODEV);
  cr_assert(strstr(err.msg, "energy is unavailable: no RAPL package zone"), "%s", err.msg);
  cr_assert(strstr(err.msg, "greenbench check"), "%s", err.msg);
  cr_assert_eq(access(out, F_OK), -1, "nothing was recorded");
  powercap_fake_destroy(f);
}

Test(campaign, a_bad_machine_label_fails_before_anything_runs) {
  char *out = new_out();
  gb_campaign_opts o = opts_for(out, small());
  o.machine_label = "bench.example.org";
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "machine label 'bench.example.org' is not a label: 1 to 63 "
                            "letters, digits, '_' or '-' (no dots)");
  cr_assert_eq(access(out, F_OK), -1, "nothing was recorded");
}

Test(campaign, the_machine_label_is_recorded) {
  char *out = new_out();
  gb_campaign_opts o = opts_for(out, small());
  o.machine_label = "bench-01";
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert(r->meta.machine.has_label);
  cr_assert_str_eq(r->meta.machine.label, "bench-01");
  gb_records_free(r);
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
  gb_campaign_opts o = opts_for(out, s);
  gb_rapl_opts ro = powercap_fake_rapl_opts(f);
  o.rapl = &ro;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  cr_assert_eq(r->meta.energy.status, GB_REC_ENERGY_UNAVAILABLE);
  cr_assert(strlen(r->meta.energy.reason) > 0);
  for (size_t i = 0; i < r->runs.n_rows; i++) {
    cr_assert_eq(r->runs.rows[i].energy, GB_REC_ENERGY_UNAVAILABLE);
    cr_assert_not(r->runs.rows[i].pkg_uj.present, "never a zero for a missing reading");
  }
  gb_records_free(r);
  powercap_fake_destroy(f);
}

/* Workers get a fixed environment (workerenv.h), so the liar's settings are
 * baked into a wrapper script beside the records folder. */
static gb_campaign_opts liar_opts(const char *out, bool after_first_row) {
  static char wrapper[160];
  snprintf(wrapper, sizeof wrapper, "%s.liar.sh", out);
  FILE *f = fopen(wrapper, "w");
  cr_assert_not_null(f);
  fprintf(f, "#!/bin/sh\nexport GB_REAL_WORKER='%s'\n", GB_WORKER_C_PATH);
  if (after_first_row)
    fprintf(f, "export GB_LIE_ONCE_RECORDED='%s/runs.csv'\n", out);
  fprintf(f, "exec '%s/workers/liar.sh' \"$@\"\n", GB_TEST_DATA_DIR);
  cr_assert_eq(fclose(f), 0);
  cr_assert_eq(chmod(wrapper, 0755), 0);
  gb_campaign_opts o = opts_for(out, small());
  o.workers.worker_c = wrapper;
  return o;
}

Test(campaign, parity_mismatch_stops_the_campaign) {
  char *out = new_out();
  /* Warm-ups and the first measured run tell the truth, then it lies. */
  gb_campaign_opts o = liar_opts(out, true);
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

/* The first warm-up of c/quick/random/50, with nothing calibrated before it,
 * probes with one sort; that of c/quick/sorted/50 runs the sorts predicted from
 * random's last warm-up (scaled by the work of a sort) when that loop landed
 * on target, and probes too when it did not; every measured run uses what
 * its configuration's last warm-up predicts. */
Test(campaign, the_first_warmup_is_predicted_from_a_calibrated_configuration) {
  char *out = new_out();
  gb_settings s = small();
  gb_campaign_opts o = opts_for(out, s);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  gb_records *r = read_records(out);
  const uint64_t target = (uint64_t)s.target_ms * 1000000u;
  const gb_rec_group *w[2], *runs[2];
  gb_expected e[2];
  const gb_order orders[2] = {GB_RANDOM, GB_SORTED};
  for (int i = 0; i < 2; i++) {
    w[i] = gb_rec_table_find_sort(&r->warmups, GB_C, GB_QUICK, (gb_order)orders[i], 50);
    runs[i] = gb_rec_table_find_sort(&r->runs, GB_C, GB_QUICK, (gb_order)orders[i], 50);
    cr_assert(w[i] && runs[i] && w[i]->n_rows >= 1);
    cr_assert_eq(gb_expected_compute(GB_QUICK, orders[i], 50, s.seed, &e[i]), 0);
    const gb_run_row *last = w[i]->rows[w[i]->n_rows - 1];
    cr_assert_eq(runs[i]->rows[0]->sorts,
                 gb_calibrate_sorts(last->sorts, last->loop_ns.value, target));
  }
  cr_assert_eq(w[0]->rows[0]->sorts, 1u, "nothing calibrated before it: a probe");
  const gb_run_row *ref = w[0]->rows[w[0]->n_rows - 1];
  uint64_t want = 0;
  if (gb_calibration_on_target(ref->loop_ns.value, ref->sorts, target))
    want = gb_predict_sorts(ref->sorts, ref->loop_ns.value, gb_sort_work(e[0].counts, 50),
                            gb_sort_work(e[1].counts, 50), target);
  cr_assert_eq(w[1]->rows[0]->sorts, want ? want : 1u, "first warm-up of sorted: %llu sorts",
               (unsigned long long)w[1]->rows[0]->sorts);
  gb_records_free(r);
}

Test(campaign, a_lying_warmup_cannot_be_calibrated) {
  char *out = new_out();
  gb_campaign_opts o = liar_opts(out, false);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EPROTO);
  cr_assert(strstr(err.msg,
                   "warm-up 1 of c/quick/random/50 failed, so it cannot be calibrated: "
                   "parity_mismatch"),
            "%s", err.msg);
}

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

Test(campaign, records_are_never_overwritten) {
  char *out = new_out();
  gb_campaign_opts o = opts_for(out, small());
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EEXIST);
  cr_assert(strstr(err.msg, "is not empty"), "%s", err.msg);
}

/* Sets *stop once runs.csv holds `rows` rows. */
typedef struct {
  const char *out;
  size_t rows;
  volatile sig_atomic_t *stop;
} stopper;

static size_t rows_in(const char *out) {
  char path[256];
  snprintf(path, sizeof path, "%s/runs.csv", out);
  FILE *f = fopen(path, "r");
  size_t lines = 0;
  int ch;
  while (f && (ch = fgetc(f)) != EOF)
    lines += ch == '\n';
  if (f)
    fclose(f);
  return lines ? lines - 1 : 0;
}

static void *stop_later(void *p) {
  stopper *s = p;
  while (rows_in(s->out) < s->rows)
    usleep(1000);
  *s->stop = 1;
  return NULL;
}

static bool same_key(const gb_run_row *a, const gb_run_row *b) {
  return a->kind == b->kind && a->language == b->language && a->order == b->order &&
         a->size == b->size && (a->kind == GB_REC_KIND_STARTUP || a->algorithm == b->algorithm);
}

Test(campaign, interrupted_then_resumed_equals_uninterrupted, .timeout = 120) {
  gb_settings s = small();
  s.runs = 5;
  char whole[128], cut[128];
  snprintf(whole, sizeof whole, "%s", new_out());
  snprintf(cut, sizeof cut, "%s", new_out());
  gb_campaign_opts o = opts_for(whole, s);
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), 0, "%s", err.msg);

  volatile sig_atomic_t stop = 0;
  stopper st = {cut, 7, &stop};
  pthread_t t;
  pthread_create(&t, NULL, stop_later, &st);
  o = opts_for(cut, s);
  o.stop = &stop;
  gb_campaign_result res;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  pthread_join(t, NULL);
  cr_assert(res.interrupted && !res.completed);
  cr_assert(res.runs_done >= 7 && res.runs_done < res.runs_total, "%zu", res.runs_done);
  gb_records *before = read_records(cut);
  cr_assert_not(before->meta.completed);
  cr_assert_eq(before->meta.runs_done, res.runs_done);

  gb_campaign_opts again = opts_for(cut, small()); /* settings come from the records */
  again.resume = true;
  cr_assert_eq(gb_campaign_run(&again, &res, &err), 0, "%s", err.msg);
  cr_assert(res.completed);
  gb_records *a = read_records(whole), *b = read_records(cut);
  cr_assert_eq(a->runs.n_rows, b->runs.n_rows);
  for (size_t i = 0; i < a->runs.n_rows; i++)
    cr_assert(same_key(&a->runs.rows[i], &b->runs.rows[i]), "run %zu differs", i);
  /* The resumed part used the recorded calibration. */
  assert_constant_sorts(b);
  for (size_t i = 0; i < before->runs.n_rows; i++)
    cr_assert_eq(before->runs.rows[i].started_unix_ns, b->runs.rows[i].started_unix_ns,
                 "rows before the interruption are kept as they were");
  gb_records_free(a);
  gb_records_free(b);
  gb_records_free(before);

  again.resume = true;
  cr_assert_eq(gb_campaign_run(&again, NULL, &err), -EALREADY);
  cr_assert(strstr(err.msg, "already complete"), "%s", err.msg);
}

Test(campaign, resume_refuses_other_settings) {
  gb_settings s = small();
  s.runs = 5;
  char *out = new_out();
  volatile sig_atomic_t stop = 0;
  stopper st = {out, 1, &stop};
  pthread_t t;
  pthread_create(&t, NULL, stop_later, &st);
  gb_campaign_opts o = opts_for(out, s);
  o.stop = &stop;
  gb_err err;
  gb_campaign_result res;
  cr_assert_eq(gb_campaign_run(&o, &res, &err), 0, "%s", err.msg);
  pthread_join(t, NULL);
  cr_assert(res.interrupted);
  s.runs = 4;
  o = opts_for(out, s);
  o.resume = true;
  o.settings_given = true;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert(strstr(err.msg, "the setting runs given on the command line differs"), "%s",
            err.msg);
  /* The recorded label (the host name's) is kept; another one is refused. */
  o = opts_for(out, small());
  o.resume = true;
  o.machine_label = "another-machine";
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINVAL);
  cr_assert(strstr(err.msg, "the machine label differs (recorded '"), "%s", err.msg);
  cr_assert(strstr(err.msg, "now 'another-machine')"), "%s", err.msg);
}

Test(campaign, an_interrupt_during_calibration_leaves_nothing_to_resume) {
  char *out = new_out();
  volatile sig_atomic_t stop = 1;
  gb_campaign_opts o = opts_for(out, small());
  o.stop = &stop;
  gb_err err;
  cr_assert_eq(gb_campaign_run(&o, NULL, &err), -EINTR);
  cr_assert(strstr(err.msg, "interrupted while calibrating, before any measured run"), "%s",
            err.msg);
}
