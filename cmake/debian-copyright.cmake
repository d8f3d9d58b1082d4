# Writes OUT, the Debian package's copyright file in the machine-readable
# format (https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/),
# from SOURCE_DIR's LICENSE, the carbon data's attribution (stats/data/README.md)
# and the npm package's licence. Run by cmake -P at configure time.

# A licence's text as a field's continuation lines: each line indented by one
# space, an empty line as " .".
function(gb_license_body text out)
  string(REGEX REPLACE "\r" "" text "${text}")
  string(REGEX REPLACE "\n+$" "" text "${text}")
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(body "")
  foreach(line IN LISTS lines)
    if(line STREQUAL "")
      string(APPEND body " .\n")
    else()
      string(APPEND body " ${line}\n")
    endif()
  endforeach()
  set(${out} "${body}" PARENT_SCOPE)
endfunction()

# The "Copyright ..." line of a licence file, without "Copyright (c)", and
# its text from "Permission is hereby granted" on.
function(gb_mit_parts file holder_out body_out)
  file(READ ${file} text)
  if(NOT text MATCHES "Copyright (\\(c\\)|©) ([^\n]+)")
    message(FATAL_ERROR "${file}: no Copyright line")
  endif()
  set(${holder_out} "${CMAKE_MATCH_2}" PARENT_SCOPE)
  string(FIND "${text}" "Permission is hereby granted" start)
  if(start LESS 0)
    message(FATAL_ERROR "${file}: not the MIT (Expat) licence text")
  endif()
  string(SUBSTRING "${text}" ${start} -1 text)
  gb_license_body("${text}" body)
  set(${body_out} "${body}" PARENT_SCOPE)
endfunction()

gb_mit_parts(${SOURCE_DIR}/LICENSE holder expat)
set(out "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: greenbench

Files: *
Copyright: ${holder}
License: Expat

Files: stats/data/*
Copyright: Ember (Yearly Electricity Data, Yearly Electricity Data Europe)
 Our World in Data
Comment: Installed as share/greenbench/data; the attribution is its README.md.
 The values are the column carbon_intensity_elec of Our World in Data's energy
 dataset (owid/energy-data), from Ember with major processing by Our World in
 Data. Any figure derived from the file must carry this attribution.
License: CC-BY-4.0
 Creative Commons Attribution 4.0 International. The licence's text:
 https://creativecommons.org/licenses/by/4.0/legalcode
")
set(npm ${SOURCE_DIR}/workers/node/node_modules/xxhash-wasm/LICENSE.md)
if(EXISTS ${npm})
  gb_mit_parts(${npm} npm_holder npm_body)
  string(APPEND out "
Files: workers/node/node_modules/xxhash-wasm/*
Copyright: ${npm_holder}
Comment: Installed as libexec/greenbench/node/node_modules/xxhash-wasm; the
 text below is that package's own copy of the licence.
License: Expat
${npm_body}")
endif()
string(APPEND out "
License: Expat
${expat}")
file(CONFIGURE OUTPUT ${OUT} CONTENT "${out}" @ONLY)
