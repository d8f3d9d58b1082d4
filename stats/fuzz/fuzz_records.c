/* libFuzzer target for the records reader: the CSV parser (runs.csv and
 * warmups.csv, with and without a meta.json to check against) and the
 * meta.json parser. Beyond "no crash", it checks that whatever the reader
 * accepts, the writer writes back and the reader accepts again unchanged,
 * and that each refusal names the file on one line.
 *
 *   CC=clang cmake -B build-fuzz -DGB_FUZZ=ON && cmake --build build-fuzz --target fuzz_records
 *   build-fuzz/stats/fuzz_records stats/fuzz/corpus-records -max_total_time=60
 *
 * The first input byte picks the mode (bit 0: warmups.csv, bit 1: check
 * against the meta.json below); the rest is the file. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/records_read.h"

static const char meta_json[] =
    "{\"format\":\"greenbench-records-1\",\"tool_version\":\"0.1.0\","
    "\"command\":[\"greenbench\",\"run\"],\"profile\":\"study\","
    "\"settings\":{\"languages\":[\"c\",\"python\",\"node\"],"
    "\"algorithms\":[\"bubble\",\"insertion\",\"quick\"],"
    "\"orders\":[\"random\",\"sorted\",\"reversed\",\"nearly\"],\"sizes\":[250,500,1000,2000],"
    "\"runs\":30,\"warmups\":3,\"target_ms\":200,\"energy\":\"auto\",\"seed\":2463534242,"
    "\"order_seed\":123,\"python\":\"/usr/bin/python3\",\"node\":\"/usr/bin/node\","
    "\"timeout_s\":60},"
    "\"plan\":{\"configurations\":144,\"sort_runs\":4320,\"startup_runs\":1440,"
    "\"measured_runs\":5760},\"calibration\":[],\"startup\":[],"
    "\"energy\":{\"status\":\"ok\",\"reason\":\"\",\"zones\":["
    "{\"name\":\"package-0\",\"path\":\"intel-rapl:0\",\"kind\":\"package\",\"socket\":0,"
    "\"max_energy_range_uj\":262143328850},"
    "{\"name\":\"dram\",\"path\":\"intel-rapl:0:0\",\"kind\":\"dram\",\"socket\":0,"
    "\"max_energy_range_uj\":65712999613}]},"
    "\"machine\":{\"cpu_model\":\"x\",\"kernel\":\"6.1\",\"governor\":null,\"turbo\":null,"
    "\"cpus_online\":4},"
    "\"pinning\":{\"cpus\":\"2,3\",\"rule_held\":true,\"reason\":\"\",\"numa_node\":0,"
    "\"memory_bound\":true},"
    "\"runtimes\":{\"c\":\"gcc\",\"python\":\"CPython\",\"node\":\"Node.js\"},"
    "\"git_commit\":\"abc\",\"started_at\":\"2026-12-03T07:00:00Z\",\"finished_at\":null,"
    "\"completed\":false,\"runs_done\":0}";

static gb_meta meta;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  gb_err err;
  if (gb_meta_parse(meta_json, strlen(meta_json), "fuzz-meta", &meta, &err) < 0) {
    fprintf(stderr, "fuzz_records: built-in meta.json refused: %s\n", err.msg);
    abort();
  }
  return 0;
}

/* Header and rows of t, as the writer writes them; NULL if it refuses. */
static char *format_table(const gb_rec_table *t, size_t *len) {
  size_t cap = (t->n_rows + 1) * GB_REC_LINE_MAX, used;
  char *buf = malloc(cap);
  if (!buf)
    abort();
  used = (size_t)gb_records_header(buf, cap);
  for (size_t i = 0; i < t->n_rows; i++) {
    int n = gb_records_format_row(&t->rows[i], buf + used, cap - used);
    if (n < 0) {
      fprintf(stderr, "fuzz_records: an accepted row does not format: %d\n", n);
      abort();
    }
    used += (size_t)n;
  }
  *len = used;
  return buf;
}

static void csv_round_trip(const char *data, size_t size, gb_rec_file which, const gb_meta *m) {
  gb_rec_table t, back;
  gb_err err;
  if (gb_records_parse_csv(data, size, "fuzz.csv", which, m, &t, &err) < 0) {
    if (!strstr(err.msg, "fuzz.csv") || strchr(err.msg, '\n'))
      abort(); /* every message names the file, on one line */
    return;
  }
  size_t len, len2;
  char *text = format_table(&t, &len);
  if (gb_records_parse_csv(text, len, "again.csv", which, m, &back, &err) < 0) {
    fprintf(stderr, "fuzz_records: written rows refused: %s\n", err.msg);
    abort();
  }
  char *again = format_table(&back, &len2);
  if (len != len2 || memcmp(text, again, len) != 0 || back.n_groups != t.n_groups)
    abort();
  free(again);
  free(text);
  gb_rec_table_free(&back);
  gb_rec_table_free(&t);
}

static void meta_round_trip(const char *data, size_t size) {
  gb_meta m, back;
  gb_err err;
  if (gb_meta_parse(data, size, "fuzz.json", &m, &err) < 0) {
    if (!strstr(err.msg, "fuzz.json") || strchr(err.msg, '\n'))
      abort(); /* every message names the file, on one line */
    return;
  }
  cJSON *j = gb_meta_to_json(&m);
  char *text = j ? cJSON_PrintUnformatted(j) : NULL;
  if (!text || gb_meta_parse(text, strlen(text), "again.json", &back, &err) < 0) {
    fprintf(stderr, "fuzz_records: written meta.json refused: %s\n", err.msg);
    abort();
  }
  cJSON *j2 = gb_meta_to_json(&back);
  char *text2 = j2 ? cJSON_PrintUnformatted(j2) : NULL;
  if (!text2 || strcmp(text, text2) != 0)
    abort();
  cJSON_free(text2);
  cJSON_Delete(j2);
  cJSON_free(text);
  cJSON_Delete(j);
  gb_meta_free(&back);
  gb_meta_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const char *text = (const char *)data + 1;
  gb_rec_file which = data[0] & 1 ? GB_REC_FILE_WARMUPS : GB_REC_FILE_RUNS;
  csv_round_trip(text, size - 1, which, data[0] & 2 ? &meta : NULL);
  meta_round_trip(text, size - 1);
  return 0;
}
