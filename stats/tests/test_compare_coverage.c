/* The intervals of compare's campaign-against-campaign ratios against a
 * known truth (synth.h): pairs of campaigns drawn from the coverage study's
 * small design, the second with Python's net power 1.2 times the first's,
 * each compared as greenbench compare compares them; the share of
 * intervals that hold the true ratio of time per sort, energy per sort and
 * net power must be near the 95% they claim. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#include "greenbench/compare.h"
#include "synth.h"

#define PAIRS 40
#define RESAMPLES 1000

typedef struct {
  gbi_synth_truth t[2];
  size_t held[3], total[3]; /* time, energy, power */
} study;

static gb_analysis *campaign(const gbi_synth_truth *t, uint64_t seed, gb_records **r) {
  gb_err err;
  cr_assert_eq(gbi_synth_records(t, seed, r, &err), 0, "%s", err.msg);
  gb_analysis_opts o = GB_ANALYSIS_OPTS_DEFAULT;
  o.resamples = RESAMPLES;
  o.rank_resamples = RESAMPLES;
  o.chance_campaigns = 0;
  gb_analysis *a = NULL;
  cr_assert_eq(gb_analysis_run(*r, &o, &a, &err), 0, "%s", err.msg);
  return a;
}

static void tally(study *s, int k, const gb_interval *iv, double truth) {
  s->total[k]++;
  s->held[k] += iv->lo <= truth && truth <= iv->hi;
}

static void check_pair(study *s, const gb_comparison *c) {
  for (size_t i = 0; i < c->n_configs; i++) {
    const gb_an_config *k = c->configs[i].config[0];
    const gbi_synth_config *x =
        gbi_synth_find(&s->t[0], k->language, k->algorithm, k->order, k->size);
    const gbi_synth_config *y =
        gbi_synth_find(&s->t[1], k->language, k->algorithm, k->order, k->size);
    const gb_cmp_change *ch = &c->configs[i].change[1];
    cr_assert(x && y && ch->computed && ch->energy);
    tally(s, 0, &ch->ratio.time, y->time_per_sort_ns / x->time_per_sort_ns);
    tally(s, 1, &ch->ratio.energy, y->energy_per_sort_uj / x->energy_per_sort_uj);
    tally(s, 2, &ch->ratio.power, y->power_w / x->power_w);
  }
}

Test(compare_coverage, change_intervals_hold_the_truth_about_95_percent, .timeout = 300) {
  study s = {0};
  gbi_synth_design d[2] = {gbi_synth_design_small(), gbi_synth_design_small()};
  d[1].power_w[GB_PYTHON] *= 1.2;
  gb_err err;
  for (int j = 0; j < 2; j++) {
    cr_assert_eq(gbi_synth_truth_of(&d[j], &s.t[j], &err), 0, "%s", err.msg);
  }
  for (uint64_t p = 0; p < PAIRS; p++) {
    gb_records *r[2];
    gb_analysis *a[2] = {campaign(&s.t[0], 2 * p + 1, &r[0]),
                         campaign(&s.t[1], 2 * p + 2, &r[1])};
    gb_cmp_input in[2] = {{.path = "before", .same_as = -1, .analysis = a[0]},
                          {.path = "after", .same_as = -1, .analysis = a[1]}};
    gb_comparison *c = NULL;
    cr_assert_eq(gb_compare_build(in, 2, &c, &err), 0, "%s", err.msg);
    check_pair(&s, c);
    gb_compare_free(c);
    for (int j = 0; j < 2; j++) {
      gb_analysis_free(a[j]);
      gb_records_free(r[j]);
    }
  }
  static const char *const what[3] = {"time", "energy", "power"};
  for (int k = 0; k < 3; k++) {
    double share = (double)s.held[k] / (double)s.total[k];
    /* 240 intervals: 95% coverage gives 228 +- 3.4 (one standard error). */
    cr_expect(share >= 0.90 && share <= 0.99, "%s: %zu of %zu intervals hold the truth (%.3f)",
              what[k], s.held[k], s.total[k], share);
    fprintf(stderr, "compare coverage, %s: %zu of %zu (%.3f)\n", what[k], s.held[k], s.total[k],
            share);
  }
  for (int j = 0; j < 2; j++) {
    gbi_synth_truth_free(&s.t[j]);
  }
}
