/* The generic contract line of a suite (greenbench/contractline.h): good
 * lines of both forms, then each fault once with its exact one-line
 * message; then the parity comparison and the check against expect. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "greenbench/contractline.h"

static const char measured[] =
    "{\"loop_ns\":123456,\"counters\":{\"advances\":1000,\"pairs\":10000},"
    "\"input_hash\":\"0123456789abcdef\",\"output_hash\":\"fedcba9876543210\","
    "\"runtime\":\"CPython 3.11.2\"}\n";
static const char startup[] = "{\"startup_only\":true,\"input_hash\":\"0123456789abcdef\","
                              "\"runtime\":\"CPython 3.11.2\"}\n";

static char buf[2048];

/* text with the one occurrence of from replaced by to, in buf. */
static const char *with(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  cr_assert_not_null(at, "no '%s'", from);
  cr_assert_null(strstr(at + 1, from), "'%s' is not unique", from);
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  return buf;
}

static void refused_len(const char *line, size_t len, gb_contract_kind kind, const char *msg) {
  gb_contract_line l = {.loop_ns = 99};
  gb_err err = {{0}};
  cr_assert_eq(gb_contractline_parse(line, len, kind, &l, &err), -EPROTO, "%s", msg);
  cr_assert_str_eq(err.msg, msg);
  cr_assert_eq(l.loop_ns, 99, "*out untouched");
}

static void refused(const char *line, gb_contract_kind kind, const char *msg) {
  refused_len(line, strlen(line), kind, msg);
}

static void measured_refused(const char *from, const char *to, const char *msg) {
  refused(with(measured, from, to), GB_CONTRACT_MEASURED, msg);
}

Test(contractline, a_measured_line_is_read) {
  gb_contract_line l;
  gb_err err = {{0}};
  cr_assert_eq(
      gb_contractline_parse(measured, strlen(measured), GB_CONTRACT_MEASURED, &l, &err), 0,
      "%s", err.msg);
  cr_assert_eq(l.kind, GB_CONTRACT_MEASURED);
  cr_assert_eq(l.loop_ns, 123456);
  cr_assert_eq(l.n_counters, 2);
  cr_assert_str_eq(l.counters[0].name, "advances");
  cr_assert_eq(l.counters[1].value, 10000);
  cr_assert_eq(gb_contractline_counter(&l, "pairs"), &l.counters[1]);
  cr_assert_null(gb_contractline_counter(&l, "pair"));
  cr_assert_eq(l.input_hash, 0x0123456789abcdefu);
  cr_assert_str_eq(l.output_hash_hex, "fedcba9876543210");
  cr_assert_eq(l.output_hash, 0xfedcba9876543210u);
  cr_assert_str_eq(l.runtime, "CPython 3.11.2");
}

Test(contractline, keys_in_any_order_no_counters_and_the_bounds) {
  gb_contract_line l;
  gb_err err = {{0}};
  const char *line = "{\"runtime\":\"~\",\"output_hash\":\"0000000000000000\",\"counters\":{},"
                     "\"input_hash\":\"ffffffffffffffff\",\"loop_ns\":9007199254740991}\n";
  cr_assert_eq(gb_contractline_parse(line, strlen(line), GB_CONTRACT_MEASURED, &l, &err), 0,
               "%s", err.msg);
  cr_assert_eq(l.n_counters, 0);
  cr_assert_eq(l.loop_ns, 9007199254740991u);
  line = with(measured, "\"pairs\":10000}",
              "\"pairs\":0,\"c\":1,\"d\":2,\"e\":3,\"f\":4,"
              "\"g\":5,\"h\":6}");
  cr_assert_eq(gb_contractline_parse(line, strlen(line), GB_CONTRACT_MEASURED, &l, &err), 0,
               "%s", err.msg);
  cr_assert_eq(l.n_counters, 8);
}

Test(contractline, a_startup_line_is_read) {
  gb_contract_line l;
  gb_err err = {{0}};
  cr_assert_eq(gb_contractline_parse(startup, strlen(startup), GB_CONTRACT_STARTUP, &l, &err),
               0, "%s", err.msg);
  cr_assert_eq(l.kind, GB_CONTRACT_STARTUP);
  cr_assert_str_eq(l.input_hash_hex, "0123456789abcdef");
  cr_assert_str_eq(l.output_hash_hex, "");
  cr_assert_eq(l.n_counters, 0);
}

Test(contractline, keys_missing_extra_or_repeated) {
  measured_refused("\"loop_ns\":123456,", "",
                   "worker output: missing key \"loop_ns\" for a measured run");
  measured_refused("\"counters\":{\"advances\":1000,\"pairs\":10000},", "",
                   "worker output: missing key \"counters\" for a measured run");
  measured_refused(",\"output_hash\":\"fedcba9876543210\"", "",
                   "worker output: missing key \"output_hash\" for a measured run");
  measured_refused("\"loop_ns\":123456,", "\"loop_ns\":123456,\"sorted\":true,",
                   "worker output: unexpected key \"sorted\" for a measured run");
  measured_refused("\"loop_ns\":123456,", "\"loop_ns\":123456,\"startup_only\":true,",
                   "worker output: unexpected key \"startup_only\" for a measured run");
  measured_refused("\"loop_ns\":123456,", "\"loop_ns\":123456,\"loop_ns\":1,",
                   "worker output: key \"loop_ns\" appears twice");
  refused(with(startup, "\"startup_only\":true,", ""), GB_CONTRACT_STARTUP,
          "worker output: missing key \"startup_only\" for a startup-only run");
  refused(with(startup, "\"startup_only\":true,", "\"startup_only\":true,\"loop_ns\":1,"),
          GB_CONTRACT_STARTUP,
          "worker output: unexpected key \"loop_ns\" for a startup-only run");
  refused(with(startup, "true", "1"), GB_CONTRACT_STARTUP,
          "worker output: \"startup_only\" must be true, got a number");
  refused(measured, GB_CONTRACT_STARTUP,
          "worker output: unexpected key \"loop_ns\" for a startup-only run");
}

Test(contractline, numbers_are_whole_and_in_range) {
  measured_refused("\"loop_ns\":123456", "\"loop_ns\":\"123456\"",
                   "worker output: \"loop_ns\" must be a number, got a string");
  measured_refused(
      "\"loop_ns\":123456", "\"loop_ns\":1.5",
      "worker output: \"loop_ns\" must be an integer from 0 to 9007199254740991, got 1.5");
  measured_refused(
      "\"loop_ns\":123456", "\"loop_ns\":-1",
      "worker output: \"loop_ns\" must be an integer from 0 to 9007199254740991, got -1");
  measured_refused(
      "\"loop_ns\":123456", "\"loop_ns\":9007199254740992",
      "worker output: \"loop_ns\" must be an integer from 0 to 9007199254740991, got "
      "9007199254740992");
  measured_refused(
      "\"loop_ns\":123456", "\"loop_ns\":1e3",
      "worker output: \"loop_ns\" is written as \"1e3\"; expected a plain decimal integer");
  measured_refused(
      "10000}", "10000.0}",
      "worker output: \"pairs\" is written as \"10000.0\"; expected a plain decimal "
      "integer");
  measured_refused(
      "10000}", "-3}",
      "worker output: \"pairs\" must be an integer from 0 to 9007199254740991, got -3");
  measured_refused("10000}", "true}", "worker output: \"pairs\" must be a number, got true");
}

Test(contractline, counters_are_named_and_at_most_eight) {
  measured_refused(
      "\"pairs\"", "\"Pairs\"",
      "worker output: counter \"Pairs\" is not a name (1 to 32 of a-z, 0-9, _ and -, "
      "starting with a letter)");
  measured_refused("\"pairs\"", "\"\"",
                   "worker output: counter \"\" is not a name (1 to 32 of a-z, 0-9, _ and -, "
                   "starting with a letter)");
  measured_refused("\"pairs\"", "\"advances\"",
                   "worker output: counter \"advances\" appears twice");
  measured_refused("\"pairs\":10000}",
                   "\"pairs\":1,\"c\":1,\"d\":2,\"e\":3,\"f\":4,\"g\":5,"
                   "\"h\":6,\"i\":7}",
                   "worker output: more than 8 counters");
  measured_refused("{\"advances\":1000,\"pairs\":10000}", "[1000,10000]",
                   "worker output: \"counters\" must be an object, got an array");
}

Test(contractline, hashes_and_runtime) {
  measured_refused("\"0123456789abcdef\"", "\"0123456789ABCDEF\"",
                   "worker output: \"input_hash\" must be 16 lowercase hex digits, got "
                   "\"0123456789ABCDEF\"");
  measured_refused("\"fedcba9876543210\"", "\"fedcba987654321\"",
                   "worker output: \"output_hash\" must be 16 lowercase hex digits, got "
                   "\"fedcba987654321\"");
  measured_refused("\"fedcba9876543210\"", "\"fedcba98765432100\"",
                   "worker output: \"output_hash\" must be 16 lowercase hex digits, got "
                   "\"fedcba98765432100\"");
  measured_refused("\"fedcba9876543210\"", "12",
                   "worker output: \"output_hash\" must be a string, got a number");
  measured_refused(
      "\"CPython 3.11.2\"", "\"\"",
      "worker output: \"runtime\" must be 1 to 127 printable ASCII characters, got "
      "\"\"");
  measured_refused(
      "\"CPython 3.11.2\"", "\"a\\tb\"",
      "worker output: \"runtime\" must be 1 to 127 printable ASCII characters, got "
      "\"a\\x09b\"");
  char long_runtime[140];
  memset(long_runtime, 'x', sizeof long_runtime);
  snprintf(long_runtime, sizeof long_runtime, "\"%0128d\"", 0);
  measured_refused(
      "\"CPython 3.11.2\"", long_runtime,
      "worker output: \"runtime\" must be 1 to 127 printable ASCII characters, got "
      "\"0000000000000000000000000000000000000000\"...");
}

Test(contractline, the_framing) {
  refused("", GB_CONTRACT_MEASURED,
          "worker output: nothing on stdout; expected one line of JSON");
  size_t n = strlen(measured);
  refused_len(measured, n - 1, GB_CONTRACT_MEASURED,
              "worker output: no newline at the end of its 153 bytes: "
              "\"{\\x22loop_ns\\x22:123456,\\x22counters\\x22:{\\x22advances\\x22\"...");
  char two[600];
  snprintf(two, sizeof two, "%sdone\n", measured);
  refused(two, GB_CONTRACT_MEASURED,
          "worker output: more than one line: 5 bytes follow the first newline: \"done\\x0a\"");
  snprintf(two, sizeof two, "debug\n%s", measured);
  refused(two, GB_CONTRACT_MEASURED,
          "worker output: more than one line: 154 bytes follow the first newline: "
          "\"{\\x22loop_ns\\x22:123456,\\x22counters\\x22:{\\x22advances\\x22\"...");
  measured_refused("}\n", "} x\n",
                   "worker output: data after the JSON object at byte 153: \" x\"");
  refused_len("{\"loop_ns\":1\0}\n", 15, GB_CONTRACT_MEASURED,
              "worker output: NUL byte at byte 12 of 15");
  measured_refused("\"CPython 3.11.2\"", "\"CPython\\u0000x\"",
                   "worker output: \\u0000 in a string at byte 144");
  refused("[1]\n", GB_CONTRACT_MEASURED, "worker output: does not start with '{': \"[1]\"");
}

/* ---- Parity and expect ---------------------------------------------------- */

static gb_contract_line parsed(const char *line) {
  gb_contract_line l;
  gb_err err = {{0}};
  cr_assert_eq(gb_contractline_parse(line, strlen(line), GB_CONTRACT_MEASURED, &l, &err), 0,
               "%s", err.msg);
  return l;
}

static void differs(const gb_contract_line *a, const gb_contract_line *b, const char *msg) {
  gb_err err = {{0}};
  cr_assert_eq(gb_contractline_compare(a, b, "c", &err), -EPROTO, "%s", msg);
  cr_assert_str_eq(err.msg, msg);
}

Test(contractline, parity_compares_hashes_and_counters_in_any_order) {
  gb_contract_line a = parsed(measured);
  gb_contract_line b = parsed(with(measured, "\"counters\":{\"advances\":1000,\"pairs\":10000}",
                                   "\"counters\":{\"pairs\":10000,\"advances\":1000}"));
  b.loop_ns = 1; /* the time and the runtime may differ */
  snprintf(b.runtime, sizeof b.runtime, "gcc 12.2.0");
  gb_err err = {{0}};
  cr_assert_eq(gb_contractline_compare(&a, &b, "c", &err), 0, "%s", err.msg);
  b = parsed(with(measured, "fedcba9876543210", "fedcba9876543211"));
  differs(&a, &b, "output_hash fedcba9876543210 differs from c's fedcba9876543211");
  b = parsed(with(measured, "0123456789abcdef", "0123456789abcdee"));
  differs(&a, &b, "input_hash 0123456789abcdef differs from c's 0123456789abcdee");
  b = parsed(with(measured, "10000}", "10001}"));
  differs(&a, &b, "counter pairs 10000 differs from c's 10001");
  b = parsed(with(measured, "10000}", "10000,\"extra\":1}"));
  differs(&a, &b, "counter extra is missing; c's is 1");
  differs(&b, &a, "counter extra 1 is not in c's");
}

Test(contractline, expect_checks_the_output_hash_and_the_counters_it_gives) {
  gb_contract_line a = parsed(measured);
  gb_suite_expect e = {.has_output_hash = true, .output_hash = "fedcba9876543210"};
  gb_err err = {{0}};
  cr_assert_eq(gb_contractline_expect(&a, &e, &err), 0, "%s", err.msg);
  snprintf(e.output_hash, sizeof e.output_hash, "0000000000000001");
  cr_assert_eq(gb_contractline_expect(&a, &e, &err), -EPROTO);
  cr_assert_str_eq(err.msg,
                   "output_hash fedcba9876543210 differs from expect 0000000000000001");
  e = (gb_suite_expect){
      .has_counters = true, .n_counters = 2, .counters = {{"pairs", 10000}, {"advances", 999}}};
  cr_assert_eq(gb_contractline_expect(&a, &e, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "counter advances 1000 differs from expect 999");
  e.n_counters = 1;
  cr_assert_eq(gb_contractline_expect(&a, &e, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "counter advances 1000 is not in expect");
  e = (gb_suite_expect){.has_counters = true}; /* "counters": {} */
  cr_assert_eq(gb_contractline_expect(&a, &e, &err), -EPROTO);
  cr_assert_str_eq(err.msg, "counter advances 1000 is not in expect");
}
