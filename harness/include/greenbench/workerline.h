/* The one line of JSON a worker prints on stdout (docs/design.md,
 * "The worker contract"), parsed strictly with cJSON and checked field by field, then
 * checked against what the harness asked the worker to do. A worker that
 * prints anything else produced a bad run, never a number. */
#ifndef GREENBENCH_WORKERLINE_H
#define GREENBENCH_WORKERLINE_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/workload.h"

/* Longest runtime string accepted, in bytes, without the NUL. */
#define GB_WORKERLINE_RUNTIME_MAX 127
/* Largest count or time accepted: 2^53 - 1, the largest integer that every
 * JSON reader (a double) holds exactly. */
#define GB_WORKERLINE_UINT_MAX 9007199254740991u

typedef enum {
  GB_WORKERLINE_SORT,    /* a sorting run: counts, loop_ns, "sorted":true */
  GB_WORKERLINE_STARTUP, /* --startup-only: "startup_only":true, no counts */
} gb_workerline_kind;

/* What the harness asked a worker for. */
typedef struct {
  gb_workerline_kind kind;
  const char *language; /* "c", "python" or "node" */
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size; /* elements */
  uint32_t seed;
  uint64_t sorts; /* --sorts, also passed to --startup-only launches */
} gb_worker_request;

/* A parsed line. Fixed-size fields: nothing for the caller to free. */
typedef struct {
  gb_workerline_kind kind;
  char language[8]; /* "c", "python" or "node" */
  gb_algorithm algorithm;
  gb_order order;
  uint64_t size;        /* 1 .. GB_MAX_SIZE */
  uint32_t seed;        /* 1 .. UINT32_MAX */
  uint64_t sorts;       /* 1 .. GB_MAX_SORTS */
  uint64_t comparisons; /* per sort; 0 for startup lines */
  uint64_t writes;      /* per sort; 0 for startup lines */
  uint64_t loop_ns;     /* the worker's own timing of its loop; 0 for startup lines */
  uint64_t input_hash;  /* XXH64 of the input */
  char input_hash_hex[17];
  char runtime[GB_WORKERLINE_RUNTIME_MAX + 1]; /* printable ASCII, not empty */
} gb_worker_line;

/* Parses buf[0..len) (not NUL-terminated; may hold anything) as one line of
 * the given kind: a JSON object and a final "\n", nothing before, after or
 * between; exactly the keys of that kind, each once; counts and times plain
 * decimal integers from 0 to GB_WORKERLINE_UINT_MAX (size, seed and sorts
 * within the worker's own bounds); names from the contract's lists; the hash
 * 16 lowercase hex digits; sorted or startup_only true. Returns 0 and fills
 * *out, or -EPROTO with a message naming the field (quoted input is cut short
 * and escaped, so the message stays one printable line). */
GB_MUST_USE int gb_workerline_parse(const char *buf, size_t len, gb_workerline_kind kind,
                                    gb_worker_line *out, gb_err *err);

/* Checks that line answers req: same kind, language, algorithm, order, size,
 * seed and sorts. Returns 0, or -EPROTO with a message naming the first field
 * that differs and both values. */
GB_MUST_USE int gb_workerline_check(const gb_worker_line *line, const gb_worker_request *req,
                                    gb_err *err);

/* gb_workerline_parse for req->kind, then gb_workerline_check; *out is set
 * only when both pass. */
GB_MUST_USE int gb_workerline_read(const char *buf, size_t len, const gb_worker_request *req,
                                   gb_worker_line *out, gb_err *err);

#endif
