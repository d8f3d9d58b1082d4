/* `greenbench run --suite FILE` (cli_run.c parses the options): the suite
 * read and checked, then its plan printed (--dry-run) or its campaign run
 * (greenbench/suitecampaign.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/files.h"
#include "greenbench/meta.h"
#include "greenbench/privilege.h"
#include "greenbench/suitecampaign.h"
#include "greenbench/suiteplan.h"
#include "greenbench/suiterecords.h"

#include "cli_internal.h"

static void print_plan(const cli_run_suite_args *a, const gb_suite *s, const gb_suite_plan *p,
                       FILE *out) {
  const gb_settings *st = &a->settings;
  size_t work = p->nconfigs * st->runs;
  fprintf(out,
          "suite %s (%s, hash %s): %zu languages, %zu workloads, %zu cases, %zu "
          "configurations\n"
          "measured runs: %zu (%zu work runs, %zu startup batches), %" PRIu64
          " per configuration, one shuffled order (order seed %" PRIu64 ")\n"
          "warm-ups: %" PRIu64 " per configuration and startup group; target loop %" PRIu64
          " ms (calibrated to %" PRIu64 " ms)\n"
          "energy: %s; input seed %" PRIu64 "; profile %s\n"
          "configurations:\n",
          s->name, s->path, s->hash, s->n_languages, s->n_workloads, p->ncases, p->nconfigs,
          p->nruns, work, p->nruns - work, st->runs, st->order_seed, st->warmups, st->target_ms,
          st->target_ms * GB_META_CALIBRATION_HEADROOM_NUM / GB_META_CALIBRATION_HEADROOM_DEN,
          gb_energy_mode_name(st->energy), st->seed, gb_profile_name(st->profile));
  for (size_t i = 0; i < p->nconfigs; i++) {
    char label[160];
    gb_suite_config_label(s, &p->configs[i], label, sizeof label);
    fprintf(out, "  %s\n", label);
  }
}

/* The suite file's bytes (suite.json is a copy) and the suite parsed from
 * them; 2 after the reader's one line. On --resume the folder's suite.json
 * (with --suite FILE, which must be the same); 1 after the one line. */
static int load_as_caller(const cli_run_suite_args *a, char **text, size_t *len, gb_suite *s,
                          const gb_cli_env *env) {
  gb_err e, err;
  if (a->resume)
    return gb_suite_resume_load(a->resume, a->file, s, text, len, &err) < 0
               ? cli_fail(a->cmd, env->err, 1, err.msg)
               : 0;
  *text = malloc(GB_SUITE_FILE_MAX + 1);
  if (!*text)
    return cli_fail(a->cmd, env->err, 1, "out of memory");
  int rc = gb_read_small_file(a->file, *text, GB_SUITE_FILE_MAX + 1, len, &e);
  if (rc < 0)
    gb_err_set(&err, -rc, "suite %s: %s", a->file, e.msg);
  else
    rc = gb_suite_parse(*text, *len, a->file, s, &err);
  if (rc == 0)
    return 0;
  free(*text);
  *text = NULL;
  gb_str_put_line(env->err, "greenbench: error: ", err.msg);
  return 2;
}

/* Under sudo the suite file and the folder to resume are read with the
 * user's file-system identity, as the campaign opens --out and --resume
 * (docs/security.md): a path only root may read is refused as the user's
 * own read would be, and nothing of it reaches a message. */
static int load(const cli_run_suite_args *a, char **text, size_t *len, gb_suite *s,
                const gb_cli_env *env) {
  gb_privilege who;
  gb_privilege_fs saved;
  gb_err err;
  int rc = gb_privilege_detect(&who, &err);
  if (rc < 0)
    return cli_fail(a->cmd, env->err, 2, err.msg);
  if ((rc = gb_privilege_fs_enter(&who, &saved)) < 0) {
    gb_err_set(&err, -rc, "cannot open files as uid %u: %s", (unsigned)who.uid, strerror(-rc));
    return cli_fail(a->cmd, env->err, 1, err.msg);
  }
  rc = load_as_caller(a, text, len, s, env);
  gb_privilege_fs_leave(&saved);
  return rc;
}

bool cli_is_suite_folder(const char *dir) {
  gb_privilege who;
  gb_privilege_fs saved;
  gb_err err;
  if (gb_privilege_detect(&who, &err) < 0 || gb_privilege_fs_enter(&who, &saved) < 0)
    return false; /* the study's resume then says what is wrong */
  bool suite = gb_srec_is_suite_folder(dir);
  gb_privilege_fs_leave(&saved);
  return suite;
}

static int run(const cli_run_suite_args *a, const gb_suite *s, const char *text, size_t len,
               const gb_cli_env *env) {
  gb_suite_campaign_opts o = {
      .base = {.settings = a->settings,
               .settings_given = a->settings_given,
               .resume = a->resume != NULL,
               .out_dir = a->out,
               .cpus = a->cpus,
               .machine_label = a->machine_label,
               .argc = (size_t)a->argc,
               .argv = (const char *const *)a->argv,
               .stop = env->stop,
               .progress = a->quiet ? GB_PROGRESS_QUIET : GB_PROGRESS_AUTO,
               .log = env->err},
      .suite = s,
      .suite_text = text,
      .suite_len = len};
  gb_campaign_result r;
  gb_err err;
  if (gb_suite_campaign_run(&o, &r, &err) < 0)
    return cli_fail(a->cmd, env->err, 1, err.msg);
  if (r.interrupted) {
    fprintf(env->err,
            "greenbench: interrupted after %zu of %zu runs; records kept in %s (continue with "
            "greenbench run --resume %s%s%s)\n",
            r.runs_done, r.runs_total, a->out, a->out, a->file ? " --suite " : "",
            a->file ? a->file : "");
    return 130;
  }
  if (!a->quiet)
    fprintf(env->err, "greenbench: %zu runs recorded in %s (energy %s)\n", r.runs_done, a->out,
            r.energy ? "measured" : "not measured");
  return 0;
}

int cli_run_suite(const cli_run_suite_args *a, const gb_cli_env *env) {
  char *text;
  size_t len;
  gb_suite s;
  int rc = load(a, &text, &len, &s, env);
  if (rc)
    return rc;
  if (a->dry_run) {
    gb_suite_plan p;
    gb_err err;
    if (gb_suite_plan_build(&s, &a->settings, &p, &err) < 0) {
      rc = cli_fail(a->cmd, env->err, 2, err.msg);
    } else {
      print_plan(a, &s, &p, env->out);
      gb_suite_plan_free(&p);
    }
  } else {
    rc = run(a, &s, text, len, env);
  }
  gb_suite_free(&s);
  free(text);
  return rc;
}
