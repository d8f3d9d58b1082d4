/* Private to the results.md writer (report_md*.c): its state and the cells
 * and sections its files share. */
#ifndef GREENBENCH_REPORT_MD_INTERNAL_H
#define GREENBENCH_REPORT_MD_INTERNAL_H

#include "greenbench/analysis.h"
#include "stats_internal.h"
#include "textbuf.h"

#include <stdbool.h>
#include <stddef.h>

#define FOLD_ROWS 10
#define SIG 4
/* The measured coverage of the rank-agreement intervals: the Spearman row of
 * the coverage table in docs/methods.md, "Coverage of the intervals" (the
 * study's design, 100 campaigns; the small design, 300). */
#define GB_MD_RANK_COVERAGE_STUDY "87.8% (Monte Carlo standard error 0.6 points)"
#define GB_MD_RANK_COVERAGE_SMALL "99.9%"
/* Marks after a figure, explained under each table that can hold them. */
#define FLAG_NONPOSITIVE "⚠ not above 0"
#define FLAG_OUTSIDE "† outside its interval of"
/* Time per sort that disagrees with the worker's own loop time, and a CPU
 * time per sort that the workers' CPUs could not have spent (Data checks). */
#define FLAG_LOOP "‡ loop time"
#define FLAG_CPU "⊘ impossible"

typedef struct {
  gbi_textbuf *b;
  const gb_analysis *a;
  const gbi_report_md_opts *o;
  const gb_meta *m;
  char level[24];  /* the intervals' coverage, "95%" */
  char chance[24]; /* what chance alone gives, "5%" */
} md;

/* ---- Cells (report_md_cells.c) ---------------------------------------------- */

/* Text safe inside a paragraph or a table cell: Markdown punctuation
 * backslash-escaped, line breaks and control characters as spaces. */
void md_text(gbi_textbuf *b, const char *s);
/* A code span whose fence is longer than any run of backticks inside. */
void md_code(gbi_textbuf *b, const char *s);
/* A <details> block that renders its Markdown body in cmark-gfm and in
 * python-markdown (md_in_html): open, the summary's text, then the body. */
void md_details_open(gbi_textbuf *b);
void md_details_body(gbi_textbuf *b);
/* A table of rows rows, folded into <details> when longer than FOLD_ROWS. */
void md_fold_open(gbi_textbuf *b, size_t rows, const char *what);
void md_fold_close(gbi_textbuf *b, size_t rows);
/* The carbon section's heading and first paragraph, per `unit` of work
 * ("sort", "repetition"), and the table of the intensities used; shared by
 * the study's results.md and a suite's. */
void md_carbon_intro(gbi_textbuf *b, const char *unit);
void md_carbon_intensities(gbi_textbuf *b, const gb_intensity *all, size_t n);
/* The carbon table's head: the key columns, then net and with-idle columns
 * per intensity; and one cell, micrograms CO2e of an energy interval. */
void md_carbon_head(gbi_textbuf *b, const char *const *keys, size_t n_keys,
                    const gb_intensity *all, size_t n);
void md_carbon_interval(gbi_textbuf *b, const gb_interval *iv, double g_per_kwh);
/* "missing" with energy measured, "pending" without. */
const char *md_missing_word(const gb_analysis *a);
/* An estimate of c scaled to the table's unit, with its interval and marks. */
void md_est(md *d, const gb_an_config *c, gb_estimate e, double scale);
/* A ratio with its interval, or why there is none, and its marks. */
void md_ratio_cell(md *d, const gb_an_ratio *r, const gb_interval *iv, bool energy);
/* Whether either side of r has a time per sort that disagrees with its
 * loop time (FLAG_LOOP): its ratios stand on that figure. */
bool md_ratio_loop_flagged(const gb_analysis *a, const gb_an_ratio *r);
const char *md_reading_text(const gb_analysis *a, const gb_an_ratio *r);
/* "median (min to max)", or n/a. */
void md_range_cell(gbi_textbuf *b, const double v[3]);
/* The same, with ", U of N defined" when only U of the group's n are. */
void md_summary_cell(gbi_textbuf *b, const double v[3], size_t used, size_t n);
void md_readings_cell(gbi_textbuf *b, const gb_an_group *g, bool energy);
/* The margin as given, "10%" for 0.10. */
void md_margin_text(md *d);
/* "Under equal power, the 20 campaigns simulated for this design gave about
 * 0.25 (0.1% of the defined intervals), and more than 1 only one time in 20:
 * the verdict counts against 1. " for a calibrated tally; nothing else. */
void md_calibrated_sentence(md *d, const gb_an_tally *t);

/* ---- Sections, in the order results.md has them ---------------------------- */

void md_section_measured(md *d); /* report_md.c */
void md_pending_note(md *d);     /* report_md_answers.c */
void md_section_answers(md *d);
void md_section_configs(md *d); /* report_md_tables.c */
void md_section_ratios(md *d);
void md_section_ranks(md *d);
void md_section_carbon(md *d);
void md_section_checks(md *d); /* report_md_checks.c */
void md_section_remedies(md *d);

#endif
