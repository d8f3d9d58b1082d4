/* What the source files of gb_records share with each other and with their
 * tests, and no other library sees (they use include/greenbench only).
 * Private functions and types carry the gbi_ prefix; the public API keeps
 * gb_. */
#ifndef GREENBENCH_RECORDS_INTERNAL_H
#define GREENBENCH_RECORDS_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "greenbench/error.h"
#include "greenbench/meta.h"
#include "greenbench/records.h"
#include "greenbench/records_read.h"
#include "greenbench/suiterecords.h"
#include "greenbench/text.h"

/* ---- csv.c ---- */
/* A small strict RFC 4180 field splitter for one line of the records.
 *
 * Why not a library: Debian ships no well-kept C CSV library that reports
 * errors precisely enough to name the line and the fault (libcsv is
 * unmaintained and accepts malformed quoting silently), and the records need
 * only single-line rows, so splitting one line is all the parser there is. */

typedef struct {
  const char *s; /* not NUL-terminated */
  size_t len;
  int quoted; /* the field was written in quotes */
} gbi_csv_field;

/* Splits line[0..len) (without its line ending) at commas. A quoted field
 * may hold commas and doubled quotes; its text, unescaped, goes to scratch,
 * which must hold len bytes. Stores the first max fields in f and the
 * number of fields in *n (which may exceed max). Returns 0, or -EINVAL and
 * sets *why to a static phrase for a quote inside an unquoted field, text
 * after a closing quote, an unterminated quote or a NUL byte. */
GB_MUST_USE int gbi_csv_split(const char *line, size_t len, char *scratch, gbi_csv_field *f,
                              size_t max, size_t *n, const char **why);

/* The header line of a CSV file of the records: n fields f (the splitter
 * keeps one more than the ncols columns, so that a header too long has an
 * unknown or repeated column among them) against the column names
 * col(0..ncols-1). Names the first unknown column, then a repeated one,
 * then the first missing one, then one out of place:
 * "<name>:1: unknown column 'x' in the header". 0 or -EINVAL. */
GB_MUST_USE int gbi_csv_check_header(const gbi_csv_field *f, size_t n,
                                     const char *(*col)(size_t c), size_t ncols,
                                     const char *name, gb_err *err);

/* Calls line(ctx, number, s, len) for each line of buf[0..len), numbered
 * from 1, without its "\n" or "\r\n", and stops at the first that fails.
 * Refuses, naming name and the line: an empty line, a last line without
 * "\n" ("truncated last line"), an empty file. 0 or line's error. */
GB_MUST_USE int gbi_csv_lines(const char *buf, size_t len, const char *name,
                              int (*line)(void *ctx, size_t number, const char *s, size_t len),
                              void *ctx, gb_err *err);

/* ---- json_unique.c ---- */
/* Duplicate keys in a parsed JSON document. cJSON keeps every member of an
 * object, repeated keys included, and its lookups return the first, so a
 * second "completed" would be read by one reader and not another; the
 * records refuse them instead. */

struct cJSON;

/* Parses json[0..len) as one JSON value and nothing but white space after
 * it, gives every number item its own text as its valuestring (cJSON keeps
 * only a double, exact to 2^53; read integers from that text), and refuses
 * a repeated key: walking every object in document order, the first one
 * that repeats a key gives -EINVAL with a message naming path and the key
 * by its place ("settings.runs", "calibration[3].sorts"), saying that `what`
 * (the kind of file: "meta.json") must not repeat one. Returns 0 and *out
 * (free with cJSON_Delete), -EINVAL "<path>:<line>: malformed JSON" or the
 * repeated key's message, or -ENOMEM. */
GB_MUST_USE int gbi_json_parse_strict(const char *json, size_t len, const char *path,
                                      const char *what, struct cJSON **out, gb_err *err);

/* "a string", "a number", "a boolean", "null", "an array", "an object", or
 * "nothing" for NULL: what a value is, for a message. */
const char *gbi_json_type_name(const struct cJSON *v);

/* Whether v, an item of gbi_json_parse_strict's tree, is a whole number in
 * 0..max as its own text says: plain decimal digits without a leading zero
 * (so "1e3", "1.0" and "01" are not), read exactly into *out. */
bool gbi_json_whole(const struct cJSON *v, uint64_t max, uint64_t *out);

/* ---- records.c ---- */
/* What records.c (the schema) lends the reader in records_read.c. */

typedef struct {
  const char *const *names;
  size_t n;
} gbi_rec_name_set;

#define GB_REC_SET(a) ((gbi_rec_name_set){a, sizeof a / sizeof *a})

/* The names of gb_rec_status and gb_rec_energy, of the settings' profiles and energy modes
 * (settings.c), and of meta.json's zone kinds (meta_codec.c), for the tables that read and
 * write them. */
extern const char *const gbi_rec_status_names[GB_REC_STATUS_COUNT];
extern const char *const gbi_rec_energy_names[GB_REC_ENERGY_COUNT];
extern const char *const gbi_profile_names[GB_PROFILE_COUNT];
extern const char *const gbi_energy_mode_names[GB_ENERGY_MODE_COUNT];
extern const char *const gbi_meta_zone_kind_names[GB_META_ZONE_KIND_COUNT];

/* names[v], or NULL when v is out of range. */
const char *gbi_rec_set_name(gbi_rec_name_set s, unsigned v);
/* The index of str[0..len) in s, or -1. */
GB_MUST_USE int gbi_rec_set_find(gbi_rec_name_set s, const char *str, size_t len);

/* type_name(v) and type_parse(name, &v) over the array names. */
#define GB_REC_NAME_FUNCS(type, names)                                                         \
  const char *type##_name(type v) {                                                            \
    return gbi_rec_set_name(GB_REC_SET(names), (unsigned)v);                                   \
  }                                                                                            \
  int type##_parse(const char *name, type *out) {                                              \
    int i = gbi_rec_set_find(GB_REC_SET(names), name, strlen(name));                           \
    if (i < 0)                                                                                 \
      return -EINVAL;                                                                          \
    *out = (type)i;                                                                            \
    return 0;                                                                                  \
  }

/* Parses the text of column c (s[0..len), unescaped) into row. Returns 0,
 * or -EINVAL with a message naming the column but no file or line. */
GB_MUST_USE int gbi_rec_parse_field(gb_run_row *row, gb_rec_col c, const char *s, size_t len,
                                    gb_err *err);

/* ---- records_files.c ---- */
/* The whole regular file at fd (path names it in messages), at most 256 MiB,
 * read from offset 0 with pread; *out is malloc'd. 0 or -errno. */
GB_MUST_USE int gbi_file_read_all(int fd, const char *path, char **out, size_t *out_len,
                                  gb_err *err);
/* Opens dir/file for reading (O_NONBLOCK, so a FIFO is refused, not waited
 * on); -ENOENT and the other -errno with "<path>: cannot open: ...". */
GB_MUST_USE int gbi_file_open_in(const char *dir, const char *file, int *fd, gb_err *err);

/* ---- rowtext.c ---- */
/* The text of one CSV row's fields, shared by the study's rows (records.c)
 * and a suite campaign's (suiterecords.c). */

/* A line written into buf[len]; full once something did not fit. */
typedef struct {
  char *buf;
  size_t len, pos;
  bool full;
} gbi_out;

void gbi_out_put(gbi_out *o, const char *s, size_t n);
void gbi_out_str(gbi_out *o, const char *s);
void gbi_out_u64(gbi_out *o, uint64_t v);
void gbi_out_i64(gbi_out *o, int64_t v);
/* A free-text field: nothing when empty, else quoted with quotes doubled
 * and any CR or LF written as a space, so that a row stays one line. */
void gbi_out_message(gbi_out *o, const char *m);
/* Ends the line with "\n" and a NUL: its length without the NUL, or
 * -ENOSPC (buf then holds ""). */
GB_MUST_USE int gbi_out_finish(gbi_out *o);

/* Whether s[0..len) is GB_REC_HASH_LEN lowercase hex digits. */
bool gbi_is_hash(const char *s, size_t len);
/* A bad value as a message quotes it: its first 40 bytes, escaped. */
const char *gbi_field_shown(gb_excerpt_buf *b, const char *s, size_t len);

/* The field s[0..len) of column col parsed into *out; 0 or -EINVAL with a
 * message naming col ("wall_ns: negative duration '-1'", "seed: 0 is out of
 * range 1..4294967295"); duration: the column is a time in ns. */
GB_MUST_USE int gbi_field_u64(const char *col, bool duration, const char *s, size_t len,
                              uint64_t min, uint64_t max, uint64_t *out, gb_err *err);
GB_MUST_USE int gbi_field_i64(const char *col, const char *s, size_t len, int64_t *out,
                              gb_err *err);
/* -EINVAL "col: unknown value 's' (expected a, b, c)". */
GB_MUST_USE int gbi_field_enum_error(gb_err *err, const char *col, gbi_rec_name_set names,
                                     const char *s, size_t len);
/* A hash field into out (16 lowercase hex digits and a NUL), or -EINVAL. */
GB_MUST_USE int gbi_field_hash(const char *col, const char *s, size_t len,
                               char out[GB_REC_HASH_LEN + 1], gb_err *err);
/* Free text into out[cap]: shorter than cap, no line break; or -EINVAL. */
GB_MUST_USE int gbi_field_text(const char *col, const char *s, size_t len, char *out,
                               size_t cap, gb_err *err);

/* The energy rule every row keeps (docs/records.md): with energy not ok,
 * pkg_uj, dram_uj, idle_pkg_uj and idle_dram_uj are empty; an ok run with
 * energy ok has pkg_uj, idle_ns and idle_pkg_uj, and dram_uj exactly when
 * idle_dram_uj. 0 or -EINVAL naming the column. */
typedef struct {
  gb_rec_energy energy;
  gb_rec_status status;
  gb_rec_opt_u64 pkg_uj, dram_uj, idle_ns, idle_pkg_uj, idle_dram_uj;
} gbi_row_energy;
GB_MUST_USE int gbi_row_energy_check(const gbi_row_energy *e, gb_err *err);

/* ---- suiterecords.c ---- */
/* What the rows of a suite campaign (suiterecords.c) lend its reader. */

#define GBI_SREC_COLS 29 /* columns of a suite campaign's runs.csv */

/* The name of column c (file order), or NULL out of range. */
const char *gbi_srec_column_name(size_t c);

/* Parses the GBI_SREC_COLS fields f into *row (cleared first) and checks it
 * with gb_srec_row_check. 0 or -EINVAL naming the column. */
GB_MUST_USE int gbi_srec_parse_row(const gbi_csv_field *f, gb_srec_row *row, gb_err *err);

/* One "name=value" of a params or counters column. */
typedef struct {
  char name[GB_SUITE_NAME_MAX + 1];
  char text[GB_SUITE_VALUE_TEXT_MAX]; /* the value as written */
  uint64_t value;                     /* its number (0 for a name) */
} gbi_srec_pair;

/* Parses "a=1;b=2" (s[0..len); "" is no entry) into out[0..*n): at most
 * max_pairs entries, each a suite name, '=' and a plain decimal integer
 * (no leading zero) up to max or, when names, a suite name (a named
 * parameter's value: one that does not start with a digit), no name twice
 * and, when sorted, names in byte order. 0 or -EINVAL "<col>: ...". */
GB_MUST_USE int gbi_srec_pairs_parse(const char *col, const char *s, size_t len,
                                     size_t max_pairs, uint64_t max, bool sorted, bool names,
                                     gbi_srec_pair *out, size_t *n, gb_err *err);

/* ---- settings.c ---- */
/* The half of gb_settings_check that holds for any campaign, the study's or
 * a suite's: the whole numbers (GB_SETTINGS_NUMBERS) within their bounds,
 * the energy mode and the profile in their sets. Same messages. */
GB_MUST_USE int gbi_settings_check_numbers(const gb_settings *s, gb_err *err);

/* ---- meta_codec.c ---- */
/* What the meta.json table (meta_codec.c) and the model (meta.c) share. */

/* Room for entry n of the array *arr of entries of size bytes. The capacity
 * is implied by n (0, then 4, 8, 16, ...), so appending stays linear without
 * a capacity field. 0 or -ENOMEM. */
GB_MUST_USE int gbi_meta_grow(void **arr, size_t n, size_t size);

/* The command line of argv[0..argc-1]: each argument as is, or in single
 * quotes with each quote written '\''. NULL when out of memory. */
char *gbi_meta_command_line(size_t argc, char *const *argv);

/* The table of meta.json's fields, shared with its test of coverage. */
typedef enum {
  GB_MT_STR,
  GB_MT_UINT,
  GB_MT_BOOL,
  GB_MT_ENUM,
  GB_MT_OBJECT,
  GB_MT_ARRAY,
  GB_MT_TEXT,  /* owned text (char *), an entry of a list */
  GB_MT_MASK,  /* a list of names held as a bitmask (settings.h), written in enum order */
  GB_MT_FIXED, /* a string that must be `fixed` (a format's name), held nowhere */
  GB_MT_HOOK
} gbi_meta_type;

enum {
  GB_MF_OPT = 1,          /* may be absent; with has_off, present sets that flag */
  GB_MF_TEXT = 2,         /* GB_MT_FIXED: read as GB_MT_STR (GB_META_NAME_MAX) first */
  GB_MF_NULL = 4,         /* may be null: the flag at null_off says it is not */
  GB_MF_NONEMPTY = 8,     /* a string (written) or an array (read) that must not be empty */
  GB_MF_HEAP = 32,        /* an array at a pointer, grown by gbi_meta_grow */
  GB_MF_HAS = 64,         /* has_off is set */
  GB_MF_SKIP_EMPTY = 128, /* text written only when not empty */
};

typedef struct gbi_meta_field gbi_meta_field;
typedef struct gbi_meta_jctx gbi_meta_jctx; /* where a field is read, for its messages */

struct gbi_meta_field {
  const char *key;
  gbi_meta_type type;
  unsigned flags;
  size_t off, size;          /* the value, an array's entries, or what a hook keeps */
  size_t has_off, null_off;  /* bool flags (GB_MF_HAS, GB_MF_NULL) */
  size_t n_off, max;         /* arrays: the count (size_t) and the most entries */
  gbi_rec_name_set names;    /* enums and masks, stored as unsigned */
  uint64_t min;              /* integers' lower bound */
  const gbi_meta_field *sub; /* objects: members; arrays: the entry */
  size_t n_sub;
  const char *fixed; /* GB_MT_FIXED: its one value */
  /* A field the table cannot describe (GB_MT_HOOK), read and written by hand. */
  int (*parse)(gbi_meta_jctx *j, const struct cJSON *v, const char *at, void *base);
  bool (*write)(const void *base, struct cJSON *parent, const char *key);
};

/* The table's reader and writer on any struct base that a root field (an
 * ENTRY: an object whose members are sub) describes; meta.json is one,
 * a suite campaign's meta.json another. Parse: o must be an object; its
 * members by the table, messages "<path>: <key path>: <what>". Write: a new
 * object into *out, or -EINVAL with the message of a value the reader would
 * refuse, or -ENOMEM (*out NULL). */
GB_MUST_USE int gbi_meta_table_parse(const struct cJSON *o, const gbi_meta_field *root,
                                     const char *path, void *base, gb_err *err);
GB_MUST_USE int gbi_meta_table_write(const gbi_meta_field *root, const void *base,
                                     const char *path, struct cJSON **out, gb_err *err);

/* gb_meta as one object field whose members are meta.json's fields. */
extern const gbi_meta_field gbi_meta_root[1];

/* The checks of gb_meta_check that the table holds, made by writing m with
 * it: each field's bounds, enums in range, required text and lists not
 * empty, lists without repeats and not longer than their room. 0, -EINVAL
 * naming path and the field, or -ENOMEM. */
GB_MUST_USE int gbi_meta_check_fields(const gb_meta *m, const char *path, gb_err *err);

/* ---- records_plausible.c ---- */
/* The plausibility rules of the records (docs/records.md, "Plausibility"):
 * bounds no real machine or campaign goes past, kept generous, so that an
 * impossible record is refused rather than published: temperatures from
 * -50 to 150 C, frequencies up to 10 GHz, an ok run's max RSS from 1 MiB to
 * 1 TiB, start times from 2020 to a day from now, never decreasing in a
 * file's order and inside the campaign's start and finish, and finished_at
 * not before started_at (the settings' bounds, timeout_s's among them, are
 * gb_settings_check's, which gb_meta_check applies). Internal to the
 * records reader (records_rules.c). */

/* The bounds, shared with the tests. */
#define GB_PLAUSIBLE_TEMP_MIN_MC (-50000)
#define GB_PLAUSIBLE_TEMP_MAX_MC 150000
#define GB_PLAUSIBLE_FREQ_MAX_KHZ UINT64_C(10000000)
#define GB_PLAUSIBLE_RSS_MIN_KIB UINT64_C(1024)
#define GB_PLAUSIBLE_RSS_MAX_KIB (UINT64_C(1) << 30)
#define GB_PLAUSIBLE_EPOCH_S INT64_C(1577836800) /* 2020-01-01T00:00:00Z */
#define GB_PLAUSIBLE_AHEAD_S INT64_C(86400)

/* The campaign's times, from meta.json, for the rows' checks. */
typedef struct {
  int64_t started_s, finished_s; /* finished_s: INT64_MAX while it runs */
  int64_t now_s;
  uint64_t last_ns[2]; /* by gb_rec_file: the latest start seen in each file */
} gbi_plausible;

/* meta.json's own rules into *p: started_at and finished_at within the
 * years and in order. Messages name path and the key. 0 or -EINVAL. */
GB_MUST_USE int gbi_plausible_meta(const gb_meta *m, const char *path, gbi_plausible *p,
                                   gb_err *err);

/* One row's rules (every row, ok or not): its temperatures, frequencies,
 * max RSS (the lower bound for ok rows) and start time. Messages name the
 * column and the rule; the reader adds file and line. 0 or -EINVAL. */
GB_MUST_USE int gbi_plausible_row(gbi_plausible *p, gb_rec_file which, const gb_run_row *row,
                                  gb_err *err);

/* ---- records_rules.c ---- */
/* The reader's bounds (docs/records.md, "What the reader refuses"): values
 * the harness could never have written. meta.json is checked against its own
 * settings (the plan, the pinned CPUs, one calibration entry per
 * configuration), and every row against physics and the workload: loop
 * within wall, CPU within wall x pinned CPUs, power within 1 kW per package,
 * idle energy consistent with idle time, sorts and launches as calibrated,
 * and counts and input hashes equal to what the C workload library computes,
 * cached per configuration. Internal to the stats stage. */

typedef struct gbi_rec_rules gbi_rec_rules;

/* Checks m as the rows depend on it and builds the rules in *out (free with
 * gbi_rec_rules_free). m must outlive them. Messages name meta_path and the
 * key. 0, -EINVAL, -ENOMEM; *out only on success. */
GB_MUST_USE int gbi_rec_rules_new(const gb_meta *m, const char *meta_path, gbi_rec_rules **out,
                                  gb_err *err);
void gbi_rec_rules_free(gbi_rec_rules *r);

/* One row of `which` that passed the schema and meta.json's settings:
 * bounds on ok rows, the calibrated sorts and launches of runs.csv rows,
 * counts and hashes of ok rows. Computes and caches the workload's values
 * the first time a configuration needs them. Returns 0, or -EINVAL (-ENOMEM)
 * with a message naming the column and the rule, but no file or line:
 * callers add them. */
GB_MUST_USE int gbi_rec_rules_check_row(gbi_rec_rules *r, gb_rec_file which,
                                        const gb_run_row *row, gb_err *err);

/* gb_records_parse_csv with rules built once for both files of a folder
 * (NULL: the schema and meta.json checks only). */
GB_MUST_USE int gbi_records_parse_csv_rules(const char *buf, size_t len, const char *name,
                                            gb_rec_file which, const gb_meta *meta,
                                            gbi_rec_rules *rules, gb_rec_table *t, gb_err *err);

/* ---- records_pack.c, records_unpack.c ---- */
/* What the packer and the reader of packed records folders share, and the
 * reader's limits, which the tests lower. */

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
} gbi_pack_limits;

/* 256 MiB a member, 512 MiB in all, 1024 members, a 1 MiB manifest: a
 * study's records are a few MB (docs/records.md). */
extern const gbi_pack_limits gbi_pack_default_limits;

/* Writes a canonical XXH128 (16 bytes, big-endian) as GB_PACK_HEX_LEN hex digits
 * and a NUL. */
void gbi_pack_hex(const void *digest16, char out[GB_PACK_HEX_LEN + 1]);

/* The files of a packed folder that the readers read, each in an anonymous
 * memory file (-1 when the archive holds none): the study's three and a
 * suite campaign's suite.json. */
enum { GBI_KEPT_META, GBI_KEPT_RUNS, GBI_KEPT_WARMUPS, GBI_KEPT_SUITE, GBI_KEPT_N };
typedef struct {
  int fd[GBI_KEPT_N];
  char top[GB_PACK_TOP_MAX + 1];              /* the archive's top folder */
  char shown[PATH_MAX + GB_PACK_TOP_MAX + 2]; /* "<path>:<top>", as the readers' dir */
} gbi_unpacked;

/* Reads the archive at path whole, within lim, every member checked against
 * the manifest (docs/records.md, "Packing a records folder"), keeping the
 * files above. 0 with out's descriptors open (close with gbi_unpacked_close);
 * -EINVAL, -EFBIG or -errno with one line, nothing open. */
GB_MUST_USE int gbi_pack_unpack(const char *path, const gbi_pack_limits *lim, gbi_unpacked *out,
                                gb_err *err);
void gbi_unpacked_close(gbi_unpacked *u);
/* 0 when the archive held kept file k; else -ENOENT, "<path>: no TOP/<file>
 * in the archive". */
GB_MUST_USE int gbi_unpacked_need(const gbi_unpacked *u, const char *path, int k, gb_err *err);

/* gb_records_read_path of a packed folder, within lim. */
GB_MUST_USE int gbi_records_read_archive(const char *path, const gbi_pack_limits *lim,
                                         gb_records **out, gb_err *err);

/* ---- suiterecords_read.c ---- */
/* gb_srec_read on the kept files of a packed folder (gbi_pack_unpack; every
 * one of meta.json, suite.json, runs.csv and warmups.csv there), named
 * "<archive>:<top>/<file>" in messages. */
GB_MUST_USE int gbi_srec_read_unpacked(const gbi_unpacked *u, gb_srec_records **out,
                                       gb_err *err);
/* Whether text is a JSON object whose "format" is GB_SUITE_RECORDS_FORMAT. */
bool gbi_srec_is_suite_meta(const char *text, size_t len);

/* ---- suitefile_template.c ---- */
/* The pieces of a template string, one at a time. */
typedef enum {
  GBI_PIECE_END,        /* nothing left */
  GBI_PIECE_TEXT,       /* literal text p[0..n) ("{{" and "}}" give one brace) */
  GBI_PIECE_NAME,       /* a placeholder: its name p[0..n), braces left out */
  GBI_PIECE_UNCLOSED,   /* a "{" with no "}" before the next "{" or the end; p[0..n) the rest */
  GBI_PIECE_LONE_CLOSE, /* a single "}" */
} gbi_piece_kind;

/* The next piece of the template string at *s, which it advances. */
gbi_piece_kind gbi_suite_next_piece(const char **s, const char **p, size_t *n);

#endif
