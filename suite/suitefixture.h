/* A suite file's cases as CTest tests (ADR 0023), on the machinery of the
 * study's (fixture.h, fixture_common.h; ADR 0009, 0016): one test per
 * configuration, <profile>/<suite>/<language>/<workload>/<p>=<v>[,...], and
 * one fixture per suite and profile, <profile>/<suite>/campaign, that reads
 * which case tests the ctest run selected (or refuses) and measures
 * exactly those configurations as one suite campaign
 * (gb_suite_campaign_opts.selected), then writes its report as the study's
 * fixture does: results.md and summary.json in the records folder, the
 * project JUnit file at --junit (every selected configuration failed with
 * the reason while the campaign runs, or when it cannot run or report). */
#ifndef GB_SUITE_SUITEFIXTURE_H
#define GB_SUITE_SUITEFIXTURE_H

#include <signal.h>
#include <stddef.h>

#include "greenbench/error.h"
#include "greenbench/settings.h"

typedef struct {
  const char *suite_path;    /* the suite file */
  gb_settings settings;      /* the profile; order_seed set */
  const char *results;       /* the folder of the records folders */
  const char *state;         /* the state file the case tests read */
  const char *junit;         /* the project JUnit file (the study's fixture's --junit) */
  const char *progress_log;  /* progress and warnings, also on stdout */
  const char *machine_label; /* --machine-label; NULL: host name and CPU model */
  /* GREENBENCH_SELECT (or --select): "all" measures the whole suite where
   * the ctest selection cannot be read; NULL when none was given; any other
   * value is the study's and is refused. */
  const char *select;
  const char *const *argv; /* the fixture's own command, for the records */
  size_t argc;
  volatile sig_atomic_t *stop;
} gbi_suite_fixture_opts;

/* The fixture <profile>/<suite>/campaign; exit status as
 * gbi_fixture_campaign's (0 also when the campaign failed: the state says
 * why; 1 when the selection cannot be read, or the state cannot be
 * written). */
GB_MUST_USE int gbi_suite_fixture_campaign(const gbi_suite_fixture_opts *o);

/* The case test `name` from the state file: 0 its configuration's runs are
 * all there and ok (parity held: a mismatch stops the campaign, and the
 * state says so), 1 failed (the reason on stderr), 77 skipped (interrupted
 * before it ran), 2 not a case of the suite. */
GB_MUST_USE int gbi_suite_fixture_check_case(const char *suite_path, const char *name,
                                             const char *state);

/* One line per configuration of the suite under profile, "<name> <labels>",
 * labels ','-separated: the profile, suite=<s>, language=<l>,
 * workload=<w> and <p>=<v> for each parameter, v zero-padded to the width
 * of the largest value of any parameter named p in the suite (so that
 * `-L n=1000` cannot also select n=10000). 0, or 2 with one line when the
 * suite cannot be read. */
GB_MUST_USE int gbi_suite_fixture_list_tests(const char *suite_path,
                                             const gb_settings *profile);

#endif
