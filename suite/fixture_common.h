/* What the CTest fixtures of the built-in study (fixture.c) and of a suite
 * file (suitefixture.c) share (ADR 0009, 0016, 0023): the state file that
 * the fixture writes and each case test reads, the progress log teed to
 * standard output, files opened as the user would open them, and the
 * reading of the selection of the ctest run that started the fixture. */
#ifndef GB_SUITE_FIXTURE_COMMON_H
#define GB_SUITE_FIXTURE_COMMON_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "greenbench/error.h"

typedef struct {
  char profile[16];
  long ctest_pid;
  char status[16]; /* running, finished, interrupted, failed, empty */
  char records[PATH_MAX];
  char selection[4096]; /* an exact expression: at most 36 products of ~80 bytes */
  char reason[2048];
} gbi_fstate;

GB_MUST_USE int gbi_fstate_write(const char *path, const gbi_fstate *st, gb_err *err);
/* -1 with why: no such file ("...: its fixture did not run"), or not a state. */
int gbi_fstate_read(const char *path, gbi_fstate *st, char *why, size_t len);

/* The state of the case test `name` from state_path, checked to be of this
 * ctest run, of profile and neither failed, running nor empty: 0 to go on,
 * else 1 with the reason on stderr. fixture names the fixture test. */
int gbi_fstate_for_case(const char *name, const char *state_path, const char *profile,
                        const char *fixture, gbi_fstate *st);

/* A file of the user's for writing, opened as the user would open it
 * (under sudo: gb_privilege_fs_enter), never through a link and only a
 * regular file (gb_output_open); NULL with errno set. */
FILE *gbi_fixture_open_user_file(const char *path);
/* path opened so, line-buffered, every write also to stdout; NULL. */
FILE *gbi_fixture_open_tee(const char *path);

/* records/ctest-selection.txt: how the selection was read, and
 * "measured: <what>"; nothing when it cannot be written (a note only). */
void gbi_fixture_note_selection(const char *records, const char *how, const char *measured);

/* The `ctest --show-only=json-v1` listing of the ctest run that started
 * this process, checked to name this executable as the test fixture:
 * 0 with *json (malloc'd) and how ("selected by ctest (pid N): ARGS"),
 * -1 with why ("it was not started by ctest", or ctest_select.h's
 * reasons). *pid is the ctest process, 0 when none was found. */
int gbi_fixture_ctest_listing(const char *fixture, pid_t *pid, char **json, char *how,
                              size_t hlen, char *why, size_t wlen);

/* The names of the tests a listing holds, by f(name, arg) each; -1 when the
 * JSON has no test list, else how many it lists. */
long gbi_fixture_listed(const char *json, void (*f)(const char *name, void *arg), void *arg);

#endif
