/* `greenbench pack DIR [--out FILE]`: the command line over gb_records_pack. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/options.h"
#include "greenbench/records_pack.h"
#include "greenbench/text.h"
#include "greenbench/version.h"

static const char usage[] =
    "usage: greenbench pack DIR [--out FILE]\n"
    "\n"
    "Packs a records folder into one file, DIR.tar.gz: every file of DIR (the records and\n"
    "any report outputs) under one folder named after DIR, with MANIFEST.xxh128, the\n"
    "XXH128 of each file as xxhsum writes it (check it with: xxhsum -c MANIFEST.xxh128).\n"
    "The same folder always packs to the same bytes. report (and compare) read the\n"
    "packed file as they read DIR, after checking every file against the manifest.\n"
    "DIR must be a records folder (meta.json and runs.csv the reader accepts) holding only\n"
    "files; the archive is written whole or not at all, never into DIR.\n"
    "\n"
    "  --out FILE   the archive to write (default DIR.tar.gz, beside DIR)\n"
    "  --version    print greenbench's version and git commit\n"
    "  --help       show this help\n"
    "\n"
    "Exit status: 0 done, 1 refused or failed, 2 bad arguments.\n";

typedef struct {
  const char *dir, *out;
  bool help, version;
} pack_cli;

#define SHOWN(s) gb_excerpt(&(gb_excerpt_buf){{0}}, (s))

enum { OUT, HELP, VERSION };
static const gb_opt options[] = {
    {"--out", NULL, GB_OPT_VALUE, OUT},
    {"--help", "-h", 0, HELP},
    {"--version", NULL, 0, VERSION},
    {NULL, NULL, 0, 0},
};

/* The options (greenbench/options.h) and one records folder. */
static int parse_args(pack_cli *c, int argc, char **argv, gb_err *err) {
  gb_opt_state st;
  gb_opt_start(&st, 1);
  const char *arg;
  gb_err e;
  for (int id; (id = gb_opt_next(options, &st, argc, argv, &arg, &e)) != GB_OPT_END;) {
    if (id == GB_OPT_ARG && c->dir)
      return gb_err_set(err, EINVAL, "pack: one records folder expected, got '%s' and '%s'",
                        SHOWN(c->dir), SHOWN(arg));
    if (id == GB_OPT_ARG)
      c->dir = arg;
    else if (id < 0)
      return gb_err_set(err, EINVAL, "pack: %s (see greenbench pack --help)", e.msg);
    else if (id == OUT)
      c->out = arg;
    else
      *(id == HELP ? &c->help : &c->version) = true;
  }
  if (!c->help && !c->version && !c->dir)
    return gb_err_set(err, EINVAL,
                      "pack: no records folder given (see greenbench pack --help)");
  return 0;
}

/* DIR without trailing slashes, then ".tar.gz". */
static int default_out(const char *dir, char *buf, size_t len, gb_err *err) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  if (snprintf(buf, len, "%.*s.tar.gz", (int)n, dir) >= (int)len)
    return gb_err_set(err, ENAMETOOLONG, "pack: %s: path too long", SHOWN(dir));
  return 0;
}

static int run(pack_cli *c, gb_err *err) {
  char out[PATH_MAX];
  if (c->help)
    return fputs(usage, stdout) < 0 ? 1 : 0;
  if (c->version)
    return gb_version_print(stdout) < 0 ? (gb_err_set(err, EIO, "pack: cannot write"), 1) : 0;
  if (!c->out && default_out(c->dir, out, sizeof out, err) < 0)
    return 2;
  const char *target = c->out ? c->out : out;
  int rc = gb_records_pack_check_out(c->dir, target, err);
  if (rc < 0)
    return rc == -EINVAL || rc == -ENAMETOOLONG ? 2 : 1;
  return gb_records_pack(c->dir, target, err) < 0 ? 1 : 0;
}

int gb_pack_main(int argc, char **argv) {
  pack_cli c = {0};
  gb_err err = {{0}};
  int status = parse_args(&c, argc, argv, &err) < 0 ? 2 : run(&c, &err);
  if (status != 0)
    gb_str_put_line(stderr, "greenbench: error: ", err.msg);
  return status;
}
