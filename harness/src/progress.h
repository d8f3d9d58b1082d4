/* Progress of a campaign on stderr: one updating line on a terminal, plain
 * lines every PLAIN_EVERY_NS when stderr is a file or pipe, nothing when
 * quiet. The ETA is the whole campaign's remaining time (gb_eta_left_ns):
 * while calibrating it includes the measured runs still ahead. */
#ifndef GB_PROGRESS_H
#define GB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "greenbench/campaign.h"
#include "greenbench/estimate.h"

typedef struct {
  FILE *out;
  bool tty, quiet;
  uint64_t start_ns, last_ns; /* CLOCK_MONOTONIC_RAW: the campaign's start, the last line */
  uint64_t mark_ns; /* the end of the last item done (gbi_progress_done, gbi_progress_phase) */
  gb_eta eta;       /* filled by the caller (gb_eta_start) */
  bool line_open;
} gbi_progress;

void gbi_progress_init(gbi_progress *p, FILE *out, gb_progress_mode mode);
/* Reports `phase` (e.g. "run" or "calibrating") at done of total, with the
 * current item's label, the time since gbi_progress_init and p->eta's time
 * left ("?" while it holds no item). */
void gbi_progress_update(gbi_progress *p, const char *phase, size_t done, size_t total,
                         const char *label);
/* A phase starts (before its first item): its first line is printed
 * whatever the interval, and its first item's time counts from now. */
void gbi_progress_phase(gbi_progress *p);
/* An item of kind k, model_ns long by the model, is done: its time since
 * the last mark goes to p->eta. */
void gbi_progress_done(gbi_progress *p, gb_eta_kind k, uint64_t model_ns);
/* Ends an updating line before anything else is printed. */
void gbi_progress_break(gbi_progress *p);

#endif
