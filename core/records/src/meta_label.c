/* Machine labels (gb_meta_label_*): what JUnit classnames carry so that
 * two machines' results never collide, and how one is made from the host
 * name and the CPU model. */
#include <ctype.h>
#include <string.h>

#include "greenbench/meta.h"

static bool label_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-';
}

bool gb_meta_label_valid(const char *s) {
  size_t n = 0;
  for (; s[n]; n++)
    if (n == GB_META_LABEL_MAX || !label_char(s[n]))
      return false;
  return n > 0;
}

void gb_meta_label_from_host(const char *host, char *buf, size_t len) {
  size_t max = len - 1 < GB_META_LABEL_MAX ? len - 1 : GB_META_LABEL_MAX, n = 0;
  if (!host[0])
    host = "unknown-host";
  for (; host[n] && n < max; n++)
    buf[n] = label_char(host[n]) ? host[n] : '-';
  buf[n] = '\0';
}

/* Whether the model's word at w (of n characters, lowercased) is one a
 * label leaves out. */
static bool noise_word(const char *w, size_t n) {
  static const char *const words[] = {"r", "tm", "cpu", "processor"};
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    if (n == strlen(words[i]) && strncmp(w, words[i], n) == 0)
      return true;
  return false;
}

void gb_meta_label_from_machine(const char *host, const char *cpu_model, char *buf,
                                size_t len) {
  gb_meta_label_from_host(host, buf, len);
  size_t max = len - 1 < GB_META_LABEL_MAX ? len - 1 : GB_META_LABEL_MAX;
  size_t at = strlen(buf);
  char word[GB_META_LABEL_MAX + 1];
  for (const char *p = cpu_model ? cpu_model : ""; *p && *p != '@';) {
    size_t n = 0;
    while (p[n] && p[n] != '@' && isalnum((unsigned char)p[n]) && n < sizeof word - 1) {
      word[n] = (char)tolower((unsigned char)p[n]);
      n++;
    }
    p += n ? n : 1;
    if (n == 0 || noise_word(word, n))
      continue;
    if (at + 1 + n > max)
      break; /* whole words only, in the model's order */
    buf[at++] = '-';
    memcpy(buf + at, word, n);
    at += n;
    buf[at] = '\0';
  }
}
