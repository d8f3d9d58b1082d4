#include "greenbench/pin.h"
#include "greenbench/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Bounds a --cpus number before it can overflow; far above any real CPU. */
#define PIN_CPU_LIMIT 1048575u

/* What the rule needs to know about one topology. */
typedef struct {
  hwloc_topology_t topo;
  hwloc_bitmap_t perf;     /* PUs of the most performant kind; every PU if not hybrid */
  hwloc_bitmap_t cpu0core; /* CPU 0 and the PUs sharing its core; empty if no CPU 0 */
  hwloc_bitmap_t tmp;      /* scratch */
  bool hybrid;
  bool ranked; /* false when hwloc could not rank the kinds of a hybrid part */
} pin_view;

/* The best package found so far: its eligible core count and lowest two. */
typedef struct {
  int ncores;
  unsigned first[2];
  hwloc_obj_t pkg;
} pin_pick;

/* Core objects can be missing (some VMs and platforms); a PU then stands for
 * its own core, which keeps "one PU per core" meaningful. */
static hwloc_obj_t core_of(hwloc_topology_t t, unsigned cpu) {
  hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t, cpu);
  if (!pu)
    return NULL;
  hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_CORE, pu);
  return core ? core : pu;
}

static hwloc_obj_t package_of(hwloc_topology_t t, unsigned cpu) {
  hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t, cpu);
  hwloc_obj_t pkg = pu ? hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, pu) : NULL;
  return pkg ? pkg : hwloc_get_root_obj(t);
}

/* The package with index k, treating a topology without packages as one. */
static hwloc_obj_t package_at(hwloc_topology_t t, int k) {
  int n = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
  if (n <= 0)
    return k == 0 ? hwloc_get_root_obj(t) : NULL;
  return k < n ? hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, (unsigned)k) : NULL;
}

/* Kinds are ranked by hwloc's efficiency value (higher = more performant);
 * when every efficiency is -1 there is no ranking to trust. */
static int view_kinds(pin_view *v) {
  int nr = hwloc_cpukinds_get_nr(v->topo, 0);
  hwloc_bitmap_fill(v->perf);
  v->hybrid = nr > 1;
  v->ranked = true;
  if (nr <= 1)
    return 0;
  int best = -1;
  unsigned best_kind = 0;
  for (unsigned k = 0; k < (unsigned)nr; k++) {
    int eff = -1;
    if (hwloc_cpukinds_get_info(v->topo, k, NULL, &eff, NULL, NULL, 0) == 0 && eff > best) {
      best = eff;
      best_kind = k;
    }
  }
  if (best < 0) {
    v->ranked = false;
    return 0;
  }
  return hwloc_cpukinds_get_info(v->topo, best_kind, v->perf, NULL, NULL, NULL, 0);
}

static void view_free(pin_view *v) {
  hwloc_bitmap_free(v->perf);
  hwloc_bitmap_free(v->cpu0core);
  hwloc_bitmap_free(v->tmp);
}

static int view_init(hwloc_topology_t t, pin_view *v, gb_err *err) {
  *v = (pin_view){.topo = t};
  v->perf = hwloc_bitmap_alloc();
  v->cpu0core = hwloc_bitmap_alloc();
  v->tmp = hwloc_bitmap_alloc();
  if (!v->perf || !v->cpu0core || !v->tmp || view_kinds(v) < 0) {
    view_free(v);
    return gb_err_set(err, ENOMEM, "cannot read the CPU kinds of the topology");
  }
  hwloc_obj_t core0 = core_of(t, 0);
  if (core0)
    hwloc_bitmap_copy(v->cpu0core, core0->cpuset);
  return 0;
}

/* Counts the cores with a PU in set; first[] gets the lowest PU of each of
 * the two lowest-numbered such cores. */
static int count_cores(pin_view *v, hwloc_const_bitmap_t set, unsigned first[2]) {
  int n = 0;
  int i;
  hwloc_bitmap_foreach_begin(i, set) {
    hwloc_obj_t core = core_of(v->topo, (unsigned)i);
    if (!core)
      continue;
    hwloc_bitmap_and(v->tmp, core->cpuset, set);
    if (hwloc_bitmap_first(v->tmp) != i)
      continue;
    if (n < 2)
      first[n] = (unsigned)i;
    n++;
  }
  hwloc_bitmap_foreach_end();
  return n;
}

/* The package with the most eligible cores; ties go to the package whose
 * lowest eligible CPU is lowest, so the choice never depends on hwloc's order. */
static int best_package(pin_view *v, hwloc_const_bitmap_t eligible, pin_pick *best) {
  hwloc_bitmap_t in_pkg = hwloc_bitmap_alloc();
  if (!in_pkg)
    return -ENOMEM;
  *best = (pin_pick){0};
  hwloc_obj_t pkg;
  for (int k = 0; (pkg = package_at(v->topo, k)) != NULL; k++) {
    pin_pick p = {.pkg = pkg};
    hwloc_bitmap_and(in_pkg, pkg->cpuset, eligible);
    p.ncores = count_cores(v, in_pkg, p.first);
    if (p.ncores > best->ncores ||
        (p.ncores == best->ncores && p.ncores > 0 && p.first[0] < best->first[0]))
      *best = p;
  }
  hwloc_bitmap_free(in_pkg);
  return 0;
}

/* Last resort: the highest-numbered allowed PU and, if there is one, the
 * next lower allowed PU on another core of the same package. */
static size_t highest_pus(hwloc_topology_t t, hwloc_const_bitmap_t allowed, unsigned out[2]) {
  int last = hwloc_bitmap_last(allowed);
  if (last < 0)
    return 0;
  hwloc_obj_t pkg = package_of(t, (unsigned)last);
  hwloc_obj_t core = core_of(t, (unsigned)last);
  out[1] = (unsigned)last;
  for (int i = last - 1; i >= 0; i--) {
    if (hwloc_bitmap_isset(allowed, (unsigned)i) && core_of(t, (unsigned)i) &&
        core_of(t, (unsigned)i) != core && package_of(t, (unsigned)i) == pkg) {
      out[0] = (unsigned)i;
      return 2;
    }
  }
  out[0] = out[1];
  return 1;
}

static int numa_of(hwloc_topology_t t, hwloc_const_bitmap_t cpus) {
  hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
  int node = -1;
  if (nodes && hwloc_cpuset_to_nodeset(t, cpus, nodes) == 0 && hwloc_bitmap_weight(nodes) == 1)
    node = hwloc_bitmap_first(nodes);
  hwloc_bitmap_free(nodes);
  return node;
}

static void choice_fill(pin_view *v, const unsigned *cpus, size_t n, gb_pin_choice *c) {
  hwloc_bitmap_zero(v->tmp);
  for (size_t i = 0; i < n; i++) {
    c->cpus[i] = cpus[i];
    hwloc_bitmap_set(v->tmp, cpus[i]);
  }
  c->ncpus = n;
  c->numa_node = numa_of(v->topo, v->tmp);
  c->hybrid = v->hybrid;
}

static void describe_pick(pin_view *v, const pin_pick *p, int nallowed, gb_pin_choice *c) {
  const char *kind = v->hybrid && v->ranked ? "performance " : "";
  char list[GB_PIN_LIST_MAX];
  if (gb_pin_format_cpus(c->cpus, c->ncpus, list, sizeof list) < 0)
    snprintf(list, sizeof list, "(%zu CPUs)", c->ncpus);
  if (!v->ranked)
    gb_str_append(c->reason, sizeof c->reason,
                  "CPU kinds could not be ranked, so cores of every kind were eligible; ");
  if (p->ncores >= GB_PIN_RULE_NCPUS)
    gb_str_append(
        c->reason, sizeof c->reason,
        "CPUs %s: the lowest 2 of %d eligible %scores of package %u (CPU 0's core excluded)",
        list, p->ncores, kind, p->pkg->os_index);
  else if (p->ncores == 1)
    gb_str_append(c->reason, sizeof c->reason,
                  "only 1 eligible %score: CPU 0 and its siblings are excluded and %d CPUs are "
                  "allowed; using CPUs %s",
                  kind, nallowed, list);
  else
    gb_str_append(
        c->reason, sizeof c->reason,
        "no eligible core: every allowed %sCPU is CPU 0 or shares its core; using the "
        "highest-numbered CPUs %s",
        kind, list);
}

static int choose(pin_view *v, gb_pin_choice *out, gb_err *err) {
  hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(v->topo);
  hwloc_bitmap_t eligible = hwloc_bitmap_alloc();
  if (!eligible)
    return gb_err_set(err, ENOMEM, "out of memory choosing CPUs");
  hwloc_bitmap_and(eligible, allowed, v->perf);
  hwloc_bitmap_andnot(eligible, eligible, v->cpu0core);
  pin_pick pick;
  int rc = best_package(v, eligible, &pick);
  hwloc_bitmap_free(eligible);
  if (rc < 0)
    return gb_err_set(err, -rc, "out of memory choosing CPUs");
  unsigned cpus[2] = {pick.first[0], pick.first[1]};
  size_t n = pick.ncores >= 2 ? 2 : (size_t)pick.ncores;
  if (n == 0 && (n = highest_pus(v->topo, allowed, cpus)) == 0)
    return gb_err_set(err, ENODEV, "the topology allows no CPU to run on");
  gb_pin_choice c = {.rule_held = pick.ncores >= GB_PIN_RULE_NCPUS && v->ranked};
  choice_fill(v, cpus, n, &c);
  describe_pick(v, &pick, hwloc_bitmap_weight(allowed), &c);
  *out = c;
  return 0;
}

int gb_pin_choose(hwloc_topology_t topo, gb_pin_choice *out, gb_err *err) {
  pin_view v;
  int rc = view_init(topo, &v, err);
  if (rc < 0)
    return rc;
  rc = choose(&v, out, err);
  view_free(&v);
  return rc;
}

/* One entry: "N" or "N-M", digits only. 0 on success, -EINVAL if malformed,
 * -ERANGE above the limit. */
static int parse_entry(const char *s, size_t len, unsigned *lo, unsigned *hi) {
  unsigned long v[2] = {0, 0};
  int part = 0;
  size_t digits = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] == '-' && part == 0 && digits > 0) {
      part = 1;
      digits = 0;
    } else if (s[i] >= '0' && s[i] <= '9') {
      v[part] = v[part] * 10 + (unsigned long)(s[i] - '0');
      if (v[part] > PIN_CPU_LIMIT)
        return -ERANGE;
      digits++;
    } else {
      return -EINVAL;
    }
  }
  if (digits == 0)
    return -EINVAL;
  *lo = (unsigned)v[0];
  *hi = part ? (unsigned)v[1] : (unsigned)v[0];
  return 0;
}

static int add_range(const char *list, unsigned lo, unsigned hi, hwloc_bitmap_t set,
                     gb_err *err) {
  if (lo > hi)
    return gb_err_set(err, EINVAL, "--cpus \"%s\": range %u-%u runs backwards", list, lo, hi);
  for (unsigned c = lo; c <= hi; c++) {
    if (hwloc_bitmap_isset(set, c))
      return gb_err_set(err, EINVAL, "--cpus \"%s\": CPU %u is listed twice", list, c);
    if (hwloc_bitmap_weight(set) >= GB_PIN_MAX)
      return gb_err_set(err, EINVAL, "--cpus \"%s\": more than %d CPUs", list, GB_PIN_MAX);
    hwloc_bitmap_set(set, c);
  }
  return 0;
}

/* The user's list is quoted in messages escaped and cut (gb_excerpt). */
static int parse_list(const char *list, hwloc_bitmap_t set, gb_err *err) {
  const char *s = list;
  gb_excerpt_buf shown, entry;
  gb_excerpt(&shown, list);
  for (;;) {
    size_t len = strcspn(s, ",");
    unsigned lo, hi;
    int rc = parse_entry(s, len, &lo, &hi);
    if (rc < 0)
      gb_str_excerpt(s, len, GB_EXCERPT_MAX, entry.s, sizeof entry.s);
    if (rc == -ERANGE)
      return gb_err_set(err, EINVAL, "--cpus \"%s\": \"%s\" is above the largest CPU number %u",
                        shown.s, entry.s, PIN_CPU_LIMIT);
    if (rc < 0)
      return gb_err_set(err, EINVAL,
                        "--cpus \"%s\": malformed entry \"%s\" (expected N or N-M)", shown.s,
                        entry.s);
    if ((rc = add_range(shown.s, lo, hi, set, err)) < 0)
      return rc;
    if (s[len] == '\0')
      return 0;
    s += len + 1;
  }
}

static int check_present(hwloc_topology_t t, const char *list, hwloc_const_bitmap_t set,
                         gb_err *err) {
  hwloc_const_bitmap_t allowed = hwloc_topology_get_allowed_cpuset(t);
  char have[128];
  int c;
  hwloc_bitmap_foreach_begin(c, set) {
    if (!hwloc_get_pu_obj_by_os_index(t, (unsigned)c)) {
      hwloc_bitmap_list_snprintf(have, sizeof have, hwloc_topology_get_topology_cpuset(t));
      return gb_err_set(err, EINVAL, "--cpus \"%s\": CPU %d does not exist (CPUs here: %s)",
                        list, c, have);
    }
    if (!hwloc_bitmap_isset(allowed, (unsigned)c)) {
      hwloc_bitmap_list_snprintf(have, sizeof have, allowed);
      return gb_err_set(err, EINVAL, "--cpus \"%s\": CPU %d is not allowed (allowed: %s)", list,
                        c, have);
    }
  }
  hwloc_bitmap_foreach_end();
  return 0;
}

/* Appends "CPUs a,b share a core" for every core holding more than one. */
static void check_cores(pin_view *v, hwloc_const_bitmap_t set, char *why, size_t len) {
  char list[64];
  int c;
  hwloc_bitmap_foreach_begin(c, set) {
    hwloc_obj_t core = core_of(v->topo, (unsigned)c);
    hwloc_bitmap_and(v->tmp, core->cpuset, set);
    if (hwloc_bitmap_first(v->tmp) == c && hwloc_bitmap_weight(v->tmp) > 1) {
      hwloc_bitmap_list_snprintf(list, sizeof list, v->tmp);
      gb_str_append(why, len, "; CPUs %s share a core", list);
    }
  }
  hwloc_bitmap_foreach_end();
}

static int count_packages(pin_view *v, hwloc_const_bitmap_t set) {
  int n = 0;
  hwloc_obj_t pkg;
  for (int k = 0; (pkg = package_at(v->topo, k)) != NULL; k++)
    n += hwloc_bitmap_intersects(pkg->cpuset, set);
  return n;
}

/* Every way set breaks the rule, each as "; <text>"; empty if it holds. */
static void rule_breaks(pin_view *v, hwloc_const_bitmap_t set, char *why, size_t len) {
  char list[64];
  int n = hwloc_bitmap_weight(set);
  if (n != GB_PIN_RULE_NCPUS)
    gb_str_append(why, len, "; %d CPU%s given, the rule uses %d", n, n == 1 ? "" : "s",
                  GB_PIN_RULE_NCPUS);
  hwloc_bitmap_and(v->tmp, set, v->cpu0core);
  if (!hwloc_bitmap_iszero(v->tmp)) {
    hwloc_bitmap_list_snprintf(list, sizeof list, v->tmp);
    gb_str_append(why, len, "; uses CPU 0's core (CPUs %s)", list);
  }
  check_cores(v, set, why, len);
  if (count_packages(v, set) > 1)
    gb_str_append(why, len, "; spans %d packages", count_packages(v, set));
  if (v->hybrid && !v->ranked)
    gb_str_append(why, len,
                  "; CPU kinds could not be ranked, so performance cores are unknown");
  hwloc_bitmap_andnot(v->tmp, set, v->perf);
  if (v->hybrid && v->ranked && !hwloc_bitmap_iszero(v->tmp)) {
    hwloc_bitmap_list_snprintf(list, sizeof list, v->tmp);
    gb_str_append(why, len, "; not performance cores: CPUs %s", list);
  }
}

static int override(pin_view *v, const char *list, hwloc_bitmap_t set, gb_pin_choice *out,
                    gb_err *err) {
  int rc = parse_list(list, set, err);
  if (rc == 0)
    rc = check_present(v->topo, list, set, err);
  if (rc < 0)
    return rc;
  unsigned cpus[GB_PIN_MAX];
  size_t n = 0;
  int c;
  hwloc_bitmap_foreach_begin(c, set) {
    cpus[n++] = (unsigned)c;
  }
  hwloc_bitmap_foreach_end();
  char why[256] = "";
  rule_breaks(v, set, why, sizeof why);
  gb_pin_choice res = {.overridden = true, .rule_held = why[0] == '\0'};
  choice_fill(v, cpus, n, &res);
  gb_str_append(res.reason, sizeof res.reason, "--cpus %s %s", list,
                res.rule_held ? "meets the rule" : "breaks the rule: ");
  if (!res.rule_held)
    gb_str_append(res.reason, sizeof res.reason, "%s", why + 2);
  *out = res;
  return 0;
}

int gb_pin_override(hwloc_topology_t topo, const char *list, gb_pin_choice *out, gb_err *err) {
  if (!list || !*list)
    return gb_err_set(err, EINVAL, "--cpus: empty CPU list");
  pin_view v;
  int rc = view_init(topo, &v, err);
  if (rc < 0)
    return rc;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  rc = set ? override(&v, list, set, out, err) : gb_err_set(err, ENOMEM, "out of memory");
  hwloc_bitmap_free(set);
  view_free(&v);
  return rc;
}

int gb_pin_format_cpus(const unsigned *cpus, size_t ncpus, char *buf, size_t len) {
  if (len == 0)
    return -ENOSPC;
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < ncpus; i++) {
    int w = snprintf(buf + used, len - used, i ? ",%u" : "%u", cpus[i]);
    if (w < 0 || (size_t)w >= len - used)
      return -ENOSPC;
    used += (size_t)w;
  }
  return 0;
}

static int topology_source(hwloc_topology_t t, const char *xml_path, gb_err *err) {
  if (hwloc_topology_set_flags(t, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED) < 0)
    return gb_err_set(err, EINVAL, "hwloc refused the topology flags");
  if (!xml_path)
    return 0;
  if (access(xml_path, R_OK) < 0)
    return gb_err_set(err, errno, "cannot read topology %s: %s", xml_path, strerror(errno));
  if (hwloc_topology_set_xml(t, xml_path) < 0)
    return gb_err_set(err, EINVAL, "hwloc cannot read %s as an XML topology", xml_path);
  return 0;
}

int gb_pin_topology_load(const char *xml_path, hwloc_topology_t *out, gb_err *err) {
  hwloc_topology_t t;
  if (hwloc_topology_init(&t) < 0)
    return gb_err_set(err, ENOMEM, "cannot initialise an hwloc topology");
  int rc = topology_source(t, xml_path, err);
  if (rc == 0 && hwloc_topology_load(t) < 0)
    rc = gb_err_set(err, EINVAL, "hwloc cannot load the topology of %s",
                    xml_path ? xml_path : "this machine");
  if (rc < 0) {
    hwloc_topology_destroy(t);
    return rc;
  }
  *out = t;
  return 0;
}

static gb_pin_binding bind_memory(hwloc_topology_t t, hwloc_const_bitmap_t cpus) {
  gb_pin_binding b = {0};
  hwloc_bitmap_t nodes = hwloc_bitmap_alloc();
  if (!nodes || hwloc_cpuset_to_nodeset(t, cpus, nodes) < 0 || hwloc_bitmap_iszero(nodes))
    snprintf(b.mem_note, sizeof b.mem_note, "no NUMA node is known to be local to the CPUs");
  else if (hwloc_set_membind(t, nodes, HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_BYNODESET) < 0)
    snprintf(b.mem_note, sizeof b.mem_note, "memory binding refused: %s", strerror(errno));
  else
    b.mem_bound = true;
  hwloc_bitmap_free(nodes);
  return b;
}

static int bind_cpus(hwloc_topology_t t, hwloc_const_bitmap_t cpus, gb_err *err) {
  if (hwloc_set_cpubind(t, cpus, HWLOC_CPUBIND_PROCESS) == 0)
    return 0;
  int e = errno ? errno : EINVAL;
  char list[128];
  hwloc_bitmap_list_snprintf(list, sizeof list, cpus);
  return gb_err_set(err, e, "cannot bind the process to CPUs %s: %s", list, strerror(e));
}

int gb_pin_apply(hwloc_topology_t topo, const gb_pin_choice *choice, gb_pin_binding *out,
                 gb_err *err) {
  if (!choice || choice->ncpus == 0 || choice->ncpus > GB_PIN_MAX)
    return gb_err_set(err, EINVAL, "no CPUs to bind to");
  /* hwloc's binding calls silently do nothing on a topology from XML. */
  if (!hwloc_topology_is_thissystem(topo))
    return gb_err_set(err, EINVAL, "cannot bind: the topology is not this machine's");
  hwloc_bitmap_t cpus = hwloc_bitmap_alloc();
  if (!cpus)
    return gb_err_set(err, ENOMEM, "out of memory binding CPUs");
  for (size_t i = 0; i < choice->ncpus; i++)
    hwloc_bitmap_set(cpus, choice->cpus[i]);
  int rc = bind_cpus(topo, cpus, err);
  gb_pin_binding b = {0};
  if (rc == 0)
    b = bind_memory(topo, cpus);
  hwloc_bitmap_free(cpus);
  if (rc == 0 && out)
    *out = b;
  return rc;
}
