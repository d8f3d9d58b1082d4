/* Carbon arithmetic and the strict intensity table loader. Bad files are
 * written to a fresh temporary folder. */
#include "greenbench/carbon.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

Test(carbon, grams_arithmetic) {
  /* 3.6e12 uJ is 3.6e6 J, one kWh: at 500 g/kWh, 500 g. */
  cr_assert_float_eq(gb_carbon_grams(3.6e12, 500.0), 500.0, 1e-9);
  /* A 2 J sort at the UK's 217.41 g/kWh: 2e6 / 3.6e12 x 217.41 g. */
  cr_assert_float_eq(gb_carbon_grams(2e6, 217.41), 1.2078333333333333e-4, 1e-16);
  cr_assert_eq(gb_carbon_grams(0.0, 500.0), 0.0);
  cr_assert(isnan(gb_carbon_grams(NAN, 500.0)));
}

Test(carbon, shipped_table_latest_years) {
  gb_carbon_table t;
  gb_err err = {{0}};
  char path[PATH_MAX];
  cr_assert_eq(gb_carbon_default_path(path, sizeof path, &err), 0, "%s", err.msg);
  cr_assert_eq(gb_carbon_load(path, &t, &err), 0, "%s", err.msg);
  cr_assert_eq(t.n, 27);
  gb_intensity r;
  cr_assert_eq(gb_carbon_find(&t, "are", &r, &err), 0, "%s", err.msg);
  cr_assert_str_eq(r.region, "United Arab Emirates");
  cr_assert_eq(r.year, 2024);
  cr_assert_eq(r.g_per_kwh, 467.510);
  cr_assert_eq(gb_carbon_find(&t, "United Kingdom", &r, &err), 0);
  cr_assert_str_eq(r.code, "GBR");
  cr_assert_eq(r.year, 2025);
  cr_assert_eq(r.g_per_kwh, 217.410);
  cr_assert_eq(gb_carbon_find(&t, "owid_wrl", &r, &err), 0);
  cr_assert_eq(r.year, 2025);
  cr_assert_eq(gb_carbon_find(&t, "united kingdom", &r, &err), -ENOENT,
               "names match exactly; only codes ignore case");
  cr_assert(strstr(err.msg, "united kingdom"), "%s", err.msg);
  gb_carbon_free(&t);
  cr_assert_null(t.rows);
}

static char dir[64];

static void make_dir(void) {
  snprintf(dir, sizeof dir, "%s", "/tmp/gb-carbon-XXXXXX");
  cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) {
  const char *names[] = {"good.csv", "bad.csv"};
  char path[128];
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    (void)unlink(path); /* a test writes one or the other */
  }
  cr_assert_eq(rmdir(dir), 0);
}

/* Writes content to a file in the temporary folder; returns its path. */
static const char *write_file(const char *name, const char *content, size_t len) {
  static char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  cr_assert_not_null(f);
  cr_assert_eq(fwrite(content, 1, len, f), len);
  cr_assert_eq(fclose(f), 0);
  return path;
}

#define HDR "region,code,year,g_co2e_per_kwh\n"

static void expect_bad(const char *content, size_t len, const char *where, const char *what) {
  const char *path = write_file("bad.csv", content, len);
  gb_carbon_table t = {.n = 99};
  gb_err err = {{0}};
  cr_assert_eq(gb_carbon_load(path, &t, &err), -EINVAL, "accepted: %s", content);
  cr_assert(strstr(err.msg, path) && strstr(err.msg, where) && strstr(err.msg, what),
            "message '%s' lacks '%s' or '%s'", err.msg, where, what);
  cr_assert_eq(t.n, 99, "out-param set on failure");
}

#define BAD(content, where, what) expect_bad(content, sizeof content - 1, where, what)

Test(carbon, good_file_crlf_and_no_final_newline, .init = make_dir, .fini = remove_dir) {
  const char text[] = "region,code,year,g_co2e_per_kwh\r\nLab,LAB,2020,100\r\n"
                      "Lab,LAB,2023,1.5e2\r\nLab,LAB,2021,90.25";
  gb_carbon_table t;
  gb_err err = {{0}};
  cr_assert_eq(gb_carbon_load(write_file("good.csv", text, sizeof text - 1), &t, &err), 0, "%s",
               err.msg);
  cr_assert_eq(t.n, 3);
  cr_assert_eq(t.rows[2].g_per_kwh, 90.25);
  gb_intensity r;
  cr_assert_eq(gb_carbon_find(&t, "lab", &r, &err), 0);
  cr_assert_eq(r.year, 2023);
  cr_assert_eq(r.g_per_kwh, 150.0);
  gb_carbon_free(&t);
}

Test(carbon, bad_files_name_file_and_line, .init = make_dir, .fini = remove_dir) {
  BAD("region,code,year,intensity\nA,AAA,2020,1\n", ":1:", "header");
  BAD(HDR, ":1:", "no intensity rows");
  BAD(HDR "A,AAA,2020,1\n\nB,BBB,2020,1\n", ":3:", "4 fields");
  BAD(HDR "A,AAA,2020\n", ":2:", "4 fields");
  BAD(HDR "A,AAA,2020,1,2\n", ":2:", "4 fields");
  BAD(HDR "\"A, B\",AAA,2020,1\n", ":2:", "quoted");
  BAD(HDR " A,AAA,2020,1\n", ":2:", "region");
  BAD(HDR "A,A-A,2020,1\n", ":2:", "code");
  BAD(HDR "A,,2020,1\n", ":2:", "code");
  BAD(HDR "A,AAA,20x0,1\n", ":2:", "year");
  BAD(HDR "A,AAA,1800,1\n", ":2:", "year");
  BAD(HDR "A,AAA,2020,\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,-5\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,0\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,inf\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,nan\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,0x10\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,1e999\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,1.2.3\n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,12 \n", ":2:", "g_co2e_per_kwh");
  BAD(HDR "A,AAA,2020,1\nA,AAA,2021,1\nA,AAA,2020,2\n", ":4:", "duplicate");
  BAD(HDR "A,AAA,2020,1\nB,AAA,2021,1\n", ":3:", "one region");
  BAD(HDR "A,AAA,2020,1\nA,BBB,2021,1\n", ":3:", "one region");
  BAD(HDR "A,AAA,2020,1\nA,A\0A,2021,1\n", ":3:", "NUL");
}

Test(carbon, missing_file) {
  gb_carbon_table t;
  gb_err err = {{0}};
  cr_assert_eq(gb_carbon_load("/nonexistent/greenbench.csv", &t, &err), -ENOENT);
  cr_assert(strstr(err.msg, "/nonexistent/greenbench.csv"), "%s", err.msg);
}

Test(carbon, custom_intensity) {
  gb_intensity r = {.g_per_kwh = -1};
  gb_err err = {{0}};
  cr_assert_eq(gb_carbon_parse_custom("lab=123.5", &r, &err), 0, "%s", err.msg);
  cr_assert_str_eq(r.region, "lab");
  cr_assert_str_eq(r.code, "");
  cr_assert_eq(r.year, 0);
  cr_assert_eq(r.g_per_kwh, 123.5);
  cr_assert_eq(gb_carbon_parse_custom("Solar farm=2e1", &r, &err), 0);
  cr_assert_eq(r.g_per_kwh, 20.0);
  const char *bad[] = {"lab",    "=100",    "lab=",   "lab=0",  "lab=-3", "lab=inf",  "lab=nan",
                       "lab=1x", "lab=1=2", "lab= 5", " lab=5", "a,b=5",  "lab=1e400"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    r.g_per_kwh = -1;
    cr_assert_eq(gb_carbon_parse_custom(bad[i], &r, &err), -EINVAL, "accepted '%s'", bad[i]);
    cr_assert(strstr(err.msg, bad[i]), "message '%s' does not name '%s'", err.msg, bad[i]);
    cr_assert_eq(r.g_per_kwh, -1, "out-param set on failure");
  }
}
