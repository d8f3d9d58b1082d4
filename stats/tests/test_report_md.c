/* results.md against golden files (stats/tests/data/report-golden/), the
 * same bytes twice and under a comma locale, and the statements the report
 * must make. To regenerate the goldens after a deliberate change, run the
 * test binary with GB_UPDATE_GOLDEN=1 (the tests then fail), review the
 * diff, and run it again without. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/analysis.h"
#include "greenbench/carbon.h"
#include "greenbench/records.h"
#include "helper_locale.h"
#include "helper_report.h"
#include "report_md_internal.h"
#include "stats_internal.h"

static char *render(const char *fixture, size_t *len) {
  gbt_loaded l = gbt_load_analysed(fixture);
  gb_err err;
  gb_intensity in[2];
  gbt_default_intensities(in);
  gbi_report_md_opts mo = {.chart_href = "chart.svg", .intensities = in, .n_intensities = 2};
  char *out;
  cr_assert_eq(gbi_report_md(l.a, &mo, &out, len, &err), 0, "%s", err.msg);
  cr_assert_eq(strlen(out), *len);
  gbt_release(&l);
  return out;
}

Test(report_md, golden_energy) {
  size_t len;
  char *md = render("report-energy", &len);
  gbt_golden("energy", "results.md", md, len);
  free(md);
}

Test(report_md, golden_energy_off) {
  size_t len;
  char *md = render("report-off", &len);
  gbt_golden("off", "results.md", md, len);
  free(md);
}

Test(report_md, golden_partial) {
  size_t len;
  char *md = render("report-partial", &len);
  gbt_golden("partial", "results.md", md, len);
  free(md);
}

Test(report_md, same_bytes_twice) {
  size_t a_len, b_len;
  char *a = render("report-energy", &a_len), *b = render("report-energy", &b_len);
  cr_assert_eq(a_len, b_len);
  cr_assert_eq(memcmp(a, b, a_len), 0);
  free(a);
  free(b);
}

Test(report_md, numbers_use_a_dot_under_a_comma_locale) {
  gbt_use_comma_locale();
  size_t len;
  char *md = render("report-energy", &len);
  gbt_golden("energy", "results.md", md, len);
  free(md);
}

Test(report_md, states_what_the_study_asks) {
  size_t len;
  char *md = render("report-energy", &len);
  const char *must[] = {
      "Hyndman & Fan (1996) type 7",
      "| Energy | ok: RAPL zones package-0 (package, socket 0), dram (dram, socket 0) (mode "
      "on) |",
      "| Pinning | CPUs 2,4; the pinning rule held",
      "### 1. Time as a proxy: does energy follow time?",
      "Of the 18 power ratios (12 between languages, 6 between input orders), 6 read *same "
      "power "
      "within 10%*, 12 *differ*",
      "chance alone would give about 0.900 (5%), and more than 3 only one time in 20",
      "1 of 35 measured loops fell short of the 200 ms target; the shortest lasted 195.0 ms",
      "11 configurations reached it, 1 did not, 0 could not be checked: node/quick/random/200",
      "1 of the 35 ok sorting runs with a frequency at both ends ended more than 10% below",
      "python/quick/sorted/200: 2 of 3 planned runs ok (1 timeout)",
      "the campaign planned 3 runs per configuration, fewer than the 30",
      "timeout\\_s 60 \\& was killed \\<SIGKILL\\> \"hard\"",
      "<details markdown=\"1\">\n<summary>Ratios between languages (12 rows)</summary>\n\n| ",
      "| c | quick | random | 100 | 3 of 3 | 100000 | 2.550 [2.499, 2.601] | 2.528 [2.477, "
      "2.579] "
      "| 45.8 [44.8, 46.8] |",
      "![Energy per sort against time per sort",
      "](chart.svg)",
      "see stats/data/README.md",
      "| United Kingdom | GBR |",
  };
  for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
    cr_expect(strstr(md, must[i]), "results.md lacks: %s", must[i]);
  }
  cr_expect_null(strstr(md, "pending"));
  free(md);
}

/* Issue 32, D: the legend says exactly what "differs" means (the interval
 * excludes 1, and may lie partly inside the margin), never that it reaches
 * beyond the margin. */
Test(report_md, legend_says_differs_means_the_interval_excludes_one) {
  size_t len;
  char *md = render("report-energy", &len);
  cr_expect(strstr(md, "otherwise *differs* when the interval excludes 1, which is all that "
                       "*differs* says: part of such an interval may lie inside the margin;"),
            "legend of differs");
  cr_expect_null(strstr(md, "(and reaches beyond the margin)"));
  free(md);
}

Test(report_md, energy_pending_reads_pending) {
  size_t len;
  char *md = render("report-off", &len);
  const char *must[] = {
      "> **Energy pending.** Energy was not measured in this campaign (energy off",
      "### 1. Time as a proxy: does energy follow time?\n\n**Pending.**",
      "| Python / C | quick | 4 | ",
      "| pending | pending | pending |",
      "Every carbon figure is *pending*",
      ("0 configurations reached it, 0 did not, 12 could not be checked (no warmups.csv in the "
       "records)"),
      "![Time per sort against input size",
  };
  for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
    cr_expect(strstr(md, must[i]), "results.md lacks: %s", must[i]);
  }
  /* Time ratios keep their intervals. */
  cr_expect(strstr(md, "| Python / C | quick | random | 100 | 157.0 [152.5, 162.0] | pending | "
                       "pending | pending |"),
            "time ratio interval");
  cr_expect_null(strstr(md, "| same power |"), "no reading without energy");
  cr_expect_null(strstr(md, " W ["), "no power figure without energy");
  free(md);
}

Test(report_md, partial_campaign_is_flagged) {
  size_t len;
  char *md = render("report-partial", &len);
  cr_expect(strstr(md, "> **Partial campaign.**"));
  cr_expect(strstr(md, "NOT completed: 50 of 72 planned runs done"));
  cr_expect(strstr(md, "| node | quick | sorted | 200 | 0 of 0 | n/a | not measured |"));
  cr_expect(strstr(md, "node/quick/sorted/200: 0 of 3 measured runs in runs.csv"));
  free(md);
}

/* A figure not above 0 is flagged where it is printed and listed in the
 * data checks; extended warm-ups are counted (issue 15, items 3 and 4). */
Test(report_md, noise_is_shown_not_hidden) {
  size_t len;
  char *md = render("report-noisy", &len);
  cr_expect(strstr(md, "| c | quick | sorted | 100 | 3 of 3 | 1 | -50 [-324, 28] ⚠ not above 0 "
                       "‡ loop time 9.000 | -108 [-369, -33] | -5838 [-5910, -5784] ⚠ not "
                       "above 0 | undefined |"));
  cr_expect(strstr(md, "⚠ not above 0: the median time or energy per sort is zero or below"));
  cr_expect(strstr(md, "- **Per-sort figures above 0**: 1 of 12 measured configurations have a "
                       "median time or energy per sort of zero or below (the startup cost "
                       "subtracted is as large as the sort): c/quick/sorted/100 (time and "
                       "energy).\n"));
  cr_expect(strstr(md, "2 warm-ups per configuration (1 of them extended warm-up to reach a "
                       "plateau, up to 4 warm-ups)"));
  free(md);
  md = render("report-energy", &len);
  cr_expect(strstr(md, "- **Per-sort figures above 0**: 0 of 12 measured configurations"));
  cr_expect_null(strstr(md, "] ⚠"), "no figure is flagged");
  cr_expect_null(strstr(md, "extended warm-up"));
  free(md);
}

/* A ratio's point outside its own interval (resamples without a value
 * left out) is marked with the count of resamples behind the interval;
 * a summary over fewer defined ratios than its group says how many. */
Test(report_md, a_point_outside_its_interval_is_marked) {
  gbt_loaded l = gbt_load_analysed("report-energy");
  gb_analysis *a = (gb_analysis *)l.a;
  gb_interval *iv = &a->ratios[0].ratio.time;
  double width = iv->hi - iv->lo;
  iv->lo = iv->point + width;
  iv->hi = iv->point + 2 * width;
  iv->n_used = 9876;
  gb_err err;
  gb_intensity in[2];
  gbt_default_intensities(in);
  gbi_report_md_opts mo = {.chart_href = "chart.svg", .intensities = in, .n_intensities = 2};
  char *md;
  size_t len;
  cr_assert_eq(gbi_report_md(a, &mo, &md, &len, &err), 0, "%s", err.msg);
  cr_expect(strstr(md, "] † outside its interval of 9876 of 10000 |"));
  cr_expect(strstr(md, "† outside its interval of N of 10000: in 1 rows a ratio's point "
                       "estimate"));
  free(md);
  gbt_release(&l);
  md = render("report-partial", &len);
  cr_expect(strstr(md, "| Python / C | quick | 4 | 158.5 (156.9 to 160.0), 2 of 4 defined |"));
  cr_expect_null(strstr(md, "] †"), "no ratio is marked");
  free(md);
}

/* Records whose answer to question 1 is known by construction
 * (report-gen/make_verdicts.py): each branch of the verdict, and the
 * many-inconclusive note beside it where one in five or more readings is
 * inconclusive. */
Test(report_md, each_verdict_from_records_with_a_known_answer) {
  static const struct {
    const char *fixture, *verdict;
    bool noisy;
  } cases[] = {
      {"report-verdict-yes", "**Yes: most power ratios read the same power within the margin",
       false},
      {"report-verdict-differs",
       "**Within the margin, yes; but power differs measurably: most power ratios read the "
       "same power within 10%, so time predicts energy to within 10%, yet more power "
       "intervals exclude 1 than chance alone would produce.**",
       false},
      {"report-verdict-no", "**No: too few power ratios read the same power within the margin",
       true},
      {"report-verdict-noisy",
       "**Too noisy to decide: most defined power ratios are inconclusive.**", true},
      {"report-verdict-cannot",
       "**Cannot be answered from these records: no power ratio is defined.**\n\nThe campaign "
       "measured no two configurations that a power ratio compares",
       false},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t len;
    char *md = render(cases[i].fixture, &len);
    cr_expect(strstr(md, cases[i].verdict), "%s lacks: %s", cases[i].fixture, cases[i].verdict);
    cr_expect_eq(strstr(md, "Many readings are inconclusive") != NULL, cases[i].noisy, "%s",
                 cases[i].fixture);
    free(md);
  }
  size_t len;
  char *md = render("report-verdict-no", &len);
  cr_expect(strstr(md, "Many readings are inconclusive: 1 of the 4 defined (one in 5 or more "
                       "counts as many)"));
  cr_expect(strstr(md, "1 read *same power within 10%*, 2 *differ*, 1 is *inconclusive* and 0 "
                       "*undefined*. 2 of the 4 defined power intervals exclude 1"));
  free(md);
}

/* Issue 32: the rank-agreement intervals do not cover 95% (the coverage
 * study), so the report states the coverage measured beside them, and
 * its figures are those of the Spearman row of docs/methods.md's coverage
 * table. */
Test(report_md, rank_intervals_carry_their_measured_coverage) {
  size_t len;
  char *md = render("report-energy", &len);
  const char *at = strstr(md, "## Rank agreement");
  cr_assert_not_null(at);
  const char *stated =
      strstr(at, "held the true rho in " GB_MD_RANK_COVERAGE_STUDY " of scopes");
  cr_assert_not_null(stated);
  cr_assert_lt(stated, strstr(at, "| Scope |"), "stated before the table");
  cr_assert_not_null(strstr(at, "and in " GB_MD_RANK_COVERAGE_SMALL " on a small design"));
  free(md);
  double study, se, small;
  cr_assert_eq(
      sscanf(GB_MD_RANK_COVERAGE_STUDY, "%lf%% (Monte Carlo standard error %lf", &study, &se),
      2);
  cr_assert_eq(sscanf(GB_MD_RANK_COVERAGE_SMALL, "%lf%%", &small), 1);
  cr_assert(study < 93.0 || study > 97.0, "a coverage within 93-97%% needs no statement");
  char *methods = gbt_slurp_or_fail(GB_TEST_DATA_DIR "/../../../docs/methods.md");
  const char *row = strstr(methods, "\n| Spearman rho (every scope) | ");
  cr_assert_not_null(row, "docs/methods.md has the Spearman row of its coverage table");
  char want[64];
  snprintf(want, sizeof want, "| %.1f%% (%.1f) |", study, se);
  const char *end = strchr(row + 1, '\n');
  const char *found = strstr(row, want);
  cr_assert(found && found < end, "the row states %s", want);
  snprintf(want, sizeof want, "| %.1f%% (", small);
  found = strstr(row, want);
  cr_assert(found && found < end, "the row states %s", want);
  free(methods);
}
