# The [libfuzzer] section of an OSS-Fuzz style .options file as libFuzzer
# flags, for the cmake -P scripts that run fuzzers (smoke.cmake,
# oss_fuzz_check.cmake). The harness has the same reader in C++
# (libfuzzer_option_flags, fuzz/harness/campaign.cpp) for `poolcheck fuzz`.
#
#   include(libfuzzer_options.cmake)
#   poolcheck_libfuzzer_flags(<options file> <out var> [<found var>])
#
# <out var> gets one -key=value per `key = value` line of the section; a
# relative `dict` is taken next to the options file, as OSS-Fuzz does in $OUT.
# <found var>, if given, is TRUE when the file has a [libfuzzer] section.
function(poolcheck_libfuzzer_flags options_file out_var)
  get_filename_component(options_dir "${options_file}" DIRECTORY)
  file(STRINGS "${options_file}" option_lines)
  set(flags)
  set(found FALSE)
  set(in_libfuzzer FALSE)
  foreach(line IN LISTS option_lines)
    string(STRIP "${line}" line)
    if(line MATCHES "^\\[(.*)\\]$")
      set(in_libfuzzer FALSE)
      if(CMAKE_MATCH_1 STREQUAL "libfuzzer")
        set(in_libfuzzer TRUE)
        set(found TRUE)
      endif()
    elseif(in_libfuzzer AND line MATCHES "^([A-Za-z_]+)[ \t]*=[ \t]*(.*)$")
      set(key "${CMAKE_MATCH_1}")
      set(value "${CMAKE_MATCH_2}")
      if(key STREQUAL "dict" AND NOT IS_ABSOLUTE "${value}")
        set(value "${options_dir}/${value}")
      endif()
      list(APPEND flags "-${key}=${value}")
    endif()
  endforeach()
  set(${out_var} "${flags}" PARENT_SCOPE)
  if(ARGC GREATER 2)
    set(${ARGV2} ${found} PARENT_SCOPE)
  endif()
endfunction()
