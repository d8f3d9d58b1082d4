# Install rules and the Debian package (CPack), included by the top-level
# CMakeLists.txt once every target exists. The installed binaries find their
# files relative to themselves (ADR 0010): no path of the source or build
# tree is compiled into them, and the tests in tests/install/ check it.
#
#   cmake --install build --prefix P      P/bin, P/libexec/greenbench, P/share/...
#   cd build && cpack -G DEB              greenbench_<version>_<arch>.deb

# The commands.
install(TARGETS greenbench greenbench-suite RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The workers, and the Node.js worker's locked npm dependencies (`npm ci` in
# workers/node, which ci/setup runs).
install(TARGETS worker-c RUNTIME DESTINATION ${GB_INSTALL_LIBEXECDIR})
# A stripping install (cmake --install --strip, and CPack's
# CPACK_STRIP_FILES) also drops the compiler's .comment and .note sections,
# as Debian's dh_strip does; a plain install leaves the binaries as built.
install(CODE "
  if(CMAKE_INSTALL_DO_STRIP)
    foreach(binary bin/greenbench bin/greenbench-suite ${GB_INSTALL_LIBEXECDIR}/worker-c)
      execute_process(COMMAND \"${CMAKE_STRIP}\" --remove-section=.comment --remove-section=.note
                              \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/\${binary}\"
                      COMMAND_ERROR_IS_FATAL ANY)
    endforeach()
  endif()")
install(PROGRAMS workers/python/worker.py DESTINATION ${GB_INSTALL_LIBEXECDIR}/python)
install(FILES workers/node/worker.js workers/node/package.json workers/node/package-lock.json
        DESTINATION ${GB_INSTALL_LIBEXECDIR}/node)
if(NOT EXISTS ${PROJECT_SOURCE_DIR}/workers/node/node_modules/xxhash-wasm)
  message(WARNING "workers/node/node_modules lacks xxhash-wasm: run `npm ci` in workers/node "
                  "before installing, or the installed Node.js worker cannot hash its input")
endif()
# Without the npm packages' own README and licence files: the licence is in
# the copyright file, and Debian keeps documentation in /usr/share/doc.
install(DIRECTORY workers/node/node_modules DESTINATION ${GB_INSTALL_LIBEXECDIR}/node
        USE_SOURCE_PERMISSIONS
        REGEX "/(README|LICENSE|LICENCE|CHANGELOG)(\\.[a-z]+)?$" EXCLUDE)

# The built-in sorting suite (docs/suites.md, "The study as a suite"): its
# {workers} is libexec/greenbench.
install(FILES suites/sorting.json DESTINATION ${GB_INSTALL_DATADIR}/suites)
# The carbon data with its attribution, the JUnit schema, and the JSON
# Schemas of summary.json, compare.json, meta.json and `check --json`, and of
# the suite path: a suite file, its meta.json, summary.json and compare.json;
# the JUnit XML Schemas, the study's and a suite campaign's.
install(DIRECTORY stats/data/ DESTINATION ${GB_INSTALL_DATADIR}/data)
install(FILES stats/schema/greenbench-junit.xsd stats/schema/greenbench-suite-junit.xsd
              stats/schema/summary.schema.json
              stats/schema/compare.schema.json stats/schema/meta.schema.json
              stats/schema/check.schema.json stats/schema/suite.schema.json
              stats/schema/suite-meta.schema.json stats/schema/suite-summary.schema.json
              stats/schema/suite-compare.schema.json
        DESTINATION ${GB_INSTALL_DATADIR}/schema)

# The documentation, laid out as in the repository so that its links hold.
# The licence's text is in the copyright file below.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
if(EXISTS ${PROJECT_SOURCE_DIR}/CHANGELOG.md)
  install(FILES CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()
file(GLOB GB_DOC_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md ${PROJECT_SOURCE_DIR}/docs/*.svg)
install(FILES ${GB_DOC_PAGES} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
file(GLOB GB_DOC_ADRS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/adr/*.md)
install(FILES ${GB_DOC_ADRS} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs/adr)
# The scheduler recipes docs/many-machines.md links to, executable: they are
# examples (Debian keeps executables under /usr/share/doc only in examples/),
# and docs/recipes points there so that the docs' links hold.
install(DIRECTORY docs/recipes/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples
        USE_SOURCE_PERMISSIONS PATTERN .yamllint EXCLUDE)
install(CODE "file(CREATE_LINK ../examples
  \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}/docs/recipes\" SYMBOLIC)")

# Man pages, compressed as Debian wants them (gzip -9n: no name or time
# stamp, so the same page gives the same bytes), and bash completion
# (bash-completion loads a command's file by the command's name).
set(GB_MAN_GZ "")
foreach(page greenbench.1 greenbench-suite.1)
  set(gz ${PROJECT_BINARY_DIR}/packaging/man/${page}.gz)
  add_custom_command(OUTPUT ${gz}
    COMMAND ${CMAKE_COMMAND} -E copy ${PROJECT_SOURCE_DIR}/docs/man/${page}
            ${PROJECT_BINARY_DIR}/packaging/man/${page}
    COMMAND gzip -9nf ${PROJECT_BINARY_DIR}/packaging/man/${page}
    DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/${page} VERBATIM)
  list(APPEND GB_MAN_GZ ${gz})
endforeach()
install(FILES ${GB_MAN_GZ} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The package's changelog in Debian's format, compressed (the package is
# native: greenbench builds its own package, ADR 0017). Its one entry is this
# version, dated by the source's last commit (a release tarball: the time of
# configuration, or SOURCE_DATE_EPOCH); the changes themselves are
# CHANGELOG.md's.
set(GB_DEB_MAINTAINER "The greenbench authors <greenbench@example.org>" CACHE STRING
    "Maintainer field of the Debian package (name <address>)")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env TZ=UTC LC_ALL=C git log -1 --format=%cd
          "--date=format-local:%a, %d %b %Y %H:%M:%S +0000"
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
  OUTPUT_VARIABLE GB_DEB_DATE OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE git_rc)
if(NOT git_rc EQUAL 0 OR GB_DEB_DATE STREQUAL "")
  string(TIMESTAMP GB_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
endif()
set(GB_DEB_CHANGELOG ${PROJECT_BINARY_DIR}/packaging/changelog)
file(CONFIGURE OUTPUT ${GB_DEB_CHANGELOG} CONTENT
"greenbench (${PROJECT_VERSION}) unstable; urgency=medium

  * Release ${PROJECT_VERSION}, packaged by greenbench's own build with CPack.
    The changes are listed in CHANGELOG.md beside this file.

 -- ${GB_DEB_MAINTAINER}  ${GB_DEB_DATE}
")
add_custom_command(OUTPUT ${GB_DEB_CHANGELOG}.gz
  COMMAND gzip -9nkf ${GB_DEB_CHANGELOG}
  DEPENDS ${GB_DEB_CHANGELOG} VERBATIM)
install(FILES ${GB_DEB_CHANGELOG}.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
add_custom_target(gb_packaging ALL DEPENDS ${GB_MAN_GZ} ${GB_DEB_CHANGELOG}.gz)
foreach(command greenbench greenbench-suite)
  install(FILES completion/${command}.bash RENAME ${command}
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
endforeach()

# The copyright file in Debian's machine-readable format, made from LICENSE
# and the attributions of the shipped data and npm package.
set(GB_COPYRIGHT ${PROJECT_BINARY_DIR}/packaging/copyright)
execute_process(
  COMMAND ${CMAKE_COMMAND} -D SOURCE_DIR=${PROJECT_SOURCE_DIR} -D OUT=${GB_COPYRIGHT}
          -P ${CMAKE_CURRENT_LIST_DIR}/debian-copyright.cmake
  COMMAND_ERROR_IS_FATAL ANY)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/LICENSE
  ${PROJECT_SOURCE_DIR}/workers/node/node_modules/xxhash-wasm/LICENSE.md
  ${CMAKE_CURRENT_LIST_DIR}/debian-copyright.cmake)
install(FILES ${GB_COPYRIGHT} DESTINATION ${CMAKE_INSTALL_DOCDIR})
# lintian's notes that stay, each with its reason (docs/packaging.md).
install(FILES packaging/lintian-overrides RENAME greenbench
        DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides)

# ---- The Debian package -------------------------------------------------------
# CPack, not a debian/ folder (ADR 0017). Depends: dpkg-shlibdeps computes
# the libraries' packages from the binaries; the interpreters the workers run
# with are named here. Debian 12's nodejs is 18, older than the 20 the
# Node.js worker is tested with: the package depends on nodejs alone, says so
# in its description, and `greenbench check` names the version found.
# Suggests: what the installed files use when it is there (bash completion)
# or what the docs tell the user to run (cpupower sets the governor); nothing
# the package runs itself is optional, so there is no Recommends.
set(CPACK_PACKAGE_NAME greenbench)
set(CPACK_PACKAGE_VENDOR "The greenbench authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "measures whether run time is a good stand-in for processor energy")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${GB_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-xxhash, nodejs")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "bash-completion, linux-cpupower")
# The first line of Description is the summary above; this is the rest.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "Three sorting algorithms (bubble, insertion, quick), ported line for line to
C, Python and Node.js, sort identical inputs. The greenbench command measures
every configuration as separate processes with the RAPL energy counters and a
raw monotonic clock, and reports medians with bootstrap confidence intervals
as Markdown, an SVG chart and JUnit XML. greenbench-suite runs the study as a
Criterion test suite.
.
The Node.js worker is tested with Node.js 20 or later; Debian 12's nodejs is
18. `greenbench check` names the version it finds: install Node.js 20 (for
example from NodeSource) and pass --node PATH, or measure C and Python only
(the --languages option). Energy is read from /sys/class/powercap, readable by
root: run `sudo greenbench run --profile study`.")
include(CPack)

add_subdirectory(tests/install) # label install
