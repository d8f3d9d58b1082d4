/* A suite campaign's meta.json (greenbench/suiterecords.h): written and
 * read back over every field, then each refusal of the strict reader and
 * of the rules the writer holds too. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/suiterecords.h"

static void good_meta(gb_srec_meta *m) {
  memset(m, 0, sizeof *m);
  strcpy(m->suite_name, "demo");
  strcpy(m->suite_hash, "0123456789abcdef0123456789abcdef");
  strcpy(m->greenbench_version, "0.9.0");
  m->settings.profile = GB_PROFILE_CUSTOM;
  m->settings.runs = 7;
  m->settings.warmups = 2;
  m->settings.target_ms = 150;
  m->settings.seed = 4242;
  m->settings.order_seed = UINT64_C(18446744073709551615);
  m->settings.timeout_s = 90;
  m->settings.energy = GB_ENERGY_OFF;
  m->energy_status = GB_REC_ENERGY_UNAVAILABLE;
  strcpy(m->energy_reason, "no RAPL zone: /sys/class/powercap is empty");
  m->cpus_online = 16;
  strcpy(m->pinning, "pinned to CPU 3");
  m->started_unix_ns = UINT64_C(1765000000123456789);
  m->finished_unix_ns = UINT64_C(1765000100123456789);
  m->complete = true;
  m->n_languages = 2;
  strcpy(m->languages[0].name, "c");
  strcpy(m->languages[0].title, "C");
  strcpy(m->languages[0].version, "gcc (Debian 12.2.0-14) 12.2.0");
  strcpy(m->languages[1].name, "python");
  strcpy(m->languages[1].title, "Python");
}

static char *written(const gb_srec_meta *m) {
  char *text = NULL;
  gb_err err = {{0}};
  cr_assert_eq(gb_srec_meta_write(m, &text, &err), 0, "%s", err.msg);
  return text;
}

/* The good meta's text with the one occurrence of from replaced by to. */
static char *changed(const char *from, const char *to) {
  gb_srec_meta m;
  good_meta(&m);
  char *text = written(&m);
  char *at = strstr(text, from);
  cr_assert_not_null(at, "no '%s' in %s", from, text);
  cr_assert_null(strstr(at + 1, from), "'%s' is not unique", from);
  char *out = malloc(strlen(text) + strlen(to) + 1);
  sprintf(out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
  free(text);
  return out;
}

static void refused_text(const char *text, const char *msg) {
  gb_srec_meta m;
  gb_err err = {{0}};
  cr_expect_eq(gb_srec_meta_parse(text, strlen(text), &m, &err), -EINVAL, "%s", text);
  cr_expect_str_eq(err.msg, msg);
  cr_expect_null(strchr(err.msg, '\n'));
}

static void refused_change(const char *from, const char *to, const char *msg) {
  char *text = changed(from, to);
  refused_text(text, msg);
  free(text);
}

static void refused_write(const gb_srec_meta *m, const char *msg) {
  char *text = NULL;
  gb_err err = {{0}};
  cr_expect_eq(gb_srec_meta_write(m, &text, &err), -EINVAL);
  cr_expect_null(text);
  cr_expect_str_eq(err.msg, msg);
}

Test(suiterecords_meta, every_field_round_trips) {
  gb_srec_meta m, back;
  gb_err err = {{0}};
  good_meta(&m);
  char *text = written(&m);
  cr_assert_eq(text[strlen(text) - 1], '\n');
  cr_assert_not_null(strstr(text, "\"format\":\t\"" GB_SUITE_RECORDS_FORMAT "\""), "%s", text);
  cr_assert_not_null(strstr(text, "18446744073709551615"), "exact: %s", text);
  cr_assert_eq(gb_srec_meta_parse(text, strlen(text), &back, &err), 0, "%s", err.msg);
  cr_assert_str_eq(back.suite_name, m.suite_name);
  cr_assert_str_eq(back.suite_hash, m.suite_hash);
  cr_assert_str_eq(back.greenbench_version, m.greenbench_version);
  cr_assert_eq(back.settings.profile, m.settings.profile);
  cr_assert_eq(back.settings.runs, m.settings.runs);
  cr_assert_eq(back.settings.warmups, m.settings.warmups);
  cr_assert_eq(back.settings.target_ms, m.settings.target_ms);
  cr_assert_eq(back.settings.seed, m.settings.seed);
  cr_assert_eq(back.settings.order_seed, m.settings.order_seed);
  cr_assert_eq(back.settings.timeout_s, m.settings.timeout_s);
  cr_assert_eq(back.settings.energy, m.settings.energy);
  cr_assert_eq(back.settings.languages, 0);
  cr_assert_eq(back.settings.nsizes, 0);
  cr_assert_eq(back.energy_status, m.energy_status);
  cr_assert_str_eq(back.energy_reason, m.energy_reason);
  cr_assert_eq(back.cpus_online, m.cpus_online);
  cr_assert_str_eq(back.pinning, m.pinning);
  cr_assert_eq(back.started_unix_ns, m.started_unix_ns);
  cr_assert_eq(back.finished_unix_ns, m.finished_unix_ns);
  cr_assert_eq(back.complete, m.complete);
  cr_assert_eq(back.n_languages, 2);
  for (size_t i = 0; i < 2; i++) {
    cr_assert_str_eq(back.languages[i].name, m.languages[i].name);
    cr_assert_str_eq(back.languages[i].title, m.languages[i].title);
    cr_assert_str_eq(back.languages[i].version, m.languages[i].version);
  }
  char *again = written(&back);
  cr_assert_str_eq(again, text);
  free(again);
  free(text);
}

Test(suiterecords_meta, a_running_campaign_round_trips) {
  gb_srec_meta m, back;
  gb_err err = {{0}};
  good_meta(&m);
  m.finished_unix_ns = 0;
  m.complete = false;
  m.energy_status = GB_REC_ENERGY_OK;
  m.energy_reason[0] = '\0';
  char *text = written(&m);
  cr_assert_eq(gb_srec_meta_parse(text, strlen(text), &back, &err), 0, "%s", err.msg);
  cr_assert_eq(back.finished_unix_ns, 0);
  cr_assert_not(back.complete);
  cr_assert_eq(back.energy_status, GB_REC_ENERGY_OK);
  free(text);
}

Test(suiterecords_meta, the_strict_reader_refuses) {
  refused_text("{\"format\": 1", "meta.json:1: malformed JSON");
  refused_text("[]", "meta.json: expected a JSON object, got an array");
  refused_change("\"" GB_SUITE_RECORDS_FORMAT "\"", "\"greenbench-records-1\"",
                 "meta.json: format: not " GB_SUITE_RECORDS_FORMAT);
  /* A suite's format is not read as text first: one message for any value. */
  refused_change("\"" GB_SUITE_RECORDS_FORMAT "\"", "1",
                 "meta.json: format: not " GB_SUITE_RECORDS_FORMAT);
  refused_change("\"runs\":", "\"runs\":\t1,\n\t\t\"runs\":",
                 "meta.json: settings.runs: the key appears twice in one object; a JSON reader "
                 "keeps only one of them, so meta.json must not repeat a key");
  refused_change(
      "\"complete\":", "\"extra\": 1, \"complete\":", "meta.json: extra: unknown key");
  refused_change("\"version\":\t\"gcc", "\"versoin\":\t\"gcc",
                 "meta.json: languages[0].versoin: unknown key");
  refused_change("\"pinning\":", "\"pinnning\":", "meta.json: machine.pinnning: unknown key");
  refused_change("\"runs\":\t7", "\"runs\":\t7.0",
                 "meta.json: settings.runs: not an integer in 0..2^64-1");
  refused_change("\"runs\":\t7", "\"runs\":\t10001",
                 "meta.json: settings.runs: 10001 is outside 1..10000");
  refused_change("\"warmups\":\t2", "\"warmups\":\t0",
                 "meta.json: settings.warmups: 0 is outside 1..64");
  refused_change("\"timeout_s\":\t90", "\"timeout_s\":\t86401",
                 "meta.json: settings.timeout_s: 86401 is outside 1..86400");
  refused_change("\"seed\":\t4242", "\"seed\":\t4294967296",
                 "meta.json: settings.seed: 4294967296 is outside 1..4294967295");
  refused_change("\"energy\":\t\"off\"", "\"energy\":\t\"sometimes\"",
                 "meta.json: settings.energy: unknown value 'sometimes'");
  refused_change("0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789abcdef",
                 "meta.json: suite.hash: '0123456789ABCDEF0123456789abcdef' is not 32 "
                 "lowercase hex digits");
  refused_change("\"name\":\t\"demo\"", "\"name\":\t\"Demo\"",
                 "meta.json: suite.name: 'Demo' is not a suite name");
  refused_change("\"name\":\t\"python\"", "\"name\":\t\"c\"",
                 "meta.json: languages[1].name: 'c' appears twice");
  refused_change("\"cpus_online\":\t16", "\"cpus_online\":\t0",
                 "meta.json: machine.cpus_online: 0");
  refused_change("\"complete\":\ttrue", "\"complete\":\t1",
                 "meta.json: complete: expected true or false, got a number");
  refused_change("\t\"complete\":\ttrue", "\t\"completed\":\ttrue",
                 "meta.json: completed: unknown key");
  refused_change("\"finished_unix_ns\":\t1765000100123456789", "\"finished_unix_ns\":\t0",
                 "meta.json: finished_unix_ns: is 0, but complete is true");
  refused_change("\"finished_unix_ns\":\t1765000100123456789",
                 "\"finished_unix_ns\":\t1765000000000000000",
                 "meta.json: finished_unix_ns: is before started_unix_ns");
}

Test(suiterecords_meta, a_missing_key_is_refused) {
  char *text = changed("\t\"greenbench_version\":\t\"0.9.0\",\n", "");
  refused_text(text, "meta.json: greenbench_version: missing");
  free(text);
}

Test(suiterecords_meta, no_languages_are_refused) {
  gb_srec_meta m;
  good_meta(&m);
  m.n_languages = 0;
  refused_write(&m, "meta.json: languages: empty");
  char *text = NULL;
  good_meta(&m);
  text = written(&m);
  char *at = strstr(text, "\"languages\":");
  cr_assert_not_null(at);
  char *end = strchr(at, ']');
  char *cut = malloc(strlen(text) + 8);
  sprintf(cut, "%.*s\"languages\": []%s", (int)(at - text), text, end + 1);
  refused_text(cut, "meta.json: languages: empty");
  free(cut);
  free(text);
}

Test(suiterecords_meta, the_writer_refuses_what_the_reader_would) {
  gb_srec_meta m;
  good_meta(&m);
  m.settings.runs = 0;
  refused_write(&m, "meta.json: settings.runs: 0 is outside 1..10000");
  good_meta(&m);
  m.greenbench_version[0] = '\0';
  refused_write(&m, "meta.json: greenbench_version: empty");
  good_meta(&m);
  m.energy_status = GB_REC_ENERGY_COUNT;
  refused_write(&m, "meta.json: energy.status: value out of range");
  good_meta(&m);
  strcpy(m.languages[1].title, "Py\tthon");
  refused_write(&m, "meta.json: languages[1].title: 'Py\\x09thon' is not 1 or more printable "
                    "ASCII characters");
  good_meta(&m);
  m.n_languages = GB_SUITE_LANGUAGES_MAX + 1;
  refused_write(&m, "meta.json: languages: too many entries");
}

/* The input that stopped the fuzz target (fuzz_suiterecords): JSON that
 * cJSON reads with a raw tab and newline in settings.energy. The refusal
 * shows the value escaped, so that the message stays one line. */
static const char raw_controls_in_an_enum[] =
    "{\n"
    "\t\"format\":\t\"greenbench-suite-records-1\",\n"
    "\t\"suite\":\t{\n"
    "\t\t\"name\":\t\"demo\",\n"
    "\t\t\"hash\":\t\"0123456789abcdef0123456789abcdef\"\n"
    "\t},\n"
    "\t\"greenbench_version\":\t\"0.9.0\",\n"
    "\t\"profile\":\t\"custom\",\n"
    "\t\"settings\":\t{\n"
    "\t\t\"runs\":\t7,\n"
    "\t\t\"warmups\":\t2,\n"
    "\t\t\"target_ms\":\t150,\n"
    "\t\t\"seed\":\t4242,\n"
    "\t\t\"timeout_s\":\t90,\n"
    "\t\t\"order_seed\":\t18446744073709551615,\n"
    "\t\t\"energy\":\t\"of\tf\n"
    "\"},\n"
    "\t\"energy\":\t{\n"
    "\t\t\"status\":\t\"unavailable\",\n"
    "\t\t\"reason\":\t\"no RAPL zone\"\n"
    "\t},\n"
    "\t\"machine\":\t{\n"
    "\t\t\"cpus_online\":\t16,\n"
    "\t\t\"pinning\":\t\"pinned to CPU 3\"\n"
    "\t},\n"
    "\t\"languages\":\t[{\n"
    "\t\t\t\"name\":\t\"c\",\n"
    "\t\t\t\"title\":\t\"C\",\n"
    "\t\t\t\"version\":\t\"gcc 12.2.0\"\n"
    "\t\t}, {\n"
    "\t\t\t\t}],\n"
    "\t\"started_unix_ns\":\t1765000000123456789,\n"
    "\t\"finished_unix_ns\":\t1765000100123456789,\n"
    "\t\"complete\":\ttrue\n"
    "}\n";

Test(suiterecords_meta, an_unknown_value_is_shown_on_one_line) {
  refused_text(raw_controls_in_an_enum,
               "meta.json: settings.energy: unknown value 'of\\x09f\\n'");
  refused_change("\"energy\":\t\"off\"", "\"energy\":\t\"off\\u001b[2J\"",
                 "meta.json: settings.energy: unknown value 'off\\x1b[2J'");
  refused_change("\"status\":\t\"unavailable\"", "\"status\":\t\"un\\navailable\"",
                 "meta.json: energy.status: unknown value 'un\\navailable'");
}

/* machine.label, as the study's meta.json: optional (records written before
 * it still read, without one), round-trips, and is a label or refused. */
Test(suiterecords_meta, the_machine_label_is_optional_and_round_trips) {
  gb_srec_meta m, back;
  gb_err err = {{0}};
  good_meta(&m);
  char *text = written(&m);
  cr_assert_null(strstr(text, "\"label\""), "no label written without one: %s", text);
  cr_assert_eq(gb_srec_meta_parse(text, strlen(text), &back, &err), 0, "%s", err.msg);
  cr_assert_not(back.has_label);
  free(text);
  m.has_label = true;
  strcpy(m.machine_label, "bench-01");
  text = written(&m);
  cr_assert_not_null(strstr(text, "\"label\":\t\"bench-01\""), "%s", text);
  cr_assert_eq(gb_srec_meta_parse(text, strlen(text), &back, &err), 0, "%s", err.msg);
  cr_assert(back.has_label);
  cr_assert_str_eq(back.machine_label, "bench-01");
  free(text);
}

Test(suiterecords_meta, the_machine_label_must_be_a_label) {
  const char *why = "is not a label (1 to 63 letters, digits, '_' or '-')";
  char msg[160];
  snprintf(msg, sizeof msg, "meta.json: machine.label: 'bench.example.org' %s", why);
  refused_change("\"pinning\":\t\"pinned to CPU 3\"",
                 "\"pinning\":\t\"pinned to CPU 3\", \"label\": \"bench.example.org\"", msg);
  snprintf(msg, sizeof msg, "meta.json: machine.label: '' %s", why);
  refused_change("\"pinning\":\t\"pinned to CPU 3\"",
                 "\"pinning\":\t\"pinned to CPU 3\", \"label\": \"\"", msg);
  refused_change("\"pinning\":\t\"pinned to CPU 3\"",
                 "\"pinning\":\t\"pinned to CPU 3\", \"label\": 7",
                 "meta.json: machine.label: expected a string, got a number");
  gb_srec_meta m;
  good_meta(&m);
  m.has_label = true;
  strcpy(m.machine_label, "a.b");
  snprintf(msg, sizeof msg, "meta.json: machine.label: 'a.b' %s", why);
  refused_write(&m, msg);
}
