/* What a resume of the study (campaign_resume.c) and of a suite campaign
 * (suitecampaign_resume.c) share: the refusals, each one line naming the
 * folder, and the recorded settings held against the command line's. */
#ifndef GB_RESUME_H
#define GB_RESUME_H

#include <stddef.h>

#include "greenbench/error.h"
#include "greenbench/settings.h"

/* "cannot resume DIR: WHAT differs (recorded 'WAS', now 'NOW')"; -EINVAL. */
GB_MUST_USE int gbi_resume_refuse(const char *dir, gb_err *err, const char *what,
                                  const char *was, const char *now);
/* "... the campaign is already complete"; -EALREADY. */
GB_MUST_USE int gbi_resume_complete(const char *dir, gb_err *err);
/* "... calibration did not finish, so no measured run was recorded ..."; -EINVAL. */
GB_MUST_USE int gbi_resume_uncalibrated(const char *dir, gb_err *err);
/* "... runs.csv line LINE is not the plan's run RUN (were the records
 * edited?)"; -EINVAL. */
GB_MUST_USE int gbi_resume_not_planned(const char *dir, size_t line, size_t run, gb_err *err);

/* One member of gb_settings compared on resume. */
typedef struct {
  const char *name;
  size_t offset, size;
} gbi_resume_field;
#define GBI_RESUME_FIELD(f)                                                                    \
  { #f, offsetof(gb_settings, f), sizeof((gb_settings *)0)->f }

/* The settings given on the command line against the recorded ones, field
 * by field: -EINVAL naming the first that differs; 0. */
GB_MUST_USE int gbi_resume_compare(const char *dir, const gb_settings *rec,
                                   const gb_settings *given, const gbi_resume_field *fields,
                                   size_t n, gb_err *err);

#endif
