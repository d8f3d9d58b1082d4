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
install(PROGRAMS workers/python/worker.py DESTINATION ${GB_INSTALL_LIBEXECDIR}/python)
install(FILES workers/node/worker.js workers/node/package.json workers/node/package-lock.json
        DESTINATION ${GB_INSTALL_LIBEXECDIR}/node)
if(NOT EXISTS ${PROJECT_SOURCE_DIR}/workers/node/node_modules/xxhash-wasm)
  message(WARNING "workers/node/node_modules lacks xxhash-wasm: run `npm ci` in workers/node "
                  "before installing, or the installed Node.js worker cannot hash its input")
endif()
install(DIRECTORY workers/node/node_modules DESTINATION ${GB_INSTALL_LIBEXECDIR}/node
        USE_SOURCE_PERMISSIONS)

# The carbon data with its attribution, and the JUnit schema.
install(DIRECTORY stats/data/ DESTINATION ${GB_INSTALL_DATADIR}/data)
install(FILES stats/schema/greenbench-junit.xsd DESTINATION ${GB_INSTALL_DATADIR}/schema)

# The documentation, laid out as in the repository so that its links hold.
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
if(EXISTS ${PROJECT_SOURCE_DIR}/CHANGELOG.md)
  install(FILES CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()
file(GLOB GB_DOC_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md ${PROJECT_SOURCE_DIR}/docs/*.svg)
install(FILES ${GB_DOC_PAGES} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
file(GLOB GB_DOC_ADRS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/adr/*.md)
install(FILES ${GB_DOC_ADRS} DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs/adr)
# The scheduler recipes docs/many-machines.md links to.
install(DIRECTORY docs/recipes/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs/recipes)

# Man pages and bash completion (bash-completion loads a command's file by
# the command's name).
install(FILES docs/man/greenbench.1 docs/man/greenbench-suite.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
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

# ---- The Debian package -------------------------------------------------------
# Depends names the runtime packages of the libraries the binaries link, as
# Debian 12 names them (dpkg -S of the .so files of the -dev packages), at
# least the versions built against. Debian 12's nodejs is 18, older than the
# 20 the Node.js worker is tested with: the package depends on nodejs alone,
# says so in its description, and `greenbench check` names the version found.
set(GB_DEB_MAINTAINER "The greenbench authors <greenbench@example.org>" CACHE STRING
    "Maintainer field of the Debian package (name <address>)")
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
set(CPACK_DEBIAN_PACKAGE_DEPENDS
  "libc6 (>= 2.34), libcriterion3 (>= ${CRITERION_VERSION}), libcjson1 (>= ${CJSON_VERSION}), libxxhash0 (>= ${XXHASH_VERSION}), libhwloc15 (>= ${HWLOC_VERSION}), libarchive13 (>= ${LIBARCHIVE_VERSION}), python3, python3-xxhash, nodejs")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "linux-cpupower, hyperfine")
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
(--languages c,python). Energy is read from /sys/class/powercap, readable by
root: run `sudo greenbench run --profile study`.")
include(CPack)

add_subdirectory(tests/install) # label install
