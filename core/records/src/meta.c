/* The meta.json model: building it and the checks across fields. Its
 * fields are read and written by the table of meta_codec.c, which also
 * checks each field on its own; what it plans is asked in meta_plan.c, and
 * machine labels are made in meta_label.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/meta.h"
#include "greenbench/records.h"
#include "greenbench/timefmt.h"
#include "records_internal.h"

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
  const char *safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-";
  return *s && !s[strspn(s, safe)];
}

char *gbi_meta_command_line(size_t argc, char *const *argv) {
  char *line = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&line, &len);
  if (!f)
    return NULL;
  for (size_t i = 0; i < argc; i++) {
    const char *s = argv[i], *quote = shell_safe(s) ? "" : "'"; /* a safe one has no ' */
    fputs(i ? " " : "", f);
    fputs(quote, f);
    for (; *s; s++)
      if (*s == '\'')
        fputs("'\\''", f);
      else
        fputc(*s, f);
    fputs(quote, f);
  }
  bool failed = ferror(f) != 0;
  if (fclose(f) != 0 || failed) {
    free(line);
    return NULL;
  }
  return line;
}

int gb_meta_set_command(gb_meta *m, size_t argc, const char *const *argv, gb_err *err) {
  if (argc < 1)
    return gb_err_set(err, EINVAL, "command: empty");
  char **copy = calloc(argc, sizeof *copy);
  size_t n = 0;
  while (copy && n < argc && (copy[n] = strdup(argv[n])))
    n++;
  char *line = n == argc ? gbi_meta_command_line(argc, copy) : NULL;
  if (!line) {
    free_command(copy, n); /* none when copy is NULL */
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

int gbi_meta_grow(void **arr, size_t n, size_t size) {
  bool full = n == 0 || (n >= 4 && (n & (n - 1)) == 0);
  void *p = full ? realloc(*arr, (n == 0 ? 4 : 2 * n) * size) : *arr;
  if (!p)
    return -ENOMEM;
  *arr = p;
  return 0;
}

int gb_meta_add_calibration(gb_meta *m, const gb_meta_calibration *c, gb_err *err) {
  if (gbi_meta_grow((void **)&m->calibration, m->n_calibration, sizeof *c) < 0)
    return gb_err_set(err, ENOMEM, "calibration: out of memory");
  m->calibration[m->n_calibration++] = *c;
  return 0;
}

int gb_meta_add_startup(gb_meta *m, const gb_meta_startup *s, gb_err *err) {
  if (gbi_meta_grow((void **)&m->startup, m->n_startup, sizeof *s) < 0)
    return gb_err_set(err, ENOMEM, "startup: out of memory");
  m->startup[m->n_startup++] = *s;
  return 0;
}

/* ---- Checks of values ---------------------------------------------------- */

typedef struct {
  const char *path;
  gb_err *err;
} vctx;

#define FAIL(v, fmt, ...) gb_err_set(v->err, EINVAL, "%s: " fmt, v->path, ##__VA_ARGS__)

static int check_plan(vctx *v, const gb_meta_plan *p) {
  if (p->sort_runs > UINT64_MAX - p->startup_runs ||
      p->sort_runs + p->startup_runs != p->measured_runs)
    return FAIL(v,
                "plan: sort_runs %" PRIu64 " + startup_runs %" PRIu64
                " is not measured_runs %" PRIu64,
                p->sort_runs, p->startup_runs, p->measured_runs);
  return 0;
}

/* Omitted configurations lie inside the lists, and each item of a list
 * keeps at least one configuration (else it would not be listed). */
static int check_omit(vctx *v, const gb_meta *m) {
  const gb_settings *s = &m->settings;
  unsigned in_sizes = (1u << s->nsizes) - 1, lang = 0, alg = 0, ord = 0, size = 0;
  for (unsigned l = 0; l < GB_LANGUAGE_COUNT; l++)
    for (unsigned a = 0; a < GB_ALGORITHM_COUNT; a++)
      for (unsigned o = 0; o < GB_ORDER_COUNT; o++) {
        unsigned bits = s->omit[l][a][o];
        bool listed =
            (s->languages >> l & 1u) && (s->algorithms >> a & 1u) && (s->orders >> o & 1u);
        if (bits && (!listed || (bits & ~in_sizes)))
          return FAIL(v, "settings.omit: %s/%s/%s at a size not in the settings",
                      gb_language_names[l], gb_algorithm_names[a], gb_order_names[o]);
        if (listed && (~bits & in_sizes)) {
          lang |= 1u << l, alg |= 1u << a, ord |= 1u << o;
          size |= ~bits & in_sizes;
        }
      }
  const char *what[] = {"language", "algorithm", "order"};
  const unsigned listed[] = {s->languages, s->algorithms, s->orders}, kept[] = {lang, alg, ord};
  const char *const *name[] = {gb_language_names, gb_algorithm_names, gb_order_names};
  for (int k = 0; k < 3; k++)
    for (unsigned x = 0; gb_bits_next(listed[k] & ~kept[k], &x); x++)
      return FAIL(v, "settings.omit: omits every configuration of %s %s", what[k], name[k][x]);
  for (size_t z = 0; z < s->nsizes; z++)
    if (!(size >> z & 1u))
      return FAIL(v, "settings.omit: omits every configuration of size %" PRIu64, s->sizes[z]);
  return 0;
}

static int check_calibration(vctx *v, const gb_meta *m) {
  for (size_t i = 0; i < m->n_calibration; i++) {
    const gb_meta_calibration *c = &m->calibration[i];
    if (!gb_meta_plans(m, c->language, c->algorithm, c->order, c->size))
      return FAIL(v, "calibration[%zu]: configuration not in settings", i);
  }
  for (size_t i = 0; i < m->n_startup; i++) {
    const gb_meta_startup *s = &m->startup[i];
    if (!gb_meta_plans_startup(m, s->language, s->order, s->size))
      return FAIL(v, "startup[%zu]: trial not in settings", i);
  }
  return 0;
}

static int check_energy(vctx *v, const gb_meta *m) {
  gb_rec_energy st = m->energy.status;
  gb_excerpt_buf b;
  bool package = false;
  if ((m->settings.energy == GB_ENERGY_OFF) != (st == GB_REC_ENERGY_OFF))
    return FAIL(v, "energy.status: %s, but settings.energy is %s", gb_rec_energy_name(st),
                gb_energy_mode_name(m->settings.energy));
  if (st != GB_REC_ENERGY_OK && !m->energy.reason[0])
    return FAIL(v, "energy.reason: empty, but energy is %s", gb_rec_energy_name(st));
  if (m->energy.has_source && strcmp(m->energy.source, "powercap") != 0 &&
      strcmp(m->energy.source, "perf_event") != 0)
    return FAIL(v, "energy.source: '%s' is neither powercap nor perf_event",
                gb_excerpt(&b, m->energy.source));
  if (m->energy.has_cross && strcmp(m->energy.cross_check, "perf_event") != 0)
    return FAIL(v, "energy.cross_check: '%s' is not perf_event",
                gb_excerpt(&b, m->energy.cross_check));
  for (size_t i = 0; i < m->energy.n_zones; i++)
    package |= m->energy.zones[i].kind == GB_META_ZONE_PACKAGE;
  if (st == GB_REC_ENERGY_OK && !package)
    return FAIL(v, "energy.zones: energy is ok but no package zone is listed");
  return 0;
}

static int check_progress(vctx *v, const gb_meta *m) {
  int64_t t; /* UTC, a real date (gb_utc_parse) */
  gb_excerpt_buf b;
  if (gb_utc_parse(m->started_at, &t) < 0)
    return FAIL(v, "started_at: '%s' is not YYYY-MM-DDTHH:MM:SSZ",
                gb_excerpt(&b, m->started_at));
  if (m->has_finished_at && gb_utc_parse(m->finished_at, &t) < 0)
    return FAIL(v, "finished_at: '%s' is not YYYY-MM-DDTHH:MM:SSZ",
                gb_excerpt(&b, m->finished_at));
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
  gb_excerpt_buf b;
  if (m->n_command == 0 || !m->command || !m->command_line)
    return FAIL(v, "command: empty");
  if (m->machine.has_label && !gb_meta_label_valid(m->machine.label))
    return FAIL(v, "machine.label: '%s' is not a label (1 to 63 letters, digits, '_' or '-')",
                gb_excerpt(&b, m->machine.label));
  for (unsigned l = 0; gb_bits_next(m->settings.languages, &l); l++)
    if (l < GB_LANGUAGE_COUNT && !m->runtimes[l][0])
      return FAIL(v, "runtimes.%s: missing for a language in settings", gb_language_names[l]);
  return 0;
}

/* The settings' own bounds, in gb_settings_check's words after the path.
 * They come first: the table's writer, which checks the single fields, can
 * only write settings that hold them. */
static int check_settings(vctx *v, const gb_meta *m) {
  gb_err why;
  return gb_settings_check(&m->settings, &why) < 0 ? FAIL(v, "%s", why.msg) : 0;
}

int gb_meta_check(const gb_meta *m, const char *path, gb_err *err) {
  vctx v = {path, err};
  int rc;
  if ((rc = check_settings(&v, m)) < 0 || (rc = gbi_meta_check_fields(m, path, err)) < 0 ||
      (rc = check_omit(&v, m)) < 0 || (rc = check_identity(&v, m)) < 0 ||
      (rc = check_plan(&v, &m->plan)) < 0 || (rc = check_calibration(&v, m)) < 0 ||
      (rc = check_energy(&v, m)) < 0)
    return rc;
  return check_progress(&v, m);
}
