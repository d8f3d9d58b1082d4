/* The command-line parts every subcommand shares, so that each refuses a bad
 * option in the same words and answers --help and --version the same way. */
#include "cli_args.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>

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

int cli_parse(const cli_command *cmd, void *ctx, int argc, char **argv, gb_err *err) {
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
      rc = gb_err_set(err, EINVAL, "%s%s (see greenbench %s --help)", cmd->prefix, e.msg,
                      cmd->name);
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

int cli_answer(const cli_command *cmd, int asked, FILE *out) {
  if (asked == CLI_HELP) {
    fputs(cmd->usage, out);
    return 0;
  }
  return gb_version_print(out) < 0 ? 1 : 0;
}

int cli_start(const cli_command *cmd, void *ctx, int argc, char **argv, FILE *out, FILE *err) {
  gb_err e;
  int asked = cli_parse(cmd, ctx, argc, argv, &e);
  if (asked < 0) {
    gb_str_put_line(err, "greenbench: error: ", e.msg);
    return 2;
  }
  return asked ? cli_answer(cmd, asked, out) : -1;
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

int cli_parse_bootstrap(bool is_seed, const char *value, cli_u64_parser parse,
                        size_t *resamples, uint64_t *seed, gb_err *err) {
  uint64_t v;
  if (is_seed) {
    return parse("--seed", value, 0, UINT64_MAX, seed, err);
  }
  int rc = parse("--resamples", value, 1, GB_REPORT_MAX_RESAMPLES, &v, err);
  if (rc == 0) {
    *resamples = (size_t)v;
  }
  return rc;
}
