/* The suite file reader (greenbench/suitefile.h, ADR 0022): a good suite
 * read whole, then each rule broken once by one change to the good text,
 * with the exact one-line message; then the expansion of templates. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "greenbench/suitefile.h"

static const char good[] =
    "{\"format\":\"greenbench-suite-1\",\"name\":\"demo\",\"description\":\"a test suite\",\n"
    "\"languages\":[\n"
    "{\"name\":\"c\",\"title\":\"C\",\"build\":[\"cc\",\"-o\",\"{builddir}/{workload}\","
    "\"{suitedir}/c/{workload}.c\"],\n"
    " \"command\":[\"{builddir}/{workload}\",\"{n}\",\"{reps}\"],\n"
    " \"startup\":[\"{builddir}/{workload}\",\"{n}\",\"--startup-only\"],\n"
    " \"version\":[\"cc\",\"--version\"]},\n"
    "{\"name\":\"python\",\"command\":[\"python3\",\"{suitedir}/py/{workload}.py\",\"--n={n}\","
    "\"{reps}\",\"{seed}\"],\n"
    " \"startup\":[\"python3\",\"{suitedir}/py/"
    "{workload}.py\",\"--n={n}\",\"--startup-only\"],\n"
    " \"version\":[\"python3\",\"--version\"]}],\n"
    "\"workloads\":[\n"
    "{\"name\":\"nbody\",\"parameters\":[{\"name\":\"n\",\"values\":[1000,100000]}],\n"
    " \"expect\":[{\"n\":1000,\"output_hash\":\"0123456789abcdef\","
    "\"counters\":{\"advances\":1000,\"pairs\":10000}}]},\n"
    "{\"name\":\"spectral-norm\",\"parameters\":[{\"name\":\"n\",\"values\":[100,400]}]}]}\n";

/* good with the one occurrence of from replaced by to (malloc'd). */
static char *changed(const char *from, const char *to) {
  const char *at = strstr(good, from);
  cr_assert_not_null(at, "no '%s' in the good suite", from);
  cr_assert_null(strstr(at + 1, from), "'%s' is not unique in the good suite", from);
  char *out = malloc(sizeof good + strlen(to));
  sprintf(out, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
  return out;
}

static void refused(const char *text, const char *msg) {
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(text, strlen(text), "t/demo.json", &s, &err), -EINVAL, "%s", msg);
  cr_assert_str_eq(err.msg, msg);
  cr_assert_null(strchr(err.msg, '\n'));
  cr_assert_null(s.languages);
}

static void refused_change(const char *from, const char *to, const char *msg) {
  char *text = changed(from, to);
  refused(text, msg);
  free(text);
}

Test(suitefile, a_good_suite_is_read_whole) {
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(good, strlen(good), "t/demo.json", &s, &err), 0, "%s", err.msg);
  cr_assert_str_eq(s.path, "t/demo.json");
  cr_assert_str_eq(s.dir, "t");
  cr_assert_str_eq(s.name, "demo");
  cr_assert_str_eq(s.description, "a test suite");
  cr_assert_eq(s.n_languages, 2);
  cr_assert_str_eq(s.languages[0].name, "c");
  cr_assert_str_eq(s.languages[0].title, "C");
  cr_assert_str_eq(s.languages[1].title, "python", "the title defaults to the name");
  cr_assert_eq(s.languages[0].t[GB_SUITE_BUILD].n, 4);
  cr_assert_eq(s.languages[1].t[GB_SUITE_BUILD].n, 0, "no build step");
  cr_assert_eq(s.languages[1].t[GB_SUITE_COMMAND].n, 5);
  cr_assert_str_eq(s.languages[1].t[GB_SUITE_COMMAND].args[2], "--n={n}");
  cr_assert_str_eq(s.languages[1].t[GB_SUITE_VERSION].args[1], "--version");
  cr_assert_eq(s.n_workloads, 2);
  cr_assert_str_eq(s.workloads[1].name, "spectral-norm");
  cr_assert_eq(s.workloads[0].n_parameters, 1);
  cr_assert_str_eq(s.workloads[0].parameters[0].name, "n");
  cr_assert_eq(s.workloads[0].parameters[0].n_values, 2);
  cr_assert_eq(s.workloads[0].parameters[0].values[1], 100000);
  cr_assert_eq(s.workloads[0].n_expect, 1);
  const gb_suite_expect *e = &s.workloads[0].expect[0];
  cr_assert_eq(e->values[0], 1000);
  cr_assert(e->has_output_hash);
  cr_assert_str_eq(e->output_hash, "0123456789abcdef");
  cr_assert(e->has_counters);
  cr_assert_eq(e->n_counters, 2);
  cr_assert_str_eq(e->counters[1].name, "pairs");
  cr_assert_eq(e->counters[1].value, 10000);
  cr_assert_eq(s.workloads[1].n_expect, 0);
  uint64_t v = 1000, w = 100000;
  cr_assert_eq(gb_suite_find_expect(&s.workloads[0], &v), e);
  cr_assert_null(gb_suite_find_expect(&s.workloads[0], &w));
  /* The hash: XXH128 of the bytes, canonical (big-endian), lowercase hex. */
  XXH128_canonical_t h;
  XXH128_canonicalFromHash(&h, XXH3_128bits(good, strlen(good)));
  char hex[33];
  for (int i = 0; i < 16; i++)
    sprintf(hex + 2 * i, "%02x", h.digest[i]);
  cr_assert_str_eq(s.hash, hex);
  gb_suite_free(&s);
  cr_assert_null(s.languages);
  gb_suite_free(&s); /* twice is safe */
}

Test(suitefile, the_hash_changes_with_any_byte_and_the_folder_is_found) {
  gb_suite a = {0}, b = {0};
  gb_err err = {{0}};
  char *text = changed("\"a test suite\"", "\"a test suite.\"");
  cr_assert_eq(gb_suite_parse(good, strlen(good), "demo.json", &a, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_suite_parse(text, strlen(text), "/demo.json", &b, &err), 0, "%s", err.msg);
  cr_assert_str_neq(a.hash, b.hash);
  cr_assert_str_eq(a.dir, ".");
  cr_assert_str_eq(b.dir, "/");
  gb_suite_free(&a);
  gb_suite_free(&b);
  free(text);
}

Test(suitefile, the_file_is_refused_when_it_is_not_json_or_repeats_a_key) {
  refused("{\"format\":\n\"x\",\n}", "suite t/demo.json:3: malformed JSON");
  refused("{} {}", "suite t/demo.json:1: malformed JSON");
  refused("[]", "suite t/demo.json: expected an object, got an array");
  refused_change("\"name\":\"demo\"", "\"name\":\"demo\",\"name\":\"demo\"",
                 "suite t/demo.json: name: the key appears twice in one object; a JSON reader "
                 "keeps only one of them, so a suite file must not repeat a key");
  refused_change("\"title\":\"C\"", "\"t\\u0001\":\"C\",\"t\\u0001\":\"D\"",
                 "suite t/demo.json: languages[0].t\\x01: the key appears twice in one object; "
                 "a JSON reader keeps only one of them, so a suite file must not repeat a key");
  refused_change("\"title\":\"C\"", "\"title\":\"C\",\"title\":\"D\"",
                 "suite t/demo.json: languages[0].title: the key appears twice in one object; "
                 "a JSON reader keeps only one of them, so a suite file must not repeat a key");
  refused_change(
      "\"--version\"]}]", "\"--ver\\u0000sion\"]}]",
      "suite t/demo.json:9: \\u0000 in a string; no argument or name can hold a NUL");
}

Test(suitefile, the_top_level_rules) {
  refused_change("\"format\":\"greenbench-suite-1\"", "\"format\":\"greenbench-suite-2\"",
                 "suite t/demo.json: format: must be \"greenbench-suite-1\", got "
                 "\"greenbench-suite-2\"");
  refused_change("\"format\":\"greenbench-suite-1\",", "",
                 "suite t/demo.json: missing \"format\"");
  refused_change("\"name\":\"demo\",", "\"nmae\":\"demo\",",
                 "suite t/demo.json: unknown key \"nmae\"");
  refused_change("\"name\":\"demo\"", "\"name\":\"Demo\"",
                 "suite t/demo.json: name: a name must be 1 to 32 characters of a-z, 0-9, _ "
                 "and -, starting with a letter, got \"Demo\"");
  refused_change("\"description\":\"a test suite\"", "\"description\":\"a\\ttab\"",
                 "suite t/demo.json: description: must be 0 to 1024 bytes without control "
                 "characters, got \"a\\x09tab\"");
  refused_change("\"description\":\"a test suite\"", "\"description\":7",
                 "suite t/demo.json: description: expected a string, got a number");
}

Test(suitefile, names_are_checked_everywhere) {
  static const char *const bad[] = {"1abc", "a b", "\xc3\xa9",
                                    "",     "C",   "abcdefghijabcdefghijabcdefghijabc"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char to[80], msg[400], shown[80];
    snprintf(to, sizeof to, "{\"name\":\"%s\",\"command\"", bad[i]);
    snprintf(shown, sizeof shown, "\"%s\"",
             strcmp(bad[i], "\xc3\xa9") == 0 ? "\\xc3\\xa9" : bad[i]);
    snprintf(msg, sizeof msg,
             "suite t/demo.json: languages[1].name: a name must be 1 to 32 characters of a-z, "
             "0-9, _ and -, starting with a letter, got %s",
             shown);
    refused_change("{\"name\":\"python\",\"command\"", to, msg);
  }
  /* 32 characters is the longest name. */
  char *text = changed("\"name\":\"demo\"", "\"name\":\"abcdefghijabcdefghijabcdefghijab\"");
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(text, strlen(text), "t/demo.json", &s, &err), 0, "%s", err.msg);
  gb_suite_free(&s);
  free(text);
  refused_change("{\"name\":\"n\",\"values\":[100,400]}",
                 "{\"name\":\"N\",\"values\":[100,400]}",
                 "suite t/demo.json: workloads[1].parameters[0].name: a name must be 1 to 32 "
                 "characters of a-z, 0-9, _ and -, starting with a letter, got \"N\"");
  refused_change("\"pairs\":10000", "\"Pairs\":10000",
                 "suite t/demo.json: workloads[0].expect[0].counters: a name must be 1 to 32 "
                 "characters of a-z, 0-9, _ and -, starting with a letter, got \"Pairs\"");
  /* A bad key is shown quoted and escaped, never raw: the message stays one line. */
  refused_change("\"pairs\":10000", "\"pa\\nirs\":10000",
                 "suite t/demo.json: workloads[0].expect[0].counters: a name must be 1 to 32 "
                 "characters of a-z, 0-9, _ and -, starting with a letter, got \"pa\\x0airs\"");
}

Test(suitefile, names_are_unique_in_their_list) {
  refused_change("{\"name\":\"python\",", "{\"name\":\"c\",",
                 "suite t/demo.json: languages[1].name: c is already the name of languages[0]");
  refused_change("{\"name\":\"spectral-norm\",", "{\"name\":\"nbody\",",
                 "suite t/demo.json: workloads[1].name: nbody is already the name of "
                 "workloads[0]");
  refused_change("{\"name\":\"n\",\"values\":[100,400]}",
                 "{\"name\":\"n\",\"values\":[100,400]},{\"name\":\"n\",\"values\":[1]}",
                 "suite t/demo.json: workloads[1].parameters[1]: parameter n is already "
                 "parameters[0]");
}

Test(suitefile, a_language_needs_its_commands) {
  refused_change("\"command\":[\"python3\",\"{suitedir}/py/{workload}.py\",\"--n={n}\","
                 "\"{reps}\",\"{seed}\"],\n",
                 "", "suite t/demo.json: languages[1]: missing \"command\"");
  refused_change(" \"startup\":[\"python3\",\"{suitedir}/py/{workload}.py\",\"--n={n}\","
                 "\"--startup-only\"],\n",
                 "", "suite t/demo.json: languages[1]: missing \"startup\"");
  refused_change(",\n \"version\":[\"python3\",\"--version\"]", "",
                 "suite t/demo.json: languages[1]: missing \"version\"");
  refused_change("\"version\":[\"python3\",\"--version\"]", "\"version\":[]",
                 "suite t/demo.json: languages[1].version: must have 1 to 64 entries, has 0");
  refused_change("\"version\":[\"python3\",\"--version\"]", "\"version\":\"python3 --version\"",
                 "suite t/demo.json: languages[1].version: expected an array, got a string");
  refused_change("\"version\":[\"python3\",\"--version\"]", "\"version\":[\"python3\",2]",
                 "suite t/demo.json: languages[1].version[1]: expected a string, got a number");
  refused_change("\"version\":[\"python3\",\"--version\"]", "\"version\":[\"\",\"--version\"]",
                 "suite t/demo.json: languages[1].version[0]: the program to run is empty");
  refused_change("\"title\":\"C\"", "\"title\":\"\"",
                 "suite t/demo.json: languages[0].title: must be 1 to 64 printable ASCII "
                 "characters, got \"\"");
  refused_change("\"title\":\"C\"", "\"title\":\"C\",\"shell\":\"sh\"",
                 "suite t/demo.json: languages[0]: unknown key \"shell\"");
  refused_change("\"languages\":[\n", "\"languages\":[],\"x\":[\n",
                 "suite t/demo.json: unknown key \"x\"");
}

Test(suitefile, a_language_list_and_a_workload_list_are_not_empty) {
  const char *text = "{\"format\":\"greenbench-suite-1\",\"name\":\"e\",\"languages\":[],"
                     "\"workloads\":[{\"name\":\"w\",\"parameters\":[{\"name\":\"n\","
                     "\"values\":[1]}]}]}";
  refused(text, "suite t/demo.json: languages: must have 1 to 64 entries, has 0");
  refused(
      "{\"format\":\"greenbench-suite-1\",\"name\":\"e\",\"languages\":[],\"workloads\":[]}",
      "suite t/demo.json: workloads: must have 1 to 64 entries, has 0");
}

Test(suitefile, placeholders_must_be_known) {
  refused_change("\"{builddir}/{workload}\",\"{n}\",\"{reps}\"",
                 "\"{builddir}/{workload}\",\"{size}\",\"{n}\",\"{reps}\"",
                 "suite t/demo.json: languages[0].command[1]: unknown placeholder {size}");
  refused_change("\"--n={n}\",\"{reps}\"", "\"--n={n}{Reps}\",\"{reps}\"",
                 "suite t/demo.json: languages[1].command[2]: unknown placeholder {Reps}");
  refused_change("\"--n={n}\",\"{reps}\"", "\"--n={n}\",\"{}\",\"{reps}\"",
                 "suite t/demo.json: languages[1].command[3]: unknown placeholder {}");
  refused_change("\"--n={n}\",\"{reps}\"", "\"--n={n}\",\"{re\\nps}\",\"{reps}\"",
                 "suite t/demo.json: languages[1].command[3]: unknown placeholder "
                 "{\"re\\x0aps\"}");
  refused_change("\"--n={n}\",\"{reps}\"", "\"--n={n\",\"{reps}\"",
                 "suite t/demo.json: languages[1].command[2]: a { that no } closes (write {{ "
                 "for a literal brace)");
  refused_change("\"--n={n}\",\"{reps}\"", "\"--n={{n}\",\"{reps}\"",
                 "suite t/demo.json: languages[1].command[2]: a } that no { opens (write }} "
                 "for a literal brace)");
  refused_change("\"--n={n}\",\"{reps}\"", "\"--n={n{n}}\",\"{reps}\"",
                 "suite t/demo.json: languages[1].command[2]: a { that no } closes (write {{ "
                 "for a literal brace)");
}

Test(suitefile, placeholders_are_limited_in_build_and_version) {
  refused_change(
      "\"{suitedir}/c/{workload}.c\"", "\"{suitedir}/c/{workload}.c\",\"{reps}\"",
      "suite t/demo.json: languages[0].build[4]: placeholder {reps} is not allowed in "
      "build (only {suitedir}, {builddir}, {workers} and {workload})");
  refused_change("\"{suitedir}/c/{workload}.c\"", "\"{suitedir}/c/{workload}.c\",\"-DN={n}\"",
                 "suite t/demo.json: languages[0].build[4]: placeholder {n} is not allowed in "
                 "build (only {suitedir}, {builddir}, {workers} and {workload})");
  refused_change("[\"cc\",\"--version\"]", "[\"cc\",\"{workload}\"]",
                 "suite t/demo.json: languages[0].version[1]: placeholder {workload} is not "
                 "allowed in version (only {suitedir}, {builddir} and {workers})");
  char *text = changed("[\"cc\",\"--version\"]", "[\"{builddir}/cc\",\"{suitedir}\"]");
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(text, strlen(text), "t/demo.json", &s, &err), 0, "%s", err.msg);
  gb_suite_free(&s);
  free(text);
}

/* text with the one occurrence of from replaced by to; frees text. */
static char *edit(char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  cr_assert_not_null(at, "no '%s'", from);
  char *out = malloc(strlen(text) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  free(text);
  return out;
}

Test(suitefile, workers_is_allowed_in_every_kind_of_template) {
  char *t2 = changed("[\"cc\",\"--version\"]", "[\"{workers}/worker-c\",\"--version\"]");
  t2 = edit(t2, "\"cc\",\"-o\"", "\"{workers}/cc\",\"-o\"");
  t2 = edit(t2, "[\"{builddir}/{workload}\",\"{n}\",\"{reps}\"]",
            "[\"{workers}/worker-c\",\"{n}\",\"{reps}\"]");
  t2 = edit(t2, "[\"python3\",\"{suitedir}/py/{workload}.py\",\"--n={n}\",\"--startup-only\"]",
            "[\"python3\",\"{workers}/python/worker.py\",\"--n={n}\",\"--startup-only\"]");
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(t2, strlen(t2), "t/demo.json", &s, &err), 0, "%s", err.msg);
  cr_assert_str_eq(s.languages[0].t[GB_SUITE_VERSION].args[0], "{workers}/worker-c");
  cr_assert_str_eq(s.languages[0].t[GB_SUITE_BUILD].args[0], "{workers}/cc");
  cr_assert_str_eq(s.languages[0].t[GB_SUITE_COMMAND].args[0], "{workers}/worker-c");
  cr_assert_str_eq(s.languages[1].t[GB_SUITE_STARTUP].args[1], "{workers}/python/worker.py");
  gb_suite_free(&s);
  free(t2);
  refused_change("{\"name\":\"n\",\"values\":[100,400]}",
                 "{\"name\":\"workers\",\"values\":[100,400]}",
                 "suite t/demo.json: workloads[1].parameters[0].name: workers is the name of "
                 "the placeholder {workers}, not free for a parameter");
}

Test(suitefile, a_parameter_placeholder_must_be_a_parameter_of_every_workload) {
  refused_change("{\"name\":\"n\",\"values\":[100,400]}",
                 "{\"name\":\"m\",\"values\":[100,400]}",
                 "suite t/demo.json: languages[0].command[1]: placeholder {n} is not a "
                 "parameter of workload spectral-norm (workloads[1])");
  refused_change("{\"name\":\"n\",\"values\":[100,400]}",
                 "{\"name\":\"n\",\"values\":[100,400]},{\"name\":\"k\",\"values\":[1]}",
                 "suite t/demo.json: languages[0].command: does not use {k}, a parameter of "
                 "workload spectral-norm (workloads[1]), so processes with different values of "
                 "it would be the same");
  refused_change(
      "\"{builddir}/{workload}\",\"{n}\",\"--startup-only\"",
      "\"{builddir}/{workload}\",\"--startup-only\"",
      "suite t/demo.json: languages[0].startup: does not use {n}, a parameter of "
      "workload nbody (workloads[0]), so processes with different values of it would "
      "be the same");
}

Test(suitefile, a_command_must_use_reps) {
  refused_change("\"--n={n}\",\"{reps}\",", "\"--n={n}\",\"1\",",
                 "suite t/demo.json: languages[1].command: does not use {reps}, the number of "
                 "repetitions of its timed loop, which the harness chooses");
  /* {{reps}} is the literal text {reps}, not the placeholder. */
  refused_change("\"--n={n}\",\"{reps}\",", "\"--n={n}\",\"{{reps}}\",",
                 "suite t/demo.json: languages[1].command: does not use {reps}, the number of "
                 "repetitions of its timed loop, which the harness chooses");
}

Test(suitefile, parameters_and_values) {
  refused_change("\"parameters\":[{\"name\":\"n\",\"values\":[100,400]}]", "\"parameters\":[]",
                 "suite t/demo.json: workloads[1].parameters: must have 1 to 4 entries, has 0");
  refused_change("[{\"name\":\"n\",\"values\":[100,400]}]",
                 "[{\"name\":\"n\",\"values\":[100,400]},{\"name\":\"a\",\"values\":[1]},"
                 "{\"name\":\"b\",\"values\":[1]},{\"name\":\"c\",\"values\":[1]},"
                 "{\"name\":\"d\",\"values\":[1]}]",
                 "suite t/demo.json: workloads[1].parameters: must have 1 to 4 entries, has 5");
  refused_change("\"values\":[100,400]",
                 "\"values\":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17]",
                 "suite t/demo.json: workloads[1].parameters[0].values: must have 1 to 16 "
                 "entries, has 17");
  refused_change("\"values\":[100,400]", "\"values\":[]",
                 "suite t/demo.json: workloads[1].parameters[0].values: must have 1 to 16 "
                 "entries, has 0");
  refused_change("\"values\":[100,400]", "\"values\":[100,400,100]",
                 "suite t/demo.json: workloads[1].parameters[0].values[2]: 100 is already "
                 "values[0]");
  refused_change("\"values\":[100,400]", "\"values\":[100,\"400\"]",
                 "suite t/demo.json: workloads[1].parameters[0].values[1]: expected a whole "
                 "number, got a string");
  static const char *const bad[] = {"-1", "1.5", "1e3", "01", "9007199254740992", "4.0"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char to[60], msg[300];
    snprintf(to, sizeof to, "\"values\":[100,%s]", bad[i]);
    snprintf(msg, sizeof msg,
             "suite t/demo.json: workloads[1].parameters[0].values[1]: expected a whole number "
             "from 0 to 2^53-1 in plain decimal, got %s",
             bad[i]);
    refused_change("\"values\":[100,400]", to, msg);
  }
  refused_change("{\"name\":\"n\",\"values\":[100,400]}",
                 "{\"name\":\"n\",\"values\":[100,400]},{\"name\":\"seed\",\"values\":[1]}",
                 "suite t/demo.json: workloads[1].parameters[1].name: seed is the name of the "
                 "placeholder {seed}, not free for a parameter");
  refused_change("{\"name\":\"n\",\"values\":[100,400]}", "{\"name\":\"n\"}",
                 "suite t/demo.json: workloads[1].parameters[0]: missing \"values\"");
  refused_change("\"values\":[100,400]}", "\"values\":[100,400],\"default\":100}",
                 "suite t/demo.json: workloads[1].parameters[0]: unknown key \"default\"");
  /* 0 and 2^53-1 are the bounds. */
  char *text = changed("\"values\":[100,400]", "\"values\":[0,9007199254740991]");
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(text, strlen(text), "t/demo.json", &s, &err), 0, "%s", err.msg);
  cr_assert_eq(s.workloads[1].parameters[0].values[1], 9007199254740991u);
  gb_suite_free(&s);
  free(text);
}

Test(suitefile, expect_entries) {
  const char *e = "{\"n\":1000,\"output_hash\":\"0123456789abcdef\",";
  refused_change(e, "{\"output_hash\":\"0123456789abcdef\",",
                 "suite t/demo.json: workloads[0].expect[0]: missing \"n\"");
  refused_change(
      e, "{\"n\":1001,\"output_hash\":\"0123456789abcdef\",",
      "suite t/demo.json: workloads[0].expect[0].n: 1001 is not one of the values of "
      "parameter n");
  refused_change(e, "{\"n\":1000,\"m\":1,\"output_hash\":\"0123456789abcdef\",",
                 "suite t/demo.json: workloads[0].expect[0]: unknown key \"m\"");
  refused_change("\"0123456789abcdef\"", "\"0123456789ABCDEF\"",
                 "suite t/demo.json: workloads[0].expect[0].output_hash: must be 16 lowercase "
                 "hex digits, got \"0123456789ABCDEF\"");
  refused_change("\"0123456789abcdef\"", "\"0123456789abcde\"",
                 "suite t/demo.json: workloads[0].expect[0].output_hash: must be 16 lowercase "
                 "hex digits, got \"0123456789abcde\"");
  refused_change("{\"n\":1000,\"output_hash\":\"0123456789abcdef\","
                 "\"counters\":{\"advances\":1000,\"pairs\":10000}}",
                 "{\"n\":1000}",
                 "suite t/demo.json: workloads[0].expect[0]: gives neither \"output_hash\" nor "
                 "\"counters\"");
  refused_change("\"pairs\":10000}",
                 "\"pairs\":10000,\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,"
                 "\"f\":1,\"g\":1}",
                 "suite t/demo.json: workloads[0].expect[0].counters: more than 8 counters");
  refused_change("\"pairs\":10000}", "\"pairs\":-1}",
                 "suite t/demo.json: workloads[0].expect[0].counters.pairs: expected a whole "
                 "number from 0 to 2^53-1 in plain decimal, got -1");
  refused_change("\"counters\":{\"advances\":1000,\"pairs\":10000}", "\"counters\":[]",
                 "suite t/demo.json: workloads[0].expect[0].counters: expected an object, got "
                 "an array");
  refused_change("\"pairs\":10000}}]", "\"pairs\":10000}},{\"n\":1000,\"counters\":{}}]",
                 "suite t/demo.json: workloads[0].expect[1]: the same parameters as "
                 "workloads[0].expect[0]");
  refused_change("\"expect\":[", "\"expect\":{},\"x\":[",
                 "suite t/demo.json: workloads[0]: unknown key \"x\"");
  /* Seven more counters make eight, the most; an empty object says "no counters". */
  char *text =
      changed("\"pairs\":10000}}]", "\"pairs\":10000,\"a\":1,\"b\":1,\"c\":1,\"d\":1,"
                                    "\"e\":1,\"f\":1}},{\"n\":100000,\"counters\":{}}]");
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(text, strlen(text), "t/demo.json", &s, &err), 0, "%s", err.msg);
  cr_assert_eq(s.workloads[0].expect[0].n_counters, 8);
  cr_assert(s.workloads[0].expect[1].has_counters);
  cr_assert_eq(s.workloads[0].expect[1].n_counters, 0);
  cr_assert_not(s.workloads[0].expect[1].has_output_hash);
  gb_suite_free(&s);
  free(text);
}

static char *temp_file(const char *text, size_t len) {
  char *path = strdup("/tmp/gb-suitefile-XXXXXX");
  int fd = mkstemp(path);
  cr_assert_geq(fd, 0);
  cr_assert_eq(write(fd, text, len), (ssize_t)len);
  close(fd);
  return path;
}

Test(suitefile, load_reads_a_file_or_says_why_not) {
  char *path = temp_file(good, strlen(good));
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_load(path, &s, &err), 0, "%s", err.msg);
  cr_assert_str_eq(s.dir, "/tmp");
  cr_assert_eq(s.n_languages, 2);
  gb_suite_free(&s);
  unlink(path);
  cr_assert_eq(gb_suite_load(path, &s, &err), -ENOENT);
  char want[200];
  snprintf(want, sizeof want, "suite %s: cannot open %s: No such file or directory", path,
           path);
  cr_assert_str_eq(err.msg, want);
  free(path);
  /* One byte over the limit is refused, never read cut short. */
  char *big = malloc(GB_SUITE_FILE_MAX + 1);
  memset(big, ' ', GB_SUITE_FILE_MAX + 1);
  path = temp_file(big, GB_SUITE_FILE_MAX + 1);
  cr_assert_eq(gb_suite_load(path, &s, &err), -EFBIG);
  cr_assert(strstr(err.msg, "more than 1048576 bytes"), "%s", err.msg);
  unlink(path);
  free(path);
  free(big);
}

/* ---- Expansion ------------------------------------------------------------ */

static gb_suite parsed(void) {
  gb_suite s = {0};
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_parse(good, strlen(good), "t/demo.json", &s, &err), 0, "%s", err.msg);
  return s;
}

static void expect_argv(char **argv, const char *const *want, size_t n) {
  for (size_t i = 0; i < n; i++)
    cr_assert_str_eq(argv[i], want[i], "argument %zu", i);
  cr_assert_null(argv[n]);
}

Test(suitefile, expand_substitutes_every_placeholder) {
  gb_suite s = parsed();
  uint64_t n = 100000;
  gb_suite_vars v = {.workload = &s.workloads[0],
                     .values = &n,
                     .has_reps = true,
                     .reps = 7,
                     .has_seed = true,
                     .seed = 4294967295u,
                     .suitedir = "/s d",
                     .builddir = "/b"};
  char **argv = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_expand(&s.languages[1].t[GB_SUITE_COMMAND], &v, &argv, &err), 0, "%s",
               err.msg);
  expect_argv(
      argv,
      (const char *const[]){"python3", "/s d/py/nbody.py", "--n=100000", "7", "4294967295"}, 5);
  gb_suite_argv_free(argv);
  cr_assert_eq(gb_suite_expand(&s.languages[0].t[GB_SUITE_BUILD], &v, &argv, &err), 0, "%s",
               err.msg);
  expect_argv(argv, (const char *const[]){"cc", "-o", "/b/nbody", "/s d/c/nbody.c"}, 4);
  gb_suite_argv_free(argv);
  gb_suite_free(&s);
}

Test(suitefile, expand_fills_in_workers_and_refuses_it_without_a_value) {
  gb_suite s = parsed();
  gb_suite_template t = {
      3, (char *[]){"{workers}/worker-c", "{workers}/python/worker.py", "--size={n}"}};
  uint64_t n = 250;
  gb_suite_vars v = {.workload = &s.workloads[0], .values = &n, .workers = "/usr/libexec/gb"};
  char **argv = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_expand(&t, &v, &argv, &err), 0, "%s", err.msg);
  expect_argv(argv,
              (const char *const[]){"/usr/libexec/gb/worker-c",
                                    "/usr/libexec/gb/python/worker.py", "--size=250"},
              3);
  gb_suite_argv_free(argv);
  v.workers = NULL;
  cr_assert_eq(gb_suite_expand(&t, &v, &argv, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "argument 0: no value for placeholder {workers}");
  gb_suite_free(&s);
}

Test(suitefile, expand_keeps_escaped_braces_and_several_placeholders_in_one_argument) {
  gb_suite s = parsed();
  gb_suite_template t = {3, (char *[]){"{{{n}}}", "{workload}:{n}x{reps}{{", "}}plain"}};
  uint64_t n = 42;
  gb_suite_vars v = {.workload = &s.workloads[1], .values = &n, .has_reps = true, .reps = 3};
  char **argv = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_expand(&t, &v, &argv, &err), 0, "%s", err.msg);
  expect_argv(argv, (const char *const[]){"{42}", "spectral-norm:42x3{", "}plain"}, 3);
  gb_suite_argv_free(argv);
  gb_suite_free(&s);
}

Test(suitefile, expand_refuses_a_placeholder_without_a_value) {
  gb_suite s = parsed();
  gb_suite_vars v = {.suitedir = "/s", .builddir = "/b"};
  char **argv = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_expand(&s.languages[0].t[GB_SUITE_COMMAND], &v, &argv, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "argument 0: no value for placeholder {workload}");
  uint64_t n = 1000;
  v.workload = &s.workloads[0];
  v.values = &n;
  cr_assert_eq(gb_suite_expand(&s.languages[0].t[GB_SUITE_COMMAND], &v, &argv, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "argument 2: no value for placeholder {reps}");
  gb_suite_template t = {1, (char *[]){"a}b"}};
  cr_assert_eq(gb_suite_expand(&t, &v, &argv, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "argument 0: bad brace at {}");
  gb_suite_free(&s);
}

Test(suitefile, expand_refuses_an_argument_that_grows_too_long) {
  gb_suite s = parsed();
  char *dir = malloc(GB_SUITE_ARG_MAX);
  memset(dir, 'd', GB_SUITE_ARG_MAX - 1);
  dir[GB_SUITE_ARG_MAX - 1] = '\0';
  uint64_t n = 1000;
  gb_suite_vars v = {.workload = &s.workloads[0], .values = &n, .suitedir = dir};
  char **argv = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_suite_expand(&s.languages[0].t[GB_SUITE_BUILD], &v, &argv, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "argument 2: no value for placeholder {builddir}");
  v.builddir = "/b";
  cr_assert_eq(gb_suite_expand(&s.languages[0].t[GB_SUITE_BUILD], &v, &argv, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "argument 3: longer than 4096 bytes once expanded");
  gb_suite_free(&s);
  free(dir);
}
