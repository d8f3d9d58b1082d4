# gb_forbid_link(<target> <forbidden>...)
#
# Fails the configuration when <target> links any of <forbidden>, directly
# or through the libraries it links (their INTERFACE_LINK_LIBRARIES), so a
# layer that must not run back up (docs/design.md, "Layers") cannot start
# to. Call it after every target named is defined (the top-level
# CMakeLists.txt, at its end).
function(gb_forbid_link target)
  set(forbidden ${ARGN})
  set(queue ${target})
  set(seen "")
  set(path_${target} ${target})
  while(queue)
    list(POP_FRONT queue t)
    if(t IN_LIST seen OR NOT TARGET ${t})
      continue()
    endif()
    list(APPEND seen ${t})
    get_target_property(type ${t} TYPE)
    set(deps "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(direct ${t} LINK_LIBRARIES)
      if(direct)
        list(APPEND deps ${direct})
      endif()
    endif()
    get_target_property(iface ${t} INTERFACE_LINK_LIBRARIES)
    if(iface)
      list(APPEND deps ${iface})
    endif()
    foreach(d IN LISTS deps)
      string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}") # a static library's private link
      if(NOT DEFINED path_${d})
        set(path_${d} "${path_${t}} -> ${d}")
      endif()
      if(d IN_LIST forbidden)
        message(FATAL_ERROR "layers: ${target} must not link ${d}, but does: ${path_${d}} "
          "(docs/design.md, Layers)")
      endif()
      list(APPEND queue ${d})
    endforeach()
  endwhile()
endfunction()
