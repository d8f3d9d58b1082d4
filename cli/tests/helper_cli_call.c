#include "helper_cli_call.h"

#include <stdio.h>

gbt_cli_result gbt_cli_call(int (*fn)(int, char **, const gb_cli_env *), const gb_cli_env *env,
                            int argc, const char **argv) {
  static gbt_cli_result r;
  FILE *out = tmpfile(), *err = tmpfile();
  gb_cli_env e = env ? *env : (gb_cli_env){0};
  e.out = out;
  e.err = err;
  r.rc = fn(argc, (char **)argv, &e);
  rewind(out);
  rewind(err);
  r.out[fread(r.out, 1, sizeof r.out - 1, out)] = '\0';
  r.err[fread(r.err, 1, sizeof r.err - 1, err)] = '\0';
  fclose(out);
  fclose(err);
  return r;
}
