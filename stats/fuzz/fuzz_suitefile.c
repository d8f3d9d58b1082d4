/* libFuzzer target for the suite file reader (greenbench/suitefile.h).
 * Whatever the bytes, gb_suite_parse must not crash or leak, must refuse
 * with -EINVAL (or -ENOMEM) and a one-line message, and a suite it accepts
 * must keep the reader's bounds and expand every template of every
 * language for every workload's first parameter set. Seeds:
 * corpus-suitefile/. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/suitefile.h"

static void require(int ok) {
  if (!ok)
    abort();
}

static void check_accepted(const gb_suite *s) {
  require(gb_suite_name_ok(s->name) && strlen(s->hash) == GB_SUITE_HASH_LEN);
  require(s->n_languages >= 1 && s->n_languages <= GB_SUITE_LANGUAGES_MAX);
  require(s->n_workloads >= 1 && s->n_workloads <= GB_SUITE_WORKLOADS_MAX);
  for (size_t w = 0; w < s->n_workloads; w++) {
    const gb_suite_workload *wl = &s->workloads[w];
    uint64_t values[GB_SUITE_PARAMETERS_MAX];
    require(wl->n_parameters >= 1 && wl->n_parameters <= GB_SUITE_PARAMETERS_MAX);
    for (size_t i = 0; i < wl->n_parameters; i++)
      values[i] = wl->parameters[i].values[0];
    gb_suite_vars v = {.workload = wl,
                       .values = values,
                       .has_reps = true,
                       .reps = 1,
                       .has_seed = true,
                       .seed = 1,
                       .suitedir = "/s",
                       .builddir = "/b",
                       .workers = "/w"};
    for (size_t l = 0; l < s->n_languages; l++)
      for (int t = 0; t < GB_SUITE_TEMPLATE_COUNT; t++) {
        char **argv = NULL;
        gb_err err;
        /* Every placeholder the reader let through has a value here; only an
         * argument grown past GB_SUITE_ARG_MAX may be refused. */
        int rc = gb_suite_expand(&s->languages[l].t[t], &v, &argv, &err);
        require(rc == 0 || (rc == -EINVAL && strstr(err.msg, "longer than")));
        gb_suite_argv_free(argv);
      }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gb_suite s;
  gb_err err = {{0}};
  int rc = gb_suite_parse((const char *)data, size, "fuzz.json", &s, &err);
  if (rc == 0) {
    check_accepted(&s);
    gb_suite_free(&s);
  } else {
    require(rc == -EINVAL || rc == -ENOMEM);
    require(err.msg[0] && !strchr(err.msg, '\n'));
  }
  return 0;
}
