/* The plan of a suite campaign (suiteplan.h): its configurations in
 * canonical order, one startup group each, the runs, and one reproducible
 * shuffle. Pure: nothing runs. */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "greenbench/suiteplan.h"

/* Two languages; a workload of 2 x 1 parameter values and one of 2 x 3: 2 + 6 = 8 cases, 16
 * configurations. */
static const char suite_text[] =
    "{\"format\": \"greenbench-suite-1\", \"name\": \"tiny\",\n"
    " \"languages\": [\n"
    "  {\"name\": \"zeta\", \"command\": [\"/bin/true\", \"{n}\", \"{m}\", \"{reps}\"],\n"
    "   \"startup\": [\"/bin/true\", \"{n}\", \"{m}\"], \"version\": [\"/bin/true\"]},\n"
    "  {\"name\": \"alpha\", \"command\": [\"/bin/true\", \"{n}\", \"{m}\", \"{reps}\"],\n"
    "   \"startup\": [\"/bin/true\", \"{n}\", \"{m}\"], \"version\": [\"/bin/true\"]}],\n"
    " \"workloads\": [\n"
    "  {\"name\": \"one\", \"parameters\": [{\"name\": \"n\", \"values\": [30, 10]},\n"
    "                                   {\"name\": \"m\", \"values\": [7]}]},\n"
    "  {\"name\": \"two\", \"parameters\": [{\"name\": \"n\", \"values\": [5, 6]},\n"
    "                                   {\"name\": \"m\", \"values\": [1, 2, 3]}]}]}\n";

static gb_suite load(void) {
  gb_suite s;
  gb_err err;
  cr_assert_eq(gb_suite_parse(suite_text, strlen(suite_text), "tiny.json", &s, &err), 0, "%s",
               err.msg);
  return s;
}

static gb_settings settings(uint64_t runs, uint64_t order_seed) {
  gb_settings st;
  gb_err err;
  cr_assert_eq(gb_settings_profile("smoke", &st, &err), 0, "%s", err.msg);
  st.runs = runs;
  st.order_seed = order_seed;
  return st;
}

Test(suiteplan, parameter_sets_first_parameter_slowest) {
  gb_suite s = load();
  const gb_suite_workload *two = &s.workloads[1];
  cr_assert_eq(gb_suite_sets(&s.workloads[0]), 2u);
  cr_assert_eq(gb_suite_sets(two), 6u);
  const uint64_t want[6][2] = {{5, 1}, {5, 2}, {5, 3}, {6, 1}, {6, 2}, {6, 3}};
  for (size_t i = 0; i < 6; i++) {
    uint64_t v[GB_SUITE_PARAMETERS_MAX];
    gb_suite_set_values(two, i, v);
    cr_assert(v[0] == want[i][0] && v[1] == want[i][1], "set %zu", i);
  }
  gb_suite_free(&s);
}

Test(suiteplan, counts_and_canonical_order) {
  gb_suite s = load();
  gb_settings st = settings(3, 42);
  gb_suite_plan p;
  gb_err err;
  cr_assert_eq(gb_suite_plan_build(&s, &st, &p, &err), 0, "%s", err.msg);
  cr_assert_eq(p.ncases, 8u);
  cr_assert_eq(p.nconfigs, 16u);
  cr_assert_eq(p.nruns, 16u * 3u * 2u, "runs work runs and runs startup batches each");
  /* Languages as the file lists them (not sorted), then workloads, then sets. */
  const char *labels[16] = {
      "zeta/one/n=30;m=7",  "zeta/one/n=10;m=7",  "zeta/two/n=5;m=1",  "zeta/two/n=5;m=2",
      "zeta/two/n=5;m=3",   "zeta/two/n=6;m=1",   "zeta/two/n=6;m=2",  "zeta/two/n=6;m=3",
      "alpha/one/n=30;m=7", "alpha/one/n=10;m=7", "alpha/two/n=5;m=1", "alpha/two/n=5;m=2",
      "alpha/two/n=5;m=3",  "alpha/two/n=6;m=1",  "alpha/two/n=6;m=2", "alpha/two/n=6;m=3"};
  for (size_t c = 0; c < p.nconfigs; c++) {
    char label[96];
    gb_suite_config_label(&s, &p.configs[c], label, sizeof label);
    cr_assert_str_eq(label, labels[c]);
    cr_assert_eq(p.configs[c].kase, c % 8, "a case is the same for every language");
  }
  char label[96];
  gb_suite_startup_label(&s, &p.configs[2], label, sizeof label);
  cr_assert_str_eq(label, "zeta/startup/two/n=5;m=1");
  /* Every configuration: runs work runs and runs startup batches, reps 0..runs-1. */
  unsigned seen[2][16][3] = {{{0}}};
  for (size_t i = 0; i < p.nruns; i++) {
    const gb_planned_run *r = &p.runs[i];
    cr_assert(r->target < 16 && r->rep < 3);
    seen[r->kind == GB_RUN_STARTUP][r->target][r->rep]++;
  }
  for (size_t k = 0; k < 2; k++)
    for (size_t c = 0; c < 16; c++)
      for (size_t r = 0; r < 3; r++)
        cr_assert_eq(seen[k][c][r], 1u);
  gb_suite_plan_free(&p);
  gb_suite_free(&s);
}

static bool same_order(const gb_suite_plan *a, const gb_suite_plan *b) {
  return a->nruns == b->nruns && memcmp(a->runs, b->runs, a->nruns * sizeof *a->runs) == 0;
}

Test(suiteplan, shuffle_reproducible_and_seeded) {
  gb_suite s = load();
  gb_settings st = settings(2, 7);
  gb_suite_plan a, b, c;
  gb_err err;
  cr_assert_eq(gb_suite_plan_build(&s, &st, &a, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_suite_plan_build(&s, &st, &b, &err), 0, "%s", err.msg);
  cr_assert(same_order(&a, &b), "the same settings give the same plan");
  st.order_seed = 8;
  cr_assert_eq(gb_suite_plan_build(&s, &st, &c, &err), 0, "%s", err.msg);
  cr_assert_not(same_order(&a, &c), "another order seed, another order");
  /* Shuffled: not the canonical order (work runs first). */
  bool canonical = true;
  for (size_t i = 0; i < a.nruns / 2; i++)
    canonical = canonical && a.runs[i].kind == GB_RUN_SORT;
  cr_assert_not(canonical);
  gb_suite_plan_free(&a);
  gb_suite_plan_free(&b);
  gb_suite_plan_free(&c);
  gb_suite_free(&s);
}

Test(suiteplan, no_runs_is_refused) {
  gb_suite s = load();
  gb_settings st = settings(0, 1);
  gb_suite_plan p;
  gb_err err;
  cr_assert_eq(gb_suite_plan_build(&s, &st, &p, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "the plan is empty: no configuration to measure");
  gb_suite_free(&s);
}

/* A selection: the marked configurations only, in canonical order, their
 * case index kept, their runs only; all marked is the whole plan. */
Test(suiteplan, selection_keeps_the_marked_configurations) {
  gb_suite s = load();
  gb_settings st = settings(2, 11);
  cr_assert_eq(gb_suite_config_count(&s), 16u);
  bool sel[16] = {false};
  sel[1] = true;  /* zeta one n=10;m=7 */
  sel[12] = true; /* alpha two n=5;m=3 (8 + 2 + 2) */
  gb_suite_plan p, all, full;
  gb_err err;
  cr_assert_eq(gb_suite_plan_select(&s, &st, sel, &p, &err), 0, "%s", err.msg);
  cr_assert_eq(p.nconfigs, 2u);
  cr_assert_eq(p.ncases, 8u);
  char a[128], b[128];
  gb_suite_config_label(&s, &p.configs[0], a, sizeof a);
  gb_suite_config_label(&s, &p.configs[1], b, sizeof b);
  cr_assert_str_eq(a, "zeta/one/n=10;m=7");
  cr_assert_str_eq(b, "alpha/two/n=5;m=3");
  cr_assert_eq(p.configs[0].kase, 1u);
  cr_assert_eq(p.configs[1].kase, 4u);
  cr_assert_eq(p.nruns, 2u * 2u * 2u);
  for (size_t i = 0; i < p.nruns; i++)
    cr_assert_lt(p.runs[i].target, 2u);
  bool every[16];
  memset(every, 1, sizeof every);
  cr_assert_eq(gb_suite_plan_select(&s, &st, every, &all, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_suite_plan_build(&s, &st, &full, &err), 0, "%s", err.msg);
  cr_assert(same_order(&all, &full), "every configuration selected is the whole plan");
  cr_assert_eq(memcmp(all.configs, full.configs, full.nconfigs * sizeof *full.configs), 0);
  gb_suite_plan_free(&p);
  gb_suite_plan_free(&all);
  gb_suite_plan_free(&full);
  gb_suite_free(&s);
}

Test(suiteplan, selection_of_nothing_is_refused) {
  gb_suite s = load();
  gb_settings st = settings(2, 1);
  bool none[16] = {false};
  gb_suite_plan p;
  gb_err err;
  cr_assert_eq(gb_suite_plan_select(&s, &st, none, &p, &err), -EINVAL);
  cr_assert_str_eq(err.msg, "the selection leaves no configuration of suite tiny");
  gb_suite_free(&s);
}
