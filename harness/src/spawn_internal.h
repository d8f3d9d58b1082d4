/* Private to spawn.c and its tests: the name of a spawn status, which the
 * records write through their own value set (gb_rec_status). */
#ifndef GREENBENCH_SPAWN_INTERNAL_H
#define GREENBENCH_SPAWN_INTERNAL_H

#include "greenbench/spawn.h"

/* "ok", "exit_nonzero", "crashed", "timeout", "aborted", "spawn_failed",
 * "bad_output" (the records' status words), "interrupted"; "unknown"
 * otherwise. */
const char *gb_spawn_status_name(gb_spawn_status s);

#endif
