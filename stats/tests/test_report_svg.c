/* The chart against golden files, with what it must show, and checked by
 * real tools where installed: xmllint (well-formed XML) and rsvg-convert
 * (it renders). GB_UPDATE_GOLDEN=1 rewrites the goldens. */
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

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
  s[n] = '\0';
  fclose(f);
  *len = (size_t)n;
  return s;
}

static void golden(const char *fixture, const char *got, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/report-golden/%s/chart.svg", GB_TEST_DATA_DIR, fixture);
  if (getenv("GB_UPDATE_GOLDEN")) {
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "%s", path);
    fwrite(got, 1, len, f);
    fclose(f);
    return;
  }
  size_t want_len;
  char *want = slurp(path, &want_len);
  cr_assert_not_null(want, "%s: missing golden file", path);
  size_t line = 1, i = 0;
  for (; i < len && i < want_len && got[i] == want[i]; i++) {
    line += got[i] == '\n';
  }
  cr_assert(i == len && i == want_len, "%s: differs from the output at line %zu", path, line);
  free(want);
}

typedef struct {
  gb_records *r;
  gb_analysis *a;
} loaded;

static loaded analyse(const char *name) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", GB_TEST_DATA_DIR, name);
  loaded l;
  gb_err err;
  cr_assert_eq(gb_records_read(dir, &l.r, &err), 0, "%s", err.msg);
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  cr_assert_eq(gb_analysis_run(l.r, &o, &l.a, &err), 0, "%s", err.msg);
  return l;
}

static void release(loaded *l) {
  gb_analysis_free(l->a);
  gb_records_free(l->r);
}

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
  loaded l = analyse("report-energy");
  size_t len;
  char *svg = chart(l.a, &len);
  golden("energy", svg, len);
  free(svg);
  release(&l);
}

Test(report_svg, golden_energy_off) {
  loaded l = analyse("report-off");
  size_t len;
  char *svg = chart(l.a, &len);
  golden("off", svg, len);
  free(svg);
  release(&l);
}

Test(report_svg, golden_partial) {
  loaded l = analyse("report-partial");
  size_t len;
  char *svg = chart(l.a, &len);
  golden("partial", svg, len);
  free(svg);
  release(&l);
}

Test(report_svg, scatter_shows_every_configuration) {
  loaded l = analyse("report-energy");
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
  release(&l);
}

Test(report_svg, energy_pending_plots_time_against_size) {
  loaded l = analyse("report-off");
  size_t len;
  char *svg = chart(l.a, &len);
  cr_expect(strstr(svg, ">Time per sort against input size (energy pending)</text>"));
  cr_expect(strstr(svg, ">random input</text>") && strstr(svg, ">sorted input</text>"));
  /* A line per language and algorithm in each of the two panels. */
  cr_expect_eq(count(svg, "<polyline"), 6);
  cr_expect(strstr(svg, ">200</text>"), "size ticks");
  free(svg);
  release(&l);
}

Test(report_svg, nothing_measured_says_so) {
  loaded l = analyse("report-energy");
  gb_analysis empty = *l.a;
  empty.n_configs = 0;
  size_t len;
  char *svg = chart(&empty, &len);
  cr_expect(strstr(svg, "No configuration was measured: nothing to plot"));
  cr_expect(strstr(svg, "</svg>\n"));
  free(svg);
  release(&l);
}

Test(report_svg, is_well_formed_xml) {
  if (!have("xmllint")) {
    cr_skip_test("xmllint is not installed (Debian package libxml2-utils)");
  }
  const char *fixtures[] = {"report-energy", "report-off"};
  for (int i = 0; i < 2; i++) {
    loaded l = analyse(fixtures[i]);
    size_t len;
    char *svg = chart(l.a, &len), path[64];
    write_tmp(path, sizeof path, svg, len);
    char *argv[] = {"xmllint", "--noout", path, NULL};
    cr_expect_eq(run(argv), 0, "%s: not well-formed", fixtures[i]);
    unlink(path);
    free(svg);
    release(&l);
  }
}

Test(report_svg, renders) {
  if (!have("rsvg-convert")) {
    cr_skip_test("rsvg-convert is not installed (Debian package librsvg2-bin)");
  }
  const char *fixtures[] = {"report-energy", "report-off"};
  for (int i = 0; i < 2; i++) {
    loaded l = analyse(fixtures[i]);
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
    release(&l);
  }
}
