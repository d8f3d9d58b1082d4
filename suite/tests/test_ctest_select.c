/* How the fixture reads a ctest command line (ctest_select.h; ADR 0016):
 * which arguments reach the listing, which are refused, and where the
 * reason of a refusal is written. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctest_select.h"

/* The listing's command for ctest's argv (NULL-terminated), joined by
 * spaces after "ctest --show-only=json-v1", into out; the return value of
 * gbi_ctest_args, and the reason in why. */
static int sorted(char *const *argv, char *out, size_t len, char *why, gbi_ctest_run *c) {
  size_t n = 0;
  while (argv[n])
    n++;
  *c = (gbi_ctest_run){.pid = 1};
  strcpy(c->exe, "/usr/bin/ctest");
  why[0] = '\0';
  int rc = gbi_ctest_args(c, argv, n, why, 512);
  size_t at = 0;
  out[0] = '\0';
  for (size_t i = 2; rc == 0 && i < c->argc; i++)
    at += (size_t)snprintf(out + at, len - at, "%s%s", i > 2 ? " " : "", c->argv[i]);
  return rc;
}

#define ARGS(...) ((char *[]){"ctest", __VA_ARGS__, NULL})

Test(ctest_select, keeps_what_selects_and_drops_the_rest) {
  char out[512], why[512];
  gbi_ctest_run c;
  cr_assert_eq(
      sorted(ARGS("--test-dir", "build", "-j4", "-L", "smoke", "-V", "--output-junit", "j.xml",
                  "-LE", "x", "--output-on-failure", "-R", "r", "-E", "e", "-I", "1,2", "-U",
                  "-C", "Release", "--no-tests=error", "--timeout", "9"),
             out, sizeof out, why, &c),
      0, "%s", why);
  cr_assert_str_eq(out, "-L smoke -LE x -R r -E e -I 1,2 -U -C Release");
  cr_assert_not(c.preset);
  cr_assert_eq(c.nprobe, 0, "no joined form: nothing to check");
  gbi_ctest_run_free(&c);
}

Test(ctest_select, long_forms_are_kept) {
  char out[512], why[512];
  gbi_ctest_run c;
  cr_assert_eq(sorted(ARGS("--label-regex", "smoke", "--label-exclude", "x", "--tests-regex",
                           "r", "--exclude-regex", "e", "--tests-information", "1", "--union",
                           "--fixture-exclude-setup", "f", "--rerun-failed"),
                      out, sizeof out, why, &c),
               0, "%s", why);
  cr_assert_str_eq(out,
                   "--label-regex smoke --label-exclude x --tests-regex r --exclude-regex e "
                   "--tests-information 1 --union --fixture-exclude-setup f --rerun-failed");
  gbi_ctest_run_free(&c);
}

Test(ctest_select, a_preset_keeps_its_test_dir) {
  char out[512], why[512];
  gbi_ctest_run c;
  cr_assert_eq(sorted(ARGS("--preset=default", "--test-dir", "b", "-L", "smoke"), out,
                      sizeof out, why, &c),
               0, "%s", why);
  cr_assert(c.preset);
  cr_assert_str_eq(out, "--preset=default -L smoke --test-dir b");
  gbi_ctest_run_free(&c);
  cr_assert_eq(sorted(ARGS("--preset", "default"), out, sizeof out, why, &c), 0, "%s", why);
  cr_assert(c.preset);
  cr_assert_str_eq(out, "--preset default");
  gbi_ctest_run_free(&c);
}

Test(ctest_select, a_joined_form_is_checked_against_its_parts) {
  char out[512], why[512];
  gbi_ctest_run c;
  cr_assert_eq(
      sorted(ARGS("--label-regex=smoke", "-Llanguage=c", "-LE=x"), out, sizeof out, why, &c), 0,
      "%s", why);
  cr_assert_str_eq(out, "--label-regex=smoke -Llanguage=c -LE=x");
  cr_assert_eq(c.nprobe, 8, "the probe: exe, --show-only and three options apart");
  cr_assert_str_eq(c.probe[2], "--label-regex");
  cr_assert_str_eq(c.probe[3], "smoke");
  cr_assert_str_eq(c.probe[4], "-L");
  cr_assert_str_eq(c.probe[5], "language=c");
  cr_assert_str_eq(c.probe[6], "-LE", "the longest option name that fits");
  cr_assert_str_eq(c.probe[7], "x");
  cr_assert(strstr(c.joined, "'--label-regex=smoke'"), "%s", c.joined);
  gbi_ctest_run_free(&c);
}

Test(ctest_select, an_unknown_argument_is_refused) {
  char out[512], why[512];
  gbi_ctest_run c;
  cr_assert_eq(sorted(ARGS("-L", "smoke", "--new-option"), out, sizeof out, why, &c), -1);
  cr_assert(strstr(why, "'--new-option' is not an option of CTest 3.25"), "%s", why);
  gbi_ctest_run_free(&c);
  /* --label-regexp is not --label-regex with a value. */
  cr_assert_eq(sorted(ARGS("--label-regexp"), out, sizeof out, why, &c), -1);
  gbi_ctest_run_free(&c);
  /* CTest 3.25 takes the next argument as -j's value, whatever it is: the
   * selection's value is then a stray argument, refused. */
  cr_assert_eq(sorted(ARGS("-j", "-L", "smoke"), out, sizeof out, why, &c), -1);
  cr_assert(strstr(why, "'smoke'"), "%s", why);
  gbi_ctest_run_free(&c);
}

Test(ctest_select, dashboard_and_script_modes_are_refused) {
  const char *modes[] = {"-D", "-T", "-M", "-S", "-SP", "--build-and-test", "--dashboard"};
  for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
    char out[512], why[512];
    gbi_ctest_run c;
    cr_assert_eq(sorted(ARGS((char *)modes[i], "x"), out, sizeof out, why, &c), -1, "%s",
                 modes[i]);
    cr_assert(strstr(why, "dashboard, script or build-and-test mode"), "%s", why);
    gbi_ctest_run_free(&c);
  }
}

Test(ctest_select, a_process_that_is_gone_cannot_be_read) {
  gbi_ctest_run c = {.pid = 999999999};
  char why[512];
  cr_assert_eq(gbi_ctest_read(&c, why, sizeof why), -1);
  cr_assert(strstr(why, "cannot read the folder of ctest"), "%s", why);
  gbi_ctest_run_free(&c);
}

Test(ctest_select, a_listing_of_another_tree_is_refused) {
  char dir[] = "/tmp/gb-ctest-select-XXXXXX", why[512], *json = NULL;
  cr_assert_not_null(mkdtemp(dir));
  gbi_ctest_run c = {.pid = 1};
  strcpy(c.exe, "/usr/bin/ctest");
  strcpy(c.cwd, dir);
  char *argv[] = {"ctest", "-L", "smoke", NULL};
  cr_assert_eq(gbi_ctest_args(&c, argv, 3, why, sizeof why), 0, "%s", why);
  cr_assert_eq(gbi_ctest_list(&c, "smoke/campaign", &json, why, sizeof why), -1);
  cr_assert(strstr(why, "does not list this executable as smoke/campaign"), "%s", why);
  gbi_ctest_run_free(&c);
  /* With --preset, where no folder holds presets. */
  c = (gbi_ctest_run){.pid = 1};
  strcpy(c.exe, "/usr/bin/ctest");
  strcpy(c.cwd, dir);
  char *preset[] = {"ctest", "--preset", "default", NULL};
  setenv("PWD", dir, 1);
  cr_assert_eq(gbi_ctest_args(&c, preset, 3, why, sizeof why), 0, "%s", why);
  cr_assert_eq(gbi_ctest_list(&c, "smoke/campaign", &json, why, sizeof why), -1);
  cr_assert(strstr(why, "no folder with CMake presets"), "%s", why);
  gbi_ctest_run_free(&c);
  rmdir(dir);
}

/* gbi_ctest_tell to this process, whose standard output is fd for the call. */
static void told(int fd) {
  int saved = dup(1);
  cr_assert_geq(saved, 0);
  cr_assert_geq(dup2(fd, 1), 0);
  gbi_ctest_tell(getpid(), "greenbench-suite: error: the reason");
  dup2(saved, 1);
  close(saved);
}

Test(ctest_select, the_reason_reaches_ctest_through_a_pipe) {
  int p[2];
  cr_assert_eq(pipe(p), 0);
  char buf[128] = "";
  told(p[1]);
  close(p[1]);
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  cr_assert_gt(n, 0);
  buf[n] = '\0';
  cr_assert_str_eq(buf, "greenbench-suite: error: the reason\n");
}

Test(ctest_select, a_file_written_at_its_offset_is_left_alone) {
  char path[] = "/tmp/gb-ctest-tell-XXXXXX", buf[128];
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  told(fd);
  cr_assert_eq(lseek(fd, 0, SEEK_END), 0, "a line at offset 0 that ctest would overwrite");
  close(fd);
  /* Opened for appending (`ctest >>log`), the line is added. */
  fd = open(path, O_WRONLY | O_APPEND);
  cr_assert_geq(fd, 0);
  told(fd);
  close(fd);
  FILE *f = fopen(path, "r");
  cr_assert_not_null(f);
  cr_assert_not_null(fgets(buf, sizeof buf, f));
  fclose(f);
  unlink(path);
  cr_assert_str_eq(buf, "greenbench-suite: error: the reason\n");
}
