#include "contract.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/workload.h"
#include "output.h"

void parity_contract_render(const gb_contract_line *l, bool own, char *buf, size_t len) {
  const char *runtime = own ? l->runtime : "";
  size_t used;
  if (l->kind == GB_CONTRACT_STARTUP) {
    snprintf(buf, len, "{\"startup_only\":true,\"input_hash\":\"%s\",\"runtime\":\"%s\"}\n",
             l->input_hash_hex, runtime);
    return;
  }
  used = (size_t)snprintf(buf, len, "{\"loop_ns\":%" PRIu64 ",\"counters\":{",
                          own ? l->loop_ns : 0);
  for (size_t i = 0; i < l->n_counters && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s\"%s\":%" PRIu64, i ? "," : "",
                             l->counters[i].name, l->counters[i].value);
  if (used < len)
    snprintf(buf + used, len - used,
             "},\"input_hash\":\"%s\",\"output_hash\":\"%s\",\"runtime\":\"%s\"}\n",
             l->input_hash_hex, l->output_hash_hex, runtime);
}

void parity_expect_contract_line(const parity_run *r, gb_contract_kind kind,
                                 gb_contract_line *out) {
  char line[1024];
  gb_err err = {{0}};
  parity_expect_success(r);
  cr_assert_eq(gb_contractline_parse(r->out, r->out_len, kind, out, &err), 0,
               "%s: the harness refuses the line: %s\n%s", parity_cmdline(r), err.msg, r->out);
  parity_contract_render(out, true, line, sizeof line);
  cr_assert_str_eq(r->out, line, "%s: printed\n%snot, in the documented key order,\n%s",
                   parity_cmdline(r), r->out, line);
  if (kind == GB_CONTRACT_STARTUP)
    return;
  cr_assert(out->n_counters == 2 && strcmp(out->counters[0].name, "comparisons") == 0 &&
                strcmp(out->counters[1].name, "writes") == 0,
            "%s: the counters must be comparisons and writes: %s", parity_cmdline(r), r->out);
}

void parity_identity_hash(size_t n, char hex[17]) {
  int *a = malloc(n * sizeof *a);
  cr_assert(a, "out of memory");
  for (size_t i = 0; i < n; i++)
    a[i] = (int)i;
  gb_hash_hex(gb_input_hash(a, n), hex);
  free(a);
}
