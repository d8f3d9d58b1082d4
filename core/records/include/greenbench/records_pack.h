/* A records folder as one self-contained file (docs/records.md, "Packing a
 * records folder"): `greenbench pack DIR` writes DIR.tar.gz with every file
 * of DIR under one top folder named after DIR, and MANIFEST.xxh128, the
 * XXH128 of each file in xxhsum's format (`xxhsum -c` checks it). The
 * archive is deterministic: members in name order, mode 0644 (0755 for the
 * folder), owner 0, the campaign's finished_at (else started_at) as every
 * mtime, no gzip timestamp; packing the same folder twice gives the same
 * bytes. gb_records_read_path (greenbench/records_read.h) reads it back, and
 * gb_srec_read_path (greenbench/suiterecords.h) a suite campaign's. */
#ifndef GREENBENCH_RECORDS_PACK_H
#define GREENBENCH_RECORDS_PACK_H

#include "greenbench/error.h"
#include "greenbench/records_read.h"

/* The manifest's name inside the top folder. */
#define GB_PACK_MANIFEST "MANIFEST.xxh128"
/* A suite campaign's folder of build outputs ({builddir}), which pack
 * leaves out: they are not records. */
#define GB_PACK_SUITE_BUILD "build"

/* Writes the archive of the records folder dir to out (a new temporary file
 * beside out, fsynced, then renamed over it: all or nothing). dir must hold
 * a meta.json the records reader accepts, with the rest of the records, and
 * nothing but regular files (a subfolder, a symbolic link or a special file
 * is refused, named); a MANIFEST.xxh128 in dir is not packed but made anew.
 * A suite campaign's folder (gb_srec_is_suite_folder) is checked with the
 * suite reader (gb_srec_read) instead, and its build/ folder of build
 * outputs is left out; a study folder holding a suite.json is refused.
 * out must not be in dir. Returns 0; -EINVAL for a refused folder or out
 * (message set, one line); another -errno from reading or writing, with
 * nothing left at out or beside it. */
GB_MUST_USE int gb_records_pack(const char *dir, const char *out, gb_err *err);

/* The checks of out alone (it fits PATH_MAX, is no folder, is not in dir,
 * whose folder exists): 0; -EINVAL or -ENAMETOOLONG for a wrong out, or the
 * -errno of opening dir (-ENOENT, -ENOTDIR, ...), message set. The command
 * line refuses a wrong out as a bad argument before packing. */
GB_MUST_USE int gb_records_pack_check_out(const char *dir, const char *out, gb_err *err);

/* True when path is a regular file, which gb_records_read_path reads as a
 * packed records folder. */
bool gb_records_is_packed(const char *path);

#endif
