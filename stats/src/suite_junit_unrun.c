/* The JUnit document of a suite campaign that has no records to read
 * (gb_suite_report_junit_unrun, suite_analysis.h): the shape of
 * gb_suite_report_junit's, every chosen configuration failed with the
 * reason. The suite's CTest fixture writes it where the study's fixture
 * writes gb_report_junit_unrun's. */
#include "greenbench/report_junit.h"
#include "greenbench/suite_analysis.h"

#include "stats_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  const gb_suite *suite;
  const char *machine;
  const char *profile;
  const gb_suite_junit_case *cases;
  size_t n;
} unrun;

/* The cases of language l and workload w. */
static size_t count(const unrun *u, size_t l, size_t w) {
  size_t n = 0;
  for (size_t i = 0; i < u->n; i++)
    n += u->cases[i].language == l && u->cases[i].workload == w;
  return n;
}

static void testcase(gbi_textbuf *b, const unrun *u, const gb_suite_junit_case *c,
                     const char *classname, const char *reason) {
  char params[GB_SREC_PARAMS_MAX];
  if (gb_srec_params_text(&u->suite->workloads[c->workload], c->values, params, sizeof params) <
      0)
    params[0] = '\0'; /* never: the caller checked every case */
  gbi_tb_puts(b, "    <testcase");
  gbi_junit_attr(b, "classname", classname);
  gbi_junit_attr(b, "name", params);
  gbi_tb_puts(b, " time=\"0.000000\">\n      <failure type=\"campaign-not-run\"");
  gbi_junit_attr(b, "message", reason);
  gbi_tb_puts(b, ">");
  gbi_xml_put(b, reason, strlen(reason), false);
  gbi_tb_puts(b, "</failure>\n      <system-out>verdict: failed\nruns: 0 ok of 0 in runs.csv\n"
                 "time per rep: not measured\nenergy per rep: not measured\n"
                 "net power: not measured</system-out>\n    </testcase>\n");
}

static void testsuite(gbi_textbuf *b, const unrun *u, size_t l, size_t w, const char *reason) {
  const gb_suite *s = u->suite;
  char name[GB_META_NAME_MAX + 4 * GB_SUITE_NAME_MAX + 16];
  size_t n = count(u, l, w);
  snprintf(name, sizeof name, "%s.%s.%s.%s.%s", u->machine, s->name, u->profile,
           s->languages[l].name, s->workloads[w].name);
  gbi_tb_puts(b, "  <testsuite");
  gbi_junit_attr(b, "name", name);
  gbi_tb_printf(b,
                " tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" "
                "time=\"0.000000\">\n",
                n, n);
  const char *const props[][2] = {{"suite", s->name},
                                  {"suite_hash", s->hash},
                                  {"language", s->languages[l].name},
                                  {"workload", s->workloads[w].name},
                                  {"machine_label", u->machine},
                                  {"campaign_completed", "false"}};
  gbi_junit_properties(b, props, sizeof props / sizeof *props);
  for (size_t i = 0; i < u->n; i++)
    if (u->cases[i].language == l && u->cases[i].workload == w)
      testcase(b, u, &u->cases[i], name, reason);
  gbi_tb_puts(b, "  </testsuite>\n");
}

int gb_suite_report_junit_unrun(const gb_suite *s, const char *machine_label,
                                const char *profile, const gb_suite_junit_case *cases, size_t n,
                                const char *reason, char **out, size_t *len, gb_err *err) {
  if (n == 0 || !reason || !*reason || !profile || !*profile)
    return gb_err_set(err, EINVAL, "junit.xml: no case, reason or profile given");
  if (machine_label && !gb_meta_label_valid(machine_label))
    return gb_err_set(err, EINVAL, "junit.xml: machine label '%.64s' is not a label",
                      machine_label);
  for (size_t i = 0; i < n; i++) {
    char params[GB_SREC_PARAMS_MAX];
    if (cases[i].language >= s->n_languages || cases[i].workload >= s->n_workloads ||
        gb_srec_params_text(&s->workloads[cases[i].workload], cases[i].values, params,
                            sizeof params) < 0)
      return gb_err_set(err, EINVAL, "junit.xml: case %zu is not one of suite %s", i, s->name);
  }
  unrun u = {s, machine_label ? machine_label : GB_JUNIT_UNLABELLED, profile, cases, n};
  gbi_textbuf b;
  gbi_tb_init(&b);
  gbi_tb_printf(&b,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"greenbench\" "
                "tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"0.000000\">\n",
                n, n);
  for (size_t l = 0; l < s->n_languages; l++)
    for (size_t w = 0; w < s->n_workloads; w++)
      if (count(&u, l, w) > 0)
        testsuite(&b, &u, l, w, reason);
  gbi_tb_puts(&b, "</testsuites>\n");
  return gbi_tb_take(&b, out, len, "junit.xml", err);
}
