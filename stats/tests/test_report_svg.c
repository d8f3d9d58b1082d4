/* The chart against golden files, with what it must show, and checked by
 * real tools where installed: xmllint (well-formed XML) and rsvg-convert
 * (it renders). GB_UPDATE_GOLDEN=1 rewrites the goldens (and fails). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "greenbench/analysis.h"
#include "greenbench/records.h"
#include "greenbench/report_svg.h"
#include "helper_report.h"

static char *chart(const gb_analysis *a, size_t *len) {
  char *out;
  gb_err err;
  cr_assert_eq(gb_report_svg(a, &out, len, &err), 0, "%s", err.msg);
  return out;
}

static size_t count(const char *s, const char *what) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, what)); p++) {
    n++;
  }
  return n;
}

static bool have(const char *prog) {
  char path[4096];
  const char *dirs[] = {"/usr/bin", "/usr/local/bin", "/bin"};
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dirs[i], prog);
    if (access(path, X_OK) == 0) {
      return true;
    }
  }
  return false;
}

/* Runs argv with stdout to /dev/null; its exit status, or -1. */
static int run(char *const argv[]) {
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execvp(argv[0], argv);
    _exit(127);
  }
  int st;
  cr_assert_eq(waitpid(pid, &st, 0), pid);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void write_tmp(char *path, size_t len, const char *data, size_t n) {
  snprintf(path, len, "/tmp/gb-chart-XXXXXX.svg");
  int fd = mkstemps(path, 4);
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, data, n), (ssize_t)n);
  close(fd);
}

Test(report_svg, golden_energy) {
  gbt_loaded l = gbt_load_analysed("report-energy");
  size_t len;
  char *svg = chart(l.a, &len);
  gbt_golden("energy", "chart.svg", svg, len);
  free(svg);
  gbt_release(&l);
}

Test(report_svg, golden_energy_off) {
  gbt_loaded l = gbt_load_analysed("report-off");
  size_t len;
  char *svg = chart(l.a, &len);
  gbt_golden("off", "chart.svg", svg, len);
  free(svg);
  gbt_release(&l);
}

Test(report_svg, golden_partial) {
  gbt_loaded l = gbt_load_analysed("report-partial");
  size_t len;
  char *svg = chart(l.a, &len);
  gbt_golden("partial", "chart.svg", svg, len);
  free(svg);
  gbt_release(&l);
}

Test(report_svg, scatter_shows_every_configuration) {
  gbt_loaded l = gbt_load_analysed("report-energy");
  size_t len;
  char *svg = chart(l.a, &len);
  cr_expect(strstr(svg, ">Energy per sort against time per sort</text>"));
  cr_expect(strstr(svg, ">Time per sort (log scale)</text>"));
  cr_expect(strstr(svg, "Energy per sort, net of idle (log scale)</text>"));
  /* One triangle per configuration (all quick), one in the legend. */
  cr_expect_eq(count(svg, "<polygon"), 13);
  /* Constant-power lines near the marks' 18 to 23 W, labelled. */
  cr_expect(strstr(svg, ">10 W</text>") && strstr(svg, ">20 W</text>") &&
            strstr(svg, ">50 W</text>"));
  cr_expect_eq(count(svg, "stroke-dasharray=\"6,4\""), 3);
  cr_expect(strstr(svg, ">1 µs</text>") && strstr(svg, ">100 µJ</text>"), "tick labels");
  cr_expect(strstr(svg, ">Python</text>") && strstr(svg, ">Node.js</text>"), "legend");
  free(svg);
  gbt_release(&l);
}

Test(report_svg, energy_pending_plots_time_against_size) {
  gbt_loaded l = gbt_load_analysed("report-off");
  size_t len;
  char *svg = chart(l.a, &len);
  cr_expect(strstr(svg, ">Time per sort against input size (energy pending)</text>"));
  cr_expect(strstr(svg, ">random input</text>") && strstr(svg, ">sorted input</text>"));
  /* A line per language and algorithm in each of the two panels. */
  cr_expect_eq(count(svg, "<polyline"), 6);
  cr_expect(strstr(svg, ">200</text>"), "size ticks");
  free(svg);
  gbt_release(&l);
}

Test(report_svg, nothing_measured_says_so) {
  gbt_loaded l = gbt_load_analysed("report-energy");
  gb_analysis empty = *l.a;
  empty.n_configs = 0;
  size_t len;
  char *svg = chart(&empty, &len);
  cr_expect(strstr(svg, "No configuration was measured: nothing to plot"));
  cr_expect(strstr(svg, "</svg>\n"));
  free(svg);
  gbt_release(&l);
}

Test(report_svg, is_well_formed_xml) {
  if (!have("xmllint")) {
    cr_skip_test("xmllint is not installed (Debian package libxml2-utils)");
  }
  const char *fixtures[] = {"report-energy", "report-off"};
  for (int i = 0; i < 2; i++) {
    gbt_loaded l = gbt_load_analysed(fixtures[i]);
    size_t len;
    char *svg = chart(l.a, &len), path[64];
    write_tmp(path, sizeof path, svg, len);
    char *argv[] = {"xmllint", "--noout", path, NULL};
    cr_expect_eq(run(argv), 0, "%s: not well-formed", fixtures[i]);
    unlink(path);
    free(svg);
    gbt_release(&l);
  }
}

Test(report_svg, renders) {
  if (!have("rsvg-convert")) {
    cr_skip_test("rsvg-convert is not installed (Debian package librsvg2-bin)");
  }
  const char *fixtures[] = {"report-energy", "report-off"};
  for (int i = 0; i < 2; i++) {
    gbt_loaded l = gbt_load_analysed(fixtures[i]);
    size_t len;
    char *svg = chart(l.a, &len), path[64];
    write_tmp(path, sizeof path, svg, len);
    char png[80];
    snprintf(png, sizeof png, "%s.png", path);
    char *argv[] = {"rsvg-convert", "-o", png, path, NULL};
    cr_expect_eq(run(argv), 0, "%s: rsvg-convert failed", fixtures[i]);
    struct stat st;
    cr_expect(stat(png, &st) == 0 && st.st_size > 1000, "%s: no PNG", fixtures[i]);
    unlink(png);
    unlink(path);
    free(svg);
    gbt_release(&l);
  }
}
