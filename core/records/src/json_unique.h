/* Duplicate keys in a parsed JSON document. cJSON keeps every member of an
 * object, repeated keys included, and its lookups return the first, so a
 * second "completed" would be read by one reader and not another; the
 * records refuse them instead. */
#ifndef GREENBENCH_JSON_UNIQUE_H
#define GREENBENCH_JSON_UNIQUE_H

#include <stddef.h>

#include "greenbench/error.h"

struct cJSON;

/* Walks every object under root, in document order. Returns 0 when no
 * object repeats a key; else -EINVAL with a message naming path and the
 * first repeated key by its place ("settings.runs", "calibration[3].sorts"). */
GB_MUST_USE int gb_json_check_unique_keys(const struct cJSON *root, const char *path,
                                          gb_err *err);

#endif
