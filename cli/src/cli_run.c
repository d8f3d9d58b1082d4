/* `greenbench run`: parses the study's options (study.md, Reproducing) into
 * campaign options, validates them, and runs or plans the campaign. Parsing
 * and validation are separate steps, as in hyperfine. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "greenbench/campaign.h"
#include "greenbench/cli.h"
#include "greenbench/clock.h"
#include "greenbench/entry.h"
#include "greenbench/estimate.h"
#include "greenbench/meta.h"
#include "greenbench/numparse.h"
#include "greenbench/options.h"
#include "greenbench/pin.h"
#include "greenbench/records.h"
#include "greenbench/select.h"
#include "greenbench/suiterecords.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"

#include "cli_internal.h"

/* meta.json records every integer as its exact digits: any 64-bit seed. */
#define ORDER_SEED_MAX UINT64_MAX

static const char usage[] =
    "usage: greenbench run [options]\n"
    "       greenbench run --suite FILE [--profile P] [--energy E] [numbers] [--out DIR]\n"
    "       greenbench run --resume DIR [--suite FILE]\n"
    "  --suite FILE             measure the programs of a suite file (docs/suites.md)\n"
    "                           instead of the study; takes --profile, --energy, the\n"
    "                           numbers (--runs ... --timeout-s), --order-seed, --cpus,\n"
    "                           --machine-label, --out, --dry-run, --quiet, --resume;\n"
    "                           no study selection\n"
    "  --profile smoke|study    settings to start from (default: study)\n"
    "  --languages LIST         c,python,node (default: all)\n"
    "  --algorithms LIST        bubble,insertion,quick (default: all)\n"
    "  --orders LIST            random,sorted,reversed,nearly (default: all)\n"
    "  --sizes LIST             input sizes (study: 250,500,1000,2000; smoke: 100,200)\n"
    "  --runs N                 measured runs per configuration (study: 30)\n"
    "  --warmups N              warm-up runs per configuration, >= 1 (study: 3)\n"
    "  --target-ms N            shortest sort loop per process (study: 200)\n"
    "  --energy auto|on|off     read RAPL energy (study: on, smoke: auto)\n"
    "  --cpus LIST              pin to these CPUs instead of the rule's choice\n"
    "  --machine-label NAME     the machine's name in the records and JUnit classnames:\n"
    "                           1 to 63 of A-Z a-z 0-9 _ - (default: the host name and\n"
    "                           the CPU model, e.g. node07-intel-xeon-gold-6248)\n"
    "  --seed S                 input seed, 1..4294967295 (default: 2463534242)\n"
    "  --order-seed S           shuffle seed (default: random, recorded)\n"
    "  --timeout-s N            per worker process (default: 60)\n"
    "  --python PATH            Python interpreter (default: /usr/bin/python3)\n"
    "  --node PATH              Node.js binary (default: the one found at build time)\n"
    "  --out DIR                records folder (default: results/PROFILE-UTCTIME)\n"
    "  --resume DIR             continue an interrupted campaign in DIR; a suite\n"
    "                           campaign's suite is DIR/suite.json (--suite FILE, the\n"
    "                           same file, gives {suitedir}, required when it is used)\n"
    "  --dry-run                print the plan and its estimated duration, run nothing;\n"
    "                           refuses an --out the run would refuse (not empty)\n"
    "  --quiet                  no progress output\n"
    "  --version                print greenbench's version and git commit\n"
    "  --help                   show this help\n"
    "Environment: GREENBENCH_LIBEXEC_DIR=DIR, the workers' folder, which holds worker-c,\n"
    "python/worker.py and node/worker.js (default: ../libexec/greenbench from the\n"
    "command's own place, or the build tree).\n"
    "Exit status: 0 done (or planned, with --dry-run), 1 the campaign failed (records\n"
    "kept) or its folder was refused, 2 bad arguments, 130 interrupted (records kept;\n"
    "continue with --resume).\n";

/* The whole-number settings (GB_SETTINGS_NUMBERS), by index. */
enum {
#define INDEX(key, option, lo, hi, profiled) NUMBER_##key,
  GB_SETTINGS_NUMBERS(INDEX)
#undef INDEX
      NUMBERS
};

/* What the command line said, before validation. */
typedef struct {
  const char *profile, *languages, *algorithms, *orders, *sizes, *energy, *cpus, *machine_label,
      *order_seed, *python, *node, *out, *resume, *suite;
  const char *number[NUMBERS]; /* the whole-number settings' values, by index */
  bool dry_run, quiet;
} run_args;

/* A value option's id is the offset of its const char * in run_args; the
 * flags' ids lie beyond every offset. */
enum { DRY_RUN = 10000, QUIET };
static const gb_opt options[] = {
#define V(n, f)                                                                                \
  { n, NULL, GB_OPT_VALUE, (int)offsetof(run_args, f) }
    V("--profile", profile),
    V("--languages", languages),
    V("--algorithms", algorithms),
    V("--orders", orders),
    V("--sizes", sizes),
#define NUMBER(key, option, lo, hi, profiled) V(option, number[NUMBER_##key]),
    GB_SETTINGS_NUMBERS(NUMBER)
#undef NUMBER
        V("--energy", energy),
    V("--cpus", cpus),
    V("--machine-label", machine_label),
    V("--order-seed", order_seed),
    V("--python", python),
    V("--node", node),
    V("--out", out),
    V("--resume", resume),
    V("--suite", suite),
#undef V
    {"--dry-run", NULL, 0, DRY_RUN},
    {"--quiet", NULL, 0, QUIET},
    {NULL, NULL, 0, 0},
};

static const cli_command command;

/* Prints msg as the one error line (cli_fail), with where to read more;
 * returns 2. */
static int bad_msg(const gb_cli_env *env, const char *msg) {
  char line[sizeof(gb_err) + 64];
  snprintf(line, sizeof line, "%s (see greenbench run --help)", msg);
  return cli_fail(&command, env->err, 2, line);
}

/* The same with a user's text a, escaped and cut (gb_excerpt), put into
 * fmt's one %s. */
static int bad(const gb_cli_env *env, const char *fmt, const char *a) {
  char msg[sizeof(gb_err)];
  gb_excerpt_buf shown;
  snprintf(msg, sizeof msg, fmt, gb_excerpt(&shown, a));
  return bad_msg(env, msg);
}

/* One option: a flag, or a value kept at its offset in run_args. */
static int set_option(void *ctx, int id, const char *value, gb_err *err) {
  run_args *a = ctx;
  (void)err;
  if (id == DRY_RUN)
    a->dry_run = true;
  else if (id == QUIET)
    a->quiet = true;
  else
    *(const char **)((char *)a + id) = value;
  return 0;
}

/* The options (greenbench/options.h); no positional argument. */
static const cli_command command = {"run", usage, options, set_option, NULL};

/* A whole number, when given (cli_parse_u64): 0, or 2 after the error line. */
static int number(const gb_cli_env *env, const char *name, const char *v, uint64_t min,
                  uint64_t max, uint64_t *out) {
  gb_err err;
  if (!v || cli_parse_u64(name, v, min, max, out, &err) == 0)
    return 0;
  return cli_fail(&command, env->err, 2, err.msg);
}

static int apply_lists(const run_args *a, gb_settings *s, const gb_cli_env *env) {
  gb_err err;
  const char *lists[] = {a->languages, a->algorithms, a->orders};
  unsigned *masks[] = {&s->languages, &s->algorithms, &s->orders};
  for (int k = 0; k < 3; k++)
    if (lists[k] && gb_select_parse_mask((gb_select_key)k, lists[k], masks[k], &err) < 0)
      return bad_msg(env, err.msg);
  if (a->sizes && gb_select_parse_sizes(a->sizes, s->sizes, &s->nsizes, &err) < 0)
    return bad_msg(env, err.msg);
  if (a->energy && gb_energy_mode_parse(a->energy, &s->energy) < 0)
    return bad(env, "unknown energy mode '%s' (expected auto, on or off)", a->energy);
  return 0;
}

/* A selection inside the profile keeps its name; other numbers make it custom. */
static void mark_custom(gb_settings *s, const gb_settings *profile) {
  bool custom = false;
#define DIFFERS(key, option, lo, hi, profiled)                                                 \
  custom = custom || (profiled && s->key != profile->key);
  GB_SETTINGS_NUMBERS(DIFFERS)
#undef DIFFERS
  for (size_t i = 0; i < s->nsizes && !custom; i++) {
    size_t j = 0;
    while (j < profile->nsizes && profile->sizes[j] != s->sizes[i])
      j++;
    custom = j == profile->nsizes;
  }
  if (custom)
    s->profile = GB_PROFILE_CUSTOM;
}

/* The whole numbers given, each inside its bounds, or none is set. */
static int apply_numbers(const run_args *a, gb_settings *s, const gb_cli_env *env) {
  static const struct {
    const char *option;
    size_t off; /* of its uint64_t in gb_settings */
    uint64_t lo, hi;
  } rows[NUMBERS] = {
#define ROW(key, option, lo, hi, profiled) {option, offsetof(gb_settings, key), lo, hi},
      GB_SETTINGS_NUMBERS(ROW)
#undef ROW
  };
  uint64_t value[NUMBERS], order_seed = 0;
  int rc = 0;
  for (size_t i = 0; i < NUMBERS; i++) {
    memcpy(&value[i], (const char *)s + rows[i].off, sizeof value[i]);
    if ((rc = number(env, rows[i].option, a->number[i], rows[i].lo, rows[i].hi, &value[i])))
      return rc;
  }
  if ((rc = number(env, "--order-seed", a->order_seed, 0, ORDER_SEED_MAX, &order_seed)))
    return rc;
  if (!a->order_seed && getrandom(&order_seed, sizeof order_seed, 0) != sizeof order_seed)
    order_seed = gb_realtime_ns();
  for (size_t i = 0; i < NUMBERS; i++)
    memcpy((char *)s + rows[i].off, &value[i], sizeof value[i]);
  s->order_seed = order_seed;
  return 0;
}

static bool any_setting(const run_args *a) {
  bool any = a->profile || a->languages || a->algorithms || a->orders || a->sizes ||
             a->energy || a->order_seed;
  for (size_t i = 0; i < NUMBERS; i++)
    any = any || a->number[i];
  return any;
}

static int build_settings(const run_args *a, gb_settings *s, const gb_cli_env *env) {
  gb_err err;
  if (gb_settings_profile(a->profile ? a->profile : "study", s, &err) < 0)
    return bad_msg(env, err.msg);
  gb_settings profile = *s;
  int rc = apply_lists(a, s, env);
  if (rc == 0)
    rc = apply_numbers(a, s, env);
  if (rc == 0)
    mark_custom(s, &profile);
  return rc;
}

static void default_out(const gb_settings *s, char *buf, size_t len) {
  char stamp[GB_UTC_STAMP_SIZE];
  gb_utc_stamp_or_empty((int64_t)time(NULL), stamp);
  snprintf(buf, len, "results/%s-%s", gb_profile_name(s->profile), stamp);
}

static int print_plan(const gb_settings *s, const gb_cli_env *env) {
  gb_plan p;
  gb_err err;
  if (gb_plan_build(s, &p, &err) < 0)
    return bad_msg(env, err.msg);
  gb_plan_estimate est;
  if (gb_estimate_plan(s, &p, &est, &err) < 0) {
    gb_plan_free(&p);
    return bad_msg(env, err.msg);
  }
  char total[16], warmups[16], runs[16];
  gb_estimate_format(est.total_ns, total, sizeof total);
  gb_estimate_format(est.calibration_ns, warmups, sizeof warmups);
  gb_estimate_format(est.runs_ns, runs, sizeof runs);
  size_t sort_runs = p.nconfigs * s->runs;
  fprintf(env->out,
          "profile %s: %zu configurations, %zu startup groups\n"
          "measured runs: %zu (%zu sorting runs, %zu startup batches), %" PRIu64
          " per configuration, one shuffled order (order seed %" PRIu64 ")\n"
          "warm-ups: %" PRIu64 " per configuration and startup group; target loop %" PRIu64
          " ms (calibrated to %" PRIu64 " ms)\n"
          "energy: %s; input seed %" PRIu64 "\n"
          "estimated duration: about %s (warm-ups and calibration %s, measured runs with "
          "their idle windows %s; longer on a busy machine)\n",
          gb_profile_name(s->profile), p.nconfigs, p.nstartups, p.nruns, sort_runs,
          p.nruns - sort_runs, s->runs, p.runs ? s->order_seed : 0, s->warmups, s->target_ms,
          s->target_ms * GB_META_CALIBRATION_HEADROOM_NUM / GB_META_CALIBRATION_HEADROOM_DEN,
          gb_energy_mode_name(s->energy), s->seed, total, warmups, runs);
  gb_plan_free(&p);
  return 0;
}

/* The first control byte (C0 or DEL) in s, or NULL. */
static const char *control_byte(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f)
      return s;
  return NULL;
}

/* A path option, when given, is not empty and fits its limit
 * (cli_check_path); a records folder (folder true) holds no control byte,
 * as it is echoed. */
static int check_path(const gb_cli_env *env, const char *name, const char *v, bool folder) {
  char msg[sizeof(gb_err)];
  gb_err err;
  const char *ctl = v && folder ? control_byte(v) : NULL;
  if (!v)
    return 0;
  if (cli_check_path(name, v, folder, &err) < 0)
    return bad_msg(env, err.msg);
  if (!ctl)
    return 0;
  snprintf(msg, sizeof msg, "%s: path holds the control byte \\x%02x at byte %zu", name,
           (unsigned char)*ctl, (size_t)(ctl - v) + 1);
  return bad_msg(env, msg);
}

static int check_paths(const run_args *a, const gb_cli_env *env) {
  int rc;
  if ((rc = check_path(env, "--out", a->out, true)) ||
      (rc = check_path(env, "--resume", a->resume, true)) ||
      (rc = check_path(env, "--python", a->python, false)) ||
      (rc = check_path(env, "--node", a->node, false)))
    return rc;
  return 0;
}

/* --cpus against this machine's CPUs, before anything is probed or
 * measured: 2 for a bad list, 1 when the topology cannot be read. */
static int check_cpus(const run_args *a, const gb_cli_env *env) {
  hwloc_topology_t topo;
  gb_pin_choice pin;
  gb_err err;
  if (!a->cpus)
    return 0;
  if (gb_pin_topology_load(NULL, &topo, &err) < 0)
    return cli_fail(&command, env->err, 1, err.msg);
  int rc = gb_pin_override(topo, a->cpus, &pin, &err);
  hwloc_topology_destroy(topo);
  return rc < 0 ? bad_msg(env, err.msg) : 0;
}

static int run_campaign(const run_args *a, const gb_settings *s, int argc, char **argv,
                        const gb_cli_env *env) {
  char fallback[128];
  const char *out = a->resume ? a->resume : a->out;
  if (env->workers_missing)
    return cli_fail(&command, env->err, 1, env->workers_missing);
  if (!out) {
    default_out(s, fallback, sizeof fallback);
    out = fallback;
  }
  gb_campaign_opts o =
      gb_entry_campaign_opts(s, out, &env->workers, env->source_dir, (size_t)argc,
                             (const char *const *)argv, env->stop);
  o.settings_given = a->resume && any_setting(a);
  o.resume = a->resume != NULL;
  o.cpus = a->cpus;
  o.machine_label = a->machine_label;
  o.progress = a->quiet ? GB_PROGRESS_QUIET : GB_PROGRESS_AUTO;
  o.log = env->err;
  if (a->python)
    o.workers.python = a->python;
  if (a->node)
    o.workers.node = a->node;
  gb_campaign_result r;
  gb_err err;
  if (gb_campaign_run(&o, &r, &err) < 0)
    return cli_fail(&command, env->err, 1, err.msg);
  if (r.interrupted) {
    fprintf(env->err,
            "greenbench: interrupted after %zu of %zu runs; records kept in %s (continue with "
            "greenbench run --resume %s)\n",
            r.runs_done, r.runs_total, out, out);
    return 130;
  }
  if (!a->quiet)
    fprintf(env->err, "greenbench: %zu runs recorded in %s (energy %s)\n", r.runs_done, out,
            r.energy ? "measured" : "not measured");
  return 0;
}

/* A suite campaign: the study's selection and workers are not its
 * options. 0, or 2 after the error line. */
static int suite_options(const run_args *a, const gb_cli_env *env) {
  const struct {
    const char *option, *value;
  } study[] = {{"--languages", a->languages}, {"--algorithms", a->algorithms},
               {"--orders", a->orders},       {"--sizes", a->sizes},
               {"--python", a->python},       {"--node", a->node}};
  for (size_t i = 0; i < sizeof study / sizeof study[0]; i++)
    if (study[i].value)
      return bad(env,
                 a->suite ? "%s is the study's option; it cannot be combined with --suite"
                          : "%s is the study's option; the folder --resume names holds a "
                            "suite campaign",
                 study[i].option);
  return check_path(env, "--suite", a->suite, false);
}

static int run_suite(const run_args *a, const gb_settings *s, int argc, char **argv,
                     const gb_cli_env *env) {
  char fallback[128];
  if (!a->out)
    default_out(s, fallback, sizeof fallback);
  cli_run_suite_args sa = {.cmd = &command,
                           .file = a->suite,
                           .settings = *s,
                           .settings_given = a->resume && any_setting(a),
                           .resume = a->resume,
                           .out = a->resume ? a->resume
                                  : a->out  ? a->out
                                            : fallback,
                           .cpus = a->cpus,
                           .machine_label = a->machine_label,
                           .dry_run = a->dry_run,
                           .quiet = a->quiet,
                           .argc = argc,
                           .argv = argv};
  return cli_run_suite(&sa, env);
}

int gb_cli_run(int argc, char **argv, const gb_cli_env *env) {
  run_args a = {0};
  int rc = cli_start(&command, &a, argc, argv, env->out, env->err);
  if (rc >= 0)
    return rc;
  if (a.resume && a.out && strcmp(a.resume, a.out))
    return bad(env, "--out and --resume name different folders ('%s')", a.out);
  if (a.resume && a.dry_run)
    return bad(env, "--dry-run plans a new campaign; it cannot be combined with --resume%s",
               "");
  /* A suite campaign's folder resumes as one (docs/suites.md, "Resuming"). */
  if (a.machine_label && !gb_meta_label_valid(a.machine_label))
    return bad(env,
               "--machine-label '%s' is not a label: 1 to 63 letters, digits, '_' or '-' "
               "(no dots)",
               a.machine_label);
  if (a.suite || (a.resume && cli_is_suite_folder(a.resume))) {
    gb_settings s;
    if ((rc = suite_options(&a, env)) || (rc = build_settings(&a, &s, env)) ||
        (rc = check_paths(&a, env)) || (rc = check_cpus(&a, env)))
      return rc;
    if (a.dry_run && a.out) {
      gb_err err;
      if (gb_campaign_check_out(a.out, &err) < 0)
        return cli_fail(&command, env->err, 1, err.msg);
    }
    return run_suite(&a, &s, argc, argv, env);
  }
  gb_settings s;
  if ((rc = build_settings(&a, &s, env)) || (rc = check_paths(&a, env)) ||
      (rc = check_cpus(&a, env)))
    return rc;
  if (a.dry_run && a.out) {
    /* The plan refuses what the run would refuse of its folder. */
    gb_err err;
    if (gb_campaign_check_out(a.out, &err) < 0)
      return cli_fail(&command, env->err, 1, err.msg);
  }
  return a.dry_run ? print_plan(&s, env) : run_campaign(&a, &s, argc, argv, env);
}
