/* `greenbench check`: can this machine measure energy for the study, and if
 * not, why not. Every line is a finding; the last is the verdict. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "greenbench/cli.h"
#include "greenbench/machine.h"
#include "greenbench/pin.h"
#include "greenbench/rapl.h"
#include "greenbench/text.h"

/* Long enough for a package counter to move several times (it updates about
 * once a millisecond), short enough to run often. */
#define CHECK_PROBE_NS 500000000ull

typedef struct {
  const char *cpus, *python, *node;
  bool help;
} check_args;

static const char usage[] =
    "usage: greenbench check [--cpus LIST] [--python PATH] [--node PATH]\n"
    "Says whether this machine can measure energy for the study and why not:\n"
    "RAPL zones (GREENBENCH_POWERCAP_ROOT overrides /sys/class/powercap), the CPUs\n"
    "the study would pin, governor, turbo, and the runtimes it would use.\n"
    "Exit 0 when the study can run with energy (counters readable and moving, every\n"
    "worker runs), 1 when it cannot, 2 on bad arguments.\n";

static int parse(int argc, char **argv, check_args *a, FILE *err) {
  for (int i = 1; i < argc; i++) {
    const char **slot = !strcmp(argv[i], "--cpus")     ? &a->cpus
                        : !strcmp(argv[i], "--python") ? &a->python
                        : !strcmp(argv[i], "--node")   ? &a->node
                                                       : NULL;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      a->help = true;
    } else if (!slot) {
      fprintf(err, "greenbench: error: unknown option '%s' (see greenbench check --help)\n",
              argv[i]);
      return 2;
    } else if (i + 1 >= argc || *slot) {
      fprintf(err, "greenbench: error: option '%s' %s\n", argv[i],
              *slot ? "given twice" : "needs a value");
      return 2;
    } else {
      *slot = argv[++i];
    }
  }
  return 0;
}

/* Zones, readable and moving: the energy verdict. */
static bool check_energy(FILE *out, char *why, size_t len) {
  gb_rapl *r;
  gb_err err;
  if (gb_rapl_open(NULL, &r, &err) < 0) {
    fprintf(out, "energy: unavailable: %s\n", err.msg);
    gb_str_copy(why, len, err.msg);
    return false;
  }
  fprintf(out, "energy: %zu RAPL zone(s) under %s, all readable%s\n", gb_rapl_count(r),
          gb_rapl_root(r),
          gb_rapl_has_dram(r) ? "" : " (no DRAM zone: package only, as on AMD)");
  for (size_t i = 0; i < gb_rapl_count(r); i++) {
    const gb_rapl_zone *z = gb_rapl_zone_at(r, i);
    fprintf(out, "  %s (%s, socket %u): max_energy_range_uj %" PRIu64 "\n", z->name, z->id,
            z->socket, z->max_energy_range_uj);
  }
  bool moving = gb_rapl_probe(r, CHECK_PROBE_NS, &err) == 0;
  fprintf(out, "  counters over 0.5 s: %s\n", moving ? "moving" : err.msg);
  if (!moving)
    gb_str_copy(why, len, err.msg);
  gb_rapl_close(r);
  return moving;
}

static void check_pinning(const check_args *a, FILE *out) {
  hwloc_topology_t topo;
  gb_pin_choice pin;
  gb_err err;
  if (gb_pin_topology_load(NULL, &topo, &err) < 0) {
    fprintf(out, "pinning: cannot read the topology: %s\n", err.msg);
    return;
  }
  int rc =
      a->cpus ? gb_pin_override(topo, a->cpus, &pin, &err) : gb_pin_choose(topo, &pin, &err);
  if (rc < 0) {
    fprintf(out, "pinning: %s\n", err.msg);
  } else {
    char cpus[256];
    gb_pin_format_cpus(pin.cpus, pin.ncpus, cpus, sizeof cpus);
    fprintf(out, "pinning: CPUs %s; the rule %s: %s\n", cpus,
            pin.rule_held ? "holds" : "does not hold", pin.reason);
    gb_machine_info info;
    if (gb_machine_info_read(NULL, pin.cpus, pin.ncpus, &info, &err) == 0) {
      fprintf(out, "cpu: %s\nkernel: %s\n", info.has_cpu_model ? info.cpu_model : "unknown",
              info.has_kernel ? info.kernel : "unknown");
      fprintf(
          out, "governor: %s\nturbo: %s%s%s%s\n", info.has_governor ? info.governor : "unknown",
          info.turbo == GB_TURBO_ON    ? "on"
          : info.turbo == GB_TURBO_OFF ? "off"
                                       : "unknown",
          info.turbo_source[0] ? " (" : "", info.turbo_source, info.turbo_source[0] ? ")" : "");
    }
  }
  hwloc_topology_destroy(topo);
}

/* Whether every language's worker starts and answers. */
static bool check_runtimes(const gb_workers *w, FILE *out, char *why, size_t len) {
  bool all = true;
  for (int l = 0; l < GB_LANGUAGE_COUNT; l++) {
    gb_job job = {GB_RUN_STARTUP,
                  (gb_language)l,
                  GB_STARTUP_ALGORITHM,
                  GB_RANDOM,
                  1,
                  GB_DEFAULT_SEED,
                  1,
                  1};
    gb_measure_env env = {.workers = w, .timeout_ns = 30000000000ull};
    gb_measurement m;
    gb_err err;
    const char *path = l == GB_C ? w->worker_c : l == GB_PYTHON ? w->python : w->node;
    const char *name = gb_language_name((gb_language)l);
    bool ran = gb_measure(&env, &job, &m, &err) == 0;
    if (ran && m.status == GB_REC_STATUS_OK) {
      fprintf(out, "%s: %s (%s)\n", name, m.line.runtime, path);
      continue;
    }
    fprintf(out, "%s: %s: does not run: %s\n", name, path, ran ? m.message : err.msg);
    if (all)
      snprintf(why, len, "the %s worker does not run (%s)", name, path);
    all = false;
  }
  return all;
}

int gb_cli_check(int argc, char **argv, const gb_cli_env *env) {
  check_args a = {0};
  int rc = parse(argc, argv, &a, env->err);
  if (rc)
    return rc;
  if (a.help) {
    fputs(usage, env->out);
    return 0;
  }
  gb_workers w = env->workers;
  if (a.python)
    w.python = a.python;
  if (a.node)
    w.node = a.node;
  char why[512] = "", workers_why[512] = "";
  bool energy = check_energy(env->out, why, sizeof why);
  check_pinning(&a, env->out);
  bool workers = check_runtimes(&w, env->out, workers_why, sizeof workers_why);
  if (!workers)
    fprintf(env->out, "verdict: the study cannot run here: %s\n", workers_why);
  else if (energy)
    fprintf(env->out, "verdict: this machine can measure energy for the study\n");
  else
    fprintf(env->out,
            "verdict: this machine cannot measure energy for the study: %s. Time can still be "
            "measured with --energy off or auto; see docs/bare-metal.md\n",
            why);
  return energy && workers ? 0 : 1;
}
