/* Private to measure.c and its tests: the command line gb_measure starts a
 * worker with, which the scripted workers of the tests read back. */
#ifndef GREENBENCH_MEASURE_INTERNAL_H
#define GREENBENCH_MEASURE_INTERNAL_H

#include "greenbench/measure.h"

/* Builds the worker's argv for a job into argv (at least 16 slots), with
 * decimal numbers in buf (at least 96 bytes). */
void gb_job_argv(const gb_workers *w, const gb_job *job, char **argv, char *buf);

#endif
