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
#include "helper_report.h"
#include "stats_internal.h"

static char *chart(const gb_analysis *a, size_t *len) {
  char *out;
  gb_err err;
  cr_assert_eq(gbi_report_svg(a, &out, len, &err), 0, "%s", err.msg);
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

/* The chart's note: the text of its grey lines, joined with spaces as
 * they were before wrapping. */
static char *note_of(const char *svg) {
  const char *open = " fill=\"#555\">";
  char *n = calloc(strlen(svg) + 1, 1);
  cr_assert(n);
  for (const char *p = svg; (p = strstr(p, open)); p++) {
    p += strlen(open);
    const char *end = strstr(p, "</text>");
    cr_assert(end);
    if (*n) {
      strcat(n, " ");
    }
    strncat(n, p, (size_t)(end - p));
  }
  return n;
}

/* The energy-off fixture with three configurations a log axis cannot show
 * whole: python/quick/random/100 with a median time per sort below 0 (the
 * startup larger than the sort), c/quick/sorted/200 with an interval
 * reaching below 0, node/quick/sorted/100 not measured. The copy of the
 * configurations is the caller's to free. */
static gb_analysis with_undrawable(const gb_analysis *a, gb_an_config **configs) {
  gb_analysis u = *a;
  *configs = malloc(a->n_configs * sizeof **configs);
  cr_assert(*configs);
  memcpy(*configs, a->configs, a->n_configs * sizeof **configs);
  u.configs = *configs;
  gb_an_config *neg = (gb_an_config *)gb_analysis_find(&u, GB_PYTHON, GB_QUICK, GB_RANDOM, 100);
  gb_an_config *wide = (gb_an_config *)gb_analysis_find(&u, GB_C, GB_QUICK, GB_SORTED, 200);
  gb_an_config *none = (gb_an_config *)gb_analysis_find(&u, GB_NODE, GB_QUICK, GB_SORTED, 100);
  cr_assert(neg && wide && none);
  gb_interval *t = &neg->boot.est[GB_EST_TIME_PER_SORT];
  t->point = -656.2e3;
  t->lo = -6532e3;
  t->hi = 6611e3;
  wide->boot.est[GB_EST_TIME_PER_SORT].lo = -10.0;
  none->measured = false;
  return u;
}

Test(report_svg, golden_undrawn) {
  gbt_loaded l = gbt_load_analysed("report-off");
  gb_an_config *configs;
  gb_analysis u = with_undrawable(l.a, &configs);
  size_t len;
  char *svg = chart(&u, &len);
  gbt_golden("undrawn", "chart.svg", svg, len);
  free(svg);
  free(configs);
  gbt_release(&l);
}

Test(report_svg, time_chart_says_what_it_cannot_draw) {
  gbt_loaded l = gbt_load_analysed("report-off");
  gb_an_config *configs;
  gb_analysis u = with_undrawable(l.a, &configs);
  size_t len;
  char *svg = chart(&u, &len);
  char *n = note_of(svg);
  cr_expect(strstr(n, "Not on the chart, or not whole (a log axis has no place for 0 or "
                      "below): - not measured (no ok run, or no startup cost to subtract) "
                      "(1): node/quick/sorted/100."),
            "the unmeasured configuration is named: %s", n);
  cr_expect(strstr(n, " median time per sort at or below 0 (the startup subtracted is as "
                      "large as the sort), no mark (1): python/quick/random/100."),
            "the configuration below 0 is named: %s", n);
  cr_expect(strstr(n, " 95% interval reaching 0 or below, its bar drawn to the panel's lower "
                      "edge with an arrow (1): c/quick/sorted/200."),
            "the interval reaching 0 is named: %s", n);
  free(n);
  /* No line joins across a missing point: python/random keeps one point,
   * node/sorted one, so two of the six lines are gone; their marks stay. */
  cr_expect_eq(count(svg, "<polyline"), 4);
  /* Marks: 12 configurations less the two without a median above 0, and
   * the three of the legend (all triangles, quick). */
  cr_expect_eq(count(svg, "<polygon"), 10 + 1);
  /* Arrows at the lower edge: the wide interval, and the positive part of
   * the one whose median is below 0. */
  cr_expect_eq(count(svg, "<path fill=\"none\""), 2);
  free(svg);
  free(configs);
  gbt_release(&l);
}

Test(report_svg, scatter_says_what_it_cannot_draw) {
  gbt_loaded l = gbt_load_analysed("report-energy");
  gb_analysis u = *l.a;
  gb_an_config *configs = malloc(u.n_configs * sizeof *configs);
  cr_assert(configs);
  memcpy(configs, u.configs, u.n_configs * sizeof *configs);
  u.configs = configs;
  configs[0].boot.est[GB_EST_ENERGY_PER_SORT].point = -656.2;
  configs[1].boot.est[GB_EST_TIME_PER_SORT].lo = -1.0;
  char first[96], second[96], want[256];
  gb_an_config_label(&configs[0], first, sizeof first);
  gb_an_config_label(&configs[1], second, sizeof second);
  size_t len;
  char *svg = chart(&u, &len), *n = note_of(svg);
  snprintf(want, sizeof want,
           "median energy per sort at or below 0 (the startup subtracted is "
           "as large as the sort), no mark (1): %s.",
           first);
  cr_expect(strstr(n, want), "%s", n);
  snprintf(want, sizeof want,
           "95%% interval reaching 0 or below, its whisker drawn to the "
           "plot's edge (1): %s.",
           second);
  cr_expect(strstr(n, want), "%s", n);
  cr_expect_eq(count(svg, "<polygon"), 12, "one mark fewer, the legend's kept");
  free(n);
  free(svg);
  free(configs);
  gbt_release(&l);
}

Test(report_svg, time_chart_has_intervals_and_a_legend_row) {
  gbt_loaded l = gbt_load_analysed("report-off");
  size_t len;
  char *svg = chart(l.a, &len);
  cr_expect(strstr(svg, ">95% interval</text>"), "the legend names the bars");
  cr_expect(strstr(svg, "Medians of the ok runs with 95% intervals"), "the subtitle says so");
  /* One bar with two caps per measured configuration, and the legend's. */
  cr_expect_eq(count(svg, "stroke-width=\"1.2\" stroke-opacity=\"0.7\""), 12 * 3);
  cr_expect(!strstr(svg, "Not on the chart"), "every point drawn: no note");
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
