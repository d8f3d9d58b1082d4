/* The project's error convention (docs/design.md, Conventions): functions
 * return 0 or a
 * negative errno, set out-params only on success, and leave a one-line
 * message for the caller to print in a gb_err. */
#ifndef GREENBENCH_ERROR_H
#define GREENBENCH_ERROR_H

#include <stddef.h>

/* On every int gb_ function that returns a status: a caller that drops it is
 * a compile error under -DGB_WERROR=ON. A failure the caller may ignore is
 * ignored visibly, with the reason beside it (a cast to void does not silence
 * it in gcc). workload.h and version.h define the same for the libraries
 * beneath gb_base. */
#ifndef GB_MUST_USE
#define GB_MUST_USE __attribute__((warn_unused_result))
#endif

typedef struct {
  char msg[512];
} gb_err;

/* Sets e->msg (when e is not NULL) and returns -code, so a failing path can
 * `return gb_err_set(err, EINVAL, "...", ...);`. code is a positive errno.
 * Not GB_MUST_USE: the result only echoes code, which the caller has. */
__attribute__((format(printf, 3, 4))) int gb_err_set(gb_err *e, int code, const char *fmt, ...);

#endif
