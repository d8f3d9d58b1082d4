/* The project's error convention (docs/design.md, Conventions): functions
 * return 0 or a
 * negative errno, set out-params only on success, and leave a one-line
 * message for the caller to print in a gb_err. */
#ifndef GREENBENCH_ERROR_H
#define GREENBENCH_ERROR_H

#include <stddef.h>

typedef struct {
  char msg[512];
} gb_err;

/* Sets e->msg (when e is not NULL) and returns -code, so a failing path can
 * `return gb_err_set(err, EINVAL, "...", ...);`. code is a positive errno. */
__attribute__((format(printf, 3, 4))) int gb_err_set(gb_err *e, int code, const char *fmt, ...);

#endif
