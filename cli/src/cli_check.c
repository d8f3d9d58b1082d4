/* `greenbench check`: can this machine measure energy for the study, and if
 * not, why not. Every line is a finding; the last is the verdict. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/cli.h"
#include "greenbench/machine.h"
#include "greenbench/numparse.h"
#include "greenbench/options.h"
#include "greenbench/pin.h"
#include "greenbench/rapl.h"
#include "greenbench/sampler.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"
#include "greenbench/workerenv.h"

#include "cli_args.h"
#include "cli_check_json.h"
#include "cli_check_ways.h"

/* Long enough for a package counter to move several times (it updates about
 * once a millisecond), short enough to run often; read every millisecond so
 * that a standstill is measured to about that. */
#define CHECK_PROBE_NS 500000000ull
#define CHECK_STEP_NS 1000000ull

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

/* One line per zone: its range, how soon it can wrap, and what the probe
 * saw of it. */
static void print_zone(FILE *out, const gb_rapl_zone *z, const gb_rapl_watched *w) {
  char wrap[GB_DURATION_TEXT_SIZE], still[GB_DURATION_TEXT_SIZE];
  gb_duration_text(gb_sampler_wrap_ns(z->max_energy_range_uj, GB_SAMPLER_DEFAULT_MAX_POWER_W),
                   wrap, sizeof wrap);
  gb_duration_text(w->longest_still_ns, still, sizeof still);
  fprintf(out,
          "  %s (%s, socket %u): max_energy_range_uj %" PRIu64
          ", a wrap every %s at %u W; over 0.5 s: %s, longest standstill %s\n",
          z->name, z->id, z->socket, z->max_energy_range_uj, wrap,
          GB_SAMPLER_DEFAULT_MAX_POWER_W, w->moved ? "moved" : "did not move", still);
}

/* The first package zone that did not move (still false) or stood still for
 * the study's stall limit (still true), or -1. */
static int first_package(const gb_rapl *r, const gb_rapl_watched *w, bool still) {
  for (size_t i = 0; i < gb_rapl_count(r); i++)
    if (gb_rapl_zone_at(r, i)->kind == GB_RAPL_PACKAGE &&
        (still ? w[i].longest_still_ns >= GB_SAMPLER_DEFAULT_STALL_NS : !w[i].moved))
      return (int)i;
  return -1;
}

/* What the probe says of the study's chances: frozen, standing still, or a
 * range the sampler cannot follow. Returns false with the reason in why
 * (written into the emptied why, cut to len like every message here). */
static bool judge(FILE *out, gb_rapl *r, const gb_rapl_watched *w, char *why, size_t len) {
  int frozen = first_package(r, w, false), still = first_package(r, w, true);
  uint64_t period;
  gb_err err;
  why[0] = '\0';
  if (frozen >= 0)
    gb_str_append(
        why, len,
        "energy unavailable: %s (%s/energy_uj) did not change in 500 ms; the RAPL counters "
        "are frozen (usual in virtual machines)",
        gb_rapl_zone_at(r, (size_t)frozen)->name, gb_rapl_zone_at(r, (size_t)frozen)->path);
  fprintf(out, "  counters over 0.5 s: %s\n", frozen >= 0 ? why : "moving");
  bool fit = gb_sampler_fit(r, NULL, &period, &err) == 0;
  char every[GB_DURATION_TEXT_SIZE];
  gb_duration_text(fit ? period : 0, every, sizeof every);
  if (fit)
    fprintf(out, "  sampling: every %s, at least twice per wrap at %u W\n", every,
            GB_SAMPLER_DEFAULT_MAX_POWER_W);
  else
    fprintf(out, "  sampling: refused: %s\n", err.msg);
  if (frozen < 0 && still >= 0)
    gb_str_append(
        why, len,
        "%s (%s/energy_uj) stood still for %" PRIu64 " ms during the probe; the study "
        "marks every window touching a standstill of %u ms energy_stalled",
        gb_rapl_zone_at(r, (size_t)still)->name, gb_rapl_zone_at(r, (size_t)still)->path,
        w[still].longest_still_ns / 1000000u, GB_SAMPLER_DEFAULT_STALL_NS / 1000000u);
  if (frozen < 0 && still >= 0)
    fprintf(out, "  standstill: %s\n", why);
  if (frozen < 0 && still < 0 && !fit)
    gb_str_copy(why, len, err.msg);
  return frozen < 0 && still < 0 && fit;
}

/* Zones, readable, moving, steady and within the sampler's reach: the
 * energy verdict. */
/* Intel Xeon 6's TPMI zones, named so that nobody takes them for read. */
static void check_tpmi(FILE *out) {
  char zones[1024];
  if (gb_rapl_tpmi_zones(NULL, zones, sizeof zones) > 0)
    fprintf(out,
            "  tpmi: %s present, not read: greenbench reads only intel-rapl:N package "
            "zones and their dram subzones\n",
            zones);
}

static bool check_energy(FILE *out, char *why, size_t len) {
  gb_energy_ways ways;
  gb_err err;
  gb_rapl_watched w[GB_RAPL_MAX_ZONES];
  cli_check_ways(out, &ways);
  gb_rapl *r = gb_energy_ways_main(&ways);
  if (!r) {
    gb_energy_ways_why(&ways, why, len);
    gb_str_put_line(out, "energy: unavailable: ", why);
    check_tpmi(out);
    return false;
  }
  fprintf(out, "energy: %zu RAPL zone(s) under %s (%s), all readable%s\n", gb_rapl_count(r),
          gb_rapl_root(r), gb_rapl_source(r),
          gb_rapl_has_dram(r) ? "" : " (no DRAM zone: package only, as on AMD)");
  check_tpmi(out);
  bool ok = gb_rapl_watch(r, CHECK_PROBE_NS, CHECK_STEP_NS, w, &err) == 0;
  if (!ok) {
    fprintf(out, "  counters over 0.5 s: %s\n", err.msg);
    gb_str_copy(why, len, err.msg);
  }
  for (size_t i = 0; ok && i < gb_rapl_count(r); i++)
    print_zone(out, gb_rapl_zone_at(r, i), &w[i]);
  ok = ok && judge(out, r, w, why, len);
  gb_energy_ways_close(&ways);
  return ok;
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
    char cpus[GB_PIN_LIST_MAX];
    if (gb_pin_format_cpus(pin.cpus, pin.ncpus, cpus, sizeof cpus) < 0)
      snprintf(cpus, sizeof cpus, "(%zu CPUs)", pin.ncpus);
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

/* The oldest Node.js the Node.js worker is tested with (package.json's
 * "engines"); Debian 12's nodejs is 18. */
#define NODE_TESTED_MAJOR 20

/* A warning line when runtime ("Node.js 18.20.4") is older than that. */
static void warn_old_node(const char *runtime, FILE *out) {
  static const char prefix[] = "Node.js ";
  const char *p = runtime + sizeof prefix - 1;
  uint64_t major;
  if (strncmp(runtime, prefix, sizeof prefix - 1) != 0 ||
      gb_scan_u64(&p, 10, UINT32_MAX, &major) < 0 || major >= NODE_TESTED_MAJOR)
    return;
  fprintf(out,
          "node: warning: %s is older than Node.js %d, the oldest the Node.js worker is "
          "tested with; install Node.js %d or later (for example from NodeSource) and pass "
          "--node PATH, or measure without it (--languages c,python)\n",
          runtime, NODE_TESTED_MAJOR, NODE_TESTED_MAJOR);
}

/* Whether every language's worker starts and answers. */
/* The workers start as `run` starts them (gb_workerenv_for_caller): under
 * sudo as the user who typed the command, never as root, with the minimal
 * environment, so a path the user cannot execute is refused the same way. */
static bool check_runtimes(const gb_workers *w, const gb_privilege *owner,
                           const gb_workerenv *we, FILE *out, char *why, size_t len) {
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
    /* The path whole (validate bounds it), its control bytes escaped. */
    char line[PATH_MAX + sizeof(gb_err) + 64];
    bool ran = gb_measure(&env, &job, &m, &err) == 0;
    if (ran && m.status == GB_REC_STATUS_OK) {
      snprintf(line, sizeof line, "%s: %s (%s)", name, m.line.runtime, path);
      gb_str_put_line(out, "", line);
      warn_old_node(m.line.runtime, out);
      continue;
    }
    snprintf(line, sizeof line, "%s: %s: does not run: %s", name, path,
             ran ? m.message : err.msg);
    gb_str_put_line(out, "", line);
    if (all)
      snprintf(why, len, "the %s worker does not run (%s)", name, gb_excerpt(&shown, path));
    all = false;
  }
  return all;
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
  /* --json: the lines go to memory, and their JSON form to env->out. */
  char *text = NULL;
  size_t text_len = 0;
  FILE *out = a.json ? open_memstream(&text, &text_len) : env->out;
  if (!out)
    return cli_fail(&command, env->err, 1, "--json: out of memory");
  char why[512] = "", workers_why[512] = "";
  bool energy = check_energy(out, why, sizeof why);
  check_pinning(&a, out);
  bool workers = check_runtimes(&w, &owner, &we, out, workers_why, sizeof workers_why);
  if (!workers)
    fprintf(out, "verdict: the study cannot run here: %s\n", workers_why);
  else if (energy)
    fprintf(out, "verdict: this machine can measure energy for the study\n");
  else
    fprintf(out,
            "verdict: this machine cannot measure energy for the study: %s. Time can still be "
            "measured with --energy off or auto; see docs/bare-metal.md\n",
            why);
  rc = energy && workers ? 0 : 1;
  if (a.json) {
    rc = fclose(out) == 0 ? cli_check_json(text, energy, workers, rc, env->out, env->err) : 1;
    free(text);
  }
  return rc;
}
