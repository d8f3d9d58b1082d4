/* `greenbench check`: can this machine measure energy for the study, and if
 * not, why not. Every line is a finding; the last is the verdict. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/cli.h"
#include "greenbench/energy_probe.h"
#include "greenbench/findings.h"
#include "greenbench/machine.h"
#include "greenbench/numparse.h"
#include "greenbench/options.h"
#include "greenbench/pin.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"
#include "greenbench/workerenv.h"

#include "cli_internal.h"

typedef struct {
  const char *cpus, *python, *node;
  bool json;
} check_args;

static const char usage[] =
    "usage: greenbench check [--cpus LIST] [--python PATH] [--node PATH] [--json]\n"
    "  --cpus LIST    check pinning to these CPUs instead of the rule's choice\n"
    "  --python PATH  Python interpreter to check (default: /usr/bin/python3)\n"
    "  --node PATH    Node.js binary to check (default: the one found at build time)\n"
    "  --json         the findings as one JSON object (share/greenbench/schema/\n"
    "                 check.schema.json) instead of lines\n"
    "  --version      print greenbench's version and git commit\n"
    "  --help         show this help\n"
    "Says whether this machine can measure energy for the study and why not:\n"
    "each way of reading the counters, powercap (GREENBENCH_POWERCAP_ROOT overrides\n"
    "/sys/class/powercap) and perf_event (GREENBENCH_PERF_POWER_DIR overrides\n"
    "/sys/bus/event_source/devices/power; both test hooks, refused under sudo), the\n"
    "RAPL zones (Intel intel-rapl-tpmi:N zones are named, not read), the CPUs\n"
    "the study would pin, governor, turbo, and the runtimes it would use\n"
    "(GREENBENCH_LIBEXEC_DIR overrides the workers' folder).\n"
    "Exit 0 when the study can run with energy (counters readable and moving, every\n"
    "worker runs), 1 when it cannot, 2 on bad arguments.\n";

enum { CPUS, PYTHON, NODE, JSON };
static const gb_opt options[] = {
    {"--cpus", NULL, GB_OPT_VALUE, CPUS},
    {"--python", NULL, GB_OPT_VALUE, PYTHON},
    {"--node", NULL, GB_OPT_VALUE, NODE},
    {"--json", NULL, 0, JSON},
    {NULL, NULL, 0, 0},
};

static int set_option(void *ctx, int id, const char *value, gb_err *err) {
  check_args *a = ctx;
  (void)err;
  if (id == JSON)
    a->json = true;
  else
    *(id == CPUS ? &a->cpus : id == PYTHON ? &a->python : &a->node) = value;
  return 0;
}

/* The options (greenbench/options.h); no positional argument. */
static const cli_command command = {"check", usage, options, set_option, NULL};

/* Every value checked before anything is probed: a bad one exits 2, a
 * topology that cannot be read (to check --cpus against) exits 1. */
static int validate(const check_args *a, FILE *err) {
  const char *names[] = {"--python", "--node"}, *paths[] = {a->python, a->node};
  gb_err e;
  for (int i = 0; i < 2; i++)
    if (paths[i] && cli_check_path(names[i], paths[i], false, &e) < 0)
      return cli_fail(&command, err, 2, e.msg);
  if (!a->cpus)
    return 0;
  hwloc_topology_t topo;
  gb_pin_choice pin;
  if (gb_pin_topology_load(NULL, &topo, &e) < 0)
    return cli_fail(&command, err, 1, e.msg);
  int rc = gb_pin_override(topo, a->cpus, &pin, &e);
  hwloc_topology_destroy(topo);
  return rc < 0 ? cli_fail(&command, err, 2, e.msg) : 0;
}

static void check_pinning(const check_args *a, gb_findings *f) {
  hwloc_topology_t topo;
  gb_pin_choice pin;
  gb_err err;
  if (gb_pin_topology_load(NULL, &topo, &err) < 0) {
    gb_findings_add(f, GB_FINDING_INFO, "pinning", "cannot read the topology: %s", err.msg);
    return;
  }
  int rc =
      a->cpus ? gb_pin_override(topo, a->cpus, &pin, &err) : gb_pin_choose(topo, &pin, &err);
  if (rc < 0) {
    gb_findings_add(f, GB_FINDING_INFO, "pinning", "%s", err.msg);
  } else {
    char cpus[GB_PIN_LIST_MAX];
    if (gb_pin_format_cpus(pin.cpus, pin.ncpus, cpus, sizeof cpus) < 0)
      snprintf(cpus, sizeof cpus, "(%zu CPUs)", pin.ncpus);
    gb_findings_add(f, GB_FINDING_INFO, "pinning", "CPUs %s; the rule %s: %s", cpus,
                    pin.rule_held ? "holds" : "does not hold", pin.reason);
    gb_machine_info info;
    if (gb_machine_info_read(NULL, pin.cpus, pin.ncpus, &info, &err) == 0) {
      gb_findings_add(f, GB_FINDING_INFO, "cpu", "%s",
                      info.has_cpu_model ? info.cpu_model : "unknown");
      gb_findings_add(f, GB_FINDING_INFO, "kernel", "%s",
                      info.has_kernel ? info.kernel : "unknown");
      gb_findings_add(f, GB_FINDING_INFO, "governor", "%s",
                      info.has_governor ? info.governor : "unknown");
      gb_findings_add(f, GB_FINDING_INFO, "turbo", "%s%s%s%s",
                      info.turbo == GB_TURBO_ON    ? "on"
                      : info.turbo == GB_TURBO_OFF ? "off"
                                                   : "unknown",
                      info.turbo_source[0] ? " (" : "", info.turbo_source,
                      info.turbo_source[0] ? ")" : "");
    }
  }
  hwloc_topology_destroy(topo);
}

/* The oldest Node.js the Node.js worker is tested with (package.json's
 * "engines"); Debian 12's nodejs is 18. */
#define NODE_TESTED_MAJOR 20

/* A warning line when runtime ("Node.js 18.20.4") is older than that. */
static void warn_old_node(const char *runtime, gb_findings *f) {
  static const char prefix[] = "Node.js ";
  const char *p = runtime + sizeof prefix - 1;
  uint64_t major;
  if (strncmp(runtime, prefix, sizeof prefix - 1) != 0 ||
      gb_scan_u64(&p, 10, UINT32_MAX, &major) < 0 || major >= NODE_TESTED_MAJOR)
    return;
  gb_findings_add(f, GB_FINDING_INFO, "node",
                  "warning: %s is older than Node.js %d, the oldest the Node.js worker is "
                  "tested with; install Node.js %d or later (for example from NodeSource) and "
                  "pass --node PATH, or measure without it (--languages c,python)",
                  runtime, NODE_TESTED_MAJOR, NODE_TESTED_MAJOR);
}

/* Whether every language's worker starts and answers. */
/* The workers start as `run` starts them (gb_workerenv_for_caller): under
 * sudo as the user who typed the command, never as root, with the minimal
 * environment, so a path the user cannot execute is refused the same way. */
static bool check_runtimes(const gb_workers *w, const gb_privilege *owner,
                           const gb_workerenv *we, gb_findings *f, char *why, size_t len) {
  bool all = true;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    gb_job job = {GB_RUN_STARTUP, l, GB_STARTUP_ALGORITHM, GB_RANDOM, 1, GB_DEFAULT_SEED, 1, 1};
    gb_measure_env env = {.workers = w, .timeout_ns = 30000000000ull};
    gb_workerenv_apply(owner, we, &env);
    gb_measurement m;
    gb_err err;
    const char *path = l == GB_C ? w->worker_c : l == GB_PYTHON ? w->python : w->node;
    const char *name = gb_language_name(l);
    gb_excerpt_buf shown;
    bool ran = gb_measure(&env, &job, &m, &err) == 0;
    if (ran && m.status == GB_REC_STATUS_OK) {
      gb_findings_add(f, GB_FINDING_OK, name, "%s (%s)", m.line.runtime, path);
      warn_old_node(m.line.runtime, f);
      continue;
    }
    gb_findings_add(f, GB_FINDING_BAD, name, "%s: does not run: %s", path,
                    ran ? m.message : err.msg);
    if (all)
      snprintf(why, len, "the %s worker does not run (%s)", name, gb_excerpt(&shown, path));
    all = false;
  }
  return all;
}

/* Every way of reading the counters, probed as the campaign probes them
 * (gb_energy_probe), so that check and run never disagree. */
static bool check_energy(gb_findings *f, char *why, size_t len) {
  gb_energy_ways ways;
  gb_energy_ways_open(NULL, NULL, &ways);
  bool ok = gb_energy_probe(&ways, NULL, f, why, len);
  gb_energy_ways_close(&ways);
  return ok;
}

int gb_cli_check(int argc, char **argv, const gb_cli_env *env) {
  check_args a = {0};
  int rc = cli_start(&command, &a, argc, argv, env->out, env->err);
  if (rc >= 0)
    return rc;
  if ((rc = validate(&a, env->err)))
    return rc;
  if (env->workers_missing)
    return cli_fail(&command, env->err, 1, env->workers_missing);
  gb_privilege owner;
  gb_workerenv we;
  gb_err err;
  if (gb_workerenv_for_caller(&owner, &we, &err) < 0)
    return cli_fail(&command, env->err, 2, err.msg);
  gb_workers w = env->workers;
  if (a.python)
    w.python = a.python;
  if (a.node)
    w.node = a.node;
  /* The findings as they come on env->out, or, with --json, as one
   * object once all are in. */
  gb_findings f;
  gb_findings_init(&f, a.json ? NULL : env->out);
  char why[512] = "", workers_why[512] = "";
  bool energy = check_energy(&f, why, sizeof why);
  check_pinning(&a, &f);
  bool workers = check_runtimes(&w, &owner, &we, &f, workers_why, sizeof workers_why);
  if (!workers)
    gb_findings_add(&f, GB_FINDING_BAD, "verdict", "the study cannot run here: %s",
                    workers_why);
  else if (energy)
    gb_findings_add(&f, GB_FINDING_OK, "verdict",
                    "this machine can measure energy for the study");
  else
    gb_findings_add(&f, GB_FINDING_BAD, "verdict",
                    "this machine cannot measure energy for the study: %s. Time can still be "
                    "measured with --energy off or auto; see docs/bare-metal.md",
                    why);
  rc = energy && workers ? 0 : 1;
  if (a.json)
    rc = cli_check_json(&f, energy, workers, rc, env->out, env->err);
  gb_findings_free(&f);
  return rc;
}
