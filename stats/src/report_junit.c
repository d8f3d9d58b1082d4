/* JUnit XML, checked against junit-10.xsd by the tests (ADR 0006 says why
 * it is written here rather than through a library). */
#include "greenbench/report_junit.h"

#include "textbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
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

static void xml_put(gb_textbuf *b, const char *s, size_t n, bool attribute) {
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    const char *ent = entity_of(u[i], attribute);
    bool control = u[i] < 0x20 && u[i] != '\t' && u[i] != '\n' && u[i] != '\r';
    size_t len = control ? 0 : xml_char_len(u + i, n - i);
    if (ent) {
      gb_tb_puts(b, ent);
    } else if (len == 0) {
      gb_tb_puts(b, "\xef\xbf\xbd"); /* U+FFFD REPLACEMENT CHARACTER */
    } else {
      gb_tb_putn(b, s + i, len);
    }
    i += len ? len : 1;
  }
}

static void xml_attr(gb_textbuf *b, const char *name, const char *value) {
  gb_tb_printf(b, " %s=\"", name);
  xml_put(b, value, strlen(value), true);
  gb_tb_puts(b, "\"");
}

int gb_xml_escape(const char *s, size_t n, bool attribute, char **out, size_t *len,
                  gb_err *err) {
  gb_textbuf b;
  gb_tb_init(&b);
  xml_put(&b, s, n, attribute);
  return gb_tb_take(&b, out, len, "xml escape", err);
}

/* ---- The document ------------------------------------------------------------- */

typedef struct {
  gb_textbuf *b;
  const gb_analysis *a;
  const gb_meta *m;
} junit;

typedef enum { CASE_PASSED, CASE_FAILED, CASE_SKIPPED } case_verdict;

static case_verdict verdict_of(const junit *j, const gb_an_config *c, char *msg, size_t len) {
  if (c->n_rows == 0) {
    snprintf(msg, len, "not run: runs.csv has no row of this configuration");
    return CASE_SKIPPED;
  }
  int bad = gb_validate_case(j->a->records, c->language, c->algorithm, c->order, c->size,
                             j->a->energy, msg, len);
  return bad ? CASE_FAILED : CASE_PASSED;
}

/* Median process time in seconds, "0" when nothing was measured. */
static double case_seconds(const gb_an_config *c) {
  return c->measured ? c->boot.est[GB_EST_PROCESS_TIME].point * 1e-9 : 0.0;
}

static void out_estimate(junit *j, const char *name, const gb_an_config *c, gb_estimate e,
                         double scale, const char *unit) {
  gb_tb_printf(j->b, "%s: ", name);
  const gb_interval *iv = &c->boot.est[e];
  if (!iv->available) {
    gb_tb_puts(j->b, j->a->energy ? "missing\n" : "pending\n");
    return;
  }
  gb_tb_interval(j->b, iv->point * scale, iv->lo * scale, iv->hi * scale, 4);
  gb_tb_printf(j->b, " %s (median [95%% CI])\n", unit);
}

static void out_figures(junit *j, const gb_an_config *c) {
  gb_textbuf *b = j->b;
  gb_tb_printf(b, "runs: %zu ok of %zu in runs.csv, %" PRIu64 " planned\n", c->n_ok, c->n_rows,
               j->m->settings.runs);
  if (c->n_ok > 0) {
    gb_tb_printf(b, "sorts per process: %" PRIu64, c->sorts_min);
    if (c->sorts_max != c->sorts_min) {
      gb_tb_printf(b, " to %" PRIu64, c->sorts_max);
    }
    gb_tb_puts(b, "\n");
  }
  if (c->has_counts) {
    gb_tb_printf(b, "comparisons per sort: %" PRIu64 "\nwrites per sort: %" PRIu64 "\n",
                 c->comparisons, c->writes);
  }
  if (!c->measured) {
    gb_tb_puts(b, "estimates: not measured\n");
    return;
  }
  out_estimate(j, "time per sort", c, GB_EST_TIME_PER_SORT, 1e-3, "us");
  out_estimate(j, "cpu time per sort", c, GB_EST_CPU_PER_SORT, 1e-3, "us");
  out_estimate(j, "energy per sort", c, GB_EST_ENERGY_PER_SORT, 1.0, "uJ");
  out_estimate(j, "net power", c, GB_EST_NET_POWER, 1.0, "W");
  gb_tb_puts(b, "process time: median ");
  gb_tb_sig(b, c->process.median * 1e-6, 4);
  gb_tb_puts(b, " ms, p95 ");
  gb_tb_sig(b, c->process.p95 * 1e-6, 4);
  gb_tb_puts(b, " ms, min ");
  gb_tb_sig(b, c->process.min * 1e-6, 4);
  gb_tb_puts(b, " ms, max ");
  gb_tb_sig(b, c->process.max * 1e-6, 4);
  gb_tb_printf(b, " ms; outliers: %zu low, %zu high\n", c->process.low_outliers,
               c->process.high_outliers);
}

static void out_case(junit *j, const gb_an_config *c, const char *classname) {
  gb_textbuf *b = j->b;
  char name[64], msg[512];
  snprintf(name, sizeof name, "%s.%" PRIu64, gb_rec_order_name(c->order), c->size);
  case_verdict v = verdict_of(j, c, msg, sizeof msg);
  gb_tb_puts(b, "    <testcase");
  xml_attr(b, "classname", classname);
  xml_attr(b, "name", name);
  gb_tb_printf(b, " time=\"%.6f\">\n", case_seconds(c));
  if (v == CASE_SKIPPED) {
    gb_tb_puts(b, "      <skipped");
    xml_attr(b, "message", msg);
    gb_tb_puts(b, "/>\n");
  } else if (v == CASE_FAILED) {
    gb_tb_puts(b, "      <failure type=\"invalid-records\"");
    xml_attr(b, "message", msg);
    gb_tb_puts(b, ">");
    xml_put(b, msg, strlen(msg), false);
    gb_tb_puts(b, "</failure>\n");
  }
  gb_textbuf figures;
  gb_tb_init(&figures);
  junit fj = {.b = &figures, .a = j->a, .m = j->m};
  out_figures(&fj, c);
  gb_tb_puts(b, "      <system-out>");
  xml_put(b, figures.data ? figures.data : "", figures.len, false);
  b->failed = b->failed || figures.failed;
  gb_tb_free(&figures);
  gb_tb_puts(b, "</system-out>\n    </testcase>\n");
}

static void property(gb_textbuf *b, const char *name, const char *value) {
  gb_tb_puts(b, "      <property");
  xml_attr(b, "name", name);
  xml_attr(b, "value", value);
  gb_tb_puts(b, "/>\n");
}

static void out_properties(junit *j, gb_rec_language l, gb_rec_algorithm g) {
  gb_textbuf *b = j->b;
  const gb_meta *m = j->m;
  char num[64];
  gb_tb_puts(b, "    <properties>\n");
  property(b, "language", gb_rec_language_name(l));
  property(b, "algorithm", gb_rec_algorithm_name(g));
  property(b, "runtime", m->runtimes[l]);
  property(b, "profile", gb_meta_profile_name(m->profile));
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
  gb_tb_puts(b, "    </properties>\n");
}

typedef struct {
  size_t tests, failures, skipped;
  double seconds;
} suite_counts;

static suite_counts count_suite(const junit *j, gb_rec_language l, gb_rec_algorithm g) {
  suite_counts s = {0};
  char msg[512];
  for (size_t i = 0; i < j->a->n_configs; i++) {
    const gb_an_config *c = &j->a->configs[i];
    if (c->language != l || c->algorithm != g) {
      continue;
    }
    case_verdict v = verdict_of(j, c, msg, sizeof msg);
    s.tests++;
    s.failures += v == CASE_FAILED;
    s.skipped += v == CASE_SKIPPED;
    s.seconds += case_seconds(c);
  }
  return s;
}

static void out_suite(junit *j, gb_rec_language l, gb_rec_algorithm g, suite_counts s) {
  gb_textbuf *b = j->b;
  char name[64];
  snprintf(name, sizeof name, "study.%s.%s", gb_rec_language_name(l), gb_rec_algorithm_name(g));
  gb_tb_puts(b, "  <testsuite");
  xml_attr(b, "name", name);
  gb_tb_printf(b,
               " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.6f\">\n",
               s.tests, s.failures, s.skipped, s.seconds);
  out_properties(j, l, g);
  for (size_t i = 0; i < j->a->n_configs; i++) {
    const gb_an_config *c = &j->a->configs[i];
    if (c->language == l && c->algorithm == g) {
      out_case(j, c, name);
    }
  }
  gb_tb_puts(b, "  </testsuite>\n");
}

static void out_document(junit *j) {
  suite_counts all = {0}, per[GB_REC_LANG_COUNT][GB_REC_ALG_COUNT] = {{{0}}};
  for (int l = 0; l < GB_REC_LANG_COUNT; l++) {
    for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
      per[l][g] = count_suite(j, l, g);
      all.tests += per[l][g].tests;
      all.failures += per[l][g].failures;
      all.seconds += per[l][g].seconds;
    }
  }
  gb_tb_printf(j->b,
               "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<testsuites name=\"greenbench\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
               "time=\"%.6f\">\n",
               all.tests, all.failures, all.seconds);
  for (int l = 0; l < GB_REC_LANG_COUNT; l++) {
    for (int g = 0; g < GB_REC_ALG_COUNT; g++) {
      if (per[l][g].tests > 0) {
        out_suite(j, l, g, per[l][g]);
      }
    }
  }
  gb_tb_puts(j->b, "</testsuites>\n");
}

int gb_report_junit(const gb_analysis *a, char **out, size_t *len, gb_err *err) {
  gb_textbuf b;
  gb_tb_init(&b);
  gb_tb_numeric loc;
  gb_tb_c_numeric(&loc);
  junit j = {.b = &b, .a = a, .m = &a->records->meta};
  out_document(&j);
  gb_tb_restore_numeric(&loc);
  return gb_tb_take(&b, out, len, "junit.xml", err);
}
