/* The refusals a resume of the study and of a suite campaign share
 * (resume.h). */
#include "resume.h"

#include <errno.h>
#include <string.h>

int gbi_resume_refuse(const char *dir, gb_err *err, const char *what, const char *was,
                      const char *now) {
  return gb_err_set(err, EINVAL, "cannot resume %s: %s differs (recorded '%s', now '%s')", dir,
                    what, was, now);
}

int gbi_resume_complete(const char *dir, gb_err *err) {
  return gb_err_set(err, EALREADY, "cannot resume %s: the campaign is already complete", dir);
}

int gbi_resume_uncalibrated(const char *dir, gb_err *err) {
  return gb_err_set(err, EINVAL,
                    "cannot resume %s: calibration did not finish, so no measured run was "
                    "recorded: remove %s or run with a new --out",
                    dir, dir);
}

int gbi_resume_not_planned(const char *dir, size_t line, size_t run, gb_err *err) {
  return gb_err_set(err, EINVAL,
                    "cannot resume %s: runs.csv line %zu is not the plan's run %zu (were "
                    "the records edited?)",
                    dir, line, run);
}

int gbi_resume_compare(const char *dir, const gb_settings *rec, const gb_settings *given,
                       const gbi_resume_field *fields, size_t n, gb_err *err) {
  for (size_t i = 0; i < n; i++)
    if (memcmp((const char *)rec + fields[i].offset, (const char *)given + fields[i].offset,
               fields[i].size) != 0)
      return gb_err_set(err, EINVAL,
                        "cannot resume %s: the setting %s given on the command line differs "
                        "from the records' (leave the settings out to use the recorded ones)",
                        dir, fields[i].name);
  return 0;
}
