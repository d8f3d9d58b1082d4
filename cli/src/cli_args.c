/* The command-line parts every subcommand shares, so that each refuses a bad
 * option in the same words and answers --help and --version the same way. */
#include "cli_internal.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "greenbench/numparse.h"
#include "greenbench/report.h"
#include "greenbench/version.h"

/* cmd's options, then --help and --version: one spelling of those for
 * every subcommand. */
static void full_table(const cli_command *cmd, gb_opt table[GB_OPT_MAX]) {
  size_t n = 0;
  while (cmd->options[n].name) {
    table[n] = cmd->options[n];
    n++;
  }
  assert(n + 3 <= GB_OPT_MAX);
  table[n++] = (gb_opt){"--help", "-h", 0, CLI_HELP};
  table[n++] = (gb_opt){"--version", NULL, 0, CLI_VERSION};
  table[n] = (gb_opt){NULL, NULL, 0, 0};
}

/* The walk of cli_start: CLI_HELP when --help was given, else CLI_VERSION
 * when --version was, else 0; or the first refusal's -errno with its
 * message in err. */
static int parse(const cli_command *cmd, void *ctx, int argc, char **argv, gb_err *err) {
  gb_opt table[GB_OPT_MAX];
  full_table(cmd, table);
  gb_opt_state st;
  gb_opt_start(&st, 1);
  const char *arg;
  gb_err e;
  bool help = false, version = false;
  for (int id; (id = gb_opt_next(table, &st, argc, argv, &arg, &e)) != GB_OPT_END;) {
    int rc = 0;
    if (id == GB_OPT_ARG && !cmd->operand) {
      snprintf(e.msg, sizeof e.msg, "unexpected argument '%s'", SHOWN(arg));
      id = -EINVAL;
    }
    if (id == GB_OPT_ARG) {
      rc = cmd->operand(ctx, arg, err);
    } else if (id < 0) {
      rc = gb_err_set(err, EINVAL, "%s (see greenbench %s --help)", e.msg, cmd->name);
    } else if (id == CLI_HELP || id == CLI_VERSION) {
      *(id == CLI_HELP ? &help : &version) = true;
    } else {
      rc = cmd->option(ctx, id, arg, err);
    }
    if (rc < 0) {
      return rc;
    }
  }
  return help ? CLI_HELP : version ? CLI_VERSION : 0;
}

int cli_fail(const cli_command *cmd, FILE *err, int status, const char *msg) {
  size_t n = strlen(cmd->name);
  bool named = strncmp(msg, cmd->name, n) == 0 && strncmp(msg + n, ": ", 2) == 0;
  char prefix[64];
  snprintf(prefix, sizeof prefix, "greenbench: error: %s%s", named ? "" : cmd->name,
           named ? "" : ": ");
  gb_str_put_line(err, prefix, msg);
  return status;
}

int cli_start(const cli_command *cmd, void *ctx, int argc, char **argv, FILE *out, FILE *err) {
  gb_err e;
  int asked = parse(cmd, ctx, argc, argv, &e);
  if (asked < 0) {
    return cli_fail(cmd, err, 2, e.msg);
  }
  if (!asked) {
    return -1;
  }
  int wrote = asked == CLI_HELP ? fputs(cmd->usage, out) : gb_version_print(out);
  if (wrote < 0 || fflush(out) != 0) {
    return cli_fail(cmd, err, 1,
                    asked == CLI_HELP ? "cannot write the help" : "cannot write the version");
  }
  return 0;
}

int cli_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out,
                  gb_err *err) {
  if (gb_parse_u64(s, min, max, out) < 0) {
    return gb_err_set(err, EINVAL,
                      "%s must be an integer from %" PRIu64 " to %" PRIu64 ", got '%s'", opt,
                      min, max, SHOWN(s));
  }
  return 0;
}

int cli_check_path(const char *opt, const char *s, bool folder, gb_err *err) {
  size_t max = folder ? CLI_FOLDER_MAX : PATH_MAX - 1;
  if (!*s) {
    return gb_err_set(err, EINVAL, "%s: empty path", opt);
  }
  if (strnlen(s, max + 1) > max) {
    return gb_err_set(err, EINVAL, "%s: path longer than %zu bytes (PATH_MAX %d%s)", opt, max,
                      PATH_MAX, folder ? " less room for the names of the files in it" : "");
  }
  return 0;
}

int cli_parse_margin(const char *s, double *out, gb_err *err) {
  double v;
  if (gb_parse_decimal(s, 0, &v) < 0 || !(v > 0.0 && v <= 10.0)) {
    return gb_err_set(err, EINVAL,
                      "--equivalence-margin: '%s' is not a decimal number above 0 and at most "
                      "10",
                      SHOWN(s));
  }
  *out = v;
  return 0;
}

int cli_parse_bootstrap(bool is_seed, const char *value, size_t *resamples, uint64_t *seed,
                        gb_err *err) {
  uint64_t v;
  if (is_seed) {
    return cli_parse_u64("--seed", value, 0, UINT64_MAX, seed, err);
  }
  int rc = cli_parse_u64("--resamples", value, 1, GB_REPORT_MAX_RESAMPLES, &v, err);
  if (rc == 0) {
    *resamples = (size_t)v;
  }
  return rc;
}
