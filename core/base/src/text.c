#include "greenbench/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

bool gb_str_copy(char *dst, size_t len, const char *src) {
  size_t n = strnlen(src, len);
  bool fits = n < len;
  if (!fits)
    n = len - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
  return fits;
}

void gb_str_append(char *buf, size_t len, const char *fmt, ...) {
  size_t used = strlen(buf);
  if (used + 1 >= len)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + used, len - used, fmt, ap);
  va_end(ap);
}

/* The length of a control at p[0..n) (a C0 byte, DEL, or C1 as UTF-8), or
 * 0. */
static size_t control_at(const unsigned char *p, size_t n) {
  if (*p < 0x20 || *p == 0x7f)
    return 1;
  return n >= 2 && p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 0;
}

/* What escape() turns into \xHH: every byte that is not printable ASCII,
 * '"' and '\' (EXCERPT: but a newline is \n; BYTES: all of them), or only
 * the controls (CONTROLS). */
typedef enum { EXCERPT, BYTES, CONTROLS } escaping;

/* Bytes of text[i..len) escaped as \xHH. */
static size_t escaped_at(const char *text, size_t i, size_t len, escaping how) {
  unsigned char c = (unsigned char)text[i];
  if (how != CONTROLS)
    return c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
  return control_at((const unsigned char *)text + i, len - i);
}

/* The escaping behind the functions below: the first max bytes of
 * text[0..len) escaped into out[cap], leaving room for `keep` bytes and
 * the NUL, never cutting an escape in half. Returns the bytes of text
 * consumed, so the caller can mark a cut. */
static size_t escape(const char *text, size_t len, size_t max, escaping how, char *out,
                     size_t cap, size_t keep) {
  size_t o = 0, i = 0;
  while (i < len && i < max) {
    unsigned char c = (unsigned char)text[i];
    bool nl = c == '\n' && how == EXCERPT;
    size_t esc = nl ? 0 : escaped_at(text, i, len, how);
    size_t need = nl ? 2 : esc ? 4 * esc : 1;
    if (o + need + keep + 1 > cap)
      break;
    if (nl)
      memcpy(out + o, "\\n", 2);
    for (size_t k = 0; k < esc; k++)
      snprintf(out + o + 4 * k, cap - o - 4 * k, "\\x%02x", (unsigned char)text[i + k]);
    if (need == 1)
      out[o] = (char)c;
    o += need;
    i += esc ? esc : 1;
  }
  out[o] = '\0';
  return i;
}

/* Appends "..." to the string in out[cap] when text was cut at `used` of
 * len bytes and it fits. */
static void mark_cut(size_t used, size_t len, char *out, size_t cap) {
  size_t o = strlen(out);
  if (used < len && o + 4 <= cap)
    memcpy(out + o, "...", 4);
}

void gb_str_excerpt(const char *text, size_t len, size_t max, char *out, size_t cap) {
  mark_cut(escape(text, len, max, EXCERPT, out, cap, 0), len, out, cap);
}

void gb_str_escape_controls(const char *text, size_t len, char *out, size_t cap) {
  mark_cut(escape(text, len, len, CONTROLS, out, cap, 0), len, out, cap);
}

void gb_str_quote(const char *text, size_t len, size_t max, char *out, size_t cap) {
  if (cap < 3) {
    out[0] = '\0';
    return;
  }
  out[0] = '"';
  size_t used = escape(text, len, max, BYTES, out + 1, cap - 1, 1);
  size_t o = strlen(out);
  out[o++] = '"';
  out[o] = '\0';
  mark_cut(used, len, out, cap);
}

const char *gb_excerpt(gb_excerpt_buf *buf, const char *s) {
  s = s ? s : "";
  gb_str_excerpt(s, strnlen(s, GB_EXCERPT_MAX + 1), GB_EXCERPT_MAX, buf->s, sizeof buf->s);
  return buf->s;
}

void gb_str_put_line(FILE *f, const char *prefix, const char *line) {
  fputs(prefix, f);
  for (const unsigned char *p = (const unsigned char *)line; *p;) {
    size_t n = control_at(p, 2); /* p[1] exists: p[0] is not the NUL */
    if (n == 0) {
      fputc(*p++, f);
      continue;
    }
    for (size_t k = 0; k < n; k++)
      fprintf(f, "\\x%02x", *p++);
  }
  fputc('\n', f);
}
