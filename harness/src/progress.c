#include "progress.h"

#include <unistd.h>

#include "greenbench/clock.h"

#define PLAIN_EVERY_NS 10000000000ull /* 10 s between plain lines */
#define TTY_EVERY_NS 100000000ull     /* 0.1 s between redraws */

void gb_progress_init(gb_progress *p, FILE *out, gb_progress_mode mode, size_t first) {
  *p = (gb_progress){.out = out,
                     .tty = mode == GB_PROGRESS_AUTO && isatty(fileno(out)),
                     .quiet = mode == GB_PROGRESS_QUIET,
                     .start_ns = gb_monotonic_raw_ns(),
                     .first = first};
}

static void format_duration(uint64_t ns, char *buf, size_t len) {
  uint64_t s = ns / 1000000000u;
  if (s >= 3600)
    snprintf(buf, len, "%lluh%02llum", (unsigned long long)(s / 3600),
             (unsigned long long)(s % 3600 / 60));
  else
    snprintf(buf, len, "%llum%02llus", (unsigned long long)(s / 60),
             (unsigned long long)(s % 60));
}

void gb_progress_update(gb_progress *p, const char *phase, size_t done, size_t total,
                        const char *label) {
  if (p->quiet)
    return;
  uint64_t now = gb_monotonic_raw_ns(), elapsed = now - p->start_ns;
  bool last = done == total;
  if (!last && p->last_ns && now - p->last_ns < (p->tty ? TTY_EVERY_NS : PLAIN_EVERY_NS))
    return;
  p->last_ns = now;
  char el[32], eta[32] = "?";
  format_duration(elapsed, el, sizeof el);
  size_t this_session = done > p->first ? done - p->first : 0;
  if (this_session > 0 && total > done)
    format_duration(elapsed / this_session * (total - done), eta, sizeof eta);
  else if (total == done)
    snprintf(eta, sizeof eta, "0m00s");
  fprintf(p->out, "%sgreenbench: %s %zu/%zu, elapsed %s, eta %s, %s%s",
          p->tty ? "\r\033[K" : "", phase, done, total, el, eta, label, p->tty ? "" : "\n");
  p->line_open = p->tty;
  fflush(p->out);
}

void gb_progress_break(gb_progress *p) {
  if (p->line_open)
    fputc('\n', p->out);
  p->line_open = false;
}
