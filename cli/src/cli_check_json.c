/* `greenbench check --json`: the findings of the check as JSON (cJSON). */
#include "cli_check_json.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "greenbench/version.h"

/* A line "topic: text" split at its first ": " (topic without spaces), or
 * NULL when it has none; the line is cut there. */
static char *split_topic(char *line) {
  char *colon = strstr(line, ": ");
  if (!colon || colon == line || memchr(line, ' ', (size_t)(colon - line)))
    return NULL;
  *colon = '\0';
  return colon + 2;
}

/* The findings in text's order; the verdict line's text goes to verdict. */
static int add_findings(cJSON *findings, char *text, cJSON *root) {
  cJSON *last = NULL;
  char *save = NULL;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == ' ') {
      while (*line == ' ')
        line++;
      cJSON *details = last ? cJSON_GetObjectItemCaseSensitive(last, "details") : NULL;
      if (!details || !cJSON_AddItemToArray(details, cJSON_CreateString(line)))
        return -1;
      continue;
    }
    char *rest = split_topic(line);
    if (rest && !strcmp(line, "verdict")) {
      if (!cJSON_AddStringToObject(root, "verdict", rest))
        return -1;
      continue;
    }
    cJSON *f = cJSON_CreateObject();
    if (!f || !cJSON_AddItemToArray(findings, f) ||
        !cJSON_AddStringToObject(f, "topic", rest ? line : "") ||
        !cJSON_AddStringToObject(f, "text", rest ? rest : line) ||
        !cJSON_AddArrayToObject(f, "details"))
      return -1;
    last = f;
  }
  return 0;
}

int cli_check_json(const char *text, bool energy, bool workers, int exit_status, FILE *out,
                   FILE *err) {
  cJSON *root = cJSON_CreateObject();
  char *copy = strdup(text), *json = NULL;
  bool ok = root && copy && cJSON_AddNumberToObject(root, "schema_version", 1) &&
            cJSON_AddStringToObject(root, "generator", "greenbench check") &&
            cJSON_AddStringToObject(root, "tool_version", gb_version()) &&
            cJSON_AddStringToObject(root, "git_commit", gb_git_commit()) &&
            cJSON_AddBoolToObject(root, "energy_measurable", energy) &&
            cJSON_AddBoolToObject(root, "workers_run", workers) &&
            cJSON_AddNumberToObject(root, "exit_status", exit_status);
  cJSON *findings = ok ? cJSON_AddArrayToObject(root, "findings") : NULL;
  ok = findings && add_findings(findings, copy, root) == 0 &&
       cJSON_GetObjectItemCaseSensitive(root, "verdict") && (json = cJSON_Print(root)) &&
       fprintf(out, "%s\n", json) >= 0 && fflush(out) == 0;
  free(json);
  free(copy);
  cJSON_Delete(root);
  if (ok)
    return exit_status;
  fprintf(err, "greenbench: error: check: --json: cannot build or write the JSON output\n");
  return 1;
}
