/* The study as CTest tests (ADR 0009): one test per case, named
 * <profile>/<language>/<algorithm>/<order>/<size>, and one fixture per
 * profile, <profile>/campaign, that every case requires. The fixture asks
 * the ctest process that started it which case tests it selected, measures
 * exactly those as one shuffled campaign, writes the report and the JUnit
 * file, and leaves a state file; each case test then reads the state and
 * the records and passes, fails with the reason, or is skipped. */
#ifndef GB_SUITE_FIXTURE_H
#define GB_SUITE_FIXTURE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "greenbench/error.h"
#include "greenbench/plan.h"

/* The exit status of a case test that is skipped (CTest SKIP_RETURN_CODE). */
#define GB_SUITE_SKIPPED 77

typedef struct {
  gb_settings settings;      /* the profile; order_seed set */
  const char *results;       /* the folder of the records folders */
  const char *state;         /* the state file the case tests read */
  const char *junit;         /* the project JUnit file */
  const char *progress_log;  /* progress and warnings, also on stdout */
  const char *machine_label; /* NULL: host name and CPU model */
  /* GREENBENCH_SELECT (or --select) as given, "all" for the whole profile;
   * NULL when none was. Where the ctest selection cannot be read, the
   * campaign measures the settings (already narrowed by it) only when it
   * was given, and otherwise refuses. */
  const char *select;
  const char *const *argv; /* the fixture's own command, for the records */
  size_t argc;
  volatile sig_atomic_t *stop;
} gbi_fixture_opts;

/* Runs the fixture <profile>/campaign. Returns the exit status: 0 also when
 * the campaign could not start or failed (the state says why and every
 * case test then fails with that reason); 1 only when the state file
 * itself cannot be written, so that the case tests fail too (they find no
 * fresh state). */
GB_MUST_USE int gbi_fixture_campaign(const gbi_fixture_opts *o);

/* Runs the case test `name` (<profile>/<language>/<algorithm>/<order>/<size>)
 * from the state file `state`: 0 passed, 1 failed (the reason on stderr),
 * GB_SUITE_SKIPPED when the campaign stopped before it ran the case. */
GB_MUST_USE int gbi_fixture_check_case(const char *name, const char *state);

/* Every case of the profile as a CTest test: prints one line per case,
 * "<name> <labels>", labels ','-separated: the profile, language=<l>,
 * algorithm=<a>, order=<o> and size=<n> with n zero-padded to the width
 * of the largest size of any profile, so that no label's text is part of
 * another's and a label regex selects only what it names. */
void gbi_fixture_list_tests(const gb_settings *profile);

#endif
