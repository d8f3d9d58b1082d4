/* Grid carbon intensity: the table in stats/data/grid-carbon-intensity.csv
 * (annual, location-based, lifecycle; Ember via Our World in Data, CC BY
 * 4.0, see stats/data/README.md) and the conversion from energy to grams of
 * CO2-equivalent. */
#ifndef GREENBENCH_CARBON_H
#define GREENBENCH_CARBON_H

#include "greenbench/error.h"

#include <stddef.h>

/* One intensity: a region's annual figure, or a custom one (code "" and
 * year 0). */
typedef struct {
  char region[64];  /* e.g. "United Kingdom" */
  char code[16];    /* ISO 3166-1 alpha-3, or OWID's own code for aggregates */
  int year;         /* 1900..2200 */
  double g_per_kwh; /* grams CO2e per kWh, finite, > 0 */
} gb_intensity;

typedef struct {
  gb_intensity *rows; /* in file order; owned */
  size_t n;
} gb_carbon_table;

/* The shipped table, data/grid-carbon-intensity.csv under greenbench's data
 * folder (stats/data in the source tree, share/greenbench/data installed;
 * GREENBENCH_DATA_DIR overrides: greenbench/paths.h), into buf[len].
 * Errors: -ENOENT naming where it was looked for, -ENAMETOOLONG. */
GB_MUST_USE int gb_carbon_default_path(char *buf, size_t len, gb_err *err);

/* Loads a table strictly: the header must read
 * `region,code,year,g_co2e_per_kwh`; every other line holds exactly those
 * four fields, unquoted, without surrounding spaces (LF or CRLF endings,
 * no blank lines), code of letters, digits and '_', a four-digit year, and a
 * plain positive decimal intensity ("C" locale). A code must keep one region
 * name, a region one code, and a (code, year) pair appears once. At least
 * one row. Errors: -errno from opening or reading ("FILE: ..."), -EINVAL on
 * bad content ("FILE:LINE: ..."), -ENOMEM. Release with gb_carbon_free. */
GB_MUST_USE int gb_carbon_load(const char *path, gb_carbon_table *out, gb_err *err);

/* Releases t's rows and zeroes it. NULL and a zeroed table are fine. */
void gb_carbon_free(gb_carbon_table *t);

/* The latest year of one region, found by code (case-insensitive, "gbr")
 * or, when no code matches, by exact region name ("United Kingdom").
 * Errors: -ENOENT when nothing matches. */
GB_MUST_USE int gb_carbon_find(const gb_carbon_table *t, const char *name_or_code,
                               gb_intensity *out, gb_err *err);

/* A custom intensity given as NAME=G (e.g. "lab=123.4"): NAME of 1 to 63
 * characters without '=' or ',', G a plain positive finite decimal in
 * g CO2e/kWh. Errors: -EINVAL naming the argument. */
GB_MUST_USE int gb_carbon_parse_custom(const char *arg, gb_intensity *out, gb_err *err);

/* Grams CO2e for energy_uj microjoules at g_per_kwh: 1 kWh = 3.6e12 uJ, so
 * energy_uj / 3.6e12 * g_per_kwh. NAN in, NAN out. */
double gb_carbon_grams(double energy_uj, double g_per_kwh);

#endif
