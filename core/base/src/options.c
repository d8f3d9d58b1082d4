#include "greenbench/options.h"

#include <errno.h>
#include <string.h>

#include "greenbench/text.h"

void gb_opt_start(gb_opt_state *st, int first) {
  *st = (gb_opt_state){.next = first};
}

/* The entry named by the len bytes at arg, or NULL. */
static const gb_opt *find(const gb_opt *table, const char *arg, size_t len, size_t *index) {
  for (size_t i = 0; table[i].name && i < GB_OPT_MAX; i++) {
    const char *alias = table[i].alias;
    if ((strlen(table[i].name) == len && strncmp(table[i].name, arg, len) == 0) ||
        (alias && strlen(alias) == len && strncmp(alias, arg, len) == 0)) {
      *index = i;
      return &table[i];
    }
  }
  return NULL;
}

int gb_opt_next(const gb_opt *table, gb_opt_state *st, int argc, char **argv,
                const char **value, gb_err *err) {
  if (st->next >= argc)
    return GB_OPT_END;
  const char *arg = argv[st->next++];
  if (!st->options_done && strcmp(arg, "--") == 0) {
    st->options_done = true;
    return gb_opt_next(table, st, argc, argv, value, err);
  }
  if (st->options_done || arg[0] != '-' || arg[1] == '\0') {
    *value = arg;
    return GB_OPT_ARG;
  }
  gb_excerpt_buf shown;
  const char *eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
  size_t len = eq ? (size_t)(eq - arg) : strlen(arg), i;
  const gb_opt *o = find(table, arg, len, &i);
  if (!o) { /* named without its "=value" */
    gb_str_excerpt(arg, len, GB_EXCERPT_MAX, shown.s, sizeof shown.s);
    return gb_err_set(err, EINVAL, "unknown option '%s'", shown.s);
  }
  if (!(o->flags & GB_OPT_VALUE)) {
    if (eq)
      return gb_err_set(err, EINVAL, "option '%s' takes no value", o->name);
    *value = NULL;
    return o->id;
  }
  if (!eq && st->next >= argc)
    return gb_err_set(err, EINVAL, "option '%s' needs a value", o->name);
  const char *v = eq ? eq + 1 : argv[st->next++];
  if (*v == '\0')
    return gb_err_set(err, EINVAL, "option '%s' needs a value, got an empty one", o->name);
  if (st->given[i] && !(o->flags & GB_OPT_MANY))
    return gb_err_set(err, EINVAL, "option '%s' given twice", o->name);
  st->given[i] = 1;
  *value = v;
  return o->id;
}
