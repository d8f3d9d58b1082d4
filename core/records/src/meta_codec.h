/* What the meta.json table (meta_codec.c) and the model (meta.c) share. */
#ifndef GREENBENCH_META_CODEC_H
#define GREENBENCH_META_CODEC_H

#include <stddef.h>

#include "greenbench/meta.h"

/* Room for entry n of the array *arr of entries of size bytes. The capacity
 * is implied by n (0, then 4, 8, 16, ...), so appending stays linear without
 * a capacity field. 0 or -ENOMEM. */
GB_MUST_USE int meta_grow(void **arr, size_t n, size_t size);

/* The checks of gb_meta_check that the table holds: each field's bounds,
 * enums in range, required text and lists not empty, lists without repeats
 * and not longer than their room. 0 or -EINVAL naming path and the field. */
GB_MUST_USE int meta_check_fields(const gb_meta *m, const char *path, gb_err *err);

#endif
