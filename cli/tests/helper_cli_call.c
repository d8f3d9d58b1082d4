#include "helper_cli_call.h"

#include <stdio.h>
#include <stdlib.h>

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

int gbt_fake_workers(const char *script, bool node, char *dir, size_t len) {
  char tmp[] = "/tmp/gb-fake-workers-XXXXXX", cmd[1024];
  if (!mkdtemp(tmp) || snprintf(dir, len, "%s", tmp) >= (int)len)
    return -1;
  snprintf(cmd, sizeof cmd,
           "mkdir %s/python %s/node && cp '%s' %s/worker-c && cp '%s' %s/python/worker.py", tmp,
           tmp, script, tmp, script, tmp);
  if (system(cmd) != 0)
    return -1;
  snprintf(cmd, sizeof cmd, "cp '%s' %s/node/worker.js", script, tmp);
  if (node && system(cmd) != 0)
    return -1;
  return setenv("GREENBENCH_LIBEXEC_DIR", tmp, 1);
}
