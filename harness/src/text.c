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
