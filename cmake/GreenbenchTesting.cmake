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

# gb_add_test_binaries(<prefix> LINK <library>... [LABELS <label>...]
#                      [DEFINITIONS <NAME=value>...] [DEPENDS <target>...]
#                      [TESTS <test_x.c>...] [HELPERS <helper.c>...])
#
# One Criterion binary <prefix>_test_<x> for each tests/test_<x>.c of the
# calling folder (or each one named in TESTS), built with every
# tests/helper_*.c beside it and the HELPERS (another folder's test helpers,
# whose folders go on the include path too), the folder's src/ and tests/ on
# its include path and the project's warnings, and registered test by test
# with gb_add_criterion_tests.
function(gb_add_test_binaries prefix)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LINK;LABELS;DEFINITIONS;DEPENDS;TESTS;HELPERS")
  if(arg_TESTS)
    list(TRANSFORM arg_TESTS PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/tests/ OUTPUT_VARIABLE tests)
  else()
    file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/test_*.c)
  endif()
  file(GLOB helpers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/helper_*.c)
  set(helper_dirs "")
  foreach(helper IN LISTS arg_HELPERS)
    get_filename_component(dir ${helper} DIRECTORY)
    list(APPEND helper_dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES helper_dirs)
  if(NOT tests)
    message(FATAL_ERROR "gb_add_test_binaries: no tests/test_*.c in ${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  foreach(src IN LISTS tests)
    get_filename_component(name ${src} NAME_WE)
    set(target ${prefix}_${name})
    add_executable(${target} ${src} ${helpers} ${arg_HELPERS})
    target_include_directories(${target} PRIVATE src tests ${helper_dirs})
    target_link_libraries(${target} PRIVATE ${arg_LINK} PkgConfig::CRITERION)
    target_compile_options(${target} PRIVATE ${GB_WARNINGS})
    target_compile_definitions(${target} PRIVATE ${arg_DEFINITIONS})
    if(arg_DEPENDS)
      add_dependencies(${target} ${arg_DEPENDS})
    endif()
    gb_add_criterion_tests(${target} LABELS ${arg_LABELS})
  endforeach()
endfunction()

# gb_add_fuzz_targets(SOURCES <library source>... LINK <library>...)
#
# One libFuzzer binary per fuzz/fuzz_*.c of the calling folder, compiled
# together with SOURCES (so the code under test is instrumented too), with
# the project's warnings, AddressSanitizer and UndefinedBehaviorSanitizer;
# all of them are built by the target `fuzz` (ci/fuzz).
function(gb_add_fuzz_targets)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "SOURCES;LINK")
  file(GLOB targets CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_*.c)
  foreach(src IN LISTS targets)
    get_filename_component(name ${src} NAME_WE)
    add_executable(${name} ${src} ${arg_SOURCES})
    target_include_directories(${name} PRIVATE include src)
    target_link_libraries(${name} PRIVATE ${arg_LINK})
    target_compile_options(${name} PRIVATE ${GB_WARNINGS} -fsanitize=fuzzer,address,undefined -g)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    add_dependencies(fuzz ${name})
  endforeach()
endfunction()
