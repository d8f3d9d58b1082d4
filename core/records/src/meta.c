/* The meta.json struct: building it, checking its values, and turning it
 * into JSON for the harness. Reading it is in meta_parse.c. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/meta.h"
#include "greenbench/records.h"
#include "greenbench/timefmt.h"
#include "records_row.h"

static const char *const profile_names[] = {"smoke", "study", "custom"};
static const char *const mode_names[] = {"auto", "on", "off"};
static const char *const zone_names[] = {"package", "dram"};

_Static_assert(sizeof profile_names / sizeof *profile_names == GB_META_PROFILE_COUNT,
               "profiles");
_Static_assert(sizeof mode_names / sizeof *mode_names == GB_META_ENERGY_MODE_COUNT, "modes");
_Static_assert(sizeof zone_names / sizeof *zone_names == GB_META_ZONE_KIND_COUNT, "zones");

GB_REC_NAME_FUNCS(gb_meta_profile, profile_names)
GB_REC_NAME_FUNCS(gb_meta_energy_mode, mode_names)
GB_REC_NAME_FUNCS(gb_meta_zone_kind, zone_names)

void gb_meta_init(gb_meta *m) {
  memset(m, 0, sizeof *m);
}

static void free_command(char **argv, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(argv[i]);
  free(argv);
}

void gb_meta_free(gb_meta *m) {
  free_command(m->command, m->n_command);
  free(m->command_line);
  free(m->calibration);
  free(m->startup);
  gb_meta_init(m);
}

/* ---- The command -------------------------------------------------------- */

static bool shell_safe(const char *s) {
  if (!*s)
    return false;
  for (; *s; s++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-", *s))
      return false;
  return true;
}

/* Bytes arg takes in the command line: as is, or in single quotes with each
 * quote written '\''. */
static size_t quoted_len(const char *s) {
  if (shell_safe(s))
    return strlen(s);
  size_t n = 2;
  for (; *s; s++)
    n += *s == '\'' ? 4 : 1;
  return n;
}

static char *append_quoted(char *p, const char *s) {
  if (shell_safe(s))
    return stpcpy(p, s);
  *p++ = '\'';
  for (; *s; s++) {
    if (*s == '\'')
      p = stpcpy(p, "'\\''");
    else
      *p++ = *s;
  }
  *p++ = '\'';
  return p;
}

static char *join_command(size_t argc, char *const *argv) {
  size_t len = 1;
  for (size_t i = 0; i < argc; i++)
    len += quoted_len(argv[i]) + 1;
  char *line = malloc(len), *p = line;
  if (!line)
    return NULL;
  for (size_t i = 0; i < argc; i++) {
    if (i)
      *p++ = ' ';
    p = append_quoted(p, argv[i]);
  }
  *p = '\0';
  return line;
}

int gb_meta_set_command(gb_meta *m, size_t argc, const char *const *argv, gb_err *err) {
  if (argc < 1)
    return gb_err_set(err, EINVAL, "command: empty");
  char **copy = calloc(argc, sizeof *copy);
  size_t n = 0;
  while (copy && n < argc && (copy[n] = strdup(argv[n])))
    n++;
  char *line = n == argc ? join_command(argc, copy) : NULL;
  if (!line) {
    if (copy)
      free_command(copy, n);
    return gb_err_set(err, ENOMEM, "command: out of memory");
  }
  free_command(m->command, m->n_command);
  free(m->command_line);
  m->command = copy;
  m->n_command = argc;
  m->command_line = line;
  return 0;
}

/* ---- Growing arrays ------------------------------------------------------ */

/* Room for n + 1 entries. The capacity is implied by n (0, then 4, 8, 16,
 * ...), so appending stays linear without a capacity field. */
static int reserve(void **arr, size_t n, size_t size) {
  bool full = n == 0 || (n >= 4 && (n & (n - 1)) == 0);
  if (!full)
    return 0;
  size_t cap = n == 0 ? 4 : 2 * n;
  void *p = realloc(*arr, cap * size);
  if (!p)
    return -ENOMEM;
  *arr = p;
  return 0;
}

int gb_meta_add_calibration(gb_meta *m, const gb_meta_calibration *c, gb_err *err) {
  if (reserve((void **)&m->calibration, m->n_calibration, sizeof *c) < 0)
    return gb_err_set(err, ENOMEM, "calibration: out of memory");
  m->calibration[m->n_calibration++] = *c;
  return 0;
}

int gb_meta_add_startup(gb_meta *m, const gb_meta_startup *s, gb_err *err) {
  if (reserve((void **)&m->startup, m->n_startup, sizeof *s) < 0)
    return gb_err_set(err, ENOMEM, "startup: out of memory");
  m->startup[m->n_startup++] = *s;
  return 0;
}

/* ---- Machine labels -------------------------------------------------------- */

static bool label_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-';
}

bool gb_meta_label_valid(const char *s) {
  size_t n = 0;
  for (; s[n]; n++)
    if (n == GB_META_LABEL_MAX || !label_char(s[n]))
      return false;
  return n > 0;
}

void gb_meta_label_from_host(const char *host, char *buf, size_t len) {
  size_t max = len - 1 < GB_META_LABEL_MAX ? len - 1 : GB_META_LABEL_MAX, n = 0;
  if (!host[0])
    host = "unknown-host";
  for (; host[n] && n < max; n++)
    buf[n] = label_char(host[n]) ? host[n] : '-';
  buf[n] = '\0';
}

/* Whether the model's word at w (of n characters, lowercased) is one a
 * label leaves out. */
static bool noise_word(const char *w, size_t n) {
  static const char *const words[] = {"r", "tm", "cpu", "processor"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (n == strlen(words[i]) && strncmp(w, words[i], n) == 0)
      return true;
  return false;
}

void gb_meta_label_from_machine(const char *host, const char *cpu_model, char *buf,
                                size_t len) {
  gb_meta_label_from_host(host, buf, len);
  size_t max = len - 1 < GB_META_LABEL_MAX ? len - 1 : GB_META_LABEL_MAX;
  size_t at = strlen(buf);
  char word[GB_META_LABEL_MAX + 1];
  for (const char *p = cpu_model ? cpu_model : ""; *p && *p != '@';) {
    size_t n = 0;
    while (p[n] && p[n] != '@' && isalnum((unsigned char)p[n]) && n < sizeof word - 1) {
      word[n] = (char)tolower((unsigned char)p[n]);
      n++;
    }
    p += n ? n : 1;
    if (n == 0 || noise_word(word, n))
      continue;
    if (at + 1 + n > max)
      break; /* whole words only, in the model's order */
    buf[at++] = '-';
    memcpy(buf + at, word, n);
    at += n;
    buf[at] = '\0';
  }
}

/* ---- Checks of values ---------------------------------------------------- */

typedef struct {
  const char *path;
  gb_err *err;
} vctx;

#define FAIL(v, ...) gb_meta_fail(v->err, v->path, __VA_ARGS__)

__attribute__((format(printf, 3, 4))) static int gb_meta_fail(gb_err *err, const char *path,
                                                              const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return gb_err_set(err, EINVAL, "%s: %s", path, msg);
}

/* vals[0..n) of a value set of count names: non-empty, known, no repeats. */
static int check_set(vctx *v, const char *key, const unsigned *vals, size_t n, unsigned count,
                     const char *(*name)(unsigned)) {
  if (n == 0)
    return FAIL(v, "settings.%s: empty", key);
  for (size_t i = 0; i < n; i++) {
    if (vals[i] >= count)
      return FAIL(v, "settings.%s: value %u out of range", key, vals[i]);
    for (size_t k = 0; k < i; k++)
      if (vals[k] == vals[i])
        return FAIL(v, "settings.%s: lists %s twice", key, name(vals[i]));
  }
  return 0;
}

static const char *lang_at(unsigned i) {
  return gb_language_name((gb_language)i);
}
static const char *alg_at(unsigned i) {
  return gb_algorithm_name((gb_algorithm)i);
}
static const char *order_at(unsigned i) {
  return gb_order_name((gb_order)i);
}

static int check_lists(vctx *v, const gb_meta_settings *s) {
  unsigned l[GB_LANGUAGE_COUNT], a[GB_ALGORITHM_COUNT], o[GB_ORDER_COUNT];
  if (s->n_languages > GB_LANGUAGE_COUNT || s->n_algorithms > GB_ALGORITHM_COUNT ||
      s->n_orders > GB_ORDER_COUNT || s->n_sizes > GB_META_MAX_SIZES)
    return FAIL(v, "settings: a list is longer than its value set");
  for (size_t i = 0; i < s->n_languages; i++)
    l[i] = (unsigned)s->languages[i];
  for (size_t i = 0; i < s->n_algorithms; i++)
    a[i] = (unsigned)s->algorithms[i];
  for (size_t i = 0; i < s->n_orders; i++)
    o[i] = (unsigned)s->orders[i];
  int rc;
  if ((rc = check_set(v, "languages", l, s->n_languages, GB_LANGUAGE_COUNT, lang_at)) < 0 ||
      (rc = check_set(v, "algorithms", a, s->n_algorithms, GB_ALGORITHM_COUNT, alg_at)) < 0 ||
      (rc = check_set(v, "orders", o, s->n_orders, GB_ORDER_COUNT, order_at)) < 0)
    return rc;
  if (s->n_sizes == 0)
    return FAIL(v, "settings.sizes: empty");
  for (size_t i = 0; i < s->n_sizes; i++) {
    if (s->sizes[i] == 0)
      return FAIL(v, "settings.sizes: 0 is not an input size");
    for (size_t k = 0; k < i; k++)
      if (s->sizes[k] == s->sizes[i])
        return FAIL(v, "settings.sizes: lists %" PRIu64 " twice", s->sizes[i]);
  }
  return 0;
}

static int check_settings(vctx *v, const gb_meta_settings *s) {
  int rc = check_lists(v, s);
  if (rc < 0)
    return rc;
  if (s->runs == 0)
    return FAIL(v, "settings.runs: 0, but a configuration has at least one run");
  if (s->target_ms == 0)
    return FAIL(v, "settings.target_ms: 0");
  if (s->timeout_s == 0)
    return FAIL(v, "settings.timeout_s: 0");
  if (s->seed == 0 || s->seed > UINT32_MAX)
    return FAIL(v, "settings.seed: %" PRIu64 " is not a xorshift32 seed (1..4294967295)",
                s->seed);
  if ((unsigned)s->energy >= GB_META_ENERGY_MODE_COUNT)
    return FAIL(v, "settings.energy: value out of range");
  return 0;
}

static int check_plan(vctx *v, const gb_meta_plan *p) {
  if (p->sort_runs > UINT64_MAX - p->startup_runs ||
      p->sort_runs + p->startup_runs != p->measured_runs)
    return FAIL(v,
                "plan: sort_runs %" PRIu64 " + startup_runs %" PRIu64
                " is not measured_runs %" PRIu64,
                p->sort_runs, p->startup_runs, p->measured_runs);
  return 0;
}

/* gb_meta_has_<what>(m, v): whether v is in the settings' list. */
#define GB_META_HAS(what, type, list)                                                          \
  bool gb_meta_has_##what(const gb_meta *m, type v) {                                          \
    for (size_t i = 0; i < m->settings.n_##list; i++)                                          \
      if (m->settings.list[i] == v)                                                            \
        return true;                                                                           \
    return false;                                                                              \
  }

GB_META_HAS(language, gb_language, languages)
GB_META_HAS(algorithm, gb_algorithm, algorithms)
GB_META_HAS(order, gb_order, orders)

/* The index of size in the settings' sizes, or n_sizes. */
static size_t size_index(const gb_meta_settings *s, uint64_t size) {
  size_t i = 0;
  while (i < s->n_sizes && s->sizes[i] != size)
    i++;
  return i;
}

bool gb_meta_has_size(const gb_meta *m, uint64_t size) {
  return size_index(&m->settings, size) < m->settings.n_sizes;
}

bool gb_meta_plans(const gb_meta *m, gb_language l, gb_algorithm a, gb_order o, uint64_t size) {
  size_t z = size_index(&m->settings, size);
  return z < m->settings.n_sizes && gb_meta_has_language(m, l) && gb_meta_has_algorithm(m, a) &&
         gb_meta_has_order(m, o) && !(m->settings.omit[l][a][o] >> z & 1u);
}

bool gb_meta_plans_startup(const gb_meta *m, gb_language l, gb_order o, uint64_t size) {
  for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
    if (gb_meta_plans(m, l, a, o, size))
      return true;
  return false;
}

size_t gb_meta_planned_configs(const gb_meta *m) {
  size_t n = 0;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
        for (size_t z = 0; z < m->settings.n_sizes; z++)
          n += gb_meta_plans(m, l, a, o, m->settings.sizes[z]);
  return n;
}

size_t gb_meta_planned_startups(const gb_meta *m) {
  size_t n = 0;
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_order o = 0; o < GB_ORDER_COUNT; o++)
      for (size_t z = 0; z < m->settings.n_sizes; z++)
        n += gb_meta_plans_startup(m, l, o, m->settings.sizes[z]);
  return n;
}

/* Omitted configurations lie inside the lists, and each item of a list
 * keeps at least one configuration (else it would not be listed). */
static int check_omit(vctx *v, const gb_meta *m) {
  const gb_meta_settings *s = &m->settings;
  uint32_t in_sizes = s->n_sizes >= 32 ? UINT32_MAX : (1u << s->n_sizes) - 1;
  bool lang[GB_LANGUAGE_COUNT] = {false}, alg[GB_ALGORITHM_COUNT] = {false},
       ord[GB_ORDER_COUNT] = {false}, size[GB_META_MAX_SIZES] = {false};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (gb_algorithm a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (gb_order o = 0; o < GB_ORDER_COUNT; o++) {
        uint32_t bits = s->omit[l][a][o];
        bool listed = gb_meta_has_language(m, l) && gb_meta_has_algorithm(m, a) &&
                      gb_meta_has_order(m, o);
        if (bits && (!listed || (bits & ~in_sizes)))
          return FAIL(v, "settings.omit: %s/%s/%s at a size not in the settings",
                      lang_at((unsigned)l), alg_at((unsigned)a), order_at((unsigned)o));
        for (size_t z = 0; listed && z < s->n_sizes; z++)
          if (!(bits >> z & 1u))
            lang[l] = alg[a] = ord[o] = size[z] = true;
      }
  for (size_t i = 0; i < s->n_languages; i++)
    if (!lang[s->languages[i]])
      return FAIL(v, "settings.omit: omits every configuration of language %s",
                  lang_at((unsigned)s->languages[i]));
  for (size_t i = 0; i < s->n_algorithms; i++)
    if (!alg[s->algorithms[i]])
      return FAIL(v, "settings.omit: omits every configuration of algorithm %s",
                  alg_at((unsigned)s->algorithms[i]));
  for (size_t i = 0; i < s->n_orders; i++)
    if (!ord[s->orders[i]])
      return FAIL(v, "settings.omit: omits every configuration of order %s",
                  order_at((unsigned)s->orders[i]));
  for (size_t z = 0; z < s->n_sizes; z++)
    if (!size[z])
      return FAIL(v, "settings.omit: omits every configuration of size %" PRIu64, s->sizes[z]);
  return 0;
}

static int check_calibration(vctx *v, const gb_meta *m) {
  for (size_t i = 0; i < m->n_calibration; i++) {
    const gb_meta_calibration *c = &m->calibration[i];
    if (!gb_meta_plans(m, c->language, c->algorithm, c->order, c->size))
      return FAIL(v, "calibration[%zu]: configuration not in settings", i);
    if (c->sorts == 0)
      return FAIL(v, "calibration[%zu].sorts: 0", i);
    if (c->n_warmup_loop_ns > GB_META_MAX_WARMUPS)
      return FAIL(v, "calibration[%zu].warmup_loop_ns: too many entries", i);
  }
  for (size_t i = 0; i < m->n_startup; i++) {
    const gb_meta_startup *s = &m->startup[i];
    if (!gb_meta_plans_startup(m, s->language, s->order, s->size))
      return FAIL(v, "startup[%zu]: trial not in settings", i);
    if (s->launches == 0)
      return FAIL(v, "startup[%zu].launches: 0", i);
  }
  return 0;
}

static int check_zones(vctx *v, const gb_meta *m) {
  bool package = false;
  if (m->energy.n_zones > GB_META_MAX_ZONES)
    return FAIL(v, "energy.zones: too many entries");
  for (size_t i = 0; i < m->energy.n_zones; i++) {
    const gb_meta_zone *z = &m->energy.zones[i];
    if ((unsigned)z->kind >= GB_META_ZONE_KIND_COUNT)
      return FAIL(v, "energy.zones[%zu].kind: value out of range", i);
    if (z->max_energy_range_uj == 0)
      return FAIL(v, "energy.zones[%zu].max_energy_range_uj: 0", i);
    package |= z->kind == GB_META_ZONE_PACKAGE;
  }
  if (m->energy.status == GB_REC_ENERGY_OK && !package)
    return FAIL(v, "energy.zones: energy is ok but no package zone is listed");
  return 0;
}

static int check_energy(vctx *v, const gb_meta *m) {
  gb_rec_energy st = m->energy.status;
  if ((unsigned)st >= GB_REC_ENERGY_COUNT)
    return FAIL(v, "energy.status: value out of range");
  if ((m->settings.energy == GB_META_ENERGY_OFF) != (st == GB_REC_ENERGY_OFF))
    return FAIL(v, "energy.status: %s, but settings.energy is %s", gb_rec_energy_name(st),
                gb_meta_energy_mode_name(m->settings.energy));
  if (st != GB_REC_ENERGY_OK && !m->energy.reason[0])
    return FAIL(v, "energy.reason: empty, but energy is %s", gb_rec_energy_name(st));
  if (m->energy.has_source && strcmp(m->energy.source, "powercap") != 0 &&
      strcmp(m->energy.source, "perf_event") != 0)
    return FAIL(v, "energy.source: '%s' is neither powercap nor perf_event", m->energy.source);
  if (m->energy.has_cross && strcmp(m->energy.cross_check, "perf_event") != 0)
    return FAIL(v, "energy.cross_check: '%s' is not perf_event", m->energy.cross_check);
  return check_zones(v, m);
}

/* "YYYY-MM-DDTHH:MM:SSZ", UTC, a real date (gb_utc_parse). */
static bool is_utc_time(const char *s) {
  int64_t t;
  return gb_utc_parse(s, &t) == 0;
}

static int check_progress(vctx *v, const gb_meta *m) {
  if (!is_utc_time(m->started_at))
    return FAIL(v, "started_at: '%.40s' is not YYYY-MM-DDTHH:MM:SSZ", m->started_at);
  if (m->has_finished_at && !is_utc_time(m->finished_at))
    return FAIL(v, "finished_at: '%.40s' is not YYYY-MM-DDTHH:MM:SSZ", m->finished_at);
  if (m->runs_done > m->plan.measured_runs)
    return FAIL(v, "runs_done: %" PRIu64 ", more than plan.measured_runs %" PRIu64,
                m->runs_done, m->plan.measured_runs);
  if (m->completed && !m->has_finished_at)
    return FAIL(v, "finished_at: null, but completed is true");
  if (m->completed && m->runs_done != m->plan.measured_runs)
    return FAIL(v, "runs_done: %" PRIu64 ", but completed needs plan.measured_runs %" PRIu64,
                m->runs_done, m->plan.measured_runs);
  return 0;
}

static int check_identity(vctx *v, const gb_meta *m) {
  if (!m->tool_version[0])
    return FAIL(v, "tool_version: empty");
  if (m->n_command == 0 || !m->command || !m->command_line)
    return FAIL(v, "command: empty");
  if ((unsigned)m->profile >= GB_META_PROFILE_COUNT)
    return FAIL(v, "profile: value out of range");
  if (!m->git_commit[0])
    return FAIL(v, "git_commit: empty");
  if (m->machine.cpus_online == 0)
    return FAIL(v, "machine.cpus_online: 0");
  if (m->machine.has_label && !gb_meta_label_valid(m->machine.label))
    return FAIL(v,
                "machine.label: '%.64s' is not a label (1 to 63 letters, digits, '_' or '-')",
                m->machine.label);
  for (size_t i = 0; i < m->settings.n_languages; i++)
    if (!m->runtimes[m->settings.languages[i]][0])
      return FAIL(v, "runtimes.%s: missing for a language in settings",
                  gb_language_name(m->settings.languages[i]));
  return 0;
}

int gb_meta_check(const gb_meta *m, const char *path, gb_err *err) {
  vctx v = {path, err};
  int rc;
  if ((rc = check_settings(&v, &m->settings)) < 0 || (rc = check_omit(&v, m)) < 0 ||
      (rc = check_identity(&v, m)) < 0 || (rc = check_plan(&v, &m->plan)) < 0 ||
      (rc = check_calibration(&v, m)) < 0 || (rc = check_energy(&v, m)) < 0)
    return rc;
  return check_progress(&v, m);
}
