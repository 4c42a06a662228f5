# One fuzz target in OSS-Fuzz's $OUT layout (docs/clusterfuzzlite.md).
#
#   cmake -DNAME=<T> -DFUZZER=<poolcheck_fuzz_T> -DEXPORTER=<poolcheck_seed_corpus>
#         -DSOURCE_DIR=<repository> -DOUT=<dir> -DWORK_DIR=<scratch dir> -P oss_fuzz_out.cmake
#
# Run by the poolcheck_oss_fuzz_out target (fuzz/CMakeLists.txt), once per
# target. Writes into OUT:
#   T (NAME)             the fuzzer (OSS-Fuzz runs every executable there; the
#                        name is the target's, so [A-Za-z0-9_-] only)
#   T.dict, T.options    copies of fuzz/T.dict and fuzz/T.options; the options
#                        say `dict = T.dict`, relative, which OSS-Fuzz resolves
#                        in $OUT
#   T_seed_corpus.zip    the seeds and regressions as the fuzzer sees them
#                        (wrappers unwrapped, by EXPORTER), flat, each entry
#                        named by the SHA-1 of its bytes like a libFuzzer
#                        corpus file, sorted, with a fixed time stamp so equal
#                        inputs give an equal zip
foreach(var NAME FUZZER EXPORTER SOURCE_DIR OUT WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "oss_fuzz_out.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT NAME MATCHES "^[A-Za-z0-9_-]+$")
  message(FATAL_ERROR "oss_fuzz_out.cmake: '${NAME}' is not a valid OSS-Fuzz fuzzer name ([A-Za-z0-9_-]+)")
endif()

file(MAKE_DIRECTORY "${OUT}")
file(COPY_FILE "${FUZZER}" "${OUT}/${NAME}")
foreach(suffix dict options)
  file(COPY_FILE "${SOURCE_DIR}/fuzz/${NAME}.${suffix}" "${OUT}/${NAME}.${suffix}")
endforeach()

set(scratch "${WORK_DIR}/${NAME}")
file(REMOVE_RECURSE "${scratch}")
file(MAKE_DIRECTORY "${scratch}/unwrapped" "${scratch}/named")
# Run inside the scratch directory: in a coverage build the exporter is
# instrumented too and leaves a default.profraw where it runs.
execute_process(COMMAND "${EXPORTER}" "${SOURCE_DIR}" "${NAME}" "${scratch}/unwrapped"
                WORKING_DIRECTORY "${scratch}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "oss_fuzz_out.cmake: ${EXPORTER} failed (${rc}) for ${NAME}")
endif()
file(GLOB inputs LIST_DIRECTORIES false "${scratch}/unwrapped/*")
foreach(input IN LISTS inputs)
  file(SHA1 "${input}" sha1)
  file(COPY_FILE "${input}" "${scratch}/named/${sha1}")
endforeach()
file(GLOB names LIST_DIRECTORIES false RELATIVE "${scratch}/named" "${scratch}/named/*")
list(SORT names)

set(zip "${OUT}/${NAME}_seed_corpus.zip")
file(REMOVE "${zip}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar cf "${zip}" --format=zip "--mtime=1980-01-01 00:00:00 UTC" -- ${names}
                WORKING_DIRECTORY "${scratch}/named" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "oss_fuzz_out.cmake: writing ${zip} failed (${rc})")
endif()
list(LENGTH names count)
message(STATUS "${NAME}: ${OUT}/${NAME}, .dict, .options, _seed_corpus.zip (${count} inputs)")
