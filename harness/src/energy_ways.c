#include "greenbench/energy_ways.h"

#include "greenbench/text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *const gb_test_hooks[] = {GB_RAPL_ROOT_ENV, GB_PERF_POWER_DIR_ENV, NULL};

/* Whether the powercap root is the machine's own. */
static bool real_powercap(const gb_rapl_opts *rapl) {
  const char *root =
      rapl && rapl->root && rapl->root[0] ? rapl->root : getenv(GB_RAPL_ROOT_ENV);
  return !root || !root[0] || strcmp(root, GB_RAPL_DEFAULT_ROOT) == 0;
}

static bool perf_named(const gb_perf_opts *perf) {
  const char *env = getenv(GB_PERF_POWER_DIR_ENV);
  return (perf && perf->dir && perf->dir[0]) || (env && env[0]);
}

void gb_energy_ways_open(const gb_rapl_opts *rapl, const gb_perf_opts *perf,
                         gb_energy_ways *w) {
  memset(w, 0, sizeof *w);
  w->powercap_rc = gb_rapl_open(rapl, &w->powercap, &w->powercap_why);
  if (w->powercap_rc < 0)
    w->powercap = NULL;
  if (real_powercap(rapl) || perf_named(perf)) {
    w->perf_rc = gb_rapl_open_perf(perf, &w->perf, &w->perf_why);
    if (w->perf_rc < 0)
      w->perf = NULL;
    return;
  }
  w->perf_rc = -ENOENT;
  gb_err_set(&w->perf_why, ENOENT,
             "not tried beside another powercap tree (%s): set %s to read perf_event with it",
             GB_RAPL_ROOT_ENV, GB_PERF_POWER_DIR_ENV);
}

void gb_energy_ways_close(gb_energy_ways *w) {
  gb_rapl_close(w->powercap);
  gb_rapl_close(w->perf);
  w->powercap = w->perf = NULL;
}

gb_rapl *gb_energy_ways_main(const gb_energy_ways *w) {
  return w->powercap ? w->powercap : w->perf;
}

gb_rapl *gb_energy_ways_cross(const gb_energy_ways *w) {
  return w->powercap ? w->perf : NULL;
}

void gb_energy_ways_take(gb_energy_ways *w, gb_rapl **main, gb_rapl **cross) {
  *main = gb_energy_ways_main(w);
  *cross = gb_energy_ways_cross(w);
  w->powercap = w->perf = NULL;
}

void gb_energy_ways_why(const gb_energy_ways *w, char *buf, size_t len) {
  if (len == 0)
    return;
  buf[0] = '\0';
  gb_str_append(buf, len, "%s; perf_event: %s", w->powercap_why.msg, w->perf_why.msg);
}
