/* The greenbench command's subcommands, as library functions so that tests
 * can run them: argv[0] is the subcommand's name, output goes to the given
 * streams, and the return value is the exit status (0 success, 1 failure,
 * 2 bad arguments; `run` returns 130 when interrupted). */
#ifndef GREENBENCH_CLI_H
#define GREENBENCH_CLI_H

#include <signal.h>
#include <stdio.h>

#include "greenbench/measure.h"

/* Where the workers are (the command finds them at run time:
 * greenbench/paths.h). */
typedef struct {
  gb_workers workers;
  const char *source_dir;      /* for the git commit; NULL: not recorded */
  const char *workers_missing; /* why a worker was not found; NULL: all were */
  volatile sig_atomic_t *stop;
  FILE *out, *err;
} gb_cli_env;

int gb_cli_run(int argc, char **argv, const gb_cli_env *env);
int gb_cli_check(int argc, char **argv, const gb_cli_env *env);

#endif
