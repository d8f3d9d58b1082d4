/* The one energy probe (greenbench/energy_probe.h). */
#include "greenbench/energy_probe.h"

#include <inttypes.h>

#include "greenbench/text.h"
#include "greenbench/timefmt.h"

/* The probe's window as the findings say it: "0.5 s" and "500 ms". */
#define WINDOW_S "0.5 s"
_Static_assert(GB_ENERGY_PROBE_NS == 500000000ull, "WINDOW_S names the probe's window");

/* The sampler's power limit per package zone, which sets the wrap rule. */
static unsigned max_power(const gb_sampler_opts *so) {
  return so && so->max_power_w ? (unsigned)so->max_power_w : GB_SAMPLER_DEFAULT_MAX_POWER_W;
}

/* One finding per way, then which the study reads. */
static void add_ways(const gb_energy_ways *w, gb_findings *f) {
  const char *names[] = {"powercap", "perf_event"};
  const gb_rapl *ways[] = {w->powercap, w->perf};
  const gb_err *whys[] = {&w->powercap_why, &w->perf_why};
  for (int k = 0; k < 2; k++) {
    if (ways[k])
      gb_findings_add(f, GB_FINDING_INFO, names[k], "works: %zu zone(s) under %s",
                      gb_rapl_count(ways[k]), gb_rapl_root(ways[k]));
    else
      gb_findings_add(f, GB_FINDING_INFO, names[k], "unavailable: %s", whys[k]->msg);
  }
  const gb_rapl *main = gb_energy_ways_main(w), *cross = gb_energy_ways_cross(w);
  if (main && cross)
    gb_findings_add(f, GB_FINDING_OK, "ways",
                    "the study reads %s and checks every window against %s (a disagreement "
                    "beyond the counters' resolution is an energy fault)",
                    gb_rapl_source(main), gb_rapl_source(cross));
  else if (main)
    gb_findings_add(f, GB_FINDING_OK, "ways", "the study reads %s alone", gb_rapl_source(main));
  else
    gb_findings_add(f, GB_FINDING_BAD, "ways", "neither works: energy cannot be read");
}

/* Intel Xeon 6's TPMI zones, named so that nobody takes them for read. */
static void add_tpmi(gb_findings *f) {
  char zones[1024];
  if (gb_rapl_tpmi_zones(NULL, zones, sizeof zones) > 0)
    gb_findings_detail(f, GB_FINDING_INFO,
                       "tpmi: %s present, not read: greenbench reads only intel-rapl:N package "
                       "zones and their dram subzones",
                       zones);
}

/* One line per zone: its range, how soon it can wrap, and what the probe
 * saw of it. */
static void add_zone(gb_findings *f, const gb_rapl_zone *z, const gb_rapl_watched *w,
                     unsigned max_power_w) {
  char wrap[GB_DURATION_TEXT_SIZE], still[GB_DURATION_TEXT_SIZE];
  gb_duration_text(gb_sampler_wrap_ns(z->max_energy_range_uj, max_power_w), wrap, sizeof wrap);
  gb_duration_text(w->longest_still_ns, still, sizeof still);
  gb_findings_detail(f, GB_FINDING_INFO,
                     "%s (%s, socket %u): max_energy_range_uj %" PRIu64
                     ", a wrap every %s at %u W; over " WINDOW_S ": %s, longest standstill %s",
                     z->name, z->id, z->socket, z->max_energy_range_uj, wrap, max_power_w,
                     w->moved ? "moved" : "did not move", still);
}

/* The first package zone that did not move (still false) or stood still for
 * stall_ns (still true), or -1. */
static int first_package(const gb_rapl *r, const gb_rapl_watched *w, bool still,
                         uint64_t stall_ns) {
  for (size_t i = 0; i < gb_rapl_count(r); i++)
    if (gb_rapl_zone_at(r, i)->kind == GB_RAPL_PACKAGE &&
        (still ? w[i].longest_still_ns >= stall_ns : !w[i].moved))
      return (int)i;
  return -1;
}

/* What the watch says of the study's chances: frozen, standing still, or a
 * range the sampler cannot follow. Returns false with the reason in why. */
static bool judge(const gb_rapl *r, const gb_rapl_watched *w, const gb_sampler_opts *so,
                  gb_findings *f, char *why, size_t len) {
  uint64_t stall_ns = so && so->stall_ns ? so->stall_ns : GB_SAMPLER_DEFAULT_STALL_NS;
  int frozen = first_package(r, w, false, 0), still = first_package(r, w, true, stall_ns);
  uint64_t period;
  gb_err err;
  why[0] = '\0';
  if (frozen >= 0)
    gb_str_append(why, len,
                  "energy unavailable: %s (%s/energy_uj) did not change in %" PRIu64
                  " ms; the RAPL counters are frozen (usual in virtual machines)",
                  gb_rapl_zone_at(r, (size_t)frozen)->name,
                  gb_rapl_zone_at(r, (size_t)frozen)->path,
                  (uint64_t)(GB_ENERGY_PROBE_NS / 1000000u));
  gb_findings_detail(f, frozen >= 0 ? GB_FINDING_BAD : GB_FINDING_OK,
                     "counters over " WINDOW_S ": %s", frozen >= 0 ? why : "moving");
  bool fit = gb_sampler_fit(r, so, &period, &err) == 0;
  char every[GB_DURATION_TEXT_SIZE];
  gb_duration_text(fit ? period : 0, every, sizeof every);
  if (fit)
    gb_findings_detail(f, GB_FINDING_OK, "sampling: every %s, at least twice per wrap at %u W",
                       every, max_power(so));
  else
    gb_findings_detail(f, GB_FINDING_BAD, "sampling: refused: %s", err.msg);
  if (frozen < 0 && still >= 0) {
    gb_str_append(
        why, len,
        "%s (%s/energy_uj) stood still for %" PRIu64 " ms during the probe; the "
        "study marks every window touching a standstill of %" PRIu64 " ms energy_stalled",
        gb_rapl_zone_at(r, (size_t)still)->name, gb_rapl_zone_at(r, (size_t)still)->path,
        w[still].longest_still_ns / 1000000u, stall_ns / 1000000u);
    gb_findings_detail(f, GB_FINDING_BAD, "standstill: %s", why);
  }
  if (frozen < 0 && still < 0 && !fit)
    gb_str_copy(why, len, err.msg);
  return frozen < 0 && still < 0 && fit;
}

bool gb_energy_probe(const gb_energy_ways *ways, const gb_sampler_opts *so, gb_findings *f,
                     char *why, size_t len) {
  gb_err err;
  gb_rapl_watched w[GB_RAPL_MAX_ZONES];
  add_ways(ways, f);
  gb_rapl *r = gb_energy_ways_main(ways);
  if (!r) {
    gb_energy_ways_why(ways, why, len);
    gb_findings_add(f, GB_FINDING_BAD, "energy", "unavailable: %s", why);
    add_tpmi(f);
    return false;
  }
  gb_findings_add(f, GB_FINDING_INFO, "energy",
                  "%zu RAPL zone(s) under %s (%s), all readable%s", gb_rapl_count(r),
                  gb_rapl_root(r), gb_rapl_source(r),
                  gb_rapl_has_dram(r) ? "" : " (no DRAM zone: package only, as on AMD)");
  add_tpmi(f);
  if (gb_rapl_watch(r, GB_ENERGY_PROBE_NS, GB_ENERGY_PROBE_STEP_NS, so ? &so->clock : NULL, w,
                    &err) < 0) {
    gb_findings_detail(f, GB_FINDING_BAD, "counters over " WINDOW_S ": %s", err.msg);
    gb_str_copy(why, len, err.msg);
    return false;
  }
  for (size_t i = 0; i < gb_rapl_count(r); i++)
    add_zone(f, gb_rapl_zone_at(r, i), &w[i], max_power(so));
  return judge(r, w, so, f, why, len);
}
