/* What the packer and the reader of packed records folders share, and the
 * reader's limits, which the tests lower. */
#ifndef GREENBENCH_RECORDS_PACK_INTERNAL_H
#define GREENBENCH_RECORDS_PACK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/records_read.h"

/* An XXH128 as xxhsum -H2 prints it: 32 lowercase hex digits. */
#define GB_PACK_HEX_LEN 32

/* The longest name of a file in the folder, and of the top folder: a ustar
 * header holds "top/name" within its 155-byte prefix and 100-byte name. */
#define GB_PACK_NAME_MAX 99
#define GB_PACK_TOP_MAX 154

typedef struct {
  uint64_t max_member; /* bytes of one member */
  uint64_t max_total;  /* bytes of all members together */
  size_t max_members;  /* members, the folder's entry included */
  size_t max_manifest; /* bytes of MANIFEST.xxh128 */
} gb_pack_limits;

/* 256 MiB a member, 512 MiB in all, 1024 members, a 1 MiB manifest: a
 * study's records are a few MB (docs/records.md). */
extern const gb_pack_limits gb_pack_default_limits;

/* Writes a canonical XXH128 (16 bytes, big-endian) as GB_PACK_HEX_LEN hex digits
 * and a NUL. */
void gb_pack_hex(const void *digest16, char out[GB_PACK_HEX_LEN + 1]);

/* gb_records_read_path of a packed folder, within lim. */
GB_MUST_USE int gb_records_read_archive(const char *path, const gb_pack_limits *lim,
                                        gb_records **out, gb_err *err);

#endif
