# Run by gb_add_criterion_tests after a build: turns `<exe> --list` into one
# add_test per Criterion test. A test that runs nothing ("Tested: 0") fails;
# one that skips itself is reported by CTest as skipped. Criterion 2.4.1 prints
#   suite: N tests
#   ├── name
#   └── name
# under a UTF-8 locale, and under any other (LANG=C, LC_ALL=POSIX, a fresh
# container) the same tree in ASCII:
#   |-- name
#   `-- name
# Both are read, so the tests found never depend on the build's locale
# (suite_discovery_locales checks it; ADR 0016).
execute_process(COMMAND "${TEST_EXECUTABLE}" --list
  OUTPUT_VARIABLE listing ERROR_VARIABLE listing_err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --list failed (${rc}): ${listing_err}")
endif()

set(out "")
set(count 0)
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(line MATCHES "^([A-Za-z0-9_]+): [0-9]+ tests?$")
    set(suite "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^(├──|└──|\\|--|`--) ([A-Za-z0-9_]+)$")
    set(name "${suite}/${CMAKE_MATCH_2}")
    math(EXPR count "${count} + 1")
    # --verbose makes Criterion print "[SKIP] suite::test: <reason>" when the
    # test skips itself; CTest then reports it as skipped (the reason is in
    # its output), not as the failure "Tested: 0" would otherwise give.
    string(APPEND out
      "add_test([=[${name}]=] [=[${TEST_EXECUTABLE}]=] --verbose --filter [=[${name}]=])\n"
      "set_tests_properties([=[${name}]=] PROPERTIES\n"
      "  LABELS [=[${TEST_LABELS}]=]\n"
      "  TIMEOUT ${TEST_TIMEOUT}\n"
      "  SKIP_REGULAR_EXPRESSION [=[\\[SKIP\\] ${suite}::${CMAKE_MATCH_2}: ]=]\n"
      "  FAIL_REGULAR_EXPRESSION [=[Tested: 0 ]=]\n"
      "  ENVIRONMENT [=[${TEST_ENVIRONMENT}]=])\n")
  endif()
endforeach()

if(count EQUAL 0)
  # A binary with no test must not count as a pass.
  string(APPEND out
    "add_test([=[${TEST_TARGET}/no_tests]=] ${CMAKE_COMMAND} -E false)\n"
    "set_tests_properties([=[${TEST_TARGET}/no_tests]=] PROPERTIES LABELS [=[${TEST_LABELS}]=])\n")
endif()
file(WRITE "${CTEST_FILE}" "${out}")
