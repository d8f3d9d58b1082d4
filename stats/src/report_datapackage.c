/* datapackage.json from the records' schema table. The types, the required
 * flags, the bounds and the value sets come from records.c's table; only the
 * one-line meaning of each column is written here, indexed by the column, so
 * a column added to the table without a meaning here is an error
 * (-EINVAL), never a silent gap. */
#include "stats_internal.h"

#include "json_out.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/records.h"

/* What each column holds (docs/records.md, runs.csv); its unit is added from
 * its name's suffix. */
static const char *const meanings[GB_REC_COL_COUNT] = {
    [GB_REC_COL_RUN] = "Position in the shuffled order of measured runs (runs.csv), or the "
                       "warm-up's number within its configuration (warmups.csv), from 0.",
    [GB_REC_COL_KIND] = "A sorting run (sort) or a batch of --startup-only launches (startup).",
    [GB_REC_COL_LANGUAGE] = "The worker's language.",
    [GB_REC_COL_ALGORITHM] = "The sorting algorithm; for startup rows the argument passed.",
    [GB_REC_COL_ORDER] = "The input order.",
    [GB_REC_COL_SIZE] = "Input size n, in elements.",
    [GB_REC_COL_SEED] = "Input seed (xorshift32).",
    [GB_REC_COL_SORTS] = "Sorts per process (sort rows, >= 1); 0 for startup rows.",
    [GB_REC_COL_LAUNCHES] = "Processes in this row: 1 for sort rows, the batch size for "
                            "startup rows.",
    [GB_REC_COL_STATUS] = "How the run ended; only ok runs enter the statistics.",
    [GB_REC_COL_WALL_NS] = "Wall time (CLOCK_MONOTONIC_RAW) from just before the spawn to "
                           "just after the reap; for a batch, the whole batch.",
    [GB_REC_COL_USER_NS] = "Child user CPU time from wait4 (summed over a batch).",
    [GB_REC_COL_SYS_NS] = "Child system CPU time from wait4 (summed over a batch).",
    [GB_REC_COL_MAX_RSS_KIB] = "Child peak resident set size from wait4 (max over a batch).",
    [GB_REC_COL_LOOP_NS] = "The worker's own timing of its sort loop (sort rows only).",
    [GB_REC_COL_COMPARISONS] = "Comparisons per sort reported by the worker.",
    [GB_REC_COL_WRITES] = "Array writes per sort reported by the worker.",
    [GB_REC_COL_INPUT_HASH] = "XXH64 (seed 0) of the input, as 16 lowercase hex digits.",
    [GB_REC_COL_ENERGY] = "Whether the energy columns hold a reading; the reason is in "
                          "meta.json.",
    [GB_REC_COL_PKG_UJ] = "Energy of all RAPL package zones over the run, summed over sockets, "
                          "wraps corrected.",
    [GB_REC_COL_DRAM_UJ] = "Energy of all RAPL DRAM zones over the run; empty where the "
                           "machine has none.",
    [GB_REC_COL_IDLE_NS] = "Length of the idle window that followed the run.",
    [GB_REC_COL_IDLE_PKG_UJ] = "Package energy over the idle window.",
    [GB_REC_COL_IDLE_DRAM_UJ] = "DRAM energy over the idle window.",
    [GB_REC_COL_FREQ_START_KHZ] = "Mean scaling_cur_freq of the pinned CPUs just before the "
                                  "run.",
    [GB_REC_COL_FREQ_END_KHZ] = "Mean scaling_cur_freq of the pinned CPUs just after the run.",
    [GB_REC_COL_TEMP_START_MC] = "Package temperature just before the run; may be negative.",
    [GB_REC_COL_TEMP_END_MC] = "Package temperature just after the run; may be negative.",
    [GB_REC_COL_STARTED_UNIX_NS] = "CLOCK_REALTIME when the run started.",
    [GB_REC_COL_MESSAGE] = "Why a run failed; empty for ok runs. At most 255 bytes of UTF-8 "
                           "(< 256 bytes, as the reader checks); maxLength counts characters, "
                           "so it states the bound those bytes imply.",
};

/* The unit a column's name carries, or NULL for names and counts. */
static const char *unit_of(const char *name) {
  static const struct {
    const char *suffix, *unit;
  } units[] = {{"_unix_ns", "ns since the Unix epoch"},
               {"_ns", "ns"},
               {"_uj", "µJ"},
               {"_kib", "KiB"},
               {"_khz", "kHz"},
               {"_mc", "m°C (thousandths of a degree Celsius)"}};
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
    size_t k = strlen(units[i].suffix);
    if (n > k && strcmp(name + n - k, units[i].suffix) == 0) {
      return units[i].unit;
    }
  }
  return NULL;
}

/* The builder of json_out.h, for its put_* shorthands. */
typedef struct {
  gbi_jb jb;
} build;

/* The names of an enum column's value set, in their order. */
static int value_set(build *b, cJSON *constraints, gb_rec_col c) {
  cJSON *names = put(b, constraints, "enum", cJSON_CreateArray());
  for (unsigned i = 0; names && i < 64; i++) {
    const char *name = c == GB_REC_COL_KIND        ? gb_rec_kind_name((gb_rec_kind)i)
                       : c == GB_REC_COL_LANGUAGE  ? gb_language_name((gb_language)i)
                       : c == GB_REC_COL_ALGORITHM ? gb_algorithm_name((gb_algorithm)i)
                       : c == GB_REC_COL_ORDER     ? gb_order_name((gb_order)i)
                       : c == GB_REC_COL_STATUS    ? gb_rec_status_name((gb_rec_status)i)
                       : c == GB_REC_COL_ENERGY    ? gb_rec_energy_name((gb_rec_energy)i)
                                                   : NULL;
    if (!name) {
      return i > 0 ? 0 : -EINVAL;
    }
    put_str(b, names, NULL, name);
  }
  return 0;
}

static int constraints_of(build *b, cJSON *field, gb_rec_col c, const gb_rec_column *col) {
  cJSON *k = put(b, field, "constraints", cJSON_CreateObject());
  if (!k) {
    return 0;
  }
  put(b, k, "required", cJSON_CreateBool(!col->optional));
  uint64_t min, max;
  switch (col->type) {
  case GB_REC_TYPE_UINT:
  case GB_REC_TYPE_NS:
    if (gb_records_column_bounds(c, &min, &max) < 0) {
      return -EINVAL;
    }
    put_u64(b, k, "minimum", min);
    if (max < UINT64_MAX) {
      put_u64(b, k, "maximum", max);
    }
    return 0;
  case GB_REC_TYPE_INT:
    return 0;
  case GB_REC_TYPE_ENUM:
    return value_set(b, k, c);
  case GB_REC_TYPE_HASH:
    put_str(b, k, "pattern", "[0-9a-f]{16}");
    return 0;
  case GB_REC_TYPE_TEXT:
    put_u64(b, k, "maxLength", GB_REC_MESSAGE_MAX - 1);
    return 0;
  }
  return -EINVAL;
}

static int field_of(build *b, cJSON *fields, gb_rec_col c) {
  const gb_rec_column *col = gb_records_column(c);
  if (!col || !meanings[c]) {
    return -EINVAL;
  }
  cJSON *f = put(b, fields, NULL, cJSON_CreateObject());
  if (!f) {
    return 0;
  }
  bool integer = col->type == GB_REC_TYPE_UINT || col->type == GB_REC_TYPE_NS ||
                 col->type == GB_REC_TYPE_INT;
  char text[512];
  const char *unit = unit_of(col->name);
  snprintf(text, sizeof text, "%s%s%s%s", meanings[c], unit ? " Unit: " : "", unit ? unit : "",
           unit ? "." : "");
  /* Instants in ns since 1970 are above 2^53 (about 104 days of ns): a
   * reader that holds integers as doubles (JavaScript, R) rounds them. */
  bool beyond = unit && strcmp(unit, "ns since the Unix epoch") == 0;
  if (beyond)
    snprintf(text + strlen(text), sizeof text - strlen(text), "%s",
             " Values exceed 2^53: read them as 64-bit integers (pandas int64, R "
             "bit64::integer64, JavaScript BigInt), never as doubles.");
  put_str(b, f, "name", col->name);
  put_str(b, f, "type", integer ? "integer" : "string");
  put_str(b, f, "description", text);
  if (beyond)
    put(b, f, "greenbench:exceeds_2^53", cJSON_CreateBool(true));
  return constraints_of(b, f, c, col);
}

static int schema_of(build *b, cJSON *resource, bool keyed) {
  cJSON *s = put(b, resource, "schema", cJSON_CreateObject());
  cJSON *fields = s ? put(b, s, "fields", cJSON_CreateArray()) : NULL;
  int rc = 0;
  for (int c = 0; fields && rc == 0 && c < GB_REC_COL_COUNT; c++) {
    rc = field_of(b, fields, (gb_rec_col)c);
  }
  cJSON *missing = s ? put(b, s, "missingValues", cJSON_CreateArray()) : NULL;
  if (missing) {
    put_str(b, missing, NULL, "");
  }
  cJSON *key = s && keyed ? put(b, s, "primaryKey", cJSON_CreateArray()) : NULL;
  if (key) {
    put_str(b, key, NULL, gb_records_column(GB_REC_COL_RUN)->name);
  }
  return rc;
}

static int resource_of(build *b, cJSON *resources, const char *name, const char *description,
                       bool keyed) {
  cJSON *r = put(b, resources, NULL, cJSON_CreateObject());
  if (!r) {
    return 0;
  }
  char path[64];
  snprintf(path, sizeof path, "%s.csv", name);
  put_str(b, r, "name", name);
  put_str(b, r, "path", path);
  put_str(b, r, "profile", "tabular-data-resource");
  put_str(b, r, "description", description);
  put_str(b, r, "format", "csv");
  put_str(b, r, "mediatype", "text/csv");
  put_str(b, r, "encoding", "utf-8");
  cJSON *d = put(b, r, "dialect", cJSON_CreateObject());
  if (d) {
    put_str(b, d, "delimiter", ",");
    put_str(b, d, "lineTerminator", "\n");
    put_str(b, d, "quoteChar", "\"");
    put(b, d, "doubleQuote", cJSON_CreateTrue());
    put(b, d, "header", cJSON_CreateTrue());
  }
  return schema_of(b, r, keyed);
}

static int package_of(build *b, cJSON *root, bool has_warmups) {
  put_str(b, root, "profile", "tabular-data-package");
  put_str(b, root, "name", "greenbench-records");
  put_str(b, root, "title", "greenbench campaign records");
  put_str(b, root, "description",
          "One greenbench campaign's measured runs (runs.csv) and warm-up runs (warmups.csv), "
          "one row per process run; the settings, seeds and machine are in meta.json beside "
          "them. Every number is an integer, its unit in the column name; an empty field is "
          "missing, never 0. Format greenbench-records-1, described column by column in "
          "docs/records.md of the greenbench repository.");
  cJSON *resources = put(b, root, "resources", cJSON_CreateArray());
  if (!resources) {
    return 0;
  }
  int rc = resource_of(b, resources, "runs",
                       "One row per measured process run (sorting runs and startup batches), "
                       "in execution order.",
                       true);
  if (rc == 0 && has_warmups) {
    rc = resource_of(b, resources, "warmups",
                     "One row per warm-up run, in the order they ran; not measured runs.",
                     false);
  }
  return rc;
}

int gbi_report_datapackage(bool has_warmups, char **out, size_t *len, gb_err *err) {
  cJSON *root = cJSON_CreateObject();
  build b = {.jb = {root != NULL}};
  int rc = root ? package_of(&b, root, has_warmups) : 0;
  if (rc < 0) {
    cJSON_Delete(root);
    return gb_err_set(err, EINVAL, "datapackage.json: a records column has no description");
  }
  return gbi_jb_take(&b.jb, root, "datapackage.json", out, len, err);
}
