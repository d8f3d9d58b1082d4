#include "greenbench/text.h"

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
