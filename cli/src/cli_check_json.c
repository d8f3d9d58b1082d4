/* `greenbench check --json`: the findings of the check as JSON (cJSON). */
#include "cli_internal.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/text.h"
#include "greenbench/version.h"

/* s with its control bytes as \xHH (as gb_str_put_line shows it), added to
 * o under key, or to the array o when key is NULL. */
static bool add_text(cJSON *o, const char *key, const char *s) {
  size_t cap = 4 * strlen(s) + 4;
  char *shown = malloc(cap);
  if (!shown)
    return false;
  gb_str_escape_controls(s, strlen(s), shown, cap);
  bool ok = key ? cJSON_AddStringToObject(o, key, shown) != NULL
                : cJSON_AddItemToArray(o, cJSON_CreateString(shown));
  free(shown);
  return ok;
}

/* The findings in order, each detail under the finding before it; the
 * verdict's text goes to root's "verdict". */
static bool add_findings(cJSON *findings, const gb_findings *f, cJSON *root) {
  cJSON *last = NULL;
  for (size_t i = 0; i < f->n; i++) {
    const gb_finding *g = &f->items[i];
    if (g->detail) {
      cJSON *details = last ? cJSON_GetObjectItemCaseSensitive(last, "details") : NULL;
      if (!details || !add_text(details, NULL, g->text))
        return false;
      continue;
    }
    if (!strcmp(g->topic, "verdict")) {
      if (!add_text(root, "verdict", g->text))
        return false;
      continue;
    }
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(findings, o) || !add_text(o, "topic", g->topic) ||
        !add_text(o, "text", g->text) || !cJSON_AddArrayToObject(o, "details"))
      return false;
    last = o;
  }
  return true;
}

int cli_check_json(const gb_findings *f, bool energy, bool workers, int exit_status, FILE *out,
                   FILE *err) {
  cJSON *root = cJSON_CreateObject();
  char *json = NULL;
  bool ok = !f->failed && root && cJSON_AddNumberToObject(root, "schema_version", 1) &&
            cJSON_AddStringToObject(root, "generator", "greenbench check") &&
            cJSON_AddStringToObject(root, "tool_version", gb_version()) &&
            cJSON_AddStringToObject(root, "git_commit", gb_git_commit()) &&
            cJSON_AddBoolToObject(root, "energy_measurable", energy) &&
            cJSON_AddBoolToObject(root, "workers_run", workers) &&
            cJSON_AddNumberToObject(root, "exit_status", exit_status);
  cJSON *findings = ok ? cJSON_AddArrayToObject(root, "findings") : NULL;
  ok = findings && add_findings(findings, f, root) &&
       cJSON_GetObjectItemCaseSensitive(root, "verdict") && (json = cJSON_Print(root)) &&
       fprintf(out, "%s\n", json) >= 0 && fflush(out) == 0;
  free(json);
  cJSON_Delete(root);
  if (ok)
    return exit_status;
  fprintf(err, "greenbench: error: check: --json: cannot build or write the JSON output\n");
  return 1;
}
