/* `greenbench report`'s closing lines: the files written, and a table read
 * back from summary.json (the analysis's own figures, as written). */
#include "cli_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/paths.h"

/* The names gb_report_write gives its outputs when no path is given. */
static const char *const default_names[] = {"results.md", "junit.xml", "chart.svg",
                                            "summary.json"};

/* An output's path: the one given, or DIR/name. */
static int output_path(const gb_report_opts *o, int i, char *buf, size_t len, gb_err *err) {
  const char *given[] = {o->md_path, o->junit_path, o->chart_path, o->summary_path};
  if (given[i])
    return snprintf(buf, len, "%s", given[i]) < (int)len
               ? 0
               : gb_err_set(err, ENAMETOOLONG, "path too long");
  return gb_path_join(buf, len, o->dir, default_names[i], err);
}

/* The whole of a file, NUL-terminated (free it), or NULL with err set. */
static char *slurp(const char *path, gb_err *err) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0;
  if (!f) {
    gb_err_set(err, errno, "cannot read back %s: %s", path, strerror(errno));
    return NULL;
  }
  for (;;) {
    if (len + 1 >= cap) {
      char *bigger = realloc(buf, cap = cap ? cap * 2 : 65536);
      if (!bigger) {
        free(buf);
        fclose(f);
        gb_err_set(err, ENOMEM, "out of memory");
        return NULL;
      }
      buf = bigger;
    }
    size_t n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
    if (n == 0)
      break;
  }
  bool failed = ferror(f);
  fclose(f);
  if (failed) {
    free(buf);
    gb_err_set(err, EIO, "cannot read back %s", path);
    return NULL;
  }
  buf[len] = '\0';
  return buf;
}

static const char *text_of(const cJSON *o, const char *key) {
  const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
  return s ? s : "";
}

/* A scale for a value: its unit, and what to divide by. */
typedef struct {
  double divisor;
  const char *unit;
} scale;

/* The largest of the units (base unit first, each 1000 times the one
 * before) that the value reaches, so that it prints as 1 to 999.9. */
static scale pick(double v, const char *const units[3]) {
  scale s = {1, units[0]};
  double size = v < 0 ? -v : v; /* an estimate net of startup can be below 0 */
  for (int i = 1; i < 3 && size >= s.divisor * 1000; i++)
    s = (scale){s.divisor * 1000, units[i]};
  return s;
}

/* An interval as "point unit [low, high]" in the unit its point fits, or
 * "-" when the figure does not exist. */
static void interval_text(const cJSON *iv, const char *const units[3], char *buf, size_t len) {
  const cJSON *p = cJSON_GetObjectItemCaseSensitive(iv, "point"),
              *lo = cJSON_GetObjectItemCaseSensitive(iv, "low"),
              *hi = cJSON_GetObjectItemCaseSensitive(iv, "high");
  snprintf(buf, len, "-");
  if (!cJSON_IsNumber(p))
    return;
  scale s = pick(p->valuedouble, units);
  if (cJSON_IsNumber(lo) && cJSON_IsNumber(hi))
    snprintf(buf, len, "%.4g %s [%.4g, %.4g]", p->valuedouble / s.divisor, s.unit,
             lo->valuedouble / s.divisor, hi->valuedouble / s.divisor);
  else
    snprintf(buf, len, "%.4g %s", p->valuedouble / s.divisor, s.unit);
}

/* The largest size of a measured configuration on random input. */
static double largest_random_size(const cJSON *configs) {
  double size = 0;
  const cJSON *c;
  cJSON_ArrayForEach(c, configs) {
    double s = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "size"));
    if (!strcmp(text_of(c, "order"), "random") &&
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "measured")) && s > size)
      size = s;
  }
  return size;
}

static void put_table(FILE *out, const cJSON *summary) {
  const cJSON *configs = cJSON_GetObjectItemCaseSensitive(summary, "configurations");
  bool energy = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(summary, "energy_measured"));
  double size = largest_random_size(configs);
  if (size <= 0) {
    fprintf(out, "no configuration on random input was measured\n");
    return;
  }
  fprintf(out, "random input, size %.0f: medians per sort with 95%% intervals\n", size);
  fprintf(out, "  %-8s %-10s  %-30s  %s\n", "language", "algorithm", "time per sort",
          energy ? "energy per sort (net of idle)" : "energy per sort");
  const cJSON *c;
  cJSON_ArrayForEach(c, configs) {
    if (strcmp(text_of(c, "order"), "random") ||
        cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "size")) != size)
      continue;
    static const char *const time_units[3] = {"ns", "us", "ms"}, *const energy_units[3] = {
                                                                     "uJ", "mJ", "J"};
    char time[96], joules[96] = "not measured";
    interval_text(cJSON_GetObjectItemCaseSensitive(c, "time_per_sort_ns"), time_units, time,
                  sizeof time);
    if (energy)
      interval_text(cJSON_GetObjectItemCaseSensitive(c, "energy_per_sort_uj"), energy_units,
                    joules, sizeof joules);
    fprintf(out, "  %-8s %-10s  %-30s  %s\n", text_of(c, "language"), text_of(c, "algorithm"),
            time, joules);
  }
}

int cli_report_console(const gb_report_opts *o, FILE *out, gb_err *err) {
  char path[PATH_MAX], summary_path[PATH_MAX];
  int rc;
  fprintf(out, "wrote:\n");
  for (int i = 0; i < 4; i++) {
    if ((rc = output_path(o, i, path, sizeof path, err)) < 0)
      return rc;
    fprintf(out, "  %s\n", path);
    if (i == 3)
      memcpy(summary_path, path, sizeof path);
  }
  if (!o->no_datapackage) {
    if ((rc = gb_path_join(path, sizeof path, o->dir, "datapackage.json", err)) < 0)
      return rc;
    fprintf(out, "  %s\n", path);
  }
  char *text = slurp(summary_path, err);
  if (!text)
    return -EIO;
  cJSON *summary = cJSON_Parse(text);
  free(text);
  if (!summary)
    return gb_err_set(err, EINVAL, "%s: cannot parse what was written", summary_path);
  put_table(out, summary);
  cJSON_Delete(summary);
  return fflush(out) == 0 && !ferror(out) ? 0
                                          : gb_err_set(err, EIO, "cannot write its summary");
}
