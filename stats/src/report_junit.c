/* JUnit XML, checked against the project's schema by the tests (ADR 0006 says why
 * it is written here rather than through a library). */
#include "greenbench/report_junit.h"

#include "stats_internal.h"
#include "textbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/validate.h"

/* ---- Escaping --------------------------------------------------------------- */

/* Length of the UTF-8 sequence at s that XML 1.0 can hold (1 to 4), or 0:
 * malformed, overlong, a surrogate, U+FFFE/U+FFFF or beyond U+10FFFF. */
static size_t xml_char_len(const unsigned char *s, size_t n) {
  if (s[0] < 0x80) {
    return 1;
  }
  size_t len = s[0] >= 0xf8 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
  if (len == 0 || len > n) {
    return 0;
  }
  uint32_t cp = s[0] & (0x7f >> len);
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) {
      return 0;
    }
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  static const uint32_t min_of[5] = {0, 0, 0x80, 0x800, 0x10000};
  bool valid = cp >= min_of[len] && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) &&
               cp != 0xfffe && cp != 0xffff;
  return valid ? len : 0;
}

static const char *entity_of(unsigned char c, bool attribute) {
  switch (c) {
  case '&':
    return "&amp;";
  case '<':
    return "&lt;";
  case '>':
    return "&gt;";
  case '"':
    return "&quot;";
  case '\'':
    return "&apos;";
  case '\r':
    return "&#13;";
  case '\n':
    return attribute ? "&#10;" : NULL;
  case '\t':
    return attribute ? "&#9;" : NULL;
  default:
    return NULL;
  }
}

void gbi_xml_put(gbi_textbuf *b, const char *s, size_t n, bool attribute) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    const char *ent = entity_of(u[i], attribute);
    bool control = u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' && u[i] != '\r';
    size_t len = control ? 0 : xml_char_len(u + i, n - i);
    if (ent) {
      gbi_tb_puts(b, ent);
    } else if (len == 0) {
      gbi_tb_puts(b, "\xef\xbf\xbd"); /* U+FFFD REPLACEMENT CHARACTER */
    } else {
      gbi_tb_putn(b, s + i, len);
    }
    i += len ? len : 1;
  }
}

static void xml_attr(gbi_textbuf *b, const char *name, const char *value) {
  gbi_tb_printf(b, " %s=\"", name);
  gbi_xml_put(b, value, strlen(value), true);
  gbi_tb_puts(b, "\"");
}

int gbi_xml_escape(const char *s, size_t n, bool attribute, char **out, size_t *len,
                   gb_err *err) {
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_xml_put(&b, s, n, attribute);
  return gbi_tb_take(&b, out, len, "xml escape", err);
}

/* ---- The cases ------------------------------------------------------------------ */

typedef enum { CASE_PASSED, CASE_FAILED, CASE_SKIPPED } case_verdict;

static const char *const verdict_names[] = {"passed", "failed", "skipped"};

/* One testcase, its verdict decided once. */
typedef struct {
  gb_language language;
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size;
  const gb_an_config *c; /* its analysis; NULL in a document without records */
  case_verdict verdict;
  const char *failure_type; /* of a failed case */
  char msg[512];            /* why it failed or was skipped */
  double seconds;
} jcase;

typedef struct {
  gbi_textbuf *b;
  const gb_analysis *a; /* NULL: a document without records (gb_report_junit_unrun) */
  const char *machine;  /* the label classnames carry */
  const char *profile;
  jcase *cases;
  size_t n_cases;
} junit;

/* Sum of wall_ns over the rows of one configuration in t (kind sort). */
static uint64_t wall_ns_of(const gb_rec_table *t, const gb_an_config *c) {
  const gb_rec_group *g =
      gb_rec_table_find_sort(t, c->language, c->algorithm, c->order, c->size);
  uint64_t sum = 0;
  for (size_t i = 0; g && i < g->n_rows; i++) {
    sum += g->rows[i]->wall_ns.present ? g->rows[i]->wall_ns.value : 0;
  }
  return sum;
}

/* The measuring time spent on a configuration, in seconds: its rows in
 * runs.csv and in warmups.csv (warm-ups and calibration trials). */
static double case_seconds(const gb_records *r, const gb_an_config *c) {
  uint64_t ns = wall_ns_of(&r->runs, c) + (r->has_warmups ? wall_ns_of(&r->warmups, c) : 0);
  return (double)ns * 1e-9;
}

static void case_of_config(const gb_analysis *a, const gb_an_config *c, jcase *k) {
  *k = (jcase){.language = c->language,
               .algorithm = c->algorithm,
               .order = c->order,
               .size = c->size,
               .c = c,
               .verdict = CASE_PASSED,
               .failure_type = "invalid-records",
               .seconds = case_seconds(a->records, c)};
  if (c->n_rows == 0) {
    snprintf(k->msg, sizeof k->msg, "not run: runs.csv has no row of this configuration");
    k->verdict = CASE_SKIPPED;
  } else if (!c->valid) {
    snprintf(k->msg, sizeof k->msg, "%s", c->invalid_reason);
    k->verdict = CASE_FAILED;
  }
}

/* ---- system-out -------------------------------------------------------------- */

static void out_estimate(gbi_textbuf *b, const junit *j, const char *name, const jcase *k,
                         gb_estimate e, double scale, const char *unit, bool energy) {
  gbi_tb_printf(b, "%s: ", name);
  if (!k->c || !k->c->measured || (energy && !j->a->energy)) {
    gbi_tb_puts(b, "not measured\n");
    return;
  }
  const gb_interval *iv = &k->c->boot.est[e];
  if (!iv->available) {
    gbi_tb_puts(b, "unavailable\n");
    return;
  }
  if (isnan(iv->point)) {
    gbi_tb_puts(b, "undefined\n");
    return;
  }
  gbi_tb_interval(b, iv->point * scale, iv->lo * scale, iv->hi * scale, 4);
  gbi_tb_printf(b, " %s (median [95%% CI])\n", unit);
}

/* The fixed layout of report_junit.h: every key, in order, on every case. */
static void out_figures(gbi_textbuf *b, const junit *j, const jcase *k) {
  const gb_an_config *c = k->c;
  bool ran = c && c->n_ok > 0, measured = c && c->measured;
  gbi_tb_printf(b, "verdict: %s\n", verdict_names[k->verdict]);
  if (c) {
    gbi_tb_printf(b, "runs: %zu ok of %zu in runs.csv, %" PRIu64 " planned\n", c->n_ok,
                  c->n_rows, j->a->records->meta.settings.runs);
  } else {
    gbi_tb_puts(b, "runs: not measured\n");
  }
  gbi_tb_puts(b, "sorts per process: ");
  if (ran) {
    gbi_tb_printf(b, "%" PRIu64, c->sorts_min);
    if (c->sorts_max != c->sorts_min) {
      gbi_tb_printf(b, " to %" PRIu64, c->sorts_max);
    }
    gbi_tb_puts(b, "\n");
  } else {
    gbi_tb_puts(b, "not measured\n");
  }
  if (c && c->has_counts) {
    gbi_tb_printf(b, "comparisons per sort: %" PRIu64 "\nwrites per sort: %" PRIu64 "\n",
                  c->comparisons, c->writes);
  } else {
    gbi_tb_puts(b, "comparisons per sort: not measured\nwrites per sort: not measured\n");
  }
  out_estimate(b, j, "time per sort", k, GB_EST_TIME_PER_SORT, 1e-3, "us", false);
  out_estimate(b, j, "cpu time per sort", k, GB_EST_CPU_PER_SORT, 1e-3, "us", false);
  out_estimate(b, j, "energy per sort", k, GB_EST_ENERGY_PER_SORT, 1.0, "uJ", true);
  out_estimate(b, j, "net power", k, GB_EST_NET_POWER, 1.0, "W", true);
  if (!measured) {
    gbi_tb_puts(b, "process time: not measured\noutliers: not measured\n");
    return;
  }
  gbi_tb_puts(b, "process time: median ");
  gbi_tb_sig(b, c->process.median * 1e-6, 4);
  gbi_tb_puts(b, " ms, p95 ");
  gbi_tb_sig(b, c->process.p95 * 1e-6, 4);
  gbi_tb_puts(b, " ms, min ");
  gbi_tb_sig(b, c->process.min * 1e-6, 4);
  gbi_tb_puts(b, " ms, max ");
  gbi_tb_sig(b, c->process.max * 1e-6, 4);
  gbi_tb_printf(b, " ms\noutliers: %zu low, %zu high\n", c->process.low_outliers,
                c->process.high_outliers);
}

/* ---- The document ------------------------------------------------------------- */

static void out_case(junit *j, const jcase *k, const char *classname) {
  gbi_textbuf *b = j->b;
  char name[64];
  snprintf(name, sizeof name, "%s.%" PRIu64, gb_order_name(k->order), k->size);
  gbi_tb_puts(b, "    <testcase");
  xml_attr(b, "classname", classname);
  xml_attr(b, "name", name);
  gbi_tb_printf(b, " time=\"%.6f\">\n", k->seconds);
  if (k->verdict == CASE_SKIPPED) {
    gbi_tb_puts(b, "      <skipped");
    xml_attr(b, "message", k->msg);
    gbi_tb_puts(b, "/>\n");
  } else if (k->verdict == CASE_FAILED) {
    gbi_tb_puts(b, "      <failure");
    xml_attr(b, "type", k->failure_type);
    xml_attr(b, "message", k->msg);
    gbi_tb_puts(b, ">");
    gbi_xml_put(b, k->msg, strlen(k->msg), false);
    gbi_tb_puts(b, "</failure>\n");
  }
  gbi_textbuf figures;
  gbi_tb_init(&figures);
  out_figures(&figures, j, k);
  gbi_tb_puts(b, "      <system-out>");
  gbi_xml_put(b, figures.data ? figures.data : "", figures.len, false);
  b->failed = b->failed || figures.failed;
  gbi_tb_free(&figures);
  gbi_tb_puts(b, "</system-out>\n    </testcase>\n");
}

static void property(gbi_textbuf *b, const char *name, const char *value) {
  gbi_tb_puts(b, "      <property");
  xml_attr(b, "name", name);
  xml_attr(b, "value", value);
  gbi_tb_puts(b, "/>\n");
}

/* The campaign's settings; a document without records has only the case's
 * key, the profile, the machine and campaign_completed false. */
static void out_properties(junit *j, gb_language l, gb_algorithm g) {
  gbi_textbuf *b = j->b;
  char num[64];
  gbi_tb_puts(b, "    <properties>\n");
  property(b, "language", gb_language_name(l));
  property(b, "algorithm", gb_algorithm_name(g));
  if (!j->a) {
    property(b, "profile", j->profile);
    property(b, "machine_label", j->machine);
    property(b, "campaign_completed", "false");
    gbi_tb_puts(b, "    </properties>\n");
    return;
  }
  const gb_meta *m = &j->a->records->meta;
  property(b, "runtime", m->runtimes[l]);
  property(b, "profile", j->profile);
  property(b, "machine_label", j->machine);
  property(b, "git_commit", m->git_commit);
  property(b, "cpu_model", m->machine.cpu_model);
  property(b, "energy", gb_rec_energy_name(m->energy.status));
  property(b, "energy_reason", m->energy.reason);
  property(b, "pinned_cpus", m->pinning.cpus);
  snprintf(num, sizeof num, "%" PRIu64, m->settings.runs);
  property(b, "runs_per_configuration", num);
  snprintf(num, sizeof num, "%zu", j->a->opts.resamples);
  property(b, "resamples", num);
  snprintf(num, sizeof num, "%" PRIu64, j->a->opts.seed);
  property(b, "bootstrap_seed", num);
  snprintf(num, sizeof num, "%.6g", j->a->opts.margin);
  property(b, "equivalence_margin", num);
  property(b, "quantile_rule", "Hyndman and Fan type 7");
  property(b, "campaign_completed", m->completed ? "true" : "false");
  gbi_tb_puts(b, "    </properties>\n");
}

typedef struct {
  size_t tests, failures, skipped;
  double seconds;
} suite_counts;

static suite_counts count_suite(const junit *j, gb_language l, gb_algorithm g) {
  suite_counts s = {0};
  for (size_t i = 0; i < j->n_cases; i++) {
    const jcase *k = &j->cases[i];
    if (k->language != l || k->algorithm != g) {
      continue;
    }
    s.tests++;
    s.failures += k->verdict == CASE_FAILED;
    s.skipped += k->verdict == CASE_SKIPPED;
    s.seconds += k->seconds;
  }
  return s;
}

static void out_suite(junit *j, gb_language l, gb_algorithm g, suite_counts s) {
  gbi_textbuf *b = j->b;
  char name[GB_META_NAME_MAX + 64];
  snprintf(name, sizeof name, "%s.%s.%s.%s", j->machine, j->profile, gb_language_name(l),
           gb_algorithm_name(g));
  gbi_tb_puts(b, "  <testsuite");
  xml_attr(b, "name", name);
  gbi_tb_printf(b,
                " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.6f\">\n",
                s.tests, s.failures, s.skipped, s.seconds);
  out_properties(j, l, g);
  for (size_t i = 0; i < j->n_cases; i++) {
    const jcase *k = &j->cases[i];
    if (k->language == l && k->algorithm == g) {
      out_case(j, k, name);
    }
  }
  gbi_tb_puts(b, "  </testsuite>\n");
}

static void out_document(junit *j) {
  suite_counts all = {0}, per[GB_LANGUAGE_COUNT][GB_ALGORITHM_COUNT] = {{{0}}};
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      per[l][g] = count_suite(j, l, g);
      all.tests += per[l][g].tests;
      all.failures += per[l][g].failures;
      all.seconds += per[l][g].seconds;
    }
  }
  gbi_tb_printf(j->b,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                "<testsuites name=\"greenbench\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                "time=\"%.6f\">\n",
                all.tests, all.failures, all.seconds);
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    for (gb_algorithm g = 0; g < GB_ALGORITHM_COUNT; g++) {
      if (per[l][g].tests > 0) {
        out_suite(j, l, g, per[l][g]);
      }
    }
  }
  gbi_tb_puts(j->b, "</testsuites>\n");
}

/* The document of j's cases, numbers in the "C" locale. */
static int write_document(junit *j, char **out, size_t *len, gb_err *err) {
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_numeric loc;
  gbi_tb_c_numeric(&loc);
  j->b = &b;
  out_document(j);
  gbi_tb_restore_numeric(&loc);
  return gbi_tb_take(&b, out, len, "junit.xml", err);
}

int gb_report_junit(const gb_analysis *a, char **out, size_t *len, gb_err *err) {
  const gb_meta *m = &a->records->meta;
  junit j = {.a = a,
             .machine = m->machine.has_label ? m->machine.label : GB_JUNIT_UNLABELLED,
             .profile = gb_profile_name(m->settings.profile),
             .n_cases = a->n_configs};
  j.cases = calloc(a->n_configs ? a->n_configs : 1, sizeof *j.cases);
  if (!j.cases) {
    return gb_err_set(err, ENOMEM, "junit.xml: out of memory");
  }
  for (size_t i = 0; i < a->n_configs; i++) {
    case_of_config(a, &a->configs[i], &j.cases[i]);
  }
  int rc = write_document(&j, out, len, err);
  free(j.cases);
  return rc;
}

static int check_unrun(const char *machine_label, const char *profile,
                       const gb_junit_case *cases, size_t n, const char *reason, gb_err *err) {
  gb_profile p;
  if (n == 0) {
    return gb_err_set(err, EINVAL, "junit.xml: no case to report");
  }
  if (machine_label && !gb_meta_label_valid(machine_label)) {
    return gb_err_set(err, EINVAL, "junit.xml: machine label '%.64s' is not a label",
                      machine_label);
  }
  if (!profile || gb_profile_parse(profile, &p) < 0) {
    return gb_err_set(err, EINVAL, "junit.xml: unknown profile '%.64s'",
                      profile ? profile : "(null)");
  }
  if (!reason || !reason[0]) {
    return gb_err_set(err, EINVAL, "junit.xml: no reason why the campaign did not run");
  }
  for (size_t i = 0; i < n; i++) {
    const gb_junit_case *k = &cases[i];
    if ((unsigned)k->language >= GB_LANGUAGE_COUNT ||
        (unsigned)k->algorithm >= GB_ALGORITHM_COUNT || (unsigned)k->order >= GB_ORDER_COUNT ||
        k->size == 0) {
      return gb_err_set(err, EINVAL, "junit.xml: case %zu is not a configuration", i);
    }
    for (size_t d = 0; d < i; d++) {
      const gb_junit_case *o = &cases[d];
      if (o->language == k->language && o->algorithm == k->algorithm && o->order == k->order &&
          o->size == k->size) {
        return gb_err_set(err, EINVAL, "junit.xml: cases %zu and %zu are the same", d, i);
      }
    }
  }
  return 0;
}

int gb_report_junit_unrun(const char *machine_label, const char *profile,
                          const gb_junit_case *cases, size_t n, const char *reason, char **out,
                          size_t *len, gb_err *err) {
  int rc = check_unrun(machine_label, profile, cases, n, reason, err);
  if (rc < 0) {
    return rc;
  }
  junit j = {.machine = machine_label ? machine_label : GB_JUNIT_UNLABELLED,
             .profile = profile,
             .n_cases = n};
  j.cases = calloc(n, sizeof *j.cases);
  if (!j.cases) {
    return gb_err_set(err, ENOMEM, "junit.xml: out of memory");
  }
  for (size_t i = 0; i < n; i++) {
    j.cases[i] = (jcase){.language = cases[i].language,
                         .algorithm = cases[i].algorithm,
                         .order = cases[i].order,
                         .size = cases[i].size,
                         .verdict = CASE_FAILED,
                         .failure_type = "campaign-not-run"};
    snprintf(j.cases[i].msg, sizeof j.cases[i].msg, "%s", reason);
  }
  rc = write_document(&j, out, len, err);
  free(j.cases);
  return rc;
}
