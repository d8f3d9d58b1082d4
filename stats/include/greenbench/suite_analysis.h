/* The numbers of a suite campaign's report (issue 38): a suite records
 * folder (suiterecords.h) in; per configuration (language, workload,
 * parameter set) time and energy per repetition and mean power, each with
 * its percentile-bootstrap interval; per case (workload, parameter set) the
 * ratios of every language to the suite's first; Spearman's rho of time vs
 * energy across the configurations. The study's statistics, reused
 * (analysis.h, bootstrap.h, ratio.h, spearman.h): the same startup
 * subtraction and resampling (docs/adr/0014), the same seed, the same
 * quantile rule. Pure: the same records and options give bit-identical
 * results. Units: time in ns, energy in uJ, power in W. */
#ifndef GREENBENCH_SUITE_ANALYSIS_H
#define GREENBENCH_SUITE_ANALYSIS_H

#include "greenbench/analysis.h"
#include "greenbench/carbon.h"
#include "greenbench/error.h"
#include "greenbench/report.h"
#include "greenbench/suiterecords.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One configuration: language l of the suite, case k. */
typedef struct {
  size_t language; /* index into the suite's languages */
  size_t workload; /* index into the suite's workloads */
  size_t case_index;
  char params[GB_SREC_PARAMS_MAX]; /* as runs.csv names them: "n=1000;m=4" */
  uint64_t stream;                 /* its bootstrap stream: a hash of its key, bit 63 clear */
  uint64_t startup_stream;         /* its startup group's: the same hash, bit 63 set */
  size_t n_rows, n_ok;             /* work rows, any status; of those ok */
  size_t by_status[GB_REC_STATUS_COUNT];
  uint64_t reps_min, reps_max; /* over the ok work rows */
  double work_seconds;         /* wall time of its work rows, any status */
  size_t n_startup_rows, n_startup_ok;
  gb_startup startup;  /* per process: the medians of its ok startup batches */
  gb_startup *batches; /* n_startup_ok costs per process (owned) */
  /* Estimates exist: ok work rows and a measured startup. */
  bool measured;
  gb_boot boot;             /* time and energy per repetition, net power */
  double *power_replicates; /* paired estimator (opts): net power replicates, else NULL */
  bool nonpositive_time, nonpositive_energy;
} gb_sa_config;

/* How a time ratio reads: its interval wholly above 1 (the language is
 * slower than the reference), wholly below (faster), or holding 1. */
typedef enum {
  GB_SA_NO_CLEAR,
  GB_SA_FASTER,
  GB_SA_SLOWER,
  GB_SA_TIME_UNDEFINED
} gb_sa_time_reading;
/* "no clear difference", "faster", "slower", "undefined". */
const char *gb_sa_time_reading_name(gb_sa_time_reading r);

/* configs[a] / configs[b], b being the suite's first language in the same
 * case. */
typedef struct {
  size_t a, b;
  bool computed; /* both measured */
  gb_ratio ratio;
  gb_sa_time_reading time_reading;
} gb_sa_ratio;

typedef struct {
  size_t workload;
  uint64_t values[GB_SUITE_PARAMETERS_MAX]; /* one per parameter of the workload */
  size_t first_config; /* its configurations are first_config + language index */
} gb_sa_case;

typedef struct {
  gb_analysis_opts opts;
  const gb_srec_records *records; /* borrowed: must outlive the analysis */
  bool energy;                    /* meta's energy status is ok */
  gb_sa_case *cases;              /* workloads in the suite's order, then parameter sets */
  size_t n_cases;
  gb_sa_config *configs; /* case-major: n_cases x n_languages */
  size_t n_configs;
  gb_sa_ratio *ratios; /* per case, every language but the first, in the suite's order */
  size_t n_ratios;
  size_t rows_by_status[GB_REC_STATUS_COUNT]; /* every runs.csv row, both kinds */
  size_t rank_k;                              /* measured configurations */
  bool rank_computed;                         /* rank_k >= 2 and every one has energy */
  gb_rho_interval rank;
} gb_suite_analysis;

/* Analyses r with opts (analysis.h's options; chance_campaigns is not
 * used). Every row's language, workload and parameters must name the
 * suite's (gb_srec_read checks it): -EINVAL naming the row otherwise.
 * Errors: -EINVAL (options, a row, a run the bootstrap refuses, named by
 * its configuration), -ENOMEM. Release with gb_suite_analysis_free. */
GB_MUST_USE int gb_suite_analysis_run(const gb_srec_records *r, const gb_analysis_opts *opts,
                                      gb_suite_analysis **out, gb_err *err);
void gb_suite_analysis_free(gb_suite_analysis *a);

/* "n=1000, m=4": case k's parameters as the report prints them. */
void gb_sa_case_params(const gb_suite_analysis *a, const gb_sa_case *k, char *buf, size_t len);

/* What results.md of a suite reports beyond the analysis. */
typedef struct {
  const gb_intensity *intensities; /* carbon per repetition for each; may be 0 */
  size_t n_intensities;
} gb_suite_md_opts;

/* results.md of a suite campaign into *out (malloc'd, NUL-terminated, *len
 * without the NUL). Errors: -ENOMEM. */
GB_MUST_USE int gb_suite_report_md(const gb_suite_analysis *a, const gb_suite_md_opts *o,
                                   char **out, size_t *len, gb_err *err);

/* summary.json of a suite campaign: every figure of results.md as JSON
 * (docs/suites.md, "Reading a suite report"). */
#define GB_SUITE_SUMMARY_FORMAT "greenbench-suite-summary-1"
GB_MUST_USE int gb_suite_report_summary(const gb_suite_analysis *a, char **out, size_t *len,
                                        gb_err *err);

/* junit.xml of a suite campaign, read by Jenkins, GitLab and junitparser:
 * one testsuite per language and workload, named
 * <machine>.<suite>.<profile>.<language>.<workload> (as the study's per
 * language and algorithm; machine the records' machine.label, or
 * "unlabelled" for records without one), with the suite, its hash, the
 * language, the workload, machine_label and energy as properties; one testcase per
 * configuration, classname its testsuite's name, name its parameters as runs.csv names them
 * ("n=1000;m=2"), time the wall time of its work rows. A configuration with a run not ok, or no
 * estimate, fails
 * ("runs-not-ok"); one without rows is skipped. system-out: verdict, runs,
 * time and energy per repetition and net power (4 significant digits).
 * (Its schema is greenbench-suite-junit.xsd.) */
GB_MUST_USE int gb_suite_report_junit(const gb_suite_analysis *a, char **out, size_t *len,
                                      gb_err *err);

/* One configuration of a suite for a JUnit document written without
 * records: indexes into the suite's languages and workloads, and one value
 * per parameter of the workload. */
typedef struct {
  size_t language, workload;
  uint64_t values[GB_SUITE_PARAMETERS_MAX];
} gb_suite_junit_case;

/* The JUnit document of a suite campaign that has no records to read (the
 * suite's CTest fixture, when the campaign cannot run, did not finish its
 * report, or is under way): gb_suite_report_junit's shape (a testsuite
 * <machine>.<suite>.<profile>.<language>.<workload> per language and
 * workload given, in the suite's order, machine machine_label or
 * "unlabelled" for NULL, with the properties suite, suite_hash, language,
 * workload, machine_label and campaign_completed false; a testcase per case, named by its
 * parameters "n=1000"), every case failed with reason (type
 * "campaign-not-run"), time 0, every figure "not measured". Into *out
 * (malloc'd, NUL-terminated, *len without the NUL). -EINVAL for n == 0, an
 * empty reason or profile, a machine label that is not a label, a case
 * that is not the suite's; -ENOMEM. */
GB_MUST_USE int gb_suite_report_junit_unrun(const gb_suite *s, const char *machine_label,
                                            const char *profile,
                                            const gb_suite_junit_case *cases, size_t n,
                                            const char *reason, char **out, size_t *len,
                                            gb_err *err);

/* `greenbench report` of suite records r read from opts->dir: checks
 * opts as gb_report_write does, refuses an unfinished campaign (unless
 * allow_partial) and energy readings that are all 0, refuses a chart
 * (--chart: a suite report has none) and an output that is one of DIR's
 * records (suite.json included) or another output, analyses, and writes
 * results.md, junit.xml and summary.json (given, or in DIR) as one set
 * (gb_report_write_set). No data package is written. Errors as
 * gb_report_write's. */
GB_MUST_USE int gb_suite_report_write_records(const gb_srec_records *r,
                                              const gb_report_opts *opts, gb_err *err);

/* gb_srec_read_path of opts->dir, a folder or a packed one (its errors name
 * the file and line), then gb_suite_report_write_records. For a packed DIR
 * (gb_records_is_packed) the outputs not given go into the current folder,
 * and none may be the archive. */
GB_MUST_USE int gb_suite_report_write(const gb_report_opts *opts, gb_err *err);

/* The three outputs' paths as gb_suite_report_write_records writes them
 * (results.md, junit.xml, summary.json: given, or in DIR, or in the current
 * folder for a packed DIR), each PATH_MAX bytes; its refusals of --chart,
 * of suite.json (or the archive) as an output, and its checks of the
 * outputs (gb_report_check_outputs for a folder). */
GB_MUST_USE int gb_suite_report_paths(const gb_report_opts *opts, char (*paths)[PATH_MAX],
                                      gb_err *err);

#endif
