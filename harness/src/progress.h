/* Progress of a campaign on stderr: one updating line on a terminal, plain
 * lines every PLAIN_EVERY_NS when stderr is a file or pipe, nothing when
 * quiet. */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "greenbench/campaign.h"

typedef struct {
  FILE *out;
  bool tty, quiet;
  uint64_t start_ns, last_ns;
  size_t first; /* runs already done when this session started (resume) */
  bool line_open;
} gb_progress;

void gb_progress_init(gb_progress *p, FILE *out, gb_progress_mode mode, size_t first);
/* Reports `phase` (e.g. "run" or "calibrating") at done of total, with the
 * current item's label. */
void gb_progress_update(gb_progress *p, const char *phase, size_t done, size_t total,
                        const char *label);
/* Ends an updating line before anything else is printed. */
void gb_progress_break(gb_progress *p);

#endif
