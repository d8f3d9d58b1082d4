/* The rows and meta.json of a suite campaign (greenbench/suiterecords.h):
 * the header line as a golden, rows written and read back with every field
 * set and with every optional field empty, each refusal of a field or of
 * a row's rules, the params and counters texts, and meta.json round trips
 * and refusals. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/suiterecords.h"
#include "records_internal.h"

static const char header[] =
    "run,kind,language,workload,params,seed,reps,launches,status,wall_ns,user_ns,sys_ns,"
    "max_rss_kib,loop_ns,counters,input_hash,output_hash,energy,pkg_uj,dram_uj,idle_ns,"
    "idle_pkg_uj,idle_dram_uj,freq_start_khz,freq_end_khz,temp_start_mc,temp_end_mc,"
    "started_unix_ns,message\n";

static const char full_line[] =
    "7,work,c,nbody,n=1000;m=4,42,3,1,ok,1000000,900000,10000,2048,800000,"
    "advances=3000;pairs=30000,0123456789abcdef,fedcba9876543210,ok,500,50,2000000,10,1,"
    "3000000,3100000,-5000,45000,1765000000000000000,\"say \"\"hi\"\", ok\"\n";

static const char empty_line[] = "0,startup,python,spectral-norm,n=100,1,0,5,timeout,,,,,,,,,"
                                 "off,,,,,,,,,,0,\n";

#define U(v) ((gb_rec_opt_u64){true, (v)})

static void full_row(gb_srec_row *r) {
  memset(r, 0, sizeof *r);
  r->run = 7;
  r->kind = GB_SREC_KIND_WORK;
  strcpy(r->language, "c");
  strcpy(r->workload, "nbody");
  strcpy(r->params, "n=1000;m=4");
  r->seed = 42;
  r->reps = 3;
  r->launches = 1;
  r->status = GB_REC_STATUS_OK;
  r->wall_ns = U(1000000);
  r->user_ns = U(900000);
  r->sys_ns = U(10000);
  r->max_rss_kib = U(2048);
  r->loop_ns = U(800000);
  strcpy(r->counters, "advances=3000;pairs=30000");
  strcpy(r->input_hash, "0123456789abcdef");
  strcpy(r->output_hash, "fedcba9876543210");
  r->energy = GB_REC_ENERGY_OK;
  r->pkg_uj = U(500);
  r->dram_uj = U(50);
  r->idle_ns = U(2000000);
  r->idle_pkg_uj = U(10);
  r->idle_dram_uj = U(1);
  r->freq_start_khz = U(3000000);
  r->freq_end_khz = U(3100000);
  r->temp_start_mc = (gb_rec_opt_i64){true, -5000};
  r->temp_end_mc = (gb_rec_opt_i64){true, 45000};
  r->started_unix_ns = UINT64_C(1765000000000000000);
  strcpy(r->message, "say \"hi\", ok");
}

static void empty_row(gb_srec_row *r) {
  memset(r, 0, sizeof *r);
  r->kind = GB_SREC_KIND_STARTUP;
  strcpy(r->language, "python");
  strcpy(r->workload, "spectral-norm");
  strcpy(r->params, "n=100");
  r->seed = 1;
  r->launches = 5;
  r->status = GB_REC_STATUS_TIMEOUT;
  r->energy = GB_REC_ENERGY_OFF;
}

/* Splits one line (with its "\n") and parses it as a row. */
static int read_line(const char *line, gb_srec_row *row, gb_err *err) {
  size_t len = strlen(line);
  cr_assert(len > 0 && line[len - 1] == '\n');
  char scratch[GB_SREC_LINE_MAX];
  gbi_csv_field f[GBI_SREC_COLS + 1];
  size_t n;
  const char *why;
  cr_assert_eq(gbi_csv_split(line, len - 1, scratch, f, GBI_SREC_COLS + 1, &n, &why), 0);
  cr_assert_eq(n, GBI_SREC_COLS, "%zu fields", n);
  return gbi_srec_parse_row(f, row, err);
}

/* line with field `col` (0-based) replaced by value. */
static char *with_field(const char *line, size_t col, const char *value) {
  char *out = malloc(strlen(line) + strlen(value) + 1);
  const char *p = line;
  for (size_t c = 0; c < col; c++)
    p = strchr(p, ',') + 1;
  const char *end = p + strcspn(p, ",\n");
  sprintf(out, "%.*s%s%s", (int)(p - line), line, value, end);
  return out;
}

static size_t column(const char *name) {
  for (size_t c = 0; c < GBI_SREC_COLS; c++)
    if (strcmp(gbi_srec_column_name(c), name) == 0)
      return c;
  cr_assert_fail("no column %s", name);
  return 0;
}

static void refused_field(const char *line, const char *col, const char *value,
                          const char *msg) {
  char *bad = with_field(line, column(col), value);
  gb_srec_row r;
  gb_err err = {{0}};
  cr_expect_eq(read_line(bad, &r, &err), -EINVAL, "%s", bad);
  cr_expect_str_eq(err.msg, msg, "%s", bad);
  free(bad);
}

Test(suiterecords, the_header_line_is_the_golden) {
  char buf[GB_SREC_LINE_MAX];
  cr_assert_eq(gb_srec_header(buf, sizeof buf), (int)strlen(header));
  cr_assert_str_eq(buf, header);
  cr_assert_eq(gb_srec_header(buf, 10), -ENOSPC);
  cr_assert_str_eq(buf, "");
}

Test(suiterecords, a_row_with_every_field_set_round_trips) {
  gb_srec_row r, back;
  gb_err err = {{0}};
  char buf[GB_SREC_LINE_MAX], again[GB_SREC_LINE_MAX];
  full_row(&r);
  cr_assert_eq(gb_srec_row_check(&r, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), (int)strlen(full_line));
  cr_assert_str_eq(buf, full_line);
  cr_assert_eq(read_line(buf, &back, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_srec_format_row(&back, again, sizeof again), (int)strlen(full_line));
  cr_assert_str_eq(again, full_line);
  cr_assert_eq(back.run, 7);
  cr_assert_str_eq(back.params, "n=1000;m=4");
  cr_assert_str_eq(back.counters, "advances=3000;pairs=30000");
  cr_assert_str_eq(back.output_hash, "fedcba9876543210");
  cr_assert(back.temp_start_mc.present && back.temp_start_mc.value == -5000);
  cr_assert_eq(back.started_unix_ns, UINT64_C(1765000000000000000));
  cr_assert_str_eq(back.message, "say \"hi\", ok");
}

Test(suiterecords, a_row_with_every_optional_field_empty_round_trips) {
  gb_srec_row r, back;
  gb_err err = {{0}};
  char buf[GB_SREC_LINE_MAX];
  empty_row(&r);
  cr_assert_eq(gb_srec_row_check(&r, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), (int)strlen(empty_line));
  cr_assert_str_eq(buf, empty_line);
  cr_assert_eq(read_line(buf, &back, &err), 0, "%s", err.msg);
  cr_assert_not(back.wall_ns.present || back.loop_ns.present || back.temp_end_mc.present);
  cr_assert_str_eq(back.counters, "");
  cr_assert_str_eq(back.input_hash, "");
  cr_assert_eq(back.launches, 5);
  cr_assert_eq(back.kind, GB_SREC_KIND_STARTUP);
}

Test(suiterecords, a_line_break_in_the_message_is_written_as_a_space) {
  gb_srec_row r, back;
  gb_err err = {{0}};
  char buf[GB_SREC_LINE_MAX];
  empty_row(&r);
  strcpy(r.message, "line one\r\nline two\n");
  cr_assert_eq(gb_srec_row_check(&r, &err), 0, "%s", err.msg);
  cr_assert_gt(gb_srec_format_row(&r, buf, sizeof buf), 0);
  cr_assert_eq(strchr(buf, '\n'), buf + strlen(buf) - 1, "one line: %s", buf);
  cr_assert_null(strchr(buf, '\r'));
  cr_assert_eq(read_line(buf, &back, &err), 0, "%s", err.msg);
  cr_assert_str_eq(back.message, "line one  line two ");
}

Test(suiterecords, the_writer_refuses_what_the_file_cannot_hold) {
  gb_srec_row r;
  char buf[GB_SREC_LINE_MAX];
  full_row(&r);
  cr_assert_eq(gb_srec_format_row(&r, buf, 40), -ENOSPC);
  cr_assert_str_eq(buf, "");
  r.kind = GB_SREC_KIND_COUNT;
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), -EINVAL);
  full_row(&r);
  strcpy(r.params, "n=1000,m=4");
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), -EINVAL);
  full_row(&r);
  r.params[0] = '\0';
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), -EINVAL);
  full_row(&r);
  strcpy(r.counters, "pairs=1;advances=2");
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), -EINVAL);
  full_row(&r);
  strcpy(r.language, "C");
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), -EINVAL);
  full_row(&r);
  strcpy(r.output_hash, "0123");
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), -EINVAL);
  full_row(&r);
  memset(r.message, 'x', sizeof r.message); /* not terminated */
  cr_assert_eq(gb_srec_format_row(&r, buf, sizeof buf), -EINVAL);
}

Test(suiterecords, a_bad_field_is_refused_naming_its_column) {
  refused_field(full_line, "kind", "sort",
                "kind: unknown value 'sort' (expected work, startup)");
  refused_field(full_line, "status", "fine",
                "status: unknown value 'fine' (expected ok, timeout, crashed, exit_nonzero, "
                "bad_output, parity_mismatch, energy_stalled, energy_jump, energy_vanished, "
                "spawn_failed)");
  refused_field(full_line, "language", "C", "language: 'C' is not a name");
  refused_field(full_line, "workload", "", "workload: empty, but required");
  refused_field(full_line, "params", "", "params: empty, but required");
  refused_field(full_line, "params", "n", "params: 'n' is not name=value");
  refused_field(full_line, "params", "n=01", "params: n: '01' is not a plain decimal integer");
  refused_field(full_line, "params", "n=1;n=2", "params: n appears twice");
  refused_field(full_line, "params", "N=1", "params: 'N' is not a name");
  refused_field(full_line, "params", "n=1;", "params: '' is not name=value");
  refused_field(full_line, "params", "a=1;b=2;c=3;d=4;e=5", "params: more than 4 entries");
  refused_field(full_line, "params", "n=9007199254740992",
                "params: n: '9007199254740992' is above 9007199254740991");
  refused_field(full_line, "counters", "pairs=1;advances=2",
                "counters: advances comes after pairs; the names are in byte order");
  refused_field(full_line, "counters", "a=-1",
                "counters: a: '-1' is not a plain decimal integer");
  refused_field(full_line, "seed", "0", "seed: 0 is out of range 1..4294967295");
  refused_field(full_line, "wall_ns", "-3", "wall_ns: negative duration '-3'");
  refused_field(full_line, "temp_end_mc", "x", "temp_end_mc: 'x' is not an integer");
  refused_field(full_line, "output_hash", "ABCDEF0123456789",
                "output_hash: 'ABCDEF0123456789' is not 16 lowercase hex digits");
  refused_field(full_line, "energy", "maybe",
                "energy: unknown value 'maybe' (expected ok, off, unavailable)");
}

Test(suiterecords, a_row_that_breaks_a_rule_is_refused_naming_its_column) {
  refused_field(full_line, "launches", "2", "launches: 2, but a work row has 1");
  refused_field(full_line, "reps", "0", "reps: 0, but a work row repeats at least once");
  refused_field(full_line, "wall_ns", "", "wall_ns: empty, but an ok run must have it");
  refused_field(full_line, "input_hash", "", "input_hash: empty, but an ok run must have it");
  refused_field(full_line, "loop_ns", "", "loop_ns: empty, but an ok work run must have it");
  refused_field(full_line, "output_hash", "",
                "output_hash: empty, but an ok work run must have it");
  refused_field(full_line, "pkg_uj", "",
                "pkg_uj: empty, but an ok run with energy ok must have it");
  refused_field(full_line, "idle_dram_uj", "", "idle_dram_uj: empty, but dram_uj is not");
  refused_field(empty_line, "reps", "2", "reps: 2, but a startup row has 0");
  refused_field(empty_line, "counters", "a=1",
                "counters: holds a value, but a startup row has none");
  refused_field(empty_line, "output_hash", "0123456789abcdef",
                "output_hash: holds a value, but a startup row has none");
  refused_field(empty_line, "pkg_uj", "1", "pkg_uj: holds a value, but energy is off");
}

Test(suiterecords, a_row_built_wrongly_is_refused_by_the_check) {
  gb_srec_row r;
  gb_err err = {{0}};
  full_row(&r);
  r.status = GB_REC_STATUS_COUNT;
  cr_assert_eq(gb_srec_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "status: value 10 out of range");
  full_row(&r);
  r.seed = 0;
  cr_assert_eq(gb_srec_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "seed: 0 is out of range 1..4294967295");
  full_row(&r);
  strcpy(r.params, "n=1;n=1");
  cr_assert_eq(gb_srec_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "params: n appears twice");
  full_row(&r);
  memset(r.workload, 'a', sizeof r.workload);
  cr_assert_eq(gb_srec_row_check(&r, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "workload: not terminated");
}

Test(suiterecords, params_and_counters_are_written_in_canonical_form) {
  gb_suite_workload w = {.name = "nbody", .n_parameters = 2};
  strcpy(w.parameters[0].name, "n");
  strcpy(w.parameters[1].name, "m");
  uint64_t v[] = {1000, 4};
  char buf[GB_SREC_PARAMS_MAX];
  cr_assert_eq(gb_srec_params_text(&w, v, buf, sizeof buf), 10);
  cr_assert_str_eq(buf, "n=1000;m=4");
  cr_assert_eq(gb_srec_params_text(&w, v, buf, 10), -ENOSPC);
  cr_assert_str_eq(buf, "");
  gb_suite_counter c[] = {{"pairs", 10000}, {"advances", 1000}, {"b", 0}};
  char cbuf[GB_SREC_COUNTERS_MAX];
  cr_assert_eq(gb_srec_counters_text(c, 3, cbuf, sizeof cbuf), 29);
  cr_assert_str_eq(cbuf, "advances=1000;b=0;pairs=10000");
  cr_assert_eq(gb_srec_counters_text(c, 0, cbuf, sizeof cbuf), 0);
  cr_assert_str_eq(cbuf, "");
  gb_suite_counter twice[] = {{"a", 1}, {"a", 2}};
  cr_assert_eq(gb_srec_counters_text(twice, 2, cbuf, sizeof cbuf), -EINVAL);
}

/* The longest texts fit their fields and the line: the longest numbers,
 * and the longest names, which are longer. */
Test(suiterecords, the_longest_params_and_counters_fit) {
  gb_suite_workload w = {.n_parameters = GB_SUITE_PARAMETERS_MAX};
  uint64_t v[GB_SUITE_PARAMETERS_MAX];
  for (size_t i = 0; i < GB_SUITE_PARAMETERS_MAX; i++) {
    memset(w.parameters[i].name, 'a' + (int)i, GB_SUITE_NAME_MAX);
    w.parameters[i].n_values = 1;
    w.parameters[i].values[0] = v[i] = GB_SUITE_VALUE_MAX;
  }
  char numbers[GB_SREC_PARAMS_MAX];
  cr_assert_eq(gb_srec_params_text(&w, v, numbers, sizeof numbers),
               GB_SUITE_PARAMETERS_MAX * (GB_SUITE_NAME_MAX + 17) + GB_SUITE_PARAMETERS_MAX -
                   1);
  for (size_t i = 0; i < GB_SUITE_PARAMETERS_MAX; i++) {
    w.parameters[i].named = true;
    w.parameters[i].values[0] = v[i] = 0;
    memset(w.parameters[i].names[0], 'z' - (int)i, GB_SUITE_NAME_MAX);
  }
  gb_suite_counter c[GB_SUITE_COUNTERS_MAX];
  for (size_t i = 0; i < GB_SUITE_COUNTERS_MAX; i++) {
    memset(c[i].name, 'a' + (int)i, GB_SUITE_NAME_MAX);
    c[i].name[GB_SUITE_NAME_MAX] = '\0';
    c[i].value = UINT64_MAX;
  }
  gb_srec_row r;
  full_row(&r);
  cr_assert_eq(gb_srec_params_text(&w, v, r.params, sizeof r.params), GB_SREC_PARAMS_MAX - 1);
  cr_assert_eq(gb_srec_counters_text(c, GB_SUITE_COUNTERS_MAX, r.counters, sizeof r.counters),
               GB_SREC_COUNTERS_MAX - 1);
  memset(r.message, '"', sizeof r.message - 1);
  r.message[sizeof r.message - 1] = '\0';
  char buf[GB_SREC_LINE_MAX];
  gb_srec_row back;
  gb_err err = {{0}};
  cr_assert_gt(gb_srec_format_row(&r, buf, sizeof buf), 0);
  cr_assert_eq(read_line(buf, &back, &err), 0, "%s", err.msg);
  cr_assert_str_eq(back.params, r.params);
  cr_assert_str_eq(back.counters, r.counters);
}

Test(suiterecords, kinds_have_names) {
  gb_srec_kind k;
  cr_assert_str_eq(gb_srec_kind_name(GB_SREC_KIND_WORK), "work");
  cr_assert_str_eq(gb_srec_kind_name(GB_SREC_KIND_STARTUP), "startup");
  cr_assert_null(gb_srec_kind_name(GB_SREC_KIND_COUNT));
  cr_assert_eq(gb_srec_kind_parse("startup", &k), 0);
  cr_assert_eq(k, GB_SREC_KIND_STARTUP);
  cr_assert_eq(gb_srec_kind_parse("sort", &k), -EINVAL);
}
