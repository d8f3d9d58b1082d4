/* campaign_meta.c without a campaign: gbi_meta_fill builds meta.json's
 * model from the settings, their plan and the machine's facts alone
 * (issue 35), and what it builds the reader accepts. */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "campaign_internal.h"
#include "helper_script.h"

static const gb_workers workers = {"/w/worker-c", "/usr/bin/python3", "/w/worker.py",
                                   "/usr/bin/node", "/w/worker.js"};
static const char *const argv[] = {"run", "--profile", "smoke", "--energy", "off"};
static const char runtimes[GB_LANGUAGE_COUNT][GB_META_TEXT_MAX] = {"gcc 12", "Python 3.11",
                                                                   "v18.19.0"};

static gb_machine_info info;
static gb_pin_choice pin;
static gb_pin_binding binding;
static const gb_privilege owner = {.uid = (uid_t)-1, .gid = (gid_t)-1};

/* Facts with energy off, of the structs above, for a test to change. */
static gbi_meta_facts facts(void) {
  return (gbi_meta_facts){.argc = 5,
                          .argv = argv,
                          .workers = &workers,
                          .energy = GB_REC_ENERGY_OFF,
                          .energy_reason = "--energy off",
                          .info = &info,
                          .label = "bench-01",
                          .cpus_online = 8,
                          .pin = &pin,
                          .binding = &binding,
                          .runtimes = runtimes,
                          .owner = &owner,
                          .git_commit = "unknown",
                          .started_at = "2026-12-06T22:00:00Z"};
}

/* Field by field: the struct has padding, which memcmp would compare. */
static void assert_same_settings(const gb_settings *a, const gb_settings *b) {
  cr_assert(a->profile == b->profile && a->languages == b->languages &&
            a->algorithms == b->algorithms && a->orders == b->orders &&
            a->nsizes == b->nsizes && a->runs == b->runs && a->warmups == b->warmups &&
            a->target_ms == b->target_ms && a->energy == b->energy && a->seed == b->seed &&
            a->order_seed == b->order_seed && a->timeout_s == b->timeout_s);
  cr_assert_eq(memcmp(a->sizes, b->sizes, a->nsizes * sizeof a->sizes[0]), 0);
  cr_assert_eq(memcmp(a->omit, b->omit, sizeof a->omit), 0);
}

Test(campaign_meta, fill_needs_only_settings_plan_and_facts) {
  gb_settings s = script_settings(3, 2, 20, GB_ENERGY_OFF);
  s.languages = 1u << GB_C | 1u << GB_NODE;
  s.omit[GB_NODE][GB_QUICK][GB_SORTED] = 1; /* node/quick/sorted at size 50 */
  gb_plan p;
  gb_err err = {""};
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0, "%s", err.msg);
  info = (gb_machine_info){.has_cpu_model = true, .cpu_model = "Test CPU"};
  pin = (gb_pin_choice){.cpus = {2, 4}, .ncpus = 2, .rule_held = true, .reason = "two cores"};
  binding = (gb_pin_binding){.mem_bound = true};
  const gbi_meta_facts f = facts();
  gb_meta m;
  gb_meta_init(&m);
  cr_assert_eq(gbi_meta_fill(&m, &s, &p, &f, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_meta_check(&m, "meta.json", &err), 0, "%s", err.msg);
  assert_same_settings(&m.settings, &s);
  cr_assert_str_eq(m.command_line, "greenbench run --profile smoke --energy off");
  cr_assert_str_eq(m.python, "/usr/bin/python3");
  cr_assert_str_eq(m.node, "/usr/bin/node");
  cr_assert_eq(m.plan.configurations, 3u, "c x 2 orders, node x random");
  cr_assert_eq(m.plan.sort_runs, 9u);
  cr_assert_eq(m.plan.startup_runs, 9u);
  cr_assert_eq(m.plan.measured_runs, p.nruns);
  cr_assert_str_eq(m.machine.label, "bench-01");
  cr_assert_str_eq(m.machine.cpu_model, "Test CPU");
  cr_assert_str_eq(m.machine.kernel, "unknown");
  cr_assert_eq(m.machine.cpus_online, 8u);
  cr_assert_str_eq(m.pinning.cpus, "2,4");
  cr_assert_str_eq(m.energy.reason, "--energy off");
  cr_assert_str_eq(m.runtimes[GB_NODE], "v18.19.0");
  cr_assert_str_eq(m.started_at, "2026-12-06T22:00:00Z");
  /* What it fills, the reader reads back the same. */
  cJSON *tree = gb_meta_to_json(&m);
  cr_assert_not_null(tree);
  char *json = cJSON_Print(tree);
  gb_meta back;
  cr_assert_eq(gb_meta_parse(json, strlen(json), "meta.json", &back, &err), 0, "%s", err.msg);
  assert_same_settings(&back.settings, &s);
  cr_assert(strstr(json, "\"languages\":\t[\"c\", \"node\"]"), "%s", json);
  gb_meta_free(&back);
  free(json);
  cJSON_Delete(tree);
  gb_meta_free(&m);
  gb_plan_free(&p);
}

/* The suite's command (no "run" to replace), one CPU without a NUMA node,
 * memory not bound, no governor. */
Test(campaign_meta, fill_from_the_suite_with_memory_not_bound) {
  gb_settings s = script_settings(1, 1, 1, GB_ENERGY_OFF);
  gb_plan p;
  gb_err err = {""};
  cr_assert_eq(gb_plan_build(&s, &p, &err), 0, "%s", err.msg);
  pin = (gb_pin_choice){.cpus = {0}, .ncpus = 1, .numa_node = -1};
  binding = (gb_pin_binding){.mem_bound = false, .mem_note = "refused"};
  gbi_meta_facts f = facts();
  f.argc = 1;
  f.argv = (const char *const[]){"greenbench-suite"};
  gb_meta m;
  gb_meta_init(&m);
  cr_assert_eq(gbi_meta_fill(&m, &s, &p, &f, &err), 0, "%s", err.msg);
  cr_assert_str_eq(m.command_line, "greenbench-suite");
  cr_assert_str_eq(m.pinning.reason, "; memory not bound: refused");
  cr_assert_not(m.pinning.has_numa_node);
  cr_assert_not(m.machine.has_governor);
  gb_meta_free(&m);
  gb_plan_free(&p);
}
