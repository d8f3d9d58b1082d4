/* `greenbench suite check`'s work (cli_internal.h): every build step,
 * version command, measured run and startup run of a suite once, each line
 * parsed as the contract says, and the parity of what the languages report
 * checked, one table row per process and one error line per failure. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/contractline.h"
#include "greenbench/spawn.h"
#include "greenbench/suitecampaign.h"
#include "greenbench/suitefile.h"
#include "greenbench/text.h"

#include "cli_internal.h"

#define PARAMS_TEXT_MAX 256
#define DETAIL_MAX 1024

typedef struct {
  const gb_suite *s;
  const cli_suite_opts *o;
  FILE *out, *err;
  unsigned failures;
} checker;

/* One process: who, which step, and the values of its placeholders. */
typedef struct {
  const gb_suite_language *lang;
  const gb_suite_workload *w; /* NULL for version */
  const char *params;         /* "n=1000,m=2", or "-" */
  const char *step;           /* "build", "version", "run", "startup" */
} proc;

__attribute__((format(printf, 3, 4))) static void fail(checker *k, const proc *p,
                                                       const char *fmt, ...) {
  char msg[1024], line[1536];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(line, sizeof line, "%s%s%s%s%s: %s", p->lang->name, p->w ? " " : "",
           p->w ? p->w->name : "", strcmp(p->params, "-") ? " " : "",
           strcmp(p->params, "-") ? p->params : "", msg);
  gb_str_put_line(k->err, "greenbench: error: suite check: ", line);
  k->failures++;
}

static void row(checker *k, const proc *p, bool ok, uint64_t wall_ns, const char *detail) {
  char line[DETAIL_MAX + 128];
  snprintf(line, sizeof line, "%-12s %-16s %-16s %-8s %-4s %9.1f  %s", p->lang->name,
           p->w ? p->w->name : "-", p->params, p->step, ok ? "ok" : "FAIL",
           (double)wall_ns / 1e6, detail);
  gb_str_put_line(k->out, "", line);
}

/* Runs template t of p once. Returns 0 with *r filled (free it) when the
 * process exited 0; else fails with the reason and returns -1. */
static int run_one(checker *k, const proc *p, gb_suite_template_kind t, const gb_suite_vars *v,
                   gb_spawn_result *r) {
  char **argv = NULL, program[PATH_MAX];
  gb_err e;
  if (gb_suite_expand(&p->lang->t[t], v, &argv, &e) < 0) {
    fail(k, p, "%s: %s", p->step, e.msg);
    return -1;
  }
  int rc = gb_suite_resolve_program(argv[0], program, sizeof program);
  if (rc < 0) {
    fail(k, p, "%s: program %s not found%s", p->step, argv[0],
         strchr(argv[0], '/') ? "" : " on PATH");
    gb_suite_argv_free(argv);
    return -1;
  }
  char *given = argv[0];
  argv[0] = program;
  gb_spawn_opts o;
  gb_spawn_opts_init(&o, argv);
  o.timeout_ns = k->o->timeout_ns;
  o.stop = k->o->stop;
  memset(r, 0, sizeof *r);
  rc = gb_spawn_run(&o, r, &e);
  argv[0] = given;
  gb_suite_argv_free(argv);
  if (rc < 0) {
    fail(k, p, "%s: %s", p->step, e.msg);
    return -1;
  }
  if (r->status != GB_SPAWN_OK) {
    fail(k, p, "%s: %s", p->step, r->message);
    row(k, p, false, r->wall_ns, "-");
    gb_spawn_result_free(r);
    return -1;
  }
  return 0;
}

/* The parameters of set values of w as text: "n=1000,m=2". */
static void params_text(const gb_suite_workload *w, const uint64_t *values, char *buf,
                        size_t len) {
  int rc = gb_suite_params_join(w, values, ",", buf, len); /* cut short when too small */
  (void)rc;
}

static void line_detail(const gb_contract_line *l, char *buf, size_t len) {
  size_t o = (size_t)snprintf(buf, len, "input %s", l->input_hash_hex);
  if (l->kind == GB_CONTRACT_MEASURED)
    o += (size_t)snprintf(buf + o, len - o, " output %s", l->output_hash_hex);
  for (size_t i = 0; i < l->n_counters && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, " %s=%" PRIu64, l->counters[i].name,
                          l->counters[i].value);
  if (o < len)
    snprintf(buf + o, len - o, " (%s)", l->runtime);
}

/* Runs template t of p and parses its line as kind. 0 and *line, or -1
 * after one failure line. */
static int run_line(checker *k, const proc *p, gb_suite_template_kind t, const gb_suite_vars *v,
                    gb_contract_kind kind, gb_contract_line *line) {
  gb_spawn_result r;
  gb_err e;
  if (run_one(k, p, t, v, &r) < 0)
    return -1;
  int rc = gb_contractline_parse(r.out, r.out_len, kind, line, &e);
  char detail[DETAIL_MAX] = "-";
  if (rc == 0)
    line_detail(line, detail, sizeof detail);
  else
    fail(k, p, "%s: %s", p->step, e.msg);
  row(k, p, rc == 0, r.wall_ns, detail);
  gb_spawn_result_free(&r);
  return rc == 0 ? 0 : -1;
}

/* One language's measured and startup runs of one parameter set, checked
 * against expect and against ref (the first language's line, *have_ref). */
static void run_set(checker *k, const proc *p, const gb_suite_vars *v, gb_contract_line *ref,
                    const char **ref_name) {
  gb_contract_line m = {.kind = GB_CONTRACT_STARTUP}, st;
  gb_err e;
  proc q = *p;
  q.step = "run";
  if (run_line(k, &q, GB_SUITE_COMMAND, v, GB_CONTRACT_MEASURED, &m) == 0) {
    const gb_suite_expect *x = gb_suite_find_expect(p->w, v->values);
    if (x && gb_contractline_expect(&m, x, &e) < 0)
      fail(k, &q, "%s", e.msg);
    else if (*ref_name && gb_contractline_compare(&m, ref, *ref_name, &e) < 0)
      fail(k, &q, "%s", e.msg);
    if (!*ref_name) {
      *ref = m;
      *ref_name = p->lang->name;
    }
  }
  q.step = "startup";
  if (run_line(k, &q, GB_SUITE_STARTUP, v, GB_CONTRACT_STARTUP, &st) == 0 &&
      m.kind == GB_CONTRACT_MEASURED && strcmp(st.input_hash_hex, m.input_hash_hex) != 0)
    fail(k, &q, "input_hash %s differs from the measured run's %s", st.input_hash_hex,
         m.input_hash_hex);
}

/* Every parameter set of workload w, each language in the suite's order. */
static void run_workload(checker *k, const gb_suite_workload *w, const bool *built) {
  uint64_t values[GB_SUITE_PARAMETERS_MAX];
  size_t at[GB_SUITE_PARAMETERS_MAX] = {0};
  for (;;) {
    char params[PARAMS_TEXT_MAX];
    for (size_t i = 0; i < w->n_parameters; i++)
      values[i] = w->parameters[i].values[at[i]];
    params_text(w, values, params, sizeof params);
    gb_suite_vars v = {.workload = w,
                       .values = values,
                       .has_reps = true,
                       .reps = 1,
                       .has_seed = true,
                       .seed = k->o->seed,
                       .suitedir = k->s->dir,
                       .builddir = k->o->builddir,
                       .workers = k->o->workers};
    gb_contract_line ref;
    const char *ref_name = NULL;
    for (size_t l = 0; l < k->s->n_languages; l++) {
      proc p = {&k->s->languages[l], w, params, "run"};
      if (built[l])
        run_set(k, &p, &v, &ref, &ref_name);
    }
    size_t i = 0;
    while (i < w->n_parameters && ++at[i] == w->parameters[i].n_values)
      at[i++] = 0;
    if (i == w->n_parameters)
      return;
  }
}

int cli_suite_check(const gb_suite *s, const cli_suite_opts *o, FILE *out, FILE *err) {
  checker k = {s, o, out, err, 0};
  bool *built = malloc(s->n_languages * s->n_workloads * sizeof *built + 1);
  if (!built)
    return -ENOMEM;
  fprintf(out, "%-12s %-16s %-16s %-8s %-4s %9s  %s\n", "language", "workload", "parameters",
          "step", "ok", "wall_ms", "result");
  for (size_t w = 0; w < s->n_workloads; w++)
    for (size_t l = 0; l < s->n_languages; l++) {
      proc p = {&s->languages[l], &s->workloads[w], "-", "build"};
      gb_suite_vars v = {
          .workload = p.w, .suitedir = s->dir, .builddir = o->builddir, .workers = o->workers};
      gb_spawn_result r;
      bool *ok = &built[w * s->n_languages + l];
      *ok = s->languages[l].t[GB_SUITE_BUILD].n == 0;
      if (!*ok && run_one(&k, &p, GB_SUITE_BUILD, &v, &r) == 0) {
        row(&k, &p, true, r.wall_ns, "-");
        gb_spawn_result_free(&r);
        *ok = true;
      }
    }
  for (size_t l = 0; l < s->n_languages; l++) {
    proc p = {&s->languages[l], NULL, "-", "version"};
    gb_suite_vars v = {.suitedir = s->dir, .builddir = o->builddir, .workers = o->workers};
    gb_spawn_result r;
    if (run_one(&k, &p, GB_SUITE_VERSION, &v, &r) < 0)
      continue;
    size_t n = strcspn(r.out, "\n");
    char first[DETAIL_MAX];
    snprintf(first, sizeof first, "%.*s", (int)(n < 200 ? n : 200), r.out);
    if (n == 0)
      fail(&k, &p, "version: printed nothing on stdout (its first line is the version)");
    row(&k, &p, n > 0, r.wall_ns, n ? first : "-");
    gb_spawn_result_free(&r);
  }
  for (size_t w = 0; w < s->n_workloads; w++)
    run_workload(&k, &s->workloads[w], built + w * s->n_languages);
  free(built);
  return (int)k.failures;
}
