/* The tests' own reading of the contract line refuses what the contract does
 * not allow, so that a program printing such a line fails its tests. */
#include <criterion/criterion.h>
#include <string.h>

#include "contract_check.h"

#define GOOD_COUNTERS "\"counters\":{\"advances\":1000,\"pairs\":10000}"
#define GOOD_HASHES "\"input_hash\":\"0123456789abcdef\",\"output_hash\":\"fedcba9876543210\""
#define GOOD                                                                                   \
  "{\"loop_ns\":123456," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"gcc 12.2.0\"}\n"

static const char *problem_of(const char *line, bool startup) {
  cJSON *j = NULL;
  const char *p = contract_problem(line, strlen(line), startup, &j);
  cJSON_Delete(j);
  return p;
}

Test(contract_check, takes_the_contract_lines) {
  cr_expect_null(problem_of(GOOD, false));
  cr_expect_null(problem_of("{\"runtime\":\"Lua 5.3\",\"startup_only\":true,"
                            "\"input_hash\":\"0123456789abcdef\"}\n",
                            true));
  cr_expect_null(
      problem_of("{\"loop_ns\":0,\"counters\":{}," GOOD_HASHES ",\"runtime\":\"x\"}\n", false));
}

Test(contract_check, refuses_what_the_contract_does_not_allow) {
  static const char *const bad[] = {
      "",
      GOOD GOOD,
      " " GOOD,
      "{\"loop_ns\":1," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\"} \n",
      "{\"loop_ns\":1," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\"}",
      "{\"loop_ns\":1," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\",\"extra\":1}\n",
      "{\"loop_ns\":1," GOOD_COUNTERS "," GOOD_HASHES "}\n",
      "{\"loop_ns\":1,\"loop_ns\":1," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":-1," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1.5," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":9007199254740992," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":\"1\"," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1,\"counters\":{\"Advances\":1}," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1,\"counters\":{\"a\":1,\"a\":1}," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1,\"counters\":{\"a\":1,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":1,\"g\":1,"
      "\"h\":1,"
      "\"i\":1}," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1,\"counters\":[1]," GOOD_HASHES ",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1," GOOD_COUNTERS ",\"input_hash\":\"0123456789ABCDEF\","
      "\"output_hash\":\"fedcba9876543210\",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1," GOOD_COUNTERS ",\"input_hash\":\"0123456789abcde\","
      "\"output_hash\":\"fedcba9876543210\",\"runtime\":\"x\"}\n",
      "{\"loop_ns\":1," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"\"}\n",
      "{\"loop_ns\":1," GOOD_COUNTERS "," GOOD_HASHES ",\"runtime\":\"tab\\there\"}\n",
      "[1]\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_expect_not_null(problem_of(bad[i], false), "taken, but breaks the contract: %s", bad[i]);
  cr_expect_not_null(problem_of(GOOD, true), "a measured line taken as a startup line");
  cr_expect_not_null(problem_of("{\"startup_only\":false,\"input_hash\":\"0123456789abcdef\","
                                "\"runtime\":\"x\"}\n",
                                true));
}
