#include "greenbench/validate.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/text.h"

typedef struct {
  char *msg;
  size_t len;
  char label[96]; /* "python/quick/random/250" */
} verdict;

__attribute__((format(printf, 2, 3))) static int fail(verdict *v, const char *fmt, ...) {
  if (v->len == 0) {
    return 1;
  }
  int n = snprintf(v->msg, v->len, "%s: ", v->label);
  if (n >= 0 && (size_t)n < v->len) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg + n, v->len - (size_t)n, fmt, ap);
    va_end(ap);
  }
  return 1;
}

static int check_count(verdict *v, const gb_rec_group *g, uint64_t planned, const char *what) {
  size_t n = g ? g->n_rows : 0;
  if (n != planned) {
    return fail(v, "%zu of %" PRIu64 " %s in runs.csv", n, planned, what);
  }
  return 0;
}

/* A row's message as shown: its control bytes escaped (gb_str_escape_controls),
 * whole, as the message field is bounded. */
typedef struct {
  char s[sizeof((gb_run_row *)0)->message * 4];
} message_buf;

static const char *message_shown(message_buf *b, const gb_run_row *r) {
  gb_str_escape_controls(r->message, strlen(r->message), b->s, sizeof b->s);
  return b->s;
}

static int check_status(verdict *v, const gb_rec_group *g, const char *what) {
  message_buf b;
  for (size_t i = 0; i < g->n_rows; i++) {
    const gb_run_row *r = g->rows[i];
    if (r->status == GB_REC_STATUS_PARITY_MISMATCH) {
      return fail(v, "parity mismatch in %s at runs.csv line %zu%s%s", what, r->line,
                  r->message[0] ? ": " : "", message_shown(&b, r));
    }
    if (r->status != GB_REC_STATUS_OK) {
      return fail(v, "%s at runs.csv line %zu has status %s%s%s", what, r->line,
                  gb_rec_status_name(r->status), r->message[0] ? ": " : "",
                  message_shown(&b, r));
    }
  }
  return 0;
}

static int check_row_counts(verdict *v, const gb_run_row *r) {
  if (!r->input_hash[0] || !r->comparisons.present || !r->writes.present) {
    return fail(v, "runs.csv line %zu lacks its input_hash or counts, so parity is unknown",
                r->line);
  }
  return 0;
}

/* Our rows against one reference row, which may be another language's. */
static int same_as(verdict *v, const gb_run_row *r, const gb_run_row *ref, const char *whose) {
  if (strcmp(r->input_hash, ref->input_hash) != 0) {
    return fail(v, "input_hash %s at runs.csv line %zu differs from %s %s at line %zu",
                r->input_hash, r->line, whose, ref->input_hash, ref->line);
  }
  if (r->comparisons.value != ref->comparisons.value || r->writes.value != ref->writes.value) {
    return fail(v,
                "%" PRIu64 " comparisons and %" PRIu64 " writes at runs.csv line %zu differ "
                "from %s %" PRIu64 " and %" PRIu64 " at line %zu",
                r->comparisons.value, r->writes.value, r->line, whose, ref->comparisons.value,
                ref->writes.value, ref->line);
  }
  return 0;
}

static int check_own_parity(verdict *v, const gb_rec_group *g) {
  for (size_t i = 0; i < g->n_rows; i++) {
    if (check_row_counts(v, g->rows[i]) ||
        (i > 0 && same_as(v, g->rows[i], g->rows[0], "its"))) {
      return 1;
    }
  }
  return 0;
}

/* The first ok row of another language's same configuration and seed. */
static const gb_run_row *reference_of(const gb_records *r, gb_language l,
                                      const gb_run_row *ours) {
  const gb_rec_group *g =
      gb_rec_table_find_sort(&r->runs, l, ours->algorithm, ours->order, ours->size);
  for (size_t i = 0; g && i < g->n_rows; i++) {
    const gb_run_row *x = g->rows[i];
    if (x->status == GB_REC_STATUS_OK && x->seed == ours->seed && x->input_hash[0] &&
        x->comparisons.present && x->writes.present) {
      return x;
    }
  }
  return NULL;
}

static int check_cross_parity(verdict *v, const gb_records *r, const gb_rec_group *g) {
  const gb_run_row *ours = g->rows[0];
  for (gb_language l = 0; l < GB_LANGUAGE_COUNT; l++) {
    if (l == ours->language) {
      continue;
    }
    const gb_run_row *ref = reference_of(r, l, ours);
    char whose[32];
    snprintf(whose, sizeof whose, "%s's", gb_language_name(l));
    if (ref && same_as(v, ours, ref, whose)) {
      return 1;
    }
  }
  return 0;
}

static int check_startup_hash(verdict *v, const gb_rec_group *st, const gb_run_row *ours) {
  for (size_t i = 0; i < st->n_rows; i++) {
    const gb_run_row *r = st->rows[i];
    if (strcmp(r->input_hash, ours->input_hash) != 0) {
      return fail(v, "startup input_hash %s at runs.csv line %zu differs from %s at line %zu",
                  r->input_hash[0] ? r->input_hash : "(missing)", r->line, ours->input_hash,
                  ours->line);
    }
  }
  return 0;
}

static int check_energy(verdict *v, const gb_rec_group *g) {
  for (size_t i = 0; i < g->n_rows; i++) {
    const gb_run_row *r = g->rows[i];
    if (r->energy != GB_REC_ENERGY_OK || !r->pkg_uj.present || !r->idle_pkg_uj.present) {
      return fail(v, "runs.csv line %zu has no energy reading (energy %s)", r->line,
                  gb_rec_energy_name(r->energy));
    }
  }
  return 0;
}

int gb_validate_case(const gb_records *r, gb_language language, gb_algorithm algorithm,
                     gb_order order, uint64_t size, bool energy_required, char *msg,
                     size_t len) {
  verdict v = {.msg = msg, .len = len};
  const char *ln = gb_language_name(language), *an = gb_algorithm_name(algorithm),
             *on = gb_order_name(order);
  snprintf(v.label, sizeof v.label, "%s/%s/%s/%" PRIu64, ln ? ln : "?", an ? an : "?",
           on ? on : "?", size);
  if (len > 0) {
    msg[0] = '\0';
  }
  if (!ln || !an || !on || !gb_meta_plans(&r->meta, language, algorithm, order, size)) {
    return fail(&v, "not a configuration of this campaign's settings");
  }
  uint64_t runs = r->meta.settings.runs;
  const gb_rec_group *g = gb_rec_table_find_sort(&r->runs, language, algorithm, order, size);
  const gb_rec_group *st = gb_rec_table_find_startup(&r->runs, language, order, size);
  if (check_count(&v, g, runs, "measured runs") || check_status(&v, g, "the measured run") ||
      check_own_parity(&v, g) || check_cross_parity(&v, r, g) ||
      check_count(&v, st, runs, "startup batches") ||
      check_status(&v, st, "the startup batch") || check_startup_hash(&v, st, g->rows[0])) {
    return 1;
  }
  if (energy_required && (check_energy(&v, g) || check_energy(&v, st))) {
    return 1;
  }
  return 0;
}
