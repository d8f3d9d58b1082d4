/* The study as a Criterion suite (docs/design.md; ADR 0001).
 *
 * Each configuration (language x algorithm x order x size) of the chosen
 * profile and selection is one instance of the parameterized test
 * study/cases. Before any test runs, the PRE_ALL report hook (it runs in the
 * runner process, after Criterion has applied --filter) measures exactly the
 * selected configurations as ONE campaign with one shuffled order, and
 * writes the report. Each instance then passes or fails on the validity of
 * its own records (gb_validate_case), read back from disk: test processes
 * are forked from the runner, so they inherit where the records are through
 * the environment.
 *
 * Criterion 2.4.1 gives every instance the same name and its XML output
 * merges them, so instances are selected by this binary's own --select (or
 * GREENBENCH_SELECT), never by --filter, and the per-case JUnit file is the
 * project's own (gb_report_junit). Parameters hold no pointers: they are
 * copied into the test processes. */
#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "greenbench/campaign.h"
#include "greenbench/entry.h"
#include "greenbench/meta.h"
#include "greenbench/options.h"
#include "greenbench/paths.h"
#include "greenbench/records_read.h"
#include "greenbench/report.h"
#include "greenbench/select.h"
#include "greenbench/text.h"
#include "greenbench/timefmt.h"
#include "greenbench/validate.h"
#include "greenbench/version.h"

#include "fixture.h"
#include "suitefixture.h"

#define ENV_RECORDS "GREENBENCH_SUITE_RECORDS"
#define ENV_FAILURE "GREENBENCH_SUITE_FAILURE"
#define MAX_CASES (GB_LANGUAGE_COUNT * GB_ALGORITHM_COUNT * GB_ORDER_COUNT * GB_MAX_SIZES)

typedef struct {
  int language, algorithm, order;
  unsigned size;
} case_param;

/* Set by main before Criterion runs; read by the hooks and, through fork,
 * by the tests. */
static struct {
  gb_settings settings;
  char *select;    /* every --select and GREENBENCH_SELECT, AND-ed (append_select) */
  bool select_all; /* "all" was given: the whole profile */
  const char *out, *junit;
  bool energy_required;
  bool list_only;
  bool junit_given; /* --junit, not the default <out>/junit.xml */
  /* The CTest suite (fixture.h): --campaign, --check-case NAME, --list-tests. */
  bool campaign, list_tests, out_given;
  const char *check_case, *state, *progress_log, *machine_label;
  const char *suite_file; /* --suite FILE: a suite file's CTest forms (suitefixture.h) */
} suite;

static volatile sig_atomic_t stop_requested;
/* Set by the PRE_ALL hook when the report or JUnit file could not be written. */
static bool report_failed;

static size_t selected_cases(case_param *out) {
  gb_plan p;
  gb_err err;
  size_t n = 0;
  if (gb_plan_build(&suite.settings, &p, &err) < 0)
    return 0;
  for (size_t i = 0; i < p.nconfigs && n < MAX_CASES; i++)
    out[n++] = (case_param){(int)p.configs[i].language, (int)p.configs[i].algorithm,
                            (int)p.configs[i].order, p.configs[i].size};
  gb_plan_free(&p);
  return n;
}

ParameterizedTestParameters(study, cases) {
  static case_param cases[MAX_CASES];
  size_t n = selected_cases(cases);
  return cr_make_param_array(case_param, cases, n);
}

static void label(const case_param *c, char *buf, size_t len) {
  gb_config k = {(gb_language)c->language, (gb_algorithm)c->algorithm, (gb_order)c->order,
                 c->size};
  gb_config_label(&k, buf, len);
}

ParameterizedTest(case_param *c, study, cases, .timeout = 60) {
  char name[64], why[512];
  label(c, name, sizeof name);
  const char *failure = getenv(ENV_FAILURE), *dir = getenv(ENV_RECORDS);
  if (failure && *failure)
    cr_assert_fail("%s: the campaign did not run: %s", name, failure);
  cr_assert(dir && *dir, "%s: no records (the campaign hook did not run)", name);
  gb_records *r;
  gb_err err;
  cr_assert_eq(gb_records_read(dir, &r, &err), 0, "%s: %s", name, err.msg);
  int invalid =
      gb_validate_case(r, (gb_language)c->language, (gb_algorithm)c->algorithm,
                       (gb_order)c->order, c->size, suite.energy_required, why, sizeof why);
  gb_records_free(r);
  cr_assert_eq(invalid, 0, "%s", why);
  cr_log_info("%s: valid", name);
}

static bool cases_enabled(struct criterion_test_set *set) {
  FOREACH_SET(struct criterion_suite_set * s, set->suites) {
    FOREACH_SET(struct criterion_test * t, s->tests) {
      if (!strcmp(t->category, "study") && !strcmp(t->name, "cases") && !t->data->disabled)
        return true;
    }
  }
  return false;
}

static void fail_all(const char *why) {
  gb_str_put_line(stderr, "greenbench-suite: error: ", why);
  setenv(ENV_FAILURE, why, 1);
}

/* One campaign over exactly the selected cases, then the report. */
ReportHook(PRE_ALL)(struct criterion_test_set *set) {
  if (!cases_enabled(set))
    return;
  char *argv[] = {"greenbench-suite",
                  "--profile",
                  (char *)gb_profile_name(suite.settings.profile),
                  "--select",
                  suite.select ? suite.select : "",
                  NULL};
  static gb_entry_workers found; /* relative to this executable */
  gb_err err;
  if (gb_entry_find_workers(&found) < 0) {
    fail_all(found.missing);
    return;
  }
  gb_campaign_opts o =
      gb_entry_campaign_opts(&suite.settings, suite.out, &found.workers, found.source_dir, 5,
                             (const char *const *)argv, &stop_requested);
  o.machine_label = suite.machine_label;
  o.progress = GB_PROGRESS_AUTO;
  gb_campaign_result res;
  if (gb_campaign_run(&o, &res, &err) < 0) {
    fail_all(err.msg);
    return;
  }
  setenv(ENV_RECORDS, suite.out, 1);
  gb_report_opts ro = gb_report_opts_default();
  ro.dir = suite.out;
  ro.junit_path = suite.junit;
  ro.allow_partial = !res.completed;
  if (gb_report_write(&ro, &err) < 0) {
    /* The cases may all pass, but a CI that reads the JUnit file would see
     * none of it: the run fails. */
    gb_str_put_line(stderr, "greenbench-suite: error: the report was not written: ", err.msg);
    report_failed = true;
  } else
    fprintf(stderr, "greenbench-suite: records and report in %s\n", suite.out);
}

/* How many cases ran: a run of none must never pass. */
static size_t cases_run;

ReportHook(POST_ALL)(struct criterion_global_stats *stats) {
  cases_run = stats->tests_passed + stats->tests_failed + stats->tests_crashed;
}

static const char usage[] =
    "usage: greenbench-suite [--profile smoke|study] [--select EXPR]... [--out DIR]\n"
    "                        [--junit FILE] [--machine-label NAME] [--list-cases]\n"
    "                        [criterion options]\n"
    "       greenbench-suite --profile P --campaign --out DIR --state FILE --junit FILE\n"
    "                        --progress-log FILE [--machine-label NAME]\n"
    "       greenbench-suite --check-case P/LANGUAGE/ALGORITHM/ORDER/SIZE --state FILE\n"
    "       greenbench-suite --profile P --list-tests\n"
    "       greenbench-suite --suite FILE --profile P --campaign --out DIR --state FILE\n"
    "                        --junit FILE --progress-log FILE [--machine-label NAME]\n"
    "       greenbench-suite --suite FILE --check-case P/SUITE/LANGUAGE/WORKLOAD/PARAMS\n"
    "                        --state FILE\n"
    "       greenbench-suite --suite FILE --profile P --list-tests\n"
    "       greenbench-suite --version | --help\n"
    "Runs the selected cases of the profile (default: smoke) as one shuffled campaign\n"
    "and checks each case's records. EXPR is KEY=LIST terms, KEY one of language,\n"
    "algorithm, order, size, e.g. --select language=python or\n"
    "--select 'algorithm=quick size=2000'; GREENBENCH_SELECT and GREENBENCH_PROFILE\n"
    "in the environment do the same; 'all' is the whole profile. Terms are AND-ed\n"
    "and a key may appear in one\n"
    "term only (language=python,c, not language=python language=c). '|' joins\n"
    "alternatives and selects the cases any of them selects:\n"
    "--select 'language=c algorithm=quick | language=python size=200'. Several\n"
    "--select options are AND-ed like terms. Any other option\n"
    "must be one of Criterion's, listed below; anything else exits 2. A JUnit or\n"
    "records path that cannot be written fails the run. The JUnit classnames are\n"
    "<machine>.<profile>.<language>.<algorithm> (a suite's\n"
    "<machine>.<suite>.<profile>.<language>.<workload>); --machine-label sets the machine\n"
    "(default: the host name and CPU model made a label).\n"
    "The other forms are the CTest suite (`ctest -L smoke -L language=c`, see the\n"
    "README): --campaign is the fixture <profile>/campaign, which measures the cases\n"
    "that the ctest run that started it selected, as one campaign in a new folder\n"
    "under DIR, and writes the state FILE that --check-case reads (where it cannot\n"
    "read that selection it measures nothing and fails with the reason, unless\n"
    "GREENBENCH_SELECT says what to measure); --list-tests\n"
    "prints each case's test name and labels. GREENBENCH_SUITE_RESULTS=DIR puts the\n"
    "files of these forms (records, state, JUnit, progress log) in DIR instead.\n"
    "With --suite FILE the same forms are a suite file's (docs/suites.md): its\n"
    "cases are its configurations, its fixture <profile>/<suite>/campaign runs a\n"
    "suite campaign on those ctest selected (GREENBENCH_SELECT=all: the whole\n"
    "suite, where the selection cannot be read).\n"
    "GREENBENCH_LIBEXEC_DIR=DIR names the workers' folder (default: ../libexec/greenbench\n"
    "from this binary's place, or the build tree).\n"
    "--version prints greenbench's version and git commit, then Criterion's;\n"
    "--help prints this help, then Criterion's options (on stderr).\n"
    "An option's value follows a space or an equals sign; --select may be\n"
    "repeated, any other option given twice exits 2.\n"
    "Exit status: 0 every selected case passed, 1 a case failed (Criterion's),\n"
    "2 bad arguments.\n";

/* Adds expr to the selection, AND-ed with what is there: each product of
 * one joined with each product of the other ("A | B" and "C" give
 * "A C | B C"), so the two keep their meaning whatever '|' they hold; any
 * length. -1 (reported) without memory. */
static int append_select(const char *expr) {
  size_t skip = strspn(expr, " \t");
  if (!strncmp(expr + skip, "all", 3) &&
      expr[skip + 3 + strspn(expr + skip + 3, " \t")] == '\0') {
    suite.select_all = true; /* the whole profile: nothing to narrow */
    return 0;
  }
  for (const char *a = expr, *end;; a = end + 1) {
    end = a + strcspn(a, "|");
    bool blank = true;
    for (const char *c = a; c < end; c++)
      blank = blank && strchr(" ;\t", *c);
    if (blank && strchr(expr, '|')) {
      gb_excerpt_buf shown = {{0}};
      fprintf(stderr,
              "greenbench-suite: error: selection '%s' has an empty alternative around '|'\n",
              gb_excerpt(&shown, expr));
      return -1;
    }
    if (!*end)
      break;
  }
  char *joined = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&joined, &len);
  if (!f) {
    fprintf(stderr, "greenbench-suite: error: out of memory for the selection\n");
    return -1;
  }
  const char *old = suite.select ? suite.select : "";
  for (const char *a = old, *a_end;; a = a_end + 1) {
    a_end = a + strcspn(a, "|");
    for (const char *b = expr, *b_end;; b = b_end + 1) {
      b_end = b + strcspn(b, "|");
      fprintf(f, "%s%.*s%s%.*s", ftell(f) ? " | " : "", (int)(a_end - a), a,
              a_end > a && b_end > b ? " " : "", (int)(b_end - b), b);
      if (!*b_end)
        break;
    }
    if (!*a_end)
      break;
  }
  if (fclose(f) != 0 || !joined) {
    free(joined);
    fprintf(stderr, "greenbench-suite: error: out of memory for the selection\n");
    return -1;
  }
  free(suite.select);
  suite.select = joined;
  return 0;
}

/* The options Criterion 2.4.1 takes (its --help), passed on to it; any
 * other option is an error here, before anything runs, since Criterion
 * would print its usage and run nothing with status 0. arg: 0 none, 1 a
 * value (next argument or after '='), 2 an optional value after '='. */
static const struct {
  const char *name;
  int arg;
} passed_to_criterion[] = {
    {"--quiet", 0},
    {"--version", 0},
    {"--list", 0},
    {"--jobs", 1},
    {"--fail-fast", 0},
    {"--color", 1},
    {"--encoding", 1},
    {"--ascii", 0},
    {"--short-filename", 0},
    {"--filter", 1},
    {"--timeout", 1},
    {"--tap", 2},
    {"--xml", 2},
    {"--json", 2},
    {"--always-succeed", 0},
    {"--verbose", 2},
    {"--crash", 0},
    {"--debug", 2},
    {"--debug-transport", 1},
    {"--full-stats", 0},
    {"--ignore-warnings", 0},
    {"--output", 1},
};

/* How many arguments Criterion's option at argv[i] spans (1 or 2), 0 when
 * it is not one of Criterion's, -1 when it is but its value is missing. */
static int criterion_span(int i, int argc, char **argv) {
  const char *a = argv[i];
  if (!strcmp(a, "-q") || !strcmp(a, "-v") || !strcmp(a, "-l") || !strcmp(a, "-f") ||
      !strcmp(a, "-S"))
    return 1;
  /* -jN and -OP:F, or their value as the next argument (getopt's forms). */
  if (!strcmp(a, "-j") || !strcmp(a, "-O"))
    return i + 1 < argc ? 2 : -1;
  if (!strncmp(a, "-j", 2))
    return strspn(a + 2, "0123456789") == strlen(a + 2) ? 1 : 0;
  if (!strncmp(a, "-O", 2))
    return 1;
  for (size_t k = 0; k < sizeof passed_to_criterion / sizeof passed_to_criterion[0]; k++) {
    size_t n = strlen(passed_to_criterion[k].name);
    if (strncmp(a, passed_to_criterion[k].name, n) != 0 || (a[n] && a[n] != '='))
      continue;
    if (a[n] == '=')
      return passed_to_criterion[k].arg ? 1 : 0;
    return passed_to_criterion[k].arg == 1 ? (i + 1 < argc ? 2 : -1) : 1;
  }
  return 0;
}

/* Whether the value of Criterion's option at a[0] (span arguments) is one
 * Criterion would refuse or misread after the campaign ran (a --jobs that
 * is no number reads as 0, a --timeout of "abc" as no timeout): -1 with
 * one line, before anything runs. */
static bool criterion_value_bad(char **a, int span) {
  const char *name = a[0], *v = span == 2 ? a[1] : strchr(a[0], '=');
  if (span == 1 && !strncmp(a[0], "-j", 2) && a[0][1] == 'j' && a[0][2])
    v = a[0] + 2;
  else if (span == 1 && v)
    v++;
  if (!v)
    return false;
  size_t n = strcspn(name, "=");
  bool jobs = !strncmp(name, "-j", 2) || (n == 6 && !strncmp(name, "--jobs", 6));
  bool timeout = n == 9 && !strncmp(name, "--timeout", 9);
  bool color = n == 7 && !strncmp(name, "--color", 7);
  char *end = NULL;
  bool bad = false;
  if (jobs)
    bad = !*v || strspn(v, "0123456789") != strlen(v);
  else if (timeout) {
    double t = strtod(v, &end);
    bad = end == v || *end || !(t >= 0);
  } else if (color)
    bad = strcmp(v, "auto") && strcmp(v, "always") && strcmp(v, "never");
  if (bad) {
    gb_excerpt_buf shown = {{0}};
    fprintf(stderr, "greenbench-suite: error: bad value '%s' of option '%.*s'%s\n",
            gb_excerpt(&shown, v), (int)n, name,
            jobs      ? " (a number of jobs)"
            : timeout ? " (seconds)"
                      : " (auto, always or never)");
  }
  return bad;
}

enum {
  PROFILE,
  SELECT,
  OUT,
  JUNIT,
  LIST_CASES,
  LIST_TESTS,
  CAMPAIGN,
  CHECK_CASE,
  STATE,
  PROGRESS_LOG,
  MACHINE_LABEL,
  SUITE_FILE,
  HELP,
  VERSION
};
static const gb_opt options[] = {
    {"--profile", NULL, GB_OPT_VALUE, PROFILE},
    {"--select", NULL, GB_OPT_VALUE | GB_OPT_MANY, SELECT},
    {"--out", NULL, GB_OPT_VALUE, OUT},
    {"--junit", NULL, GB_OPT_VALUE, JUNIT},
    {"--list-cases", NULL, 0, LIST_CASES},
    {"--list-tests", NULL, 0, LIST_TESTS},
    {"--campaign", NULL, 0, CAMPAIGN},
    {"--check-case", NULL, GB_OPT_VALUE, CHECK_CASE},
    {"--state", NULL, GB_OPT_VALUE, STATE},
    {"--progress-log", NULL, GB_OPT_VALUE, PROGRESS_LOG},
    {"--machine-label", NULL, GB_OPT_VALUE, MACHINE_LABEL},
    {"--suite", NULL, GB_OPT_VALUE, SUITE_FILE},
    {"--help", "-h", 0, HELP},
    {"--version", NULL, 0, VERSION},
    {NULL, NULL, 0, 0},
};

/* One of our options: 0, or -1 (reported). --help and --version stay in
 * argv for Criterion too. */
static int take_option(int id, const char *v, char **argv, int *kept, const char **profile) {
  const char **slot[] = {[PROFILE] = profile,
                         [OUT] = &suite.out,
                         [JUNIT] = &suite.junit,
                         [CHECK_CASE] = &suite.check_case,
                         [STATE] = &suite.state,
                         [PROGRESS_LOG] = &suite.progress_log,
                         [MACHINE_LABEL] = &suite.machine_label,
                         [SUITE_FILE] = &suite.suite_file};
  switch (id) {
  case SELECT:
    return append_select(v);
  case LIST_CASES:
    suite.list_only = true;
    return 0;
  case LIST_TESTS:
    suite.list_tests = true;
    return 0;
  case CAMPAIGN:
    suite.campaign = true;
    return 0;
  case HELP:
    fputs(usage, stdout);
    argv[(*kept)++] = "--help";
    return 0;
  case VERSION:
    /* Ours first; Criterion prints its own when it sees the option. */
    if (gb_version_print(stdout) < 0 || fflush(stdout) != 0)
      return -1;
    argv[(*kept)++] = "--version";
    return 0;
  default:
    *slot[id] = v;
    suite.out_given |= id == OUT;
    suite.junit_given |= id == JUNIT;
    return 0;
  }
}

/* Our options out of argv (greenbench/options.h); Criterion's stay for it.
 * An argument that is neither is an error (-1, reported). */
static int parse_args(int *argc, char **argv, const char **profile) {
  int kept = 1;
  gb_opt_state st;
  gb_opt_start(&st, 1);
  while (st.next < *argc) {
    /* --version is ours first (Criterion's too, once ours is printed). */
    int i = st.next, span = strcmp(argv[i], "--version") ? criterion_span(i, *argc, argv) : 0;
    gb_excerpt_buf shown = {{0}};
    if (span > 0 && criterion_value_bad(argv + i, span))
      return -1;
    if (span > 0) {
      for (int k = 0; k < span; k++)
        argv[kept++] = argv[i + k];
      st.next += span;
      continue;
    }
    if (span < 0) {
      fprintf(stderr, "greenbench-suite: error: missing the value of option '%s'\n",
              gb_excerpt(&shown, argv[i]));
      return -1;
    }
    const char *v = NULL;
    gb_err err;
    int id = gb_opt_next(options, &st, *argc, argv, &v, &err);
    if (id == GB_OPT_END) /* a "--" last */
      break;
    if (id == GB_OPT_ARG)
      snprintf(err.msg, sizeof err.msg, "unexpected argument '%s'", gb_excerpt(&shown, v));
    if (id < 0) {
      fprintf(stderr, "greenbench-suite: error: %s (see greenbench-suite --help)\n", err.msg);
      return -1;
    }
    if (take_option(id, v, argv, &kept, profile) < 0)
      return -1;
  }
  *argc = kept;
  return 0;
}

static int configure(int *argc, char **argv) {
  const char *profile = getenv("GREENBENCH_PROFILE"), *env_select = getenv("GREENBENCH_SELECT");
  if (env_select && *env_select && append_select(env_select) < 0)
    return -1;
  if (parse_args(argc, argv, &profile) < 0)
    return -1;
  gb_err err;
  /* A suite file's selection is ctest's (suitefixture.h), never the study's
   * expression. */
  if (gb_settings_profile(profile && *profile ? profile : "smoke", &suite.settings, &err) < 0 ||
      (!suite.suite_file && gb_settings_select(&suite.settings, suite.select, &err) < 0)) {
    gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
    return -1;
  }
  if (suite.machine_label && !gb_meta_label_valid(suite.machine_label)) {
    gb_excerpt_buf shown = {{0}};
    fprintf(stderr,
            "greenbench-suite: error: --machine-label '%s' is not a label: 1 to 63 letters, "
            "digits, '_' or '-' (no dots)\n",
            gb_excerpt(&shown, suite.machine_label));
    return -1;
  }
  suite.settings.order_seed = (uint64_t)time(NULL) ^ (uint64_t)getpid() << 32;
  suite.settings.order_seed &= (1ull << 53) - 1;
  suite.energy_required = suite.settings.energy == GB_ENERGY_ON;
  static char out[512];
  if (!suite.out) {
    char stamp[GB_UTC_STAMP_SIZE];
    gb_utc_stamp_or_empty((int64_t)time(NULL), stamp);
    snprintf(out, sizeof out, "results/suite-%s-%s", gb_profile_name(suite.settings.profile),
             stamp);
    suite.out = out;
  }
  if (!suite.junit) {
    size_t len = strlen(suite.out) + sizeof "/junit.xml";
    /* Kept in a static: GREENBENCH_SUITE_RESULTS may replace suite.junit. */
    static char *junit;
    junit = malloc(len);
    if (!junit)
      return -1;
    if (gb_path_join(junit, len, suite.out, "junit.xml", &err) < 0) { /* len has room: never */
      gb_str_put_line(stderr, "greenbench-suite: error: ", err.msg);
      free(junit);
      return -1;
    }
    suite.junit = junit;
  }
  return 0;
}

/* A JUnit file whose folder does not exist could only fail after the whole
 * campaign: say so before measuring anything. */
static bool junit_dir_missing(void) {
  char *copy = strdup(suite.junit);
  if (!copy) {
    fprintf(stderr, "greenbench-suite: error: out of memory for the JUnit path\n");
    return true;
  }
  const char *dir = dirname(copy);
  struct stat st;
  bool missing = stat(dir, &st) != 0 || !S_ISDIR(st.st_mode);
  if (missing) {
    gb_excerpt_buf shown_file = {{0}}, shown_dir = {{0}};
    fprintf(stderr,
            "greenbench-suite: error: cannot write the JUnit file %s: its folder does not "
            "exist or is not a folder: %s\n",
            gb_excerpt(&shown_file, suite.junit), gb_excerpt(&shown_dir, dir));
  }
  free(copy);
  return missing;
}

/* The previous run's JUnit file at the --junit path goes before this run
 * measures anything: if this run then fails before writing its own, a
 * dashboard finds no file rather than the last run's green one. (The
 * default path, <out>/junit.xml, is left alone: it belongs to the records
 * in <out>, which a new campaign refuses to overwrite.) */
static int remove_old_junit(void) {
  if (unlink(suite.junit) == 0 || errno == ENOENT || errno == EISDIR)
    return 0; /* a folder is left for the report to fail on */
  gb_excerpt_buf shown = {{0}};
  fprintf(stderr, "greenbench-suite: error: cannot remove the previous JUnit file %s: %s\n",
          gb_excerpt(&shown, suite.junit), strerror(errno));
  return -1;
}

static void list_cases(void) {
  static case_param cases[MAX_CASES];
  size_t n = selected_cases(cases);
  for (size_t i = 0; i < n; i++) {
    char name[64];
    label(&cases[i], name, sizeof name);
    printf("%s\n", name);
  }
  printf("%zu cases of the %s profile\n", n, gb_profile_name(suite.settings.profile));
}

/* GREENBENCH_SUITE_RESULTS, when set, moves each of the CTest forms' files
 * into that folder (their names kept): a ctest run started with it keeps
 * its campaign apart from the build tree's. */
static const char *moved(const char *path) {
  const char *dir = getenv("GREENBENCH_SUITE_RESULTS");
  if (!path || !dir || !*dir)
    return path;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  size_t len = strlen(dir) + strlen(base) + 2;
  char *p = malloc(len);
  if (!p)
    return path;
  if (gb_path_join(p, len, dir, base, NULL) < 0) { /* never: room for both and a '/' */
    free(p);
    return path;
  }
  return p;
}

/* The CTest forms: their options must come together. */
/* The options of the CTest forms belong to them: given to the Criterion
 * form, they would be ignored while a campaign runs. -1 with one line. */
static int ctest_options_misplaced(void) {
  if (suite.campaign || (!suite.progress_log && (!suite.state || suite.check_case)))
    return 0;
  fprintf(stderr,
          "greenbench-suite: error: %s is an option of %s only (see greenbench-suite --help)\n",
          suite.progress_log ? "--progress-log" : "--state",
          suite.progress_log ? "--campaign" : "--campaign and --check-case");
  return -1;
}

/* --select as given, "all" for --select-all, else NULL. */
static const char *selection(void) {
  return suite.select ? suite.select : suite.select_all ? "all" : NULL;
}

static int check_case_lacks_state(void) {
  fprintf(stderr, "greenbench-suite: error: --check-case needs --state FILE\n");
  return 2;
}

/* The CTest forms for a suite file (suitefixture.h). */
static int suite_file_forms(int argc, char **argv) {
  if (suite.check_case) {
    if (!suite.state)
      return check_case_lacks_state();
    return gbi_suite_fixture_check_case(suite.suite_file, suite.check_case, suite.state);
  }
  if (suite.list_tests)
    return gbi_suite_fixture_list_tests(suite.suite_file, &suite.settings);
  if (!suite.state || !suite.junit_given || !suite.progress_log || !suite.out_given) {
    fprintf(stderr, "greenbench-suite: error: --suite FILE --campaign needs --out DIR, --state "
                    "FILE, --junit FILE and --progress-log FILE\n");
    return 2;
  }
  gb_entry_signals(&stop_requested, "greenbench-suite");
  gbi_suite_fixture_opts o = {.suite_path = suite.suite_file,
                              .settings = suite.settings,
                              .results = suite.out,
                              .state = suite.state,
                              .junit = suite.junit,
                              .progress_log = suite.progress_log,
                              .machine_label = suite.machine_label,
                              .select = selection(),
                              .argc = (size_t)argc,
                              .argv = (const char *const *)argv,
                              .stop = &stop_requested};
  return gbi_suite_fixture_campaign(&o);
}

static int ctest_forms(int argc, char **argv) {
  const char *dir = getenv("GREENBENCH_SUITE_RESULTS");
  if (dir && *dir) {
    suite.state = moved(suite.state);
    suite.junit = moved(suite.junit);
    suite.progress_log = moved(suite.progress_log);
    suite.out = dir;
  }
  if (suite.suite_file)
    return suite_file_forms(argc, argv);
  if (suite.check_case) {
    if (!suite.state)
      return check_case_lacks_state();
    return gbi_fixture_check_case(suite.check_case, suite.state);
  }
  if (suite.list_tests) {
    gbi_fixture_list_tests(&suite.settings);
    return 0;
  }
  if (!suite.state || !suite.junit_given || !suite.progress_log || !suite.out_given) {
    fprintf(stderr, "greenbench-suite: error: --campaign needs --out DIR, --state FILE, "
                    "--junit FILE and --progress-log FILE\n");
    return 2;
  }
  gb_entry_signals(&stop_requested, "greenbench-suite");
  gbi_fixture_opts o = {.settings = suite.settings,
                        .results = suite.out,
                        .state = suite.state,
                        .junit = suite.junit,
                        .progress_log = suite.progress_log,
                        .machine_label = suite.machine_label,
                        .select = selection(),
                        .argc = (size_t)argc,
                        .argv = (const char *const *)argv,
                        .stop = &stop_requested};
  return gbi_fixture_campaign(&o);
}

int main(int argc, char **argv) {
  if (configure(&argc, argv) < 0 || ctest_options_misplaced() < 0)
    return 2;
  if (suite.check_case || suite.list_tests || suite.campaign)
    return ctest_forms(argc, argv);
  if (suite.suite_file) {
    fprintf(stderr, "greenbench-suite: error: --suite is an option of --campaign, --check-case "
                    "and --list-tests only (see greenbench-suite --help)\n");
    return 2;
  }
  if (suite.list_only) {
    list_cases();
    return 0;
  }
  if (suite.junit_given && (junit_dir_missing() || remove_old_junit() < 0))
    return 2;
  gb_entry_signals(&stop_requested, "greenbench-suite");
  struct criterion_test_set *tests = criterion_initialize();
  int result = 0;
  /* 0 after --help, --list or --version: nothing was meant to run. */
  if (criterion_handle_args(argc, argv, true)) {
    result = !criterion_run_all_tests(tests);
    if (result == 0 && cases_run == 0) {
      fprintf(stderr, "greenbench-suite: error: no case ran (a --filter that excludes "
                      "study/cases?); select cases with --select instead\n");
      result = 1;
    }
    if (report_failed)
      result = 1;
  }
  criterion_finalize(tests);
  return result;
}
