/* Private to plan.c and its tests: which startup groups settings plan,
 * which gb_plan_build (greenbench/plan.h) decides for the whole plan. */
#ifndef GREENBENCH_PLAN_INTERNAL_H
#define GREENBENCH_PLAN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "greenbench/plan.h"

/* Whether s measures the startup of language l, order o at sizes[z]: some
 * planned configuration subtracts it. */
bool gb_settings_plans_startup(const gb_settings *s, gb_language l, gb_order o, size_t z);

#endif
