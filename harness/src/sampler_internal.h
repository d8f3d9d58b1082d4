/* Private to sampler.c and its tests: the name of an energy status, which
 * the records write through their own value set (gb_rec_status). */
#ifndef GREENBENCH_SAMPLER_INTERNAL_H
#define GREENBENCH_SAMPLER_INTERNAL_H

#include "greenbench/sampler.h"

/* "ok", "stalled", "jump", "vanished" (runs.csv writes energy_<name>). */
const char *gb_energy_status_name(gb_energy_status s);

#endif
