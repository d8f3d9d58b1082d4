/* A suite file (ADR 0022, docs/suites.md): the languages and workloads of a
 * campaign on programs of the user's own, as one JSON file
 * ("format": "greenbench-suite-1"). The reader checks every rule before
 * anything runs and names the file and the JSON path of the first value
 * that breaks one; gb_suite_expand turns an argv template into the
 * arguments of one process. */
#ifndef GREENBENCH_SUITEFILE_H
#define GREENBENCH_SUITEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"

#define GB_SUITE_FORMAT "greenbench-suite-1"
/* Names of the suite, languages, workloads, parameters and counters: 1 to
 * this many of [a-z0-9_-], starting with a letter. */
#define GB_SUITE_NAME_MAX 32
#define GB_SUITE_TITLE_MAX 64                /* printable ASCII */
#define GB_SUITE_DESCRIPTION_MAX 1024        /* bytes, no control characters */
#define GB_SUITE_PARAMETERS_MAX 4            /* per workload, at least 1 */
#define GB_SUITE_VALUES_MAX 16               /* per parameter, at least 1 */
#define GB_SUITE_COUNTERS_MAX 8              /* per expect entry (and per contract line) */
#define GB_SUITE_VALUE_MAX 9007199254740991u /* 2^53 - 1 */
#define GB_SUITE_LANGUAGES_MAX 64
#define GB_SUITE_WORKLOADS_MAX 64
#define GB_SUITE_EXPECT_MAX 256 /* per workload */
#define GB_SUITE_ARGS_MAX 64    /* per template */
#define GB_SUITE_ARG_MAX 4096   /* bytes per template argument, and per expanded argument */
#define GB_SUITE_FILE_MAX (1u << 20)
#define GB_SUITE_HASH_LEN 32 /* hex digits of the file's XXH128 */

typedef enum {
  GB_SUITE_COMMAND, /* the measured run */
  GB_SUITE_STARTUP, /* the startup-only run */
  GB_SUITE_VERSION, /* run once per language */
  GB_SUITE_BUILD,   /* optional: run once per workload, before anything else */
  GB_SUITE_TEMPLATE_COUNT
} gb_suite_template_kind;

/* An argv template: n strings with placeholders; n == 0 only for an absent
 * build. */
typedef struct {
  size_t n;
  char **args;
} gb_suite_template;

typedef struct {
  char name[GB_SUITE_NAME_MAX + 1];
  char title[GB_SUITE_TITLE_MAX + 1]; /* the name when the file gives none */
  gb_suite_template t[GB_SUITE_TEMPLATE_COUNT];
} gb_suite_language;

/* A parameter's values are whole numbers or names (each a valid name,
 * gb_suite_name_ok). A named value is its index in the file's list:
 * values[i] == i, names[i] its text. Print and read a value only through
 * gb_suite_value_text and gb_suite_value_parse. */
typedef struct {
  char name[GB_SUITE_NAME_MAX + 1];
  bool named;
  size_t n_values;
  uint64_t values[GB_SUITE_VALUES_MAX];                   /* distinct, in the file's order */
  char names[GB_SUITE_VALUES_MAX][GB_SUITE_NAME_MAX + 1]; /* named only */
} gb_suite_parameter;

typedef struct {
  char name[GB_SUITE_NAME_MAX + 1];
  uint64_t value;
} gb_suite_counter;

/* What every language must report for one parameter set. */
typedef struct {
  uint64_t values[GB_SUITE_PARAMETERS_MAX]; /* one per parameter of the workload, in its order
                                               (a named one's: the index of its name) */
  bool has_output_hash;
  char output_hash[17]; /* 16 lowercase hex digits */
  bool has_counters;
  size_t n_counters;
  gb_suite_counter counters[GB_SUITE_COUNTERS_MAX];
} gb_suite_expect;

typedef struct {
  char name[GB_SUITE_NAME_MAX + 1];
  size_t n_parameters;
  gb_suite_parameter parameters[GB_SUITE_PARAMETERS_MAX];
  size_t n_expect;
  gb_suite_expect *expect;
} gb_suite_workload;

typedef struct {
  char *path; /* as given to gb_suite_parse or gb_suite_load */
  char *dir;  /* the folder holding it ("." for a bare file name): {suitedir} */
  char name[GB_SUITE_NAME_MAX + 1];
  char *description;                /* "" when the file gives none */
  char hash[GB_SUITE_HASH_LEN + 1]; /* XXH128 of the file's bytes, lowercase hex */
  size_t n_languages;
  gb_suite_language *languages;
  size_t n_workloads;
  gb_suite_workload *workloads;
} gb_suite;

/* Parses text[0..len) (not NUL-terminated), the suite file at path (used in
 * messages and for {suitedir}), and checks every rule of docs/suites.md.
 * Returns 0 and fills *out (free with gb_suite_free), or -EINVAL with one
 * line "suite <path>: <JSON path>: <what is wrong>" (the first rule broken),
 * or -ENOMEM. *out is untouched on failure. */
GB_MUST_USE int gb_suite_parse(const char *text, size_t len, const char *path, gb_suite *out,
                               gb_err *err);

/* Reads the file at path (at most GB_SUITE_FILE_MAX bytes) and parses it.
 * Errors as gb_suite_parse, or -errno "suite <path>: cannot read: ...". */
GB_MUST_USE int gb_suite_load(const char *path, gb_suite *out, gb_err *err);

/* Frees what gb_suite_parse allocated and zeroes *s; safe on a zeroed
 * struct and twice. */
void gb_suite_free(gb_suite *s);

/* The values the placeholders of a template stand for, for one process. */
typedef struct {
  const gb_suite_workload *workload; /* NULL for the version command */
  const uint64_t *values; /* one per parameter of workload, in its order (NULL: none) */
  bool has_reps;          /* false for the version and build commands */
  uint64_t reps;
  bool has_seed;
  uint64_t seed;
  const char *suitedir;
  const char *builddir;
  const char *workers; /* greenbench's own workers' folder (gb_workers_dir_find) */
} gb_suite_vars;

/* Expands every argument of t: each placeholder becomes its value (whole
 * numbers in plain decimal, a named parameter's value its name), "{{" and "}}" become "{" and
 * "}". Returns 0 and *argv, a NULL-terminated array of t->n strings (free with
 * gb_suite_argv_free), or -EINVAL "argument <i>: ..." for a placeholder
 * that v gives no value for or that is unknown, or an expanded argument
 * longer than GB_SUITE_ARG_MAX bytes; -ENOMEM. */
GB_MUST_USE int gb_suite_expand(const gb_suite_template *t, const gb_suite_vars *v,
                                char ***argv, gb_err *err);

void gb_suite_argv_free(char **argv);

/* True when a template of s (any language, any kind) names the
 * placeholder {name}: "workers" for a suite that runs greenbench's own
 * workers, "suitedir" for one that needs its file's folder. */
bool gb_suite_uses(const gb_suite *s, const char *name);

/* The expect entry of w for the parameter set values (one per parameter),
 * or NULL when w gives none. */
const gb_suite_expect *gb_suite_find_expect(const gb_suite_workload *w, const uint64_t *values);

/* Room for a value's text (gb_suite_value_text): a name, or up to 16
 * decimal digits, and the NUL. */
#define GB_SUITE_VALUE_TEXT_MAX (GB_SUITE_NAME_MAX + 1)

/* Value v of parameter p as text into buf[len]: the number in plain
 * decimal, or, for a named parameter, the name at index v. Returns the
 * text's length, -ENOSPC when buf is too small (buf "" when len > 0), or
 * -EINVAL when v is no index of p's names. */
GB_MUST_USE int gb_suite_value_text(const gb_suite_parameter *p, uint64_t v, char *buf,
                                    size_t len);

/* The value of parameter p written as s[0..len) (not NUL-terminated), as
 * gb_suite_value_text writes it: 0 and *v when it is one of p's values,
 * -EINVAL otherwise (an unknown name, a number not in the list, a number for
 * a named parameter or a name for a numeric one, a leading zero). */
GB_MUST_USE int gb_suite_value_parse(const gb_suite_parameter *p, const char *s, size_t len,
                                     uint64_t *v);

/* The parameters of workload w set to values (one per parameter, in its
 * order) as "name=value" joined by sep ("n=1000;order=random" for ";"),
 * each value as gb_suite_value_text writes it, into buf[len]. Returns the
 * length, -ENOSPC when buf is too small (buf cut short, NUL-terminated when
 * len > 0) or -EINVAL for a named value out of range. */
GB_MUST_USE int gb_suite_params_join(const gb_suite_workload *w, const uint64_t *values,
                                     const char *sep, char *buf, size_t len);

/* True when s is a valid name: 1 to GB_SUITE_NAME_MAX of [a-z0-9_-],
 * starting with a letter. */
bool gb_suite_name_ok(const char *s);

#endif
