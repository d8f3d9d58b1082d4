/* datapackage.json: a Frictionless Data Package (profile
 * tabular-data-package, https://specs.frictionlessdata.io/) describing a
 * records folder's runs.csv and warmups.csv, so that pandas, R or any
 * Frictionless reader loads them as typed tables in one line.
 *
 * Generated from the records' schema table (gb_records_column,
 * gb_records_column_bounds), so it cannot drift from what the harness
 * writes and the reader accepts: every column in file order with its Table
 * Schema type (integer or string), its unit in the description (the column
 * names carry them: wall_ns, pkg_uj ...), and the constraints the reader
 * enforces on every row (required, minimum and maximum of integers, the
 * names of a value set, the hash's pattern, the message's length). An empty
 * field is missing, never 0 (missingValues [""]); runs.csv's primary key is
 * run. Resource paths are the bare file names, so the file belongs in the
 * records folder itself (a Frictionless path is relative, without "..").
 * Pure and deterministic; numbers as exact decimal digits in any locale. */
#ifndef GREENBENCH_REPORT_DATAPACKAGE_H
#define GREENBENCH_REPORT_DATAPACKAGE_H

#include "greenbench/error.h"

#include <stdbool.h>
#include <stddef.h>

/* The file name the package is written under, in the records folder. */
#define GB_DATAPACKAGE_FILE "datapackage.json"

/* Writes datapackage.json into *out (malloc'd, NUL-terminated, *len without
 * the NUL; the caller frees it): resource "runs" (runs.csv) and, when
 * has_warmups (the folder holds warmups.csv), resource "warmups"
 * (warmups.csv). Errors: -ENOMEM; -EINVAL when the schema table has a
 * column this writer cannot describe (a new column type or value set
 * without its description here). */
GB_MUST_USE int gb_report_datapackage(bool has_warmups, char **out, size_t *len, gb_err *err);

#endif
