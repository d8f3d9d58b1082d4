/* Helpers shared by the report tests (stats/tests/test_report_*.c): reading
 * and writing whole files, golden-file comparison, temporary copies of the
 * record fixtures in stats/tests/data/, and loading and analysing them.
 *
 * These are Criterion-aware: a helper that cannot do its job fails the
 * calling test with cr_assert, naming the path, so the test itself reads as
 * the scenario only. Paths under GB_TEST_DATA_DIR, which CMake defines for
 * every stats test binary (this file is compiled into each of them). */
#ifndef GREENBENCH_TESTS_HELPER_REPORT_H
#define GREENBENCH_TESTS_HELPER_REPORT_H

#include <stddef.h>

#include "greenbench/analysis.h"
#include "greenbench/carbon.h"
#include "greenbench/records_read.h"

/* The whole of path, NUL-terminated, its length in *len; NULL if it cannot
 * be opened, for callers that check (or accept) a missing file themselves. */
char *gbt_slurp(const char *path, size_t *len);
/* The whole of path, NUL-terminated; fails the test if it cannot be opened. */
char *gbt_slurp_or_fail(const char *path);
/* Writes the string s as the whole of path. */
void gbt_spit(const char *path, const char *s);

/* Compares got[0..len) with report-golden/<fixture>/<file> (the folder is
 * GB_GOLDEN_DIR when set), naming the first line that differs. With
 * GB_UPDATE_GOLDEN set it rewrites the golden instead and FAILS the test,
 * so that accepting new output takes a second run without it: run the test
 * binary that way after a deliberate change, review the diff, run again. */
void gbt_golden(const char *fixture, const char *file, const char *got, size_t len);
/* Compares the file <dir>/<file> that a run wrote with
 * report-golden/<fixture>/<file>. Never rewrites the golden: the writers'
 * own tests (gbt_golden) own those files. */
void gbt_assert_golden_file(const char *fixture, const char *dir, const char *file);

/* What gbt_copy_fixture does with a record file the fixture does not have. */
typedef enum {
  GBT_SKIP_MISSING, /* leave it out: some fixtures have no warmups.csv */
  GBT_REQUIRE_ALL,  /* fail the test */
} gbt_missing;

/* Copies the record files (meta.json, runs.csv, warmups.csv) of fixture
 * folder <fixture> into a fresh folder made by mkdtemp from tmpl (which ends
 * in XXXXXX); its path goes to dir[0..len). */
void gbt_copy_fixture(const char *fixture, const char *tmpl, gbt_missing missing, char *dir,
                      size_t len);

/* gb_records_read of dir; a failure names dir and the reader's message. */
gb_records *gbt_load_dir(const char *dir);
/* gbt_load_dir of fixture folder <name>. */
gb_records *gbt_load(const char *name);
/* gb_analysis_run with the default options. */
gb_analysis *gbt_analyse(const gb_records *r);
/* gb_analysis_run with options o: a test that compares two analyses of the
 * same records calls it twice, with one option changed between the calls. */
gb_analysis *gbt_analyse_with(const gb_records *r, const gb_analysis_opts *o);

/* A fixture's records with their analysis, for the writer tests. */
typedef struct {
  gb_records *r;
  gb_analysis *a;
} gbt_loaded;

/* Reads and analyses fixture folder <name>; a failure gives the reader's or
 * the analysis's message alone, as the writer tests always have. */
gbt_loaded gbt_load_analysed(const char *name);

/* The report's default regions (UAE, UK), as gb_report_write uses them. */
void gbt_default_intensities(gb_intensity out[2]);
void gbt_release(gbt_loaded *l);

#endif
