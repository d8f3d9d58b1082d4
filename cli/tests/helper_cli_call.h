/* One subcommand called as the command line calls it, for the cli tests:
 * its exit status and what it wrote on stdout and stderr. Nothing here
 * depends on Criterion. */
#ifndef GREENBENCH_TESTS_HELPER_CLI_CALL_H
#define GREENBENCH_TESTS_HELPER_CLI_CALL_H

#include <stdbool.h>
#include <stddef.h>

#include "greenbench/cli.h"

typedef struct {
  int rc;
  char out[16384], err[8192]; /* NUL-terminated, cut to fit */
} gbt_cli_result;

/* fn(argc, argv) with env's settings (NULL: none) and its out and err
 * captured; the result is the one of the latest call. */
gbt_cli_result gbt_cli_call(int (*fn)(int, char **, const gb_cli_env *), const gb_cli_env *env,
                            int argc, const char **argv);

/* A folder of greenbench's workers for a suite's {workers}: a temporary
 * folder (its path into dir[len]) holding `script` as worker-c and
 * python/worker.py, and as node/worker.js when `node`, named by
 * GREENBENCH_LIBEXEC_DIR. Returns 0, or -1 when it could not be made. */
int gbt_fake_workers(const char *script, bool node, char *dir, size_t len);

#endif
