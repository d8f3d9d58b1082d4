/* Private to sampler.c and its tests: the name of an energy status, which
 * the records write through their own value set (gb_rec_status). */
#ifndef GREENBENCH_SAMPLER_INTERNAL_H
#define GREENBENCH_SAMPLER_INTERNAL_H

#include "greenbench/sampler.h"

/* "ok", "stalled", "jump", "vanished", "disagree" (runs.csv writes
 * energy_<name>; a disagreement as energy_jump, measure.c). */
const char *gb_energy_status_name(gb_energy_status s);

/* Advances the simulated time by ns (a stepped sampler's sleep). */
typedef void (*gb_sampler_wait_fn)(uint64_t ns, void *ctx);

/* For tests that simulate time: a sampler without its thread. Samples are
 * taken only by gb_sampler_step (and by begin, end and settle, as always);
 * settle measures its second on opts->clock (required) and waits by calling
 * wait(0.2 ms, ctx). Otherwise as gb_sampler_create. */
GB_MUST_USE int gb_sampler_create_stepped(gb_rapl *rapl, const gb_sampler_opts *opts,
                                          gb_sampler_wait_fn wait, void *ctx, gb_sampler **out,
                                          gb_err *err);
/* One sample, as the thread takes it every period. */
void gb_sampler_step(gb_sampler *s);

#endif
