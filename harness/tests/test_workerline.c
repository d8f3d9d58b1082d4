/* The worker line parser: good lines of both kinds, then every field in turn
 * missing, of the wrong type and out of range, and every way the framing can
 * be wrong; then the check against the request. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/workerline.h"

typedef struct {
  const char *key, *value; /* value as JSON text */
} field;

static const field sort_fields[] = {
    {"language", "\"c\""},
    {"algorithm", "\"quick\""},
    {"order", "\"random\""},
    {"size", "4000"},
    {"seed", "2463534242"},
    {"sorts", "1"},
    {"comparisons", "55119"},
    {"writes", "56984"},
    {"input_hash", "\"9f662f292f0c2286\""},
    {"loop_ns", "183220"},
    {"sorted", "true"},
    {"runtime", "\"gcc 12.2.0\""},
};
static const field startup_fields[] = {
    {"language", "\"python\""},
    {"algorithm", "\"bubble\""},
    {"order", "\"nearly\""},
    {"size", "100"},
    {"seed", "7"},
    {"sorts", "3"},
    {"startup_only", "true"},
    {"input_hash", "\"0123456789abcdef\""},
    {"runtime", "\"CPython 3.11.2\""},
};
#define NSORT (sizeof sort_fields / sizeof sort_fields[0])
#define NSTARTUP (sizeof startup_fields / sizeof startup_fields[0])

static char line_buf[4096];

/* The line of fields with key `change` given value `value` (NULL: left out),
 * and `extra` (raw text, e.g. ",\"x\":1") added before the closing brace. */
static const char *build(const field *f, size_t n, const char *change, const char *value,
                         const char *extra) {
  size_t o = 0;
  o += (size_t)snprintf(line_buf + o, sizeof line_buf - o, "{");
  bool first = true;
  for (size_t i = 0; i < n; i++) {
    const char *v = f[i].value;
    if (change && strcmp(change, f[i].key) == 0 && !(v = value))
      continue;
    o += (size_t)snprintf(line_buf + o, sizeof line_buf - o, "%s\"%s\":%s", first ? "" : ",",
                          f[i].key, v);
    first = false;
  }
  snprintf(line_buf + o, sizeof line_buf - o, "%s}\n", extra ? extra : "");
  return line_buf;
}

static int parse(const char *s, gb_workerline_kind kind, gb_worker_line *out, gb_err *err) {
  return gb_workerline_parse(s, strlen(s), kind, out, err);
}

/* Parsing s fails with -EPROTO, a message containing want, and *out untouched. */
static void refused(const char *s, gb_workerline_kind kind, const char *want) {
  gb_worker_line l;
  memset(&l, 0x5a, sizeof l);
  gb_err err = {{0}};
  int rc = parse(s, kind, &l, &err);
  cr_expect_eq(rc, -EPROTO, "accepted: %s", s);
  cr_expect(strstr(err.msg, want), "for %s\n  want \"%s\"\n  got  \"%s\"", s, want, err.msg);
  cr_expect(strncmp(err.msg, "worker output: ", 15) == 0, "%s", err.msg);
  cr_expect_eq(((unsigned char *)&l)[0], 0x5a, "the out-param was written");
}

Test(workerline, good_sort_line) {
  gb_worker_line l;
  gb_err err;
  cr_assert_eq(parse(build(sort_fields, NSORT, NULL, NULL, NULL), GB_WORKERLINE_SORT, &l, &err),
               0, "%s", err.msg);
  cr_assert_eq(l.kind, GB_WORKERLINE_SORT);
  cr_assert_str_eq(l.language, "c");
  cr_assert_eq(l.algorithm, GB_QUICK);
  cr_assert_eq(l.order, GB_RANDOM);
  cr_assert_eq(l.size, 4000);
  cr_assert_eq(l.seed, 2463534242u);
  cr_assert_eq(l.sorts, 1);
  cr_assert_eq(l.comparisons, 55119);
  cr_assert_eq(l.writes, 56984);
  cr_assert_eq(l.input_hash, 0x9f662f292f0c2286u);
  cr_assert_str_eq(l.input_hash_hex, "9f662f292f0c2286");
  cr_assert_eq(l.loop_ns, 183220);
  cr_assert_str_eq(l.runtime, "gcc 12.2.0");
}

Test(workerline, good_startup_line) {
  gb_worker_line l;
  gb_err err;
  const char *s = build(startup_fields, NSTARTUP, NULL, NULL, NULL);
  cr_assert_eq(parse(s, GB_WORKERLINE_STARTUP, &l, &err), 0, "%s", err.msg);
  cr_assert_eq(l.kind, GB_WORKERLINE_STARTUP);
  cr_assert_str_eq(l.language, "python");
  cr_assert_eq(l.algorithm, GB_BUBBLE);
  cr_assert_eq(l.order, GB_NEARLY);
  cr_assert_eq(l.size, 100);
  cr_assert_eq(l.seed, 7);
  cr_assert_eq(l.sorts, 3);
  cr_assert_eq(l.input_hash, 0x0123456789abcdefu);
  cr_assert_eq(l.comparisons, 0);
  cr_assert_eq(l.loop_ns, 0);
  cr_assert_str_eq(l.runtime, "CPython 3.11.2");
}

Test(workerline, keys_in_any_order_and_json_escapes) {
  gb_worker_line l;
  gb_err err;
  const char *s =
      "{\"runtime\":\"node v18.19.0 \\\"lts\\\"\",\"sorts\":2,\"startup_only\":true,"
      "\"input_hash\":\"ffffffffffffffff\",\"seed\":4294967295,\"size\":10000000,"
      "\"order\":\"sorted\",\"algorithm\":\"insertion\",\"language\":\"n\\u006fde\"}\n";
  cr_assert_eq(parse(s, GB_WORKERLINE_STARTUP, &l, &err), 0, "%s", err.msg);
  cr_assert_str_eq(l.language, "node");
  cr_assert_str_eq(l.runtime, "node v18.19.0 \"lts\"");
  cr_assert_eq(l.seed, 4294967295u);
  cr_assert_eq(l.size, 10000000);
  cr_assert_eq(l.input_hash, UINT64_MAX);
}

Test(workerline, largest_exact_count_is_accepted) {
  gb_worker_line l;
  gb_err err;
  const char *s = build(sort_fields, NSORT, "comparisons", "9007199254740991", NULL);
  cr_assert_eq(parse(s, GB_WORKERLINE_SORT, &l, &err), 0, "%s", err.msg);
  cr_assert_eq(l.comparisons, 9007199254740991u);
  s = build(sort_fields, NSORT, "writes", "0", NULL);
  cr_assert_eq(parse(s, GB_WORKERLINE_SORT, &l, &err), 0, "%s", err.msg);
  cr_assert_eq(l.writes, 0);
}

Test(workerline, every_missing_key_is_named) {
  char want[64];
  for (size_t i = 0; i < NSORT; i++) {
    snprintf(want, sizeof want, "missing key \"%s\" for a sorting run", sort_fields[i].key);
    refused(build(sort_fields, NSORT, sort_fields[i].key, NULL, NULL), GB_WORKERLINE_SORT,
            want);
  }
  for (size_t i = 0; i < NSTARTUP; i++) {
    snprintf(want, sizeof want, "missing key \"%s\" for a startup-only run",
             startup_fields[i].key);
    refused(build(startup_fields, NSTARTUP, startup_fields[i].key, NULL, NULL),
            GB_WORKERLINE_STARTUP, want);
  }
}

/* key, a bad value, and what the message must say. */
static const struct {
  const char *key, *value, *want;
} bad_values[] = {
    {"language", "\"java\"", "\"language\" must be c, python or node, got \"java\""},
    {"language", "\"C\"", "\"language\" must be c, python or node"},
    {"language", "3", "\"language\" must be a string, got a number"},
    {"language", "null", "\"language\" must be a string, got null"},
    {"algorithm", "\"merge\"",
     "\"algorithm\" must be bubble, insertion or quick, got \"merge\""},
    {"algorithm", "[\"quick\"]", "\"algorithm\" must be a string, got an array"},
    {"order", "\"shuffled\"", "\"order\" must be random, sorted, reversed or nearly"},
    {"order", "{}", "\"order\" must be a string, got an object"},
    {"size", "\"4000\"", "\"size\" must be a number, got a string"},
    {"size", "0", "\"size\" must be an integer from 1 to 10000000, got 0"},
    {"size", "10000001", "\"size\" must be an integer from 1 to 10000000, got 10000001"},
    {"size", "1.5", "\"size\" must be an integer from 1 to 10000000, got 1.5"},
    {"size", "-1", "\"size\" must be an integer from 1 to 10000000, got -1"},
    {"size", "1e300", "\"size\" must be an integer from 1 to 10000000, got 1e+300"},
    {"size", "4e3", "\"size\" is written as \"4e3\"; expected a plain decimal integer"},
    {"size", "4000.0", "\"size\" is written as \"4000.0\""},
    {"size", "04000", "\"size\" is written as \"04000\""},
    {"seed", "0", "\"seed\" must be an integer from 1 to 4294967295, got 0"},
    {"seed", "4294967296", "\"seed\" must be an integer from 1 to 4294967295, got 4294967296"},
    {"seed", "true", "\"seed\" must be a number, got true"},
    {"sorts", "0", "\"sorts\" must be an integer from 1 to 1000000000, got 0"},
    {"sorts", "1000000001", "\"sorts\" must be an integer from 1 to 1000000000"},
    {"comparisons", "-1", "\"comparisons\" must be an integer from 0 to 9007199254740991"},
    {"comparisons", "9007199254740992", "from 0 to 9007199254740991, got 9007199254740992"},
    {"comparisons", "9007199254740993", "from 0 to 9007199254740991, got 9007199254740992"},
    {"comparisons", "1e300", "\"comparisons\" must be an integer from 0 to 9007199254740991"},
    {"comparisons", "0.5", "got 0.5"},
    {"comparisons", "-0", "\"comparisons\" is written as \"-0\""},
    {"comparisons", "false", "\"comparisons\" must be a number, got false"},
    {"writes", "2.25", "\"writes\" must be an integer from 0 to 9007199254740991, got 2.25"},
    {"writes", "\"56984\"", "\"writes\" must be a number, got a string"},
    {"loop_ns", "-5", "\"loop_ns\" must be an integer from 0"},
    {"loop_ns", "1E5", "\"loop_ns\" is written as \"1E5\""},
    {"loop_ns", "null", "\"loop_ns\" must be a number, got null"},
    {"input_hash", "\"9F662F292F0C2286\"", "\"input_hash\" must be 16 lowercase hex digits"},
    {"input_hash", "\"9f662f292f0c228\"", "\"input_hash\" must be 16 lowercase hex digits"},
    {"input_hash", "\"9f662f292f0c22860\"", "\"input_hash\" must be 16 lowercase hex digits"},
    {"input_hash", "\"9f662f292f0c228g\"", "got \"9f662f292f0c228g\""},
    {"input_hash", "\"\"", "\"input_hash\" must be 16 lowercase hex digits, got \"\""},
    {"input_hash", "11529215046068469", "\"input_hash\" must be a string, got a number"},
    {"sorted", "false", "\"sorted\" must be true, got false"},
    {"sorted", "1", "\"sorted\" must be true, got a number"},
    {"sorted", "\"true\"", "\"sorted\" must be true, got a string"},
    {"runtime", "\"\"", "\"runtime\" must be 1 to 127 printable ASCII characters, got \"\""},
    {"runtime", "\"gcc\\t12\"",
     "\"runtime\" must be 1 to 127 printable ASCII characters, got "
     "\"gcc\\x0912\""},
    {"runtime", "\"caf\\u00e9\"", "\"runtime\" must be 1 to 127 printable ASCII characters"},
    {"runtime", "\"gcc\\u0000evil\"", "\\u0000 in a string"},
    {"runtime", "\"gcc\x01\"", "printable ASCII characters, got \"gcc\\x01\""},
    {"runtime", "42", "\"runtime\" must be a string, got a number"},
};

Test(workerline, every_bad_value_is_named) {
  for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++)
    refused(build(sort_fields, NSORT, bad_values[i].key, bad_values[i].value, NULL),
            GB_WORKERLINE_SORT, bad_values[i].want);
}

Test(workerline, bad_startup_only_value) {
  refused(build(startup_fields, NSTARTUP, "startup_only", "false", NULL), GB_WORKERLINE_STARTUP,
          "\"startup_only\" must be true, got false");
  refused(build(startup_fields, NSTARTUP, "startup_only", "null", NULL), GB_WORKERLINE_STARTUP,
          "\"startup_only\" must be true, got null");
}

Test(workerline, runtime_length_is_bounded) {
  char big[200], value[220];
  memset(big, 'r', sizeof big);
  big[127] = '\0';
  snprintf(value, sizeof value, "\"%s\"", big);
  gb_worker_line l;
  gb_err err;
  cr_assert_eq(
      parse(build(sort_fields, NSORT, "runtime", value, NULL), GB_WORKERLINE_SORT, &l, &err), 0,
      "127 characters are allowed: %s", err.msg);
  cr_assert_eq(strlen(l.runtime), 127);
  big[127] = 'r';
  big[128] = '\0';
  snprintf(value, sizeof value, "\"%s\"", big);
  refused(
      build(sort_fields, NSORT, "runtime", value, NULL), GB_WORKERLINE_SORT,
      "\"runtime\" must be 1 to 127 printable ASCII characters, got \"rrrrrrrrrrrrrrrrrrrr");
}

Test(workerline, extra_and_duplicate_keys) {
  refused(build(sort_fields, NSORT, NULL, NULL, ",\"extra\":1"), GB_WORKERLINE_SORT,
          "unexpected key \"extra\" for a sorting run");
  refused(build(sort_fields, NSORT, NULL, NULL, ",\"size\":4000"), GB_WORKERLINE_SORT,
          "key \"size\" appears twice");
  refused(build(sort_fields, NSORT, NULL, NULL, ",\"Size\":4000"), GB_WORKERLINE_SORT,
          "unexpected key \"Size\"");
  /* Each kind refuses the other's keys. */
  refused(build(sort_fields, NSORT, NULL, NULL, ",\"startup_only\":true"), GB_WORKERLINE_SORT,
          "unexpected key \"startup_only\" for a sorting run");
  refused(build(startup_fields, NSTARTUP, NULL, NULL, ",\"loop_ns\":5"), GB_WORKERLINE_STARTUP,
          "unexpected key \"loop_ns\" for a startup-only run");
  refused(build(sort_fields, NSORT, NULL, NULL, NULL), GB_WORKERLINE_STARTUP,
          "unexpected key \"comparisons\" for a startup-only run");
}

Test(workerline, framing_is_one_line_and_nothing_else) {
  char s[4200];
  const char *good = build(startup_fields, NSTARTUP, NULL, NULL, NULL);
  size_t n = strlen(good);
  refused("", GB_WORKERLINE_STARTUP, "nothing on stdout; expected one line of JSON");
  refused("\n", GB_WORKERLINE_STARTUP, "does not start with '{'");
  snprintf(s, sizeof s, "%.*s", (int)(n - 1), good);
  refused(s, GB_WORKERLINE_STARTUP, "no newline at the end of its");
  snprintf(s, sizeof s, "%sdebug: done\n", good);
  refused(s, GB_WORKERLINE_STARTUP,
          "more than one line: 12 bytes follow the first newline: "
          "\"debug: done\\x0a\"");
  snprintf(s, sizeof s, "%s%s", good, good);
  refused(s, GB_WORKERLINE_STARTUP, "more than one line");
  snprintf(s, sizeof s, "%s\n", good);
  refused(s, GB_WORKERLINE_STARTUP, "more than one line");
  snprintf(s, sizeof s, "%.*s garbage\n", (int)(n - 1), good);
  refused(s, GB_WORKERLINE_STARTUP, "data after the JSON object at byte");
  snprintf(s, sizeof s, "%.*s \n", (int)(n - 1), good);
  refused(s, GB_WORKERLINE_STARTUP, "data after the JSON object");
  snprintf(s, sizeof s, "%.*s\r\n", (int)(n - 1), good);
  refused(s, GB_WORKERLINE_STARTUP, "data after the JSON object");
  snprintf(s, sizeof s, "%.*s{}\n", (int)(n - 1), good);
  refused(s, GB_WORKERLINE_STARTUP, "data after the JSON object");
  snprintf(s, sizeof s, " %s", good);
  refused(s, GB_WORKERLINE_STARTUP, "does not start with '{': \" {");
  refused("[1,2]\n", GB_WORKERLINE_STARTUP, "does not start with '{'");
  refused("{\"language\":\n", GB_WORKERLINE_STARTUP, "not valid JSON");
  refused("{}\n", GB_WORKERLINE_STARTUP, "missing key \"language\"");
}

Test(workerline, nul_byte_is_refused) {
  const char *good = build(startup_fields, NSTARTUP, NULL, NULL, NULL);
  char s[4096];
  size_t n = strlen(good);
  memcpy(s, good, n);
  s[5] = '\0';
  gb_worker_line l;
  gb_err err;
  cr_assert_eq(gb_workerline_parse(s, n, GB_WORKERLINE_STARTUP, &l, &err), -EPROTO);
  cr_assert(strstr(err.msg, "NUL byte at byte 5"), "%s", err.msg);
}

Test(workerline, huge_binary_input_gives_a_short_printable_message) {
  size_t n = 1 << 20;
  char *s = malloc(n);
  cr_assert_not_null(s);
  for (size_t i = 0; i < n; i++)
    s[i] = (char)(0x80 | (i & 0x7f));
  s[0] = '{';
  s[n - 1] = '\n';
  gb_worker_line l;
  gb_err err;
  cr_assert_eq(gb_workerline_parse(s, n, GB_WORKERLINE_SORT, &l, &err), -EPROTO);
  free(s);
  cr_assert(strstr(err.msg, "not valid JSON"), "%s", err.msg);
  cr_assert_lt(strlen(err.msg), 250);
  for (const char *p = err.msg; *p; p++)
    cr_assert(*p >= 0x20 && *p < 0x7f, "unprintable byte in \"%s\"", err.msg);
}

Test(workerline, unknown_kind_is_einval) {
  gb_worker_line l;
  gb_err err;
  cr_assert_eq(gb_workerline_parse("{}\n", 3, (gb_workerline_kind)7, &l, &err), -EINVAL);
}

static const gb_worker_request asked = {.kind = GB_WORKERLINE_SORT,
                                        .language = "c",
                                        .algorithm = GB_QUICK,
                                        .order = GB_RANDOM,
                                        .size = 4000,
                                        .seed = 2463534242u,
                                        .sorts = 1};

static void mismatch(gb_worker_request req, const char *want) {
  gb_worker_line l = {.kind = 99};
  gb_err err = {{0}};
  const char *s = build(sort_fields, NSORT, NULL, NULL, NULL);
  cr_expect_eq(gb_workerline_read(s, strlen(s), &req, &l, &err), -EPROTO);
  cr_expect_str_eq(err.msg, want);
  cr_expect_eq(l.kind, 99, "the out-param was written");
}

Test(workerline, line_matching_the_request_passes) {
  gb_worker_line l;
  gb_err err;
  const char *s = build(sort_fields, NSORT, NULL, NULL, NULL);
  cr_assert_eq(gb_workerline_read(s, strlen(s), &asked, &l, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_workerline_check(&l, &asked, &err), 0);
}

Test(workerline, request_mismatch_names_field_and_both_values) {
  gb_worker_request r = asked;
  r.language = "node";
  mismatch(r, "worker output: \"language\" is c but node was asked for");
  r = asked;
  r.algorithm = GB_BUBBLE;
  mismatch(r, "worker output: \"algorithm\" is quick but bubble was asked for");
  r = asked;
  r.order = GB_REVERSED;
  mismatch(r, "worker output: \"order\" is random but reversed was asked for");
  r = asked;
  r.size = 4001;
  mismatch(r, "worker output: \"size\" is 4000 but 4001 was asked for");
  r = asked;
  r.seed = 1;
  mismatch(r, "worker output: \"seed\" is 2463534242 but 1 was asked for");
  r = asked;
  r.sorts = 20;
  mismatch(r, "worker output: \"sorts\" is 1 but 20 was asked for");
}

Test(workerline, check_compares_the_kind) {
  gb_worker_line l;
  gb_err err;
  const char *s = build(startup_fields, NSTARTUP, NULL, NULL, NULL);
  cr_assert_eq(parse(s, GB_WORKERLINE_STARTUP, &l, &err), 0, "%s", err.msg);
  gb_worker_request r = {.kind = GB_WORKERLINE_SORT,
                         .language = "python",
                         .algorithm = GB_BUBBLE,
                         .order = GB_NEARLY,
                         .size = 100,
                         .seed = 7,
                         .sorts = 3};
  cr_assert_eq(gb_workerline_check(&l, &r, &err), -EPROTO);
  cr_assert_str_eq(
      err.msg, "worker output: a line for a startup-only run, but a sorting run was asked for");
  r.kind = GB_WORKERLINE_STARTUP;
  cr_assert_eq(gb_workerline_check(&l, &r, &err), 0, "%s", err.msg);
}
