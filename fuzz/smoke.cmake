# fuzz-smoke: one fuzz target for a few seconds over a COPY of its seeds.
#
#   cmake -DFUZZER=<binary> -DSEEDS=<corpus/T/seeds> -DOPTIONS=<fuzz/T.options>
#         -DWORK_DIR=<dir> [-DSECONDS=5] -P smoke.cmake
#
# WORK_DIR is emptied first and holds the copy, new coverage and any artifact:
# libFuzzer writes into its first corpus directory, and corpus/ stays
# untouched. The [libfuzzer] section of OPTIONS becomes -key=value flags (a
# relative dict= is taken next to OPTIONS), so the smoke run uses the same
# dictionary and limits as a campaign. Passes when the fuzzer exits 0.
foreach(var FUZZER SEEDS OPTIONS WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "smoke.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED SECONDS)
  set(SECONDS 5)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/libfuzzer_options.cmake)
poolcheck_libfuzzer_flags("${OPTIONS}" flags)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/corpus" "${WORK_DIR}/artifacts")
file(GLOB seeds LIST_DIRECTORIES false "${SEEDS}/*")
if(NOT seeds)
  message(FATAL_ERROR "smoke.cmake: no seeds in ${SEEDS}")
endif()
file(COPY ${seeds} DESTINATION "${WORK_DIR}/corpus")

set(command "${FUZZER}" ${flags} "-max_total_time=${SECONDS}" -print_final_stats=1
    "-artifact_prefix=${WORK_DIR}/artifacts/" "${WORK_DIR}/corpus")
list(JOIN command " " shown)
message(STATUS "running: ${shown}")
execute_process(COMMAND ${command} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB artifacts "${WORK_DIR}/artifacts/*")
  # An empty artifact is libFuzzer's "no input was running": the crash was in
  # the custom mutator, which only the seed and the corpus reproduce.
  message(FATAL_ERROR "fuzz smoke: ${FUZZER} exited with ${rc}; artifacts: ${artifacts}\n"
          "Reproduce an input's crash with: ${FUZZER} ARTIFACT\n"
          "An empty artifact means the crash was in the custom mutator: reproduce with "
          "${shown} -seed=<the 'INFO: Seed' above>, over a fresh copy of ${SEEDS}")
endif()
