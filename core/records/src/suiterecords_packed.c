/* A suite campaign's records read from a folder or from a packed one
 * (greenbench pack, docs/records.md "Packing a records folder"): the
 * archive is read and checked whole (gbi_pack_unpack), then the suite
 * reader reads its kept files as it reads a folder. */
#include <stdlib.h>

#include "greenbench/records_pack.h"
#include "greenbench/suiterecords.h"
#include "records_internal.h"

static const int needed[] = {GBI_KEPT_META, GBI_KEPT_SUITE, GBI_KEPT_RUNS, GBI_KEPT_WARMUPS};

int gb_srec_read_path(const char *path, gb_srec_records **out, gb_err *err) {
  if (!gb_records_is_packed(path))
    return gb_srec_read(path, out, err);
  gbi_unpacked u;
  int rc = gbi_pack_unpack(path, &gbi_pack_default_limits, &u, err);
  for (size_t i = 0; rc == 0 && i < sizeof needed / sizeof *needed; i++)
    rc = gbi_unpacked_need(&u, path, needed[i], err);
  if (rc == 0)
    rc = gbi_srec_read_unpacked(&u, out, err);
  gbi_unpacked_close(&u); /* none open after a failed unpack */
  return rc;
}

bool gb_srec_is_suite_path(const char *path) {
  if (!gb_records_is_packed(path))
    return gb_srec_is_suite_folder(path);
  gbi_unpacked u;
  gb_err err;
  char *text = NULL;
  size_t len = 0;
  if (gbi_pack_unpack(path, &gbi_pack_default_limits, &u, &err) < 0)
    return false;
  bool yes = u.fd[GBI_KEPT_META] >= 0 &&
             gbi_file_read_all(u.fd[GBI_KEPT_META], path, &text, &len, &err) == 0 &&
             gbi_srec_is_suite_meta(text, len);
  free(text);
  gbi_unpacked_close(&u);
  return yes;
}
