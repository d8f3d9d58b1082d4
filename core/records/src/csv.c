#include "records_internal.h"

#include <errno.h>
#include <string.h>

/* Reads a quoted field starting after its opening quote at line[*i]; leaves
 * *i just past the closing quote. */
static int split_quoted(const char *line, size_t len, size_t *i, char *out, size_t *out_len,
                        const char **why) {
  size_t k = 0;
  for (;;) {
    if (*i >= len) {
      *why = "an unterminated quoted field";
      return -EINVAL;
    }
    char c = line[(*i)++];
    if (c == '"') {
      if (*i < len && line[*i] == '"') {
        out[k++] = '"';
        (*i)++;
        continue;
      }
      *out_len = k;
      return 0;
    }
    out[k++] = c;
  }
}

static int split_plain(const char *line, size_t len, size_t *i, const char **why) {
  while (*i < len && line[*i] != ',') {
    if (line[*i] == '"') {
      *why = "a quote inside an unquoted field";
      return -EINVAL;
    }
    (*i)++;
  }
  return 0;
}

int gbi_csv_split(const char *line, size_t len, char *scratch, gbi_csv_field *f, size_t max,
                  size_t *n, const char **why) {
  if (memchr(line, '\0', len)) {
    *why = "a NUL byte";
    return -EINVAL;
  }
  size_t i = 0, count = 0, used = 0;
  for (;;) {
    gbi_csv_field fld = {.s = line + i, .len = 0, .quoted = 0};
    if (i < len && line[i] == '"') {
      i++;
      fld.s = scratch + used;
      fld.quoted = 1;
      if (split_quoted(line, len, &i, scratch + used, &fld.len, why) < 0)
        return -EINVAL;
      used += fld.len;
      if (i < len && line[i] != ',') {
        *why = "text after a closing quote";
        return -EINVAL;
      }
    } else {
      size_t start = i;
      if (split_plain(line, len, &i, why) < 0)
        return -EINVAL;
      fld.len = i - start;
    }
    if (count < max)
      f[count] = fld;
    count++;
    if (i >= len)
      break;
    i++; /* the comma */
  }
  *n = count;
  return 0;
}
