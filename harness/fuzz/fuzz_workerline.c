/* libFuzzer target for the worker line parser and a suite's contract line
 * parser (greenbench/contractline.h), which share their checks. Whatever
 * the bytes, parsing must not crash or leak, must refuse with -EPROTO and a
 * short printable message, and anything it accepts must satisfy the
 * contract's bounds and match a request built from itself (a contract line:
 * compare equal to itself). Seeds: corpus/workerline/; keys:
 * corpus/workerline.dict. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/contractline.h"
#include "greenbench/workerline.h"

static void require(int ok) {
  if (!ok)
    abort();
}

static void check_accepted(const gb_worker_line *l, gb_workerline_kind kind) {
  require(l->kind == kind);
  require(strcmp(l->language, "c") == 0 || strcmp(l->language, "python") == 0 ||
          strcmp(l->language, "node") == 0);
  require(gb_algorithm_name(l->algorithm) != NULL && gb_order_name(l->order) != NULL);
  require(l->size >= 1 && l->size <= GB_MAX_SIZE && l->seed != 0);
  require(l->sorts >= 1 && l->sorts <= GB_MAX_SORTS);
  require(l->comparisons <= GB_WORKERLINE_UINT_MAX && l->writes <= GB_WORKERLINE_UINT_MAX &&
          l->loop_ns <= GB_WORKERLINE_UINT_MAX);
  require(strlen(l->input_hash_hex) == 16);
  size_t n = strnlen(l->runtime, sizeof l->runtime);
  require(n >= 1 && n <= GB_WORKERLINE_RUNTIME_MAX);
  gb_worker_request req = {.kind = kind,
                           .language = l->language,
                           .algorithm = l->algorithm,
                           .order = l->order,
                           .size = l->size,
                           .seed = l->seed,
                           .sorts = l->sorts};
  gb_err err;
  require(gb_workerline_check(l, &req, &err) == 0);
}

static void check_contract(const gb_contract_line *l, gb_contract_kind kind) {
  require(l->kind == kind);
  require(l->loop_ns <= GB_WORKERLINE_UINT_MAX && l->n_counters <= GB_SUITE_COUNTERS_MAX);
  for (size_t i = 0; i < l->n_counters; i++) {
    require(gb_suite_name_ok(l->counters[i].name));
    require(l->counters[i].value <= GB_WORKERLINE_UINT_MAX);
    require(gb_contractline_counter(l, l->counters[i].name) == &l->counters[i]);
  }
  require(strlen(l->input_hash_hex) == 16);
  require(strlen(l->output_hash_hex) == (kind == GB_CONTRACT_MEASURED ? 16 : 0));
  size_t n = strnlen(l->runtime, sizeof l->runtime);
  require(n >= 1 && n <= GB_WORKERLINE_RUNTIME_MAX);
  gb_err err;
  require(gb_contractline_compare(l, l, "self", &err) == 0);
}

static void check_refused(int rc, const gb_err *err) {
  require(rc == -EPROTO);
  size_t n = strnlen(err->msg, sizeof err->msg);
  require(n > 0 && n < 400);
  for (size_t i = 0; i < n; i++)
    require(err->msg[i] >= 0x20 && err->msg[i] < 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (int kind = GB_WORKERLINE_SORT; kind <= GB_WORKERLINE_STARTUP; kind++) {
    gb_worker_line l;
    gb_err err = {{0}};
    int rc = gb_workerline_parse((const char *)data, size, (gb_workerline_kind)kind, &l, &err);
    if (rc == 0)
      check_accepted(&l, (gb_workerline_kind)kind);
    else
      check_refused(rc, &err);
  }
  for (int kind = GB_CONTRACT_MEASURED; kind <= GB_CONTRACT_STARTUP; kind++) {
    gb_contract_line l;
    gb_err err = {{0}};
    int rc = gb_contractline_parse((const char *)data, size, (gb_contract_kind)kind, &l, &err);
    if (rc == 0)
      check_contract(&l, (gb_contract_kind)kind);
    else
      check_refused(rc, &err);
  }
  return 0;
}
