/* The environment every worker and every helper command (git, lscpu, uname)
 * runs with, instead of the harness's own: a variable such as PYTHONMALLOC,
 * NODE_OPTIONS or LD_PRELOAD inherited from the shell that started the
 * harness would change a runtime's speed without a trace in the records.
 * The workers get exactly
 *
 *   PATH=/usr/local/bin:/usr/bin:/bin  LANG=C  LC_ALL=C  HOME=<the user's home>
 *
 * (CPython and Node.js need nothing else; the workers are started by path,
 * and PATH is only for what a runtime itself looks up). The variables of the
 * harness's environment that could have changed a runtime's speed are listed
 * for meta.json instead (gb_workerenv_affects_speed). */
#ifndef GREENBENCH_WORKERENV_H
#define GREENBENCH_WORKERENV_H

#include <stdbool.h>

#include "greenbench/error.h"
#include "greenbench/measure.h"
#include "greenbench/privilege.h"

#define GB_WORKERENV_VARS 4

typedef struct {
  char *envp[GB_WORKERENV_VARS + 1]; /* NULL-terminated, pointing into text */
  char text[1280];
} gb_workerenv;

/* Builds the workers' environment into *out, with HOME the home directory of
 * as's user when as drops privileges, else of the effective uid ("/" when
 * the user database has no entry or the path is too long). Returns 0; never
 * fails today, but keeps the convention for a later variable that can. */
GB_MUST_USE int gb_workerenv_build(const gb_privilege *as, gb_workerenv *out, gb_err *err);

/* Who the workers run as, and with what environment, as every command that
 * starts them decides it (run and check alike): *owner from
 * gb_privilege_detect (under sudo, the user who typed the command), *we from
 * gb_workerenv_build. Errors as gb_privilege_detect's. */
GB_MUST_USE int gb_workerenv_for_caller(gb_privilege *owner, gb_workerenv *we, gb_err *err);

/* Sets env to start the workers as owner with we's environment only:
 * run_as (NULL when owner keeps the identity) and envp. */
void gb_workerenv_apply(const gb_privilege *owner, const gb_workerenv *we, gb_measure_env *env);

/* True for the names of variables that can change a runtime's or the
 * harness's speed: PYTHON*, NODE_*, V8_*, UV_*, LD_*, MALLOC*,
 * GLIBC_TUNABLES, OMP_*, GOMP_*, LIBC_*. entry is "NAME=value" or a bare
 * name. */
bool gb_workerenv_affects_speed(const char *entry);

#endif
