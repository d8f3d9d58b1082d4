# Debian's hardening flags (ADR 0017), included by the top-level CMakeLists.txt
# before any target: dpkg-buildflags with every hardening feature on (stack
# protector, _FORTIFY_SOURCE, format checks, RELRO and BIND_NOW; PIE is gcc's
# default on Debian). Only its hardening and path flags are taken: the build
# type keeps choosing -O and -g, and the workers stay at -O2 (GB_WORKER_OPT).
# Off where dpkg-buildflags is missing, in sanitizer and fuzz builds, and in
# unoptimised builds (_FORTIFY_SOURCE needs optimisation and warns without it).
find_program(GB_DPKG_BUILDFLAGS_PROGRAM dpkg-buildflags)
set(gb_hardening_default OFF)
if(GB_DPKG_BUILDFLAGS_PROGRAM AND NOT GB_SANITIZE AND NOT GB_FUZZ
   AND CMAKE_BUILD_TYPE MATCHES "^(Release|RelWithDebInfo|MinSizeRel)$")
  set(gb_hardening_default ON)
endif()
option(GB_HARDENING "Compile and link with dpkg-buildflags' hardening flags" ${gb_hardening_default})

if(GB_HARDENING)
  if(NOT GB_DPKG_BUILDFLAGS_PROGRAM)
    message(FATAL_ERROR "GB_HARDENING needs dpkg-buildflags (package dpkg-dev)")
  endif()
  foreach(kind CPPFLAGS CFLAGS LDFLAGS)
    # The working folder is the source tree, so that -ffile-prefix-map maps
    # it to "." and no binary holds the source tree's path.
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env DEB_BUILD_MAINT_OPTIONS=hardening=+all
              ${GB_DPKG_BUILDFLAGS_PROGRAM} --get ${kind}
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
    separate_arguments(flags UNIX_COMMAND "${flags}")
    list(FILTER flags EXCLUDE REGEX "^-(O.*|g)$")
    set(GB_HARDENING_${kind} ${flags})
  endforeach()
  add_compile_options(${GB_HARDENING_CPPFLAGS} ${GB_HARDENING_CFLAGS})
  add_link_options(${GB_HARDENING_LDFLAGS})
  message(STATUS "Hardening flags (dpkg-buildflags): ${GB_HARDENING_CPPFLAGS} ${GB_HARDENING_CFLAGS} "
                 "${GB_HARDENING_LDFLAGS}")
endif()
