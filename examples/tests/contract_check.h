/* Test-only: a strict reading of the generic worker contract line
 * (docs/suites.md), independent of the harness's own parser, so that the
 * example programs are held to the contract by a second reader. */
#ifndef EXAMPLES_CONTRACT_CHECK_H
#define EXAMPLES_CONTRACT_CHECK_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

/* Checks that out[0..len) is exactly one line ending "\n" holding one JSON
 * object with exactly the keys of the measured line (or of the startup line
 * when startup), each once and each of its kind: whole numbers 0..2^53-1, at
 * most 8 counters named [a-z][a-z0-9_-]{0,31}, hashes of 16 lowercase hex
 * digits, a runtime of 1..127 printable ASCII characters. Returns NULL and
 * sets *json (the caller deletes it), or returns what is wrong (a static
 * buffer, overwritten by the next call). */
const char *contract_problem(const char *out, size_t len, bool startup, cJSON **json);

/* The whole-number value of key in a checked line (of counters' object when
 * counters). */
double contract_number(const cJSON *line, const char *key, bool counter);

/* The string value of key in a checked line. */
const char *contract_string(const cJSON *line, const char *key);

/* FNV-1a 64 of text, as the 16 lowercase hex digits of the contract, in buf
 * (at least 17 bytes). */
const char *contract_fnv(const char *text, char *buf);

#endif
