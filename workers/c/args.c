#include "args.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Option bits, to refuse a repeated option and to find missing ones. */
enum {
  OPT_ALGORITHM = 1 << 0,
  OPT_ORDER = 1 << 1,
  OPT_SIZE = 1 << 2,
  OPT_SORTS = 1 << 3,
  OPT_SEED = 1 << 4,
  OPT_STARTUP = 1 << 5,
  OPT_DUMP_INPUT = 1 << 6,
  OPT_DUMP_XORSHIFT = 1 << 7,
  OPT_CONTRACT = 1 << 8,
};

static const struct {
  const char *name;
  int bit;
  bool takes_value;
} options[] = {
    {"--algorithm", OPT_ALGORITHM, true},
    {"--order", OPT_ORDER, true},
    {"--size", OPT_SIZE, true},
    {"--sorts", OPT_SORTS, true},
    {"--seed", OPT_SEED, true},
    {"--startup-only", OPT_STARTUP, false},
    {"--dump-input", OPT_DUMP_INPUT, false},
    {"--dump-xorshift", OPT_DUMP_XORSHIFT, true},
    {"--contract", OPT_CONTRACT, true},
};

__attribute__((format(printf, 3, 4))) static int fail(char *msg, size_t len, const char *fmt,
                                                      ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return -EINVAL;
}

/* The value of option name: decimal digits only (no sign, space or
 * exponent), within [1, max]. Returns 0, or -EINVAL with the message. */
static int parse_count(const char *name, const char *s, uint64_t max, uint64_t *out, char *msg,
                       size_t len) {
  uint64_t v = 0;
  bool ok = *s != '\0';
  for (const char *p = s; ok && *p; p++) {
    ok = *p >= '0' && *p <= '9';
    v = v * 10 + (uint64_t)(*p - '0');
    ok = ok && v <= max;
  }
  if (!ok || v == 0)
    return fail(msg, len, "%s must be an integer from 1 to %" PRIu64 ", got '%s'", name, max,
                s);
  *out = v;
  return 0;
}

static int set_value(gb_worker_args *o, int bit, const char *name, const char *v, char *msg,
                     size_t len) {
  uint64_t n = 0;
  int rc;
  switch (bit) {
  case OPT_ALGORITHM:
    if (gb_algorithm_parse(v, &o->algorithm) < 0)
      return fail(msg, len, "unknown algorithm '%s' (expected bubble, insertion or quick)", v);
    return 0;
  case OPT_ORDER:
    if (gb_order_parse(v, &o->order) < 0)
      return fail(msg, len, "unknown order '%s' (expected random, sorted, reversed or nearly)",
                  v);
    return 0;
  case OPT_CONTRACT:
    if (strcmp(v, "study") == 0)
      o->contract = GB_WORKER_CONTRACT_STUDY;
    else if (strcmp(v, "generic") == 0)
      o->contract = GB_WORKER_CONTRACT_GENERIC;
    else
      return fail(msg, len, "unknown contract '%s' (expected study or generic)", v);
    return 0;
  case OPT_SIZE:
    if ((rc = parse_count(name, v, GB_MAX_SIZE, &n, msg, len)) == 0)
      o->size = (size_t)n;
    return rc;
  case OPT_SORTS:
    if ((rc = parse_count(name, v, GB_MAX_SORTS, &n, msg, len)) == 0)
      o->sorts = n;
    return rc;
  case OPT_SEED:
    if ((rc = parse_count(name, v, UINT32_MAX, &n, msg, len)) == 0)
      o->seed = (uint32_t)n;
    return rc;
  default: /* OPT_DUMP_XORSHIFT */
    if ((rc = parse_count(name, v, GB_MAX_SIZE, &n, msg, len)) == 0)
      o->dump_count = n;
    return rc;
  }
}

static int find_option(const char *arg) {
  for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
    if (strcmp(arg, options[i].name) == 0)
      return (int)i;
  return -1;
}

/* The options each mode requires, in the order their absence is reported. */
static int check_required(gb_worker_args *o, int seen, char *msg, size_t len) {
  static const int sort_needs[] = {OPT_ALGORITHM, OPT_ORDER, OPT_SIZE, OPT_SORTS, 0};
  static const int input_needs[] = {OPT_ORDER, OPT_SIZE, 0};
  int modes = seen & (OPT_STARTUP | OPT_DUMP_INPUT | OPT_DUMP_XORSHIFT);
  if (modes & (modes - 1))
    return fail(msg, len,
                "only one of --startup-only, --dump-input and --dump-xorshift may be given");
  o->mode = (seen & OPT_STARTUP)         ? GB_MODE_STARTUP
            : (seen & OPT_DUMP_INPUT)    ? GB_MODE_DUMP_INPUT
            : (seen & OPT_DUMP_XORSHIFT) ? GB_MODE_DUMP_XORSHIFT
                                         : GB_MODE_SORT;
  const int *needs = o->mode == GB_MODE_DUMP_XORSHIFT ? (const int[]){0}
                     : o->mode == GB_MODE_DUMP_INPUT  ? input_needs
                                                      : sort_needs;
  for (; *needs; needs++)
    if (!(seen & *needs))
      for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (options[i].bit == *needs)
          return fail(msg, len, "missing %s", options[i].name);
  return 0;
}

int gb_worker_args_parse(int argc, char **argv, gb_worker_args *out, char *msg, size_t len) {
  gb_worker_args o = {.seed = GB_DEFAULT_SEED};
  int seen = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
      return 1;
    if (strcmp(arg, "--version") == 0)
      return 2;
    int k = find_option(arg);
    if (k < 0)
      return fail(msg, len, arg[0] == '-' ? "unknown option '%s'" : "unexpected argument '%s'",
                  arg);
    if (seen & options[k].bit)
      return fail(msg, len, "option '%s' given twice", arg);
    seen |= options[k].bit;
    if (!options[k].takes_value)
      continue;
    if (i + 1 >= argc)
      return fail(msg, len, "option '%s' needs a value", arg);
    int rc = set_value(&o, options[k].bit, arg, argv[++i], msg, len);
    if (rc < 0)
      return rc;
  }
  int rc = check_required(&o, seen, msg, len);
  if (rc == 0)
    *out = o;
  return rc;
}
