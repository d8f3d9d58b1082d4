# cmake -D SOURCE_DIR=<dir> -D OUT=<header> -P git_commit.cmake
#
# Writes OUT, a C header defining GB_GIT_COMMIT: the commit SOURCE_DIR is
# checked out at (`git rev-parse --short=12 HEAD`), with "-dirty" when a
# tracked file differs from it, or "unknown" when SOURCE_DIR is not the top of
# a git checkout (a release tarball unpacked anywhere, even inside another
# repository) or git cannot tell. OUT is left untouched when its text would
# not change, so nothing is recompiled at the same commit.
set(commit unknown)
find_program(GB_GIT git)
if(GB_GIT)
  execute_process(COMMAND ${GB_GIT} -C ${SOURCE_DIR} rev-parse --show-toplevel
    OUTPUT_VARIABLE top RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    file(REAL_PATH "${top}" top)
    file(REAL_PATH "${SOURCE_DIR}" source)
  endif()
  if(rc EQUAL 0 AND top STREQUAL source)
    execute_process(COMMAND ${GB_GIT} -C ${SOURCE_DIR} rev-parse --short=12 HEAD
      OUTPUT_VARIABLE head RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    # --no-optional-locks: never take the index lock of a tree others work in.
    execute_process(COMMAND ${GB_GIT} -C ${SOURCE_DIR} --no-optional-locks status --porcelain
                            --untracked-files=no
      OUTPUT_VARIABLE changes RESULT_VARIABLE status_rc ERROR_QUIET)
    if(rc EQUAL 0 AND status_rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
      set(commit ${head})
      if(NOT changes STREQUAL "")
        string(APPEND commit -dirty)
      endif()
    endif()
  endif()
endif()
set(text "/* Written by version/git_commit.cmake on every build. */\n#define GB_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
