/* A synthetic suite campaign for the suite report's tests: the suite
 * stats/tests/data/suite-synth/suite.json (3 languages, 2 workloads, 4 cases)
 * and records made from a fixed model with a fixed pseudo-random noise, so
 * that the same call always gives the same rows. Time per repetition, power
 * and startup are the model's (helper_suite.c); Python is 30 times C
 * everywhere, Lua 8 times C on spin and as fast as C on mix; one Python run
 * of mix n=500;m=3 timed out. */
#ifndef GREENBENCH_TESTS_HELPER_SUITE_H
#define GREENBENCH_TESTS_HELPER_SUITE_H

#include <stdbool.h>
#include <stddef.h>

#include "greenbench/suiterecords.h"

#define GBT_SUITE_RUNS 6
#define GBT_SUITE_LAUNCHES 4

/* The records, in memory (energy measured, or off with its reason); fails
 * the test if the suite file cannot be read. Release with gbt_suite_free. */
gb_srec_records *gbt_suite_synth(bool energy);
void gbt_suite_free(gb_srec_records *r);
/* The same campaign on stats/tests/data/suite-named/suite.json, whose
 * parameter m is named order (sorted, reversed, nearly-sorted for m = 2, 3,
 * 1): the same model and noise, params such as "n=500;order=reversed". */
gb_srec_records *gbt_suite_synth_named(bool energy);
/* The same campaign with one language (its index in the suite) factor
 * times slower per repetition at the same power: the same noise, so that
 * its time ratio to gbt_suite_synth's is about factor and its power ratio
 * about 1. */
gb_srec_records *gbt_suite_synth_slower(bool energy, size_t language, double factor);
/* r as a suite records folder in dir (which exists): suite.json (the
 * fixture's bytes, suite-<suite name>/suite.json), meta.json, runs.csv and warmups.csv, every
 * row checked (gb_srec_row_check) and written by the records library. */
void gbt_suite_write(const gb_srec_records *r, const char *dir);

#endif
