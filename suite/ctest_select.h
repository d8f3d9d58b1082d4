/* What the ctest run that started this process selected (ADR 0016). The
 * fixture finds that ctest among its ancestors, reads its command line and
 * folder from /proc, and runs the same ctest executable again with the
 * arguments that select tests and `--show-only=json-v1`, in the folder
 * where ctest reads them the same way. Every argument of ctest's command
 * line must be one CTest 3.25 documents (or a form of one that this ctest
 * is shown to read the same way); anything else is refused with the
 * reason, never guessed. */
#ifndef GB_SUITE_CTEST_SELECT_H
#define GB_SUITE_CTEST_SELECT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What a user sets when the selection cannot be read (the way out). */
#define GB_CTEST_WAY_OUT                                                                       \
  "set GREENBENCH_SELECT to the cases to measure (e.g. GREENBENCH_SELECT='language=c "         \
  "algorithm=quick'), or GREENBENCH_SELECT=all for the whole profile"

typedef struct {
  pid_t pid;          /* the ctest process; 0 when none was found */
  char exe[PATH_MAX]; /* its executable */
  char cwd[PATH_MAX]; /* its folder now: where the listing runs, but with --preset */
  bool preset;        /* --preset: the listing runs where the presets are */
  char *bytes;        /* its command line, NUL-separated */
  char **argv;        /* exe, --show-only=json-v1, the selecting arguments */
  size_t argc;
  char **probe;     /* the same with the forms to check split (see .c) */
  size_t nprobe;    /* 0: nothing to check */
  char joined[512]; /* the forms checked, quoted, for the message */
} gbi_ctest_run;

/* The nearest ancestor whose executable is named ctest, with that
 * executable's path in exe[len]; 0 when there is none within 8 generations. */
pid_t gbi_ctest_find(char *exe, size_t len);

/* Reads the command line and folder of the ctest process c->pid (c->exe
 * set) into c: the listing's arguments and folder. -1 with a one-line
 * reason in why[len] when an argument is not known or the folder cannot
 * be found. */
int gbi_ctest_read(gbi_ctest_run *c, char *why, size_t len);

/* Sorts ctest's command line all[0..n) (all[0] the program) into c->argv,
 * the listing's command, and c->probe (c->exe and the strings of all must
 * outlive c): the selecting options kept, the others left out, --preset
 * noted in c->preset. -1 with a one-line reason for an argument that is not
 * one of CTest 3.25's options, or a dashboard, script or build-and-test
 * mode. */
int gbi_ctest_args(gbi_ctest_run *c, char *const *all, size_t n, char *why, size_t len);

/* The `--show-only=json-v1` listing of c's selection into *json (malloc'd,
 * NUL-terminated), checked to be the listing of this build tree (it names
 * the running executable as the test `fixture`) and, where c holds forms
 * to check, to be the same as with those forms split. -1 with why. */
int gbi_ctest_list(const gbi_ctest_run *c, const char *fixture, char **json, char *why,
                   size_t len);

void gbi_ctest_run_free(gbi_ctest_run *c);

/* Writes line (with a newline) to the standard output of the ctest process
 * pid, where a user reads ctest's own lines, when that is a terminal, a
 * pipe or a file opened for appending (a file written at ctest's own
 * offset would overwrite it); does nothing otherwise. */
void gbi_ctest_tell(pid_t pid, const char *line);

#endif
