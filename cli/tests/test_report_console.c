/* What report prints when done (cli_report_console.c), --quiet, and
 * run --dry-run refusing the records folder the run would refuse. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "greenbench/cli.h"
#include "helper_report.h"

static char out_text[16384], err_text[4096];

/* The command fn on a NULL-terminated argv, its streams captured. */
static int call(int (*fn)(int, char **, const gb_cli_env *), char **argv) {
  int argc = 0;
  while (argv[argc])
    argc++;
  FILE *out = fmemopen(out_text, sizeof out_text, "w"),
       *err = fmemopen(err_text, sizeof err_text, "w");
  cr_assert(out && err);
  gb_cli_env env = {.out = out, .err = err};
  int rc = fn(argc, argv, &env);
  fclose(out);
  fclose(err);
  return rc;
}

static void copy_fixture(const char *fixture, char *dir, size_t len) {
  gbt_copy_fixture(fixture, "/tmp/gb-console-XXXXXX", GBT_SKIP_MISSING, dir, len);
}

static void remove_tree(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  cr_assert_eq(system(cmd), 0);
}

Test(report_console, lists_the_files_and_a_table_with_energy) {
  char dir[64], line[256];
  copy_fixture("report-energy", dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(call(gb_cli_report, argv), 0, "%s", err_text);
  const char *names[] = {"results.md", "junit.xml", "chart.svg", "summary.json",
                         "datapackage.json"};
  cr_assert_eq(strncmp(out_text, "wrote:\n", 7), 0, "%s", out_text);
  for (int i = 0; i < 5; i++) {
    snprintf(line, sizeof line, "\n  %s/%s\n", dir, names[i]);
    cr_assert(strstr(out_text, line), "'%s' not in:\n%s", line, out_text);
  }
  cr_assert(strstr(out_text, "random input, size 200: medians per sort with 95% intervals\n"),
            "%s", out_text);
  /* summary.json's figures, in the unit each fits. */
  cr_assert(strstr(out_text,
                   "\n  c        quick       6.16 us [6.104, 6.234]          110.6 uJ "
                   "[109.2, 112.7]\n"),
            "%s", out_text);
  cr_assert(strstr(out_text,
                   "\n  python   quick       985.5 us [975.8, 998]           19.48 mJ "
                   "[19.21, 19.83]\n"),
            "%s", out_text);
  remove_tree(dir);
}

Test(report_console, says_energy_was_not_measured) {
  char dir[64];
  copy_fixture("report-off", dir, sizeof dir);
  char *argv[] = {"report", dir, NULL};
  cr_assert_eq(call(gb_cli_report, argv), 0, "%s", err_text);
  cr_assert(
      strstr(out_text, "  c        quick       6.16 us [6.104, 6.234]          not measured\n"),
      "%s", out_text);
  remove_tree(dir);
}

Test(report_console, quiet_prints_nothing) {
  char dir[64];
  copy_fixture("report-energy", dir, sizeof dir);
  char *argv[] = {"report", "--quiet", dir, NULL};
  cr_assert_eq(call(gb_cli_report, argv), 0, "%s", err_text);
  cr_assert_str_empty(out_text);
  remove_tree(dir);
}

/* The packed outputs and named paths are listed as given. */
Test(report_console, lists_named_outputs_and_no_datapackage) {
  char dir[64], md[128];
  copy_fixture("report-energy", dir, sizeof dir);
  snprintf(md, sizeof md, "%s/elsewhere.md", dir);
  char *argv[] = {"report", dir, "--out", md, "--no-datapackage", NULL};
  cr_assert_eq(call(gb_cli_report, argv), 0, "%s", err_text);
  cr_assert(strstr(out_text, "wrote:\n  "), "%s", out_text);
  cr_assert(strstr(out_text, "/elsewhere.md\n"), "%s", out_text);
  cr_assert_null(strstr(out_text, "datapackage.json"), "%s", out_text);
  remove_tree(dir);
}

Test(run_dry_run, refuses_a_folder_the_run_would_refuse) {
  char dir[] = "/tmp/gb-dry-XXXXXX", file[64], link[64];
  cr_assert_not_null(mkdtemp(dir));
  snprintf(file, sizeof file, "%s/runs.csv", dir);
  FILE *f = fopen(file, "w");
  cr_assert_not_null(f);
  fclose(f);
  char *argv[] = {"run", "--profile", "smoke", "--dry-run", "--out", dir, NULL};
  cr_assert_eq(call(gb_cli_run, argv), 1);
  cr_assert_str_empty(out_text);
  char want[256];
  snprintf(
      want, sizeof want,
      "greenbench: error: run: %s is not empty: records are never overwritten (choose a new "
      "--out, or --resume it)\n",
      dir);
  cr_assert_str_eq(err_text, want);
  /* A symbolic link, refused as the run refuses it. */
  snprintf(link, sizeof link, "%s-link", dir);
  cr_assert_eq(symlink(dir, link), 0);
  argv[5] = link;
  cr_assert_eq(call(gb_cli_run, argv), 1);
  cr_assert(strstr(err_text, "is a symbolic link: records are written only into a real folder"),
            "%s", err_text);
  unlink(link);
  /* Empty, or missing: the plan is printed. */
  unlink(file);
  argv[5] = dir;
  cr_assert_eq(call(gb_cli_run, argv), 0, "%s", err_text);
  cr_assert(strstr(out_text, "profile smoke: "), "%s", out_text);
  rmdir(dir);
  cr_assert_eq(call(gb_cli_run, argv), 0, "%s", err_text);
  struct stat st;
  cr_assert_neq(stat(dir, &st), 0, "the plan made the folder");
}
