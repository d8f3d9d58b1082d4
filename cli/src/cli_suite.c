/* `greenbench suite check FILE [options]`: reads a suite file
 * (greenbench/suitefile.h) and runs each of its processes once
 * (cli_suite_check.c). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/cli.h"
#include "greenbench/paths.h"
#include "greenbench/suitefile.h"
#include "greenbench/text.h"

#include "cli_internal.h"

static const char usage[] =
    "usage: greenbench suite check FILE [--builddir DIR] [--timeout SECONDS] [--seed S]\n"
    "\n"
    "Reads the suite file FILE (docs/suites.md) and refuses it, with one line naming the\n"
    "file and the place in it, if it breaks a rule. Then runs each of its processes once:\n"
    "every language's build step once per workload, its version command once, and for\n"
    "every workload and parameter set the measured command with {reps} 1 and the startup\n"
    "command. Each prints one line of the contract, which is parsed; the languages must\n"
    "report the same counters, input_hash and output_hash for the same parameters, and the\n"
    "values of the workload's expect entries. One row per process on standard output;\n"
    "one error line per failure, naming the language, workload, parameters and field.\n"
    "Nothing is measured: this is the check to run before a campaign.\n"
    "\n"
    "  --builddir DIR     the folder for build outputs, {builddir} (made if missing, kept);\n"
    "                     default a new temporary folder, removed at the end\n"
    "  --timeout SECONDS  the longest any one process may run (default 300)\n"
    "  --seed S           the value of {seed} (default 1)\n"
    "  --version          print greenbench's version and git commit\n"
    "  --help             show this help\n"
    "\n"
    "Exit status: 0 every process ran and agreed, 1 a process failed or disagreed,\n"
    "2 bad arguments or a suite file that breaks a rule.\n";

typedef struct {
  const char *file, *builddir;
  uint64_t timeout_s, seed;
} suite_cli;

enum { BUILDDIR, TIMEOUT, SEED };
static const gb_opt options[] = {
    {"--builddir", NULL, GB_OPT_VALUE, BUILDDIR},
    {"--timeout", NULL, GB_OPT_VALUE, TIMEOUT},
    {"--seed", NULL, GB_OPT_VALUE, SEED},
    {NULL, NULL, 0, 0},
};

static int set_option(void *ctx, int id, const char *value, gb_err *err) {
  suite_cli *c = ctx;
  if (id == BUILDDIR) {
    c->builddir = value;
    return cli_check_path("--builddir", value, true, err);
  }
  if (id == TIMEOUT)
    return cli_parse_u64("--timeout", value, 1, 86400, &c->timeout_s, err);
  return cli_parse_u64("--seed", value, 0, GB_SUITE_VALUE_MAX, &c->seed, err);
}

static int set_file(void *ctx, const char *arg, gb_err *err) {
  suite_cli *c = ctx;
  if (c->file)
    return gb_err_set(err, EINVAL, "one suite file expected, got '%s' and '%s'", SHOWN(c->file),
                      SHOWN(arg));
  c->file = arg;
  return 0;
}

static const cli_command command = {"suite check", usage, options, set_option, set_file};

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* The exit status of parsed arguments. */
static int run(suite_cli *c, const gb_cli_env *env) {
  gb_err err;
  if (!c->file)
    return cli_fail(&command, env->err, 2,
                    "no suite file given (see greenbench suite check --help)");
  gb_suite s;
  if (gb_suite_load(c->file, &s, &err) < 0) {
    gb_str_put_line(env->err, "greenbench: error: ", err.msg);
    return 2;
  }
  char workers[PATH_MAX] = "";
  if (gb_suite_uses(&s, "workers") && gb_workers_dir_find(workers, sizeof workers, &err) < 0) {
    gb_suite_free(&s);
    return cli_fail(&command, env->err, 1, err.msg);
  }
  char made[PATH_MAX] = "";
  if (!c->builddir) {
    const char *tmp = getenv("TMPDIR");
    snprintf(made, sizeof made, "%s/greenbench-suite-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(made)) {
      gb_suite_free(&s);
      gb_err_set(&err, errno, "cannot make a build folder %s: %s", made, strerror(errno));
      return cli_fail(&command, env->err, 1, err.msg);
    }
  } else if (mkdir(c->builddir, 0777) < 0 && errno != EEXIST) {
    gb_suite_free(&s);
    gb_err_set(&err, errno, "--builddir %s: %s", SHOWN(c->builddir), strerror(errno));
    return cli_fail(&command, env->err, 1, err.msg);
  }
  cli_suite_opts o = {.builddir = made[0] ? made : c->builddir,
                      .workers = workers[0] ? workers : NULL,
                      .timeout_ns = c->timeout_s * 1000000000u,
                      .seed = c->seed,
                      .stop = env->stop};
  int failures = cli_suite_check(&s, &o, env->out, env->err);
  if (made[0] && nftw(made, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
    fprintf(env->err, "greenbench: warning: suite check: cannot remove %s\n", made);
  gb_suite_free(&s);
  if (failures < 0)
    return cli_fail(&command, env->err, 1, strerror(-failures));
  return failures ? 1 : 0;
}

int gb_cli_suite(int argc, char **argv, const gb_cli_env *env) {
  static const cli_command suite = {"suite", usage, NULL, NULL, NULL};
  if (argc < 2)
    return cli_fail(&suite, env->err, 2,
                    "no subcommand given (expected check; see greenbench suite --help)");
  suite_cli c = {.timeout_s = 300, .seed = 1};
  if (strcmp(argv[1], "check") != 0) {
    /* `greenbench suite --help` is check's help: the one subcommand. */
    int status = -1;
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--version"))
      status = cli_start(&command, &c, argc, argv, env->out, env->err);
    if (status >= 0)
      return status;
    char msg[200];
    snprintf(msg, sizeof msg,
             "unknown subcommand '%s' (expected check; see greenbench suite --help)",
             SHOWN(argv[1]));
    return cli_fail(&suite, env->err, 2, msg);
  }
  int status = cli_start(&command, &c, argc - 1, argv + 1, env->out, env->err);
  return status < 0 ? run(&c, env) : status;
}
