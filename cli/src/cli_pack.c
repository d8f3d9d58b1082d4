/* `greenbench pack DIR [--out FILE]`: the command line over gb_records_pack
 * (greenbench/records_pack.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/cli.h"
#include "greenbench/options.h"
#include "greenbench/records_pack.h"
#include "greenbench/text.h"

#include "cli_internal.h"

static const char usage[] =
    "usage: greenbench pack DIR [--out FILE]\n"
    "\n"
    "Packs a records folder into one file, DIR.tar.gz: every file of DIR (the records and\n"
    "any report outputs) under one folder named after DIR, with MANIFEST.xxh128, the\n"
    "XXH128 of each file as xxhsum writes it (check it with: xxhsum -c MANIFEST.xxh128).\n"
    "The same folder always packs to the same bytes. report (and compare) read the\n"
    "packed file as they read DIR, after checking every file against the manifest.\n"
    "DIR must be a records folder (meta.json and runs.csv the reader accepts) holding only\n"
    "files; the archive is written whole or not at all, never into DIR. A suite campaign's\n"
    "records folder (suite.json, meta.json, runs.csv, warmups.csv) is checked with the suite\n"
    "reader, and its build/ folder of build outputs, which is not records, is left out.\n"
    "\n"
    "  --out FILE   the archive to write (default DIR.tar.gz, beside DIR; - for\n"
    "               standard output; a device, FIFO, socket or link is refused)\n"
    "  --version    print greenbench's version and git commit\n"
    "  --help       show this help\n"
    "\n"
    "Exit status: 0 done, 1 refused or failed, 2 bad arguments.\n";

typedef struct {
  const char *dir, *out;
} pack_cli;

enum { OUT };
static const gb_opt options[] = {
    {"--out", NULL, GB_OPT_VALUE, OUT},
    {NULL, NULL, 0, 0},
};

static int set_option(void *ctx, int id, const char *value, gb_err *err) {
  (void)id;
  (void)err;
  ((pack_cli *)ctx)->out = value;
  return 0;
}

static int set_dir(void *ctx, const char *arg, gb_err *err) {
  pack_cli *c = ctx;
  if (c->dir)
    return gb_err_set(err, EINVAL, "one records folder expected, got '%s' and '%s'",
                      SHOWN(c->dir), SHOWN(arg));
  c->dir = arg;
  return 0;
}

/* The options (greenbench/options.h) and one records folder. */
static const cli_command command = {"pack", usage, options, set_option, set_dir};

/* DIR without trailing slashes, then ".tar.gz". */
static int default_out(const char *dir, char *buf, size_t len, gb_err *err) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (snprintf(buf, len, "%.*s.tar.gz", (int)n, dir) >= (int)len)
    return gb_err_set(err, ENAMETOOLONG, "%s: path too long", SHOWN(dir));
  return 0;
}

/* The exit status of parsed arguments, with the error in err. */
static int run(pack_cli *c, gb_err *err) {
  char path[PATH_MAX];
  if (!c->dir) {
    gb_err_set(err, EINVAL, "no records folder given (see greenbench pack --help)");
    return 2;
  }
  if (!c->out && default_out(c->dir, path, sizeof path, err) < 0)
    return 2;
  const char *target = c->out ? c->out : path;
  int rc = gb_records_pack_check_out(c->dir, target, err);
  if (rc < 0)
    return rc == -EINVAL || rc == -ENAMETOOLONG ? 2 : 1;
  return gb_records_pack(c->dir, target, err) < 0 ? 1 : 0;
}

int gb_cli_pack(int argc, char **argv, const gb_cli_env *env) {
  pack_cli c = {0};
  gb_err err;
  int status = cli_start(&command, &c, argc, argv, env->out, env->err);
  if (status < 0 && (status = run(&c, &err)) != 0)
    cli_fail(&command, env->err, status, err.msg);
  return status;
}
