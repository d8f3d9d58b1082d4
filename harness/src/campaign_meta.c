/* meta.json and environment.txt for a campaign, and what --resume reads back
 * from them (docs/design.md, "The records"). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign_internal.h"
#include "greenbench/clock.h"
#include "greenbench/machine.h"
#include "greenbench/spawn.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"
#include "greenbench/workerenv.h"

#ifndef GB_VERSION
#define GB_VERSION "unknown"
#endif

/* Runs a helper program (never through a shell) as `as` (NULL: the
 * harness's identity) with environment envp, and keeps its stdout, or why it
 * failed, in buf. */
static void capture_command(char *const *argv, const gb_privilege *as, char *const *envp,
                            char *buf, size_t len) {
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = 10000000000ull;
  o.run_as = as && gb_privilege_drops(as) ? as : NULL;
  o.envp = envp;
  gb_spawn_result r;
  gb_err err;
  if (gb_spawn_run(&o, &r, &err) < 0) {
    snprintf(buf, len, "(%s failed: %s)\n", argv[0], err.msg);
    return;
  }
  if (r.status == GB_SPAWN_OK)
    snprintf(buf, len, "%s", r.out);
  else
    snprintf(buf, len, "(%s failed: %s)\n", argv[0], r.message);
  gb_spawn_result_free(&r);
}

/* git reads the checkout's own config, which can name programs to run
 * (core.fsmonitor, hooks, filters): a root harness must not run them as root.
 * So git runs as the sudo user, the same identity as the workers, with the
 * workers' environment plus no system config, and the config keys that run
 * programs during `status` overridden. */
static void run_git(const char *source_dir, const gb_privilege *as, const char *const *args,
                    char *buf, size_t len) {
  gb_workerenv we;
  gb_err err;
  if (gb_workerenv_build(as, &we, &err) < 0) {
    snprintf(buf, len, "(/usr/bin/git failed: %s)\n", err.msg);
    return;
  }
  char *envp[GB_WORKERENV_VARS + 3];
  memcpy(envp, we.envp, GB_WORKERENV_VARS * sizeof *envp);
  envp[GB_WORKERENV_VARS] = "GIT_CONFIG_NOSYSTEM=1";
  envp[GB_WORKERENV_VARS + 1] = "GIT_TERMINAL_PROMPT=0";
  envp[GB_WORKERENV_VARS + 2] = NULL;
  char *argv[16] = {
      "/usr/bin/git", "--no-optional-locks",      "-c", "core.fsmonitor=false",
      "-c",           "core.hooksPath=/dev/null", "-c", "core.untrackedCache=false",
      "-C",           (char *)source_dir};
  size_t n = 10;
  for (size_t i = 0; args[i] && n < 15; i++)
    argv[n++] = (char *)args[i];
  argv[n] = NULL;
  capture_command(argv, as, envp, buf, len);
}

void gbi_campaign_git_commit(const char *source_dir, const gb_privilege *as, char *buf,
                             size_t len) {
  char out[4096];
  snprintf(buf, len, "unknown");
  if (!source_dir || access("/usr/bin/git", X_OK) < 0)
    return;
  const char *rev[] = {"rev-parse", "HEAD", NULL};
  run_git(source_dir, as, rev, out, sizeof out);
  if (strspn(out, "0123456789abcdef") != 40)
    return;
  memcpy(out + 40, "-dirty", 7);
  const char *st[] = {"status", "--porcelain", "--untracked-files=no", NULL};
  char status[4096];
  run_git(source_dir, as, st, status, sizeof status);
  if (!status[0])
    out[40] = '\0';
  gb_str_copy(buf, len, out);
}

/* Now, for meta.json. After the year 9999 buf holds "", which gb_meta_check
 * refuses when the meta is written: the failure is reported there. */
static void utc_now(char *buf, size_t len) {
  if (gb_utc_iso8601((int64_t)(gb_realtime_ns() / 1000000000u), buf, len) < 0)
    buf[0] = '\0';
}

static void energy_to_meta(const gbi_meta_facts *f, gb_meta *m) {
  m->energy.status = f->energy;
  snprintf(m->energy.reason, sizeof m->energy.reason, "%s", f->energy_reason);
  if (!f->rapl)
    return;
  m->energy.has_source = true;
  gb_str_copy(m->energy.source, sizeof m->energy.source, gb_rapl_source(f->rapl));
  m->energy.has_cross = f->cross != NULL;
  gb_str_copy(m->energy.cross_check, sizeof m->energy.cross_check,
              f->cross ? gb_rapl_source(f->cross) : "");
  size_t root_len = strlen(gb_rapl_root(f->rapl));
  for (size_t i = 0; i < gb_rapl_count(f->rapl) && i < GB_META_MAX_ZONES; i++) {
    const gb_rapl_zone *z = gb_rapl_zone_at(f->rapl, i);
    gb_meta_zone *mz = &m->energy.zones[m->energy.n_zones++];
    const char *rel = strncmp(z->path, gb_rapl_root(f->rapl), root_len) == 0
                          ? z->path + root_len + (z->path[root_len] == '/')
                          : z->path;
    gb_str_copy(mz->name, sizeof mz->name, z->name);
    gb_str_copy(mz->path, sizeof mz->path, rel);
    mz->kind = z->kind == GB_RAPL_DRAM ? GB_META_ZONE_DRAM : GB_META_ZONE_PACKAGE;
    mz->socket = z->socket;
    mz->max_energy_range_uj = z->max_energy_range_uj;
  }
}

static void machine_to_meta(const gbi_meta_facts *f, gb_meta *m) {
  const gb_machine_info *i = f->info;
  m->machine.has_label = true;
  gb_str_copy(m->machine.label, sizeof m->machine.label, f->label);
  snprintf(m->machine.cpu_model, sizeof m->machine.cpu_model, "%s",
           i->has_cpu_model ? i->cpu_model : "unknown");
  snprintf(m->machine.kernel, sizeof m->machine.kernel, "%s",
           i->has_kernel ? i->kernel : "unknown");
  m->machine.has_governor = i->has_governor;
  gb_str_copy(m->machine.governor, sizeof m->machine.governor, i->governor);
  m->machine.has_turbo = i->turbo != GB_TURBO_UNKNOWN;
  snprintf(m->machine.turbo, sizeof m->machine.turbo, "%s (%s)",
           i->turbo == GB_TURBO_ON ? "on" : "off", i->turbo_source);
  m->machine.cpus_online = f->cpus_online;
}

_Static_assert(sizeof((gb_meta *)0)->pinning.cpus >= GB_PIN_LIST_MAX,
               "meta.json's CPU list holds any list of pinned CPUs");

static int pinning_to_meta(const gbi_meta_facts *f, gb_meta *m, gb_err *err) {
  const gb_pin_choice *pin = f->pin;
  /* Never runs out of room (the assertion above). */
  int rc = gb_pin_format_cpus(pin->cpus, pin->ncpus, m->pinning.cpus, sizeof m->pinning.cpus);
  if (rc < 0)
    return gb_err_set(err, -rc, "the list of %zu pinned CPUs does not fit in meta.json",
                      pin->ncpus);
  m->pinning.rule_held = pin->rule_held;
  snprintf(m->pinning.reason, sizeof m->pinning.reason, "%s%s%s", pin->reason,
           f->binding->mem_bound ? "" : "; memory not bound: ",
           f->binding->mem_bound ? "" : f->binding->mem_note);
  m->pinning.has_numa_node = pin->numa_node >= 0;
  m->pinning.numa_node = pin->numa_node >= 0 ? (uint64_t)pin->numa_node : 0;
  m->pinning.memory_bound = f->binding->mem_bound;
  return 0;
}

/* What of the harness's environment could have changed a runtime's speed,
 * had the workers got it (they get gb_workerenv only); a value too long for
 * the records is cut and ends in "...". */
static void harness_env_to_meta(gb_meta *m) {
  m->has_harness_env = true;
  for (char **e = environ; *e && m->n_harness_env < GB_META_MAX_ENV; e++) {
    size_t name_len = strcspn(*e, "=");
    if (!(*e)[name_len] || name_len == 0 || name_len >= GB_META_NAME_MAX ||
        !gb_workerenv_affects_speed(*e))
      continue;
    __typeof__(m->harness_env[0]) *v = &m->harness_env[m->n_harness_env++];
    memcpy(v->name, *e, name_len);
    v->name[name_len] = '\0';
    const char *value = *e + name_len + 1;
    if (strlen(value) < sizeof v->value)
      memcpy(v->value, value, strlen(value) + 1);
    else
      snprintf(v->value, sizeof v->value, "%.*s...", (int)sizeof v->value - 4, value);
  }
}

/* How energy_uj is read and how the workers are started: both differ between
 * a harness under sudo, one started by root, and one granted read access. */
static void describe_access(const gbi_campaign *c, char *buf, size_t len) {
  bool drops = gb_privilege_drops(&c->owner);
  if (geteuid() != 0)
    snprintf(buf, len,
             "access: unprivileged (uid %u; energy_uj readable without root)\n"
             "spawner: clone(CLONE_VM|CLONE_VFORK) + execve, workers keep the harness's uid\n",
             (unsigned)geteuid());
  else if (drops)
    snprintf(buf, len,
             "access: sudo (harness as root, workers as uid %u gid %u)\n"
             "spawner: clone(CLONE_VM|CLONE_VFORK), drop to uid %u, then execve\n",
             (unsigned)c->owner.uid, (unsigned)c->owner.gid, (unsigned)c->owner.uid);
  else
    snprintf(buf, len,
             "access: root without SUDO_UID (workers run as root)\n"
             "spawner: clone(CLONE_VM|CLONE_VFORK) + execve, workers keep uid 0\n");
}

/* Which way the counters were read (energy_ways.h), and what checked them. */
static void describe_energy_way(const gbi_campaign *c, char *buf, size_t len) {
  if (!c->rapl)
    snprintf(buf, len, "energy: not read (%s)\n", gb_rec_energy_name(c->energy));
  else if (c->cross)
    snprintf(buf, len, "energy: %s (%s), every window cross-checked against %s (%s)\n",
             gb_rapl_source(c->rapl), gb_rapl_root(c->rapl), gb_rapl_source(c->cross),
             gb_rapl_root(c->cross));
  else
    snprintf(buf, len, "energy: %s (%s), not cross-checked\n", gb_rapl_source(c->rapl),
             gb_rapl_root(c->rapl));
}

/* meta.json's access and spawner: the first words of describe_access. */
static void access_to_meta(const gbi_meta_facts *f, gb_meta *m) {
  bool drops = gb_privilege_drops(f->owner);
  m->has_access = true;
  gb_str_copy(m->access, sizeof m->access,
              geteuid() != 0 ? "unprivileged"
              : drops        ? "sudo"
                             : "root");
  snprintf(m->spawner, sizeof m->spawner, "clone(CLONE_VM|CLONE_VFORK)%s, execve",
           geteuid() == 0 && drops ? ", drop to the sudo user" : "");
}

/* The command as typed, binary first: "greenbench run ..." from the
 * command line (whose argv starts at the subcommand), "greenbench-suite ..."
 * from the suite. */
static int command_to_meta(const gbi_meta_facts *f, gb_meta *m, gb_err *err) {
  size_t skip = f->argc > 0 && strcmp(f->argv[0], "run") == 0 ? 1 : 0;
  const char **argv = calloc(f->argc + 1, sizeof *argv);
  if (!argv)
    return gb_err_set(err, ENOMEM, "out of memory for the command");
  if (skip)
    argv[0] = "greenbench";
  memcpy(argv + skip, f->argv, f->argc * sizeof *argv);
  int rc = gb_meta_set_command(m, f->argc + skip, argv, err);
  free(argv);
  return rc;
}

int gbi_meta_fill(gb_meta *m, const gb_settings *s, const gb_plan *p, const gbi_meta_facts *f,
                  gb_err *err) {
  int rc = command_to_meta(f, m, err);
  if (rc < 0)
    return rc;
  snprintf(m->tool_version, sizeof m->tool_version, "%s", GB_VERSION);
  m->settings = *s;
  gb_str_copy(m->python, sizeof m->python, f->workers->python);
  gb_str_copy(m->node, sizeof m->node, f->workers->node);
  m->plan.configurations = p->nconfigs;
  m->plan.sort_runs = (uint64_t)p->nconfigs * s->runs;
  m->plan.startup_runs = (uint64_t)p->nstartups * s->runs;
  m->plan.measured_runs = p->nruns;
  energy_to_meta(f, m);
  machine_to_meta(f, m);
  if ((rc = pinning_to_meta(f, m, err)) < 0)
    return rc;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    snprintf(m->runtimes[l], sizeof m->runtimes[l], "%s", f->runtimes[l]);
  harness_env_to_meta(m);
  access_to_meta(f, m);
  gb_str_copy(m->git_commit, sizeof m->git_commit, f->git_commit);
  gb_str_copy(m->started_at, sizeof m->started_at, f->started_at);
  return 0;
}

int gbi_campaign_meta_new(gbi_campaign *c, gb_err *err) {
  char commit[GB_META_NAME_MAX], now[32];
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  gbi_campaign_git_commit(c->o->source_dir, &c->owner, commit, sizeof commit);
  utc_now(now, sizeof now);
  const gbi_meta_facts f = {.argc = c->o->argc,
                            .argv = (const char *const *)c->o->argv,
                            .workers = &c->o->workers,
                            .energy = c->energy,
                            .energy_reason = c->energy_reason,
                            .rapl = c->rapl,
                            .cross = c->cross,
                            .info = &c->info,
                            .label = c->label,
                            .cpus_online = online > 0 ? (uint64_t)online : 0,
                            .pin = &c->pin,
                            .binding = &c->binding,
                            .runtimes = (const char(*)[GB_META_TEXT_MAX])c->runtimes,
                            .owner = &c->owner,
                            .git_commit = commit,
                            .started_at = now};
  int rc = gbi_meta_fill(&c->meta, &c->s, &c->plan, &f, err);
  return rc < 0 ? rc : gbi_recorder_write_meta(c->rec, &c->meta, err);
}

int gbi_campaign_meta_calibration(gbi_campaign *c, gb_err *err) {
  return gbi_recorder_write_meta(c->rec, &c->meta, err);
}

int gbi_campaign_meta_finish(gbi_campaign *c, bool completed, gb_err *err) {
  c->meta.runs_done = c->runs_done;
  c->meta.completed = completed;
  c->meta.has_finished_at = completed;
  if (completed)
    utc_now(c->meta.finished_at, sizeof c->meta.finished_at);
  return gbi_recorder_write_meta(c->rec, &c->meta, err);
}

int gbi_campaign_meta_checkpoint(gbi_campaign *c, gb_err *err) {
  uint64_t every = c->o->checkpoint_ns ? c->o->checkpoint_ns : GB_CAMPAIGN_CHECKPOINT_NS;
  uint64_t now = gb_monotonic_raw_ns();
  if (now - c->checkpoint_at < every)
    return 0;
  c->checkpoint_at = now;
  c->meta.runs_done = c->runs_done;
  return gbi_recorder_write_meta(c->rec, &c->meta, err);
}

#ifndef GB_BUILD_COMPILER
#define GB_BUILD_COMPILER "unknown"
#endif
#ifndef GB_BUILD_TYPE
#define GB_BUILD_TYPE "unknown"
#endif
#ifndef GB_BUILD_C_FLAGS
#define GB_BUILD_C_FLAGS "unknown"
#endif
#ifndef GB_BUILD_WORKER_C_FLAGS
#define GB_BUILD_WORKER_C_FLAGS "unknown"
#endif

int gbi_campaign_write_environment(gbi_campaign *c, gb_err *err) {
  static char lscpu[32768], uname_a[1024], facts[8192], text[48000];
  char *lscpu_argv[] = {"/usr/bin/lscpu", NULL};
  char *uname_argv[] = {"/usr/bin/uname", "-a", NULL};
  char sampler[512] = "", access_line[512], way[GB_RAPL_PATH_MAX * 2 + 128];
  bool powercap = c->rapl && strcmp(gb_rapl_source(c->rapl), "powercap") == 0;
  capture_command(lscpu_argv, NULL, c->workerenv.envp, lscpu, sizeof lscpu);
  capture_command(uname_argv, NULL, c->workerenv.envp, uname_a, sizeof uname_a);
  /* A description cut to its buffer (-ENOSPC, still terminated) is kept and
   * says so, so that no reader takes it for the whole. */
  const char *sampler_cut = gb_machine_sampler_describe(c->machine, sampler, sizeof sampler) < 0
                                ? " (cut short)"
                                : "";
  const char *facts_cut =
      gb_machine_facts_describe(c->o->machine_root, powercap ? gb_rapl_root(c->rapl) : NULL,
                                c->pin.ncpus ? c->pin.cpus[0] : 0, facts, sizeof facts) < 0
          ? "\n(cut short)\n"
          : "";
  describe_access(c, access_line, sizeof access_line);
  describe_energy_way(c, way, sizeof way);
  snprintf(text, sizeof text,
           "# uname -a\n%s\n# git commit\n%s\n\n"
           "# build\ncompiler: %s\nCMAKE_BUILD_TYPE: %s\nC flags: %s\n"
           "C worker flags: %s (the last -O wins)\n\n"
           "# access\n%s%s\n# machine\n%s%s\n"
           "# per-run machine readings\n%s%s\n\n# lscpu\n%s",
           uname_a, c->meta.git_commit, GB_BUILD_COMPILER, GB_BUILD_TYPE, GB_BUILD_C_FLAGS,
           GB_BUILD_WORKER_C_FLAGS, access_line, way, facts, facts_cut, sampler, sampler_cut,
           lscpu);
  return gbi_recorder_write_text(c->rec, "environment.txt", text, err);
}
