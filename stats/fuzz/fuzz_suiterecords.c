/* libFuzzer target for a suite campaign's records (greenbench/suiterecords.h).
 * The first input byte picks the file: odd, the rest is meta.json, which
 * gb_srec_meta_parse must refuse with one line or accept, and then write
 * back and read again to the same text; even, the rest is runs.csv in a
 * folder with a fixed suite.json, meta.json and warmups.csv, which
 * gb_srec_read must refuse with one line or accept, and then every row
 * passes gb_srec_row_check and is written back. Seeds:
 * corpus-suiterecords/. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "greenbench/suiterecords.h"

static const char suite_json[] =
    "{\"format\":\"greenbench-suite-1\",\"name\":\"demo\",\"languages\":["
    "{\"name\":\"c\",\"command\":[\"./w\",\"{n}\",\"{reps}\"],"
    "\"startup\":[\"./w\",\"{n}\",\"--startup-only\"],\"version\":[\"cc\",\"--version\"]}],"
    "\"workloads\":[{\"name\":\"nbody\",\"parameters\":[{\"name\":\"n\",\"values\":[1000,"
    "20000]}]}]}\n";

static void require(int ok) {
  if (!ok)
    abort();
}

static void put(const char *dir, const char *name, const void *data, size_t len) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  require(f && fwrite(data, 1, len, f) == len && fclose(f) == 0);
}

static char dir[] = "/tmp/gb-fuzz-srec-XXXXXX";

/* At exit: the folder and its files go. */
static void remove_folder(void) {
  const char *names[] = {"suite.json", "meta.json", "warmups.csv", "runs.csv"};
  char path[256];
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  rmdir(dir);
}

/* The folder, made once: suite.json, its meta.json, a warmups.csv header. */
static const char *folder(void) {
  static int made;
  if (made)
    return dir;
  gb_suite s;
  gb_err err;
  char *meta = NULL, header[GB_SREC_LINE_MAX];
  require(mkdtemp(dir) != NULL);
  atexit(remove_folder);
  require(gb_suite_parse(suite_json, strlen(suite_json), "suite.json", &s, &err) == 0);
  gb_srec_meta m = {
      .settings = {.runs = 3, .warmups = 1, .target_ms = 1, .seed = 7, .timeout_s = 60},
      .cpus_online = 1,
      .n_languages = 1};
  strcpy(m.suite_name, "demo");
  strcpy(m.suite_hash, s.hash);
  strcpy(m.greenbench_version, "0.9.0");
  strcpy(m.languages[0].name, "c");
  strcpy(m.languages[0].title, "C");
  gb_suite_free(&s);
  require(gb_srec_meta_write(&m, &meta, &err) == 0);
  require(gb_srec_header(header, sizeof header) > 0);
  put(dir, "suite.json", suite_json, strlen(suite_json));
  put(dir, "meta.json", meta, strlen(meta));
  put(dir, "warmups.csv", header, strlen(header));
  free(meta);
  made = 1;
  return dir;
}

static void fuzz_meta(const char *text, size_t len) {
  gb_srec_meta m, again;
  gb_err err = {{0}};
  char *out = NULL, *out2 = NULL;
  int rc = gb_srec_meta_parse(text, len, &m, &err);
  if (rc < 0) {
    require((rc == -EINVAL || rc == -ENOMEM) && err.msg[0] && !strchr(err.msg, '\n'));
    return;
  }
  require(gb_srec_meta_write(&m, &out, &err) == 0);
  require(gb_srec_meta_parse(out, strlen(out), &again, &err) == 0);
  require(gb_srec_meta_write(&again, &out2, &err) == 0);
  require(strcmp(out, out2) == 0);
  free(out);
  free(out2);
}

static void fuzz_runs(const char *text, size_t len) {
  const char *dir = folder();
  gb_srec_records *r = NULL;
  gb_err err = {{0}};
  put(dir, "runs.csv", text, len);
  int rc = gb_srec_read(dir, &r, &err);
  if (rc < 0) {
    require((rc == -EINVAL || rc == -ENOMEM) && err.msg[0] && !strchr(err.msg, '\n'));
    return;
  }
  for (size_t i = 0; i < r->n_runs; i++) {
    char line[GB_SREC_LINE_MAX];
    require(gb_srec_row_check(&r->runs[i], &err) == 0);
    require(gb_srec_format_row(&r->runs[i], line, sizeof line) > 0);
  }
  gb_srec_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  if (data[0] & 1)
    fuzz_meta((const char *)data + 1, size - 1);
  else
    fuzz_runs((const char *)data + 1, size - 1);
  return 0;
}
