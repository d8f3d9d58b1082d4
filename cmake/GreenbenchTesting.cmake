# gb_add_criterion_tests(<target> LABELS <label>... [ENVIRONMENT <VAR=value>...]
#                        [TIMEOUT <seconds>])
#
# Registers every Criterion test in <target> as its own CTest test, so the count
# CTest prints is the real number of tests. Like gtest_discover_tests, the list
# is read from the built binary (`--list`) after each build. A binary that lists
# no test, or a filtered run that reports "Tested: 0", fails instead of passing;
# a test that skips itself (cr_skip_test) is reported by CTest as skipped, with
# Criterion's "[SKIP] suite::test: <reason>" line in its output.
set(GB_DISCOVER_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/GreenbenchDiscover.cmake)

function(gb_add_criterion_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TIMEOUT" "LABELS;ENVIRONMENT")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()
  set(ctest_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_tests.cmake)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND}
      -D "TEST_EXECUTABLE=$<TARGET_FILE:${target}>"
      -D "TEST_TARGET=${target}"
      -D "CTEST_FILE=${ctest_file}"
      -D "TEST_LABELS=${arg_LABELS}"
      -D "TEST_ENVIRONMENT=${arg_ENVIRONMENT}"
      -D "TEST_TIMEOUT=${arg_TIMEOUT}"
      -P ${GB_DISCOVER_SCRIPT}
    BYPRODUCTS ${ctest_file}
    VERBATIM)
  # A binary that was never built must fail, not vanish from the count.
  set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake)
  file(WRITE ${include_file}
    "if(EXISTS [=[${ctest_file}]=])\n"
    "  include([=[${ctest_file}]=])\n"
    "else()\n"
    "  add_test([=[${target}/NOT_BUILT]=] [=[${CMAKE_COMMAND}]=] -E echo [=[${target} was not built]=])\n"
    "  set_tests_properties([=[${target}/NOT_BUILT]=] PROPERTIES WILL_FAIL TRUE LABELS [=[${arg_LABELS}]=])\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
