#include "cli_check_ways.h"

#include "greenbench/text.h"

static void way_line(FILE *out, const char *name, const gb_rapl *r, const gb_err *why) {
  char line[sizeof(gb_err) + GB_RAPL_PATH_MAX + 64];
  if (r)
    snprintf(line, sizeof line, "%s: works: %zu zone(s) under %s", name, gb_rapl_count(r),
             gb_rapl_root(r));
  else
    snprintf(line, sizeof line, "%s: unavailable: %s", name, why->msg);
  gb_str_put_line(out, "", line);
}

void cli_check_ways(FILE *out, gb_energy_ways *w) {
  gb_energy_ways_open(NULL, NULL, w);
  way_line(out, "powercap", w->powercap, &w->powercap_why);
  way_line(out, "perf_event", w->perf, &w->perf_why);
  const gb_rapl *main = gb_energy_ways_main(w), *cross = gb_energy_ways_cross(w);
  if (main && cross)
    fprintf(out,
            "ways: the study reads %s and checks every window against %s (a disagreement "
            "beyond the counters' resolution is an energy fault)\n",
            gb_rapl_source(main), gb_rapl_source(cross));
  else if (main)
    fprintf(out, "ways: the study reads %s alone\n", gb_rapl_source(main));
  else
    fprintf(out, "ways: neither works: energy cannot be read\n");
}
