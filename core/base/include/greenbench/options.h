/* One command-line convention for every greenbench command (run, check,
 * report, compare, pack and the suite): long options as `--name value` or
 * `--name=value`, a value option given twice is an error unless it may be
 * repeated, an unknown option is an error naming it, and `--` ends the
 * options. A small iterator, in the manner of getopt_long, that leaves what
 * each option means to the command. */
#ifndef GREENBENCH_OPTIONS_H
#define GREENBENCH_OPTIONS_H

#include <stdbool.h>

#include "greenbench/error.h"

/* gb_opt.flags */
enum {
  GB_OPT_VALUE = 1, /* takes a value, which may not be empty */
  GB_OPT_MANY = 2,  /* a value option that may be given more than once */
};

/* One option a command accepts; a table ends with an entry whose name is
 * NULL and holds at most GB_OPT_MAX entries. */
typedef struct {
  const char *name;  /* "--runs" */
  const char *alias; /* a short spelling ("-h"), or NULL */
  unsigned flags;
  int id; /* what gb_opt_next returns for it: >= 0 */
} gb_opt;

#define GB_OPT_MAX 64

/* gb_opt_next's results besides an option's id. */
enum {
  GB_OPT_END = -1000, /* no argument left */
  GB_OPT_ARG = -1001, /* a positional argument, in *value */
};

/* Where gb_opt_next is in argv; start with gb_opt_start. */
typedef struct {
  int next;
  bool options_done; /* after "--" */
  unsigned char given[GB_OPT_MAX];
} gb_opt_state;

/* Starts at argv[first] (1 for a command, 2 after a subcommand's name). */
void gb_opt_start(gb_opt_state *st, int first);

/* The next argument of argv: an option's id with *value its value (NULL for
 * an option without one), GB_OPT_ARG with *value the argument ("-" alone is
 * one), or GB_OPT_END. Returns -EINVAL with a message in err, quoting the
 * argument escaped and cut, for: an unknown option, a value option without
 * a value or with an empty one, `--flag=value` for an option that takes
 * none, and a second value for an option without GB_OPT_MANY. Giving a flag
 * twice is not an error. */
GB_MUST_USE int gb_opt_next(const gb_opt *table, gb_opt_state *st, int argc, char **argv,
                            const char **value, gb_err *err);

#endif
