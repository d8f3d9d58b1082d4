#include "greenbench/numparse.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

int gb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out) {
  return s ? gb_parse_u64_n(s, strlen(s), min, max, out) : -EINVAL;
}

int gb_parse_u64_n(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out) {
  uint64_t v = 0;
  bool over = false;
  if (len == 0)
    return -EINVAL;
  for (const char *p = s; p < s + len; p++) {
    if (*p < '0' || *p > '9')
      return -EINVAL;
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10)
      over = true;
    else
      v = v * 10 + d;
  }
  if (over || v < min || v > max)
    return -ERANGE;
  *out = v;
  return 0;
}
