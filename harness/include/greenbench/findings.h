/* What `greenbench check` found, as data: an ordered list of findings, each
 * "topic: text" with a status, and the lines of detail under it. The check
 * prints them as lines and --json writes them as an object from the same
 * list; the energy probe (energy_probe.h) fills its part for both the check
 * and the campaign. */
#ifndef GREENBENCH_FINDINGS_H
#define GREENBENCH_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "greenbench/error.h"

typedef enum {
  GB_FINDING_INFO, /* a fact: the CPU, the kernel, a way that works */
  GB_FINDING_OK,   /* a condition of the study that holds */
  GB_FINDING_BAD,  /* one that does not: the study cannot run as asked */
} gb_finding_status;

typedef struct {
  gb_finding_status status;
  bool detail; /* a line of detail under the finding before it (no topic) */
  char *topic; /* "energy", "pinning", "c", "verdict"; "" for a detail */
  char *text;  /* the rest of the line, as it came (unescaped) */
} gb_finding;

typedef struct {
  gb_finding *items;
  size_t n, cap;
  FILE *echo;  /* when set, each finding is printed there as it is added */
  bool failed; /* out of memory: a finding was lost */
} gb_findings;

/* An empty list that prints each finding on echo as it comes (NULL: none). */
void gb_findings_init(gb_findings *f, FILE *echo);
void gb_findings_free(gb_findings *f);

/* Adds the finding "topic: text" (text from fmt), printed on f->echo at
 * once. Out of memory sets f->failed; the line is still printed. */
__attribute__((format(printf, 4, 5))) void gb_findings_add(gb_findings *f,
                                                           gb_finding_status status,
                                                           const char *topic, const char *fmt,
                                                           ...);
/* Adds a line of detail under the last finding, printed indented. */
__attribute__((format(printf, 3, 4))) void
gb_findings_detail(gb_findings *f, gb_finding_status status, const char *fmt, ...);

/* One finding as its line: "topic: text" ("  text" for a detail), with
 * every control byte written as \xHH (gb_str_put_line), and "\n". */
void gb_finding_print(const gb_finding *g, FILE *out);

/* Whether any finding from index from on is GB_FINDING_BAD. */
bool gb_findings_any_bad(const gb_findings *f, size_t from);

#endif
