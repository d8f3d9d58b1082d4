/* Which CPUs the harness and its workers run on (docs/methods.md #5, ADR 0004).
 *
 * The rule: two PUs on different physical cores of one package, neither CPU 0
 * nor a PU sharing CPU 0's core, only of the most performant CPU kind on a
 * hybrid part, one PU per core, and memory bound to the NUMA node holding them.
 * Among the packages, the one with the most eligible cores wins (ties: the one
 * whose lowest eligible CPU is lowest); within it, the two lowest-numbered
 * eligible cores, each represented by its lowest-numbered eligible PU. Where the
 * rule cannot be met, gb_pin_choose falls back deterministically, clears
 * rule_held and says why in reason; the caller warns and records it.
 *
 * Every CPU number here is an OS index (the Linux CPU number that taskset,
 * /sys/devices/system/cpu/cpuN and records use), never an hwloc logical index.
 * "Allowed" means inside the topology's allowed cpuset (the cgroup cpuset, as
 * set by `docker --cpuset-cpus`), not the caller's current affinity mask. */
#ifndef GREENBENCH_PIN_H
#define GREENBENCH_PIN_H

#include "greenbench/error.h"

#include <hwloc.h>
#include <stdbool.h>
#include <stddef.h>

/* The most CPUs a choice (or a --cpus override) may hold. */
#define GB_PIN_MAX 64
/* Room for any list gb_pin_format_cpus writes of at most GB_PIN_MAX CPUs
 * (each below 1048576, so 7 digits and a comma), its NUL included. */
#define GB_PIN_LIST_MAX (GB_PIN_MAX * 8)
/* How many CPUs the rule asks for: the sorting thread plus Node.js's helpers. */
#define GB_PIN_RULE_NCPUS 2

typedef struct {
  unsigned cpus[GB_PIN_MAX]; /* OS indexes, ascending, no duplicates */
  size_t ncpus;              /* 1..GB_PIN_MAX */
  int numa_node;             /* OS index of the one NUMA node local to all the CPUs;
                                -1 if unknown or the CPUs span several nodes */
  bool rule_held;            /* the choice meets the whole rule */
  bool hybrid;               /* the topology has more than one CPU kind */
  bool overridden;           /* the CPUs came from --cpus, not from the rule */
  char reason[256];          /* one line for records and warnings: why these CPUs */
} gb_pin_choice;

/* What gb_pin_apply managed. CPU binding failures are errors; memory binding
 * is best effort, because some kernels and containers refuse it. */
typedef struct {
  bool mem_bound;     /* memory policy set to HWLOC_MEMBIND_BIND on the node(s) */
  char mem_note[160]; /* why not, when !mem_bound; "" otherwise */
} gb_pin_binding;

/* Loads a topology from an hwloc XML file, or this machine's when xml_path is
 * NULL, keeping disallowed PUs so that messages can tell "absent" from "not
 * allowed". On success *out owns the topology (free it with
 * hwloc_topology_destroy). Errors: -ENOENT and friends for an unreadable file,
 * -EINVAL for XML that hwloc rejects, -ENOMEM. */
GB_MUST_USE int gb_pin_topology_load(const char *xml_path, hwloc_topology_t *out, gb_err *err);

/* Applies the rule (or its fallback) to topo and fills *out. Fallback order:
 * (1) fewer than two eligible cores in every package: the single eligible PU
 * of the package chosen as above; (2) no eligible PU at all (a single core, or
 * only CPU 0's core allowed): up to two of the highest-numbered allowed PUs on
 * distinct cores of one package, whatever their kind, possibly CPU 0. Both
 * clear rule_held. On a hybrid part whose kinds hwloc could not rank, every
 * kind is eligible and rule_held is false. Errors: -ENODEV when no PU is
 * allowed, -ENOMEM. */
GB_MUST_USE int gb_pin_choose(hwloc_topology_t topo, gb_pin_choice *out, gb_err *err);

/* Parses a --cpus list ("2,4", "2-3", "1,4-5": decimal OS indexes and
 * inclusive ranges separated by commas, no spaces) and checks it against topo:
 * every CPU must exist and be allowed. Fills *out with the CPUs in ascending
 * order, overridden = true, and rule_held/reason saying whether the list meets
 * the rule and, if not, every way it breaks it. Errors (-EINVAL, with a message
 * quoting the list): empty or malformed entry, reversed range, number above
 * 1048575, duplicate CPU, absent or disallowed CPU, more than GB_PIN_MAX. */
GB_MUST_USE int gb_pin_override(hwloc_topology_t topo, const char *list, gb_pin_choice *out,
                                gb_err *err);

/* Writes cpus as a comma-separated list ("1", "2,4") for records; no ranges,
 * so the field reads the same whatever the CPUs. Returns 0, or -ENOSPC (buf
 * then holds a truncated, terminated string) when len is too small. */
GB_MUST_USE int gb_pin_format_cpus(const unsigned *cpus, size_t ncpus, char *buf, size_t len);

/* Binds the whole calling process (every thread; children inherit it) to the
 * choice's CPUs with hwloc_set_cpubind(HWLOC_CPUBIND_PROCESS), then binds
 * memory to the NUMA node(s) local to them with HWLOC_MEMBIND_BIND. Linux sets
 * a memory policy per thread, so call this before the harness starts threads:
 * threads and processes created afterwards inherit both. topo must be this
 * machine's (loaded with xml_path NULL). *out (may be NULL) reports the
 * memory binding; a refused memory binding is not an error. Errors: -EINVAL
 * for an empty choice or a topology from XML, -errno from the CPU binding. */
GB_MUST_USE int gb_pin_apply(hwloc_topology_t topo, const gb_pin_choice *choice,
                             gb_pin_binding *out, gb_err *err);

#endif
