/* The reader's bounds (docs/records.md, "What the reader refuses"): values
 * the harness could never have written. meta.json is checked against its own
 * settings (the plan, the pinned CPUs, one calibration entry per
 * configuration), and every row against physics and the workload: loop
 * within wall, CPU within wall x pinned CPUs, power within 1 kW per package,
 * idle energy consistent with idle time, sorts and launches as calibrated,
 * and counts and input hashes equal to what the C workload library computes,
 * cached per configuration. Internal to the stats stage. */
#ifndef GREENBENCH_RECORDS_RULES_H
#define GREENBENCH_RECORDS_RULES_H

#include "greenbench/error.h"
#include "greenbench/records_read.h"

typedef struct gb_rec_rules gb_rec_rules;

/* Checks m as the rows depend on it and builds the rules in *out (free with
 * gb_rec_rules_free). m must outlive them. Messages name meta_path and the
 * key. 0, -EINVAL, -ENOMEM; *out only on success. */
GB_MUST_USE int gb_rec_rules_new(const gb_meta *m, const char *meta_path, gb_rec_rules **out,
                                 gb_err *err);
void gb_rec_rules_free(gb_rec_rules *r);

/* One row of `which` that passed the schema and meta.json's settings:
 * bounds on ok rows, the calibrated sorts and launches of runs.csv rows,
 * counts and hashes of ok rows. Computes and caches the workload's values
 * the first time a configuration needs them. Returns 0, or -EINVAL (-ENOMEM)
 * with a message naming the column and the rule, but no file or line:
 * callers add them. */
GB_MUST_USE int gb_rec_rules_check_row(gb_rec_rules *r, gb_rec_file which,
                                       const gb_run_row *row, gb_err *err);

/* gb_records_parse_csv with rules built once for both files of a folder
 * (NULL: the schema and meta.json checks only). */
GB_MUST_USE int gb_records_parse_csv_rules(const char *buf, size_t len, const char *name,
                                           gb_rec_file which, const gb_meta *meta,
                                           gb_rec_rules *rules, gb_rec_table *t, gb_err *err);

#endif
