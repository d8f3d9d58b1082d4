#include "records_internal.h"

#include <errno.h>
#include <string.h>

#include "greenbench/text.h"

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

static bool field_is(const gbi_csv_field *f, const char *s) {
  return f->len == strlen(s) && memcmp(f->s, s, f->len) == 0;
}

/* A header field as quoted in a message: 40 bytes at most, escaped. */
static gb_excerpt_buf column_shown(const gbi_csv_field *f) {
  gb_excerpt_buf b;
  gb_str_excerpt(f->s, f->len, 40, b.s, sizeof b.s);
  return b;
}

static int header_column(const gbi_csv_field *f, const char *(*col)(size_t), size_t ncols) {
  for (size_t c = 0; c < ncols; c++)
    if (field_is(f, col(c)))
      return (int)c;
  return -1;
}

int gbi_csv_check_header(const gbi_csv_field *f, size_t n, const char *(*col)(size_t c),
                         size_t ncols, const char *name, gb_err *err) {
  bool seen[64] = {false};
  size_t kept = n < ncols + 1 ? n : ncols + 1;
  if (ncols > sizeof seen)
    return gb_err_set(err, EINVAL, "%s:1: too many columns to check", name);
  for (size_t i = 0; i < kept; i++)
    if (header_column(&f[i], col, ncols) < 0)
      return gb_err_set(err, EINVAL, "%s:1: unknown column '%s' in the header", name,
                        column_shown(&f[i]).s);
  for (size_t i = 0; i < kept; i++) {
    int c = header_column(&f[i], col, ncols);
    if (seen[c])
      return gb_err_set(err, EINVAL, "%s:1: column '%s' appears twice in the header", name,
                        col((size_t)c));
    seen[c] = true;
  }
  for (size_t c = 0; c < ncols; c++)
    if (!seen[c])
      return gb_err_set(err, EINVAL, "%s:1: missing column '%s' in the header", name, col(c));
  for (size_t i = 0; i < kept; i++)
    if (header_column(&f[i], col, ncols) != (int)i)
      return gb_err_set(err, EINVAL, "%s:1: column %zu is '%s', expected '%s'", name, i + 1,
                        col((size_t)header_column(&f[i], col, ncols)), col(i));
  return 0;
}

int gbi_csv_lines(const char *buf, size_t len, const char *name,
                  int (*line)(void *ctx, size_t number, const char *s, size_t len), void *ctx,
                  gb_err *err) {
  const char *p = buf, *end = buf + len;
  size_t number = 0;
  int rc;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    number++;
    if (!nl)
      return gb_err_set(err, EINVAL, "%s:%zu: truncated last line (no newline at the end)",
                        name, number);
    size_t n = (size_t)(nl - p);
    if (n > 0 && p[n - 1] == '\r')
      n--;
    if (n == 0)
      return gb_err_set(err, EINVAL, "%s:%zu: empty line", name, number);
    if ((rc = line(ctx, number, p, n)) < 0)
      return rc;
    p = nl + 1;
  }
  if (number == 0)
    return gb_err_set(err, EINVAL, "%s:1: empty file, expected a header", name);
  return 0;
}
