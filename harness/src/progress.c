#include "progress.h"

#include <unistd.h>

#include "greenbench/clock.h"

#define PLAIN_EVERY_NS 10000000000ull /* 10 s between plain lines */
#define TTY_EVERY_NS 100000000ull     /* 0.1 s between redraws */

void gbi_progress_init(gbi_progress *p, FILE *out, gb_progress_mode mode) {
  uint64_t now = gb_monotonic_raw_ns();
  *p = (gbi_progress){.out = out,
                      .tty = mode == GB_PROGRESS_AUTO && isatty(fileno(out)),
                      .quiet = mode == GB_PROGRESS_QUIET,
                      .start_ns = now,
                      .mark_ns = now};
}

void gbi_progress_phase(gbi_progress *p) {
  p->mark_ns = gb_monotonic_raw_ns();
  p->last_ns = 0;
}

void gbi_progress_done(gbi_progress *p, gb_eta_kind k, uint64_t model_ns) {
  uint64_t now = gb_monotonic_raw_ns();
  gb_eta_done(&p->eta, k, model_ns, now - p->mark_ns);
  p->mark_ns = now;
}

void gbi_progress_update(gbi_progress *p, const char *phase, size_t done, size_t total,
                         const char *label) {
  if (p->quiet)
    return;
  uint64_t now = gb_monotonic_raw_ns(), elapsed = now - p->start_ns;
  bool last = done == total;
  if (!last && p->last_ns && now - p->last_ns < (p->tty ? TTY_EVERY_NS : PLAIN_EVERY_NS))
    return;
  p->last_ns = now;
  char el[32], eta[32] = "?";
  gb_estimate_format(elapsed, el, sizeof el);
  if (p->eta.planned > 0)
    gb_estimate_format(gb_eta_left_ns(&p->eta), eta, sizeof eta);
  fprintf(p->out, "%sgreenbench: %s %zu/%zu, elapsed %s, eta %s, %s%s",
          p->tty ? "\r\033[K" : "", phase, done, total, el, eta, label, p->tty ? "" : "\n");
  p->line_open = p->tty;
  fflush(p->out);
}

void gbi_progress_break(gbi_progress *p) {
  if (p->line_open)
    fputc('\n', p->out);
  p->line_open = false;
}
