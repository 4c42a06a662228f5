# The `integration` test oss-fuzz-build: runs .clusterfuzzlite/build.sh as
# OSS-Fuzz would (fresh $SRC, $OUT and $WORK under WORK_DIR, clang, OSS-Fuzz's
# ASan+UBSan flags, LIB_FUZZING_ENGINE=-fsanitize=fuzzer), then checks $OUT:
#
#   cmake -DSOURCE_DIR=<repository> -DWORK_DIR=<dir> -DTARGETS=<t1,t2,...>
#         [-DSKIP_BUILD=ON] -P oss_fuzz_check.cmake
#
# TARGETS is POOLCHECK_FUZZ_TARGETS (fuzz/CMakeLists.txt). SKIP_BUILD=ON
# checks the $OUT of an earlier run again without rebuilding. Every check
# below is one that OSS-Fuzz relies on; all failures are listed, then the
# test fails:
# - every compile command of the build has CXXFLAGS' -fsanitize options and
#   no others (the build adds none of its own);
# - $OUT holds exactly T, T.dict, T.options, T_seed_corpus.zip per target,
#   and each fuzzer name matches [A-Za-z0-9_-]+;
# - T.options has a [libfuzzer] section; a dict it names is $OUT/T.dict;
# - T_seed_corpus.zip lists and extracts (cmake -E tar: no zip/unzip needed),
#   every entry is named by the SHA-1 of its bytes, and the entries are the
#   corpus as the fuzzer sees it: every raw file of corpus/T/{seeds,regressions}
#   is in it, no *.pcentry wrapper is (they are unwrapped), and it has no more
#   entries than the corpus has distinct inputs;
# - T runs on the extracted seeds with its .options flags (dict included) and
#   -runs=0: exit 0, libFuzzer loaded the dictionary ("Dictionary: N entries",
#   no "ParseDictionaryFile" error), found every non-empty seed file and
#   executed them ("INITED").
cmake_minimum_required(VERSION 3.25)  # script mode: today's policies (IN_LIST)
foreach(var SOURCE_DIR WORK_DIR TARGETS)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "oss_fuzz_check.cmake: -D${var}=... is required")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/libfuzzer_options.cmake)
string(REPLACE "," ";" targets "${TARGETS}")
set(src "${WORK_DIR}/src")
set(out "${WORK_DIR}/out")
set(work "${WORK_DIR}/work")
set(check "${WORK_DIR}/check")
# OSS-Fuzz's flags for an ASan and an UBSan build, combined.
set(flags "-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link")

if(NOT SKIP_BUILD)
  file(REMOVE_RECURSE "${src}" "${out}" "${work}")
  file(MAKE_DIRECTORY "${src}" "${out}" "${work}")
  # OSS-Fuzz's Dockerfile copies the tree to $SRC/poolcheck; a link will do.
  file(CREATE_LINK "${SOURCE_DIR}" "${src}/poolcheck" SYMBOLIC)
  string(TIMESTAMP started "%s" UTC)
  message(STATUS "running ${SOURCE_DIR}/.clusterfuzzlite/build.sh with SRC=${src} OUT=${out} WORK=${work}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -E env
            "SRC=${src}" "OUT=${out}" "WORK=${work}" CC=clang CXX=clang++
            "CFLAGS=${flags}" "CXXFLAGS=${flags}" LIB_FUZZING_ENGINE=-fsanitize=fuzzer
            CMAKE_BUILD_PARALLEL_LEVEL=2
            bash "${SOURCE_DIR}/.clusterfuzzlite/build.sh"
    WORKING_DIRECTORY "${src}/poolcheck"
    RESULT_VARIABLE rc)
  string(TIMESTAMP finished "%s" UTC)
  math(EXPR seconds "${finished} - ${started}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "oss-fuzz-build: build.sh failed (${rc}) after ${seconds} s")
  endif()
  message(STATUS "build.sh took ${seconds} s")
endif()

set(problems)
macro(problem text)
  list(APPEND problems "${text}")
  message(STATUS "FAIL: ${text}")
endmacro()

# The build took its sanitizer flags from CXXFLAGS alone
# (POOLCHECK_FUZZ_FLAGS_FROM_ENV): every compile command of build.sh's build
# directory ($WORK/poolcheck-build, compile_commands.json is always written)
# has exactly CXXFLAGS' -fsanitize options.
string(REGEX MATCHALL "-fsanitize=[^ ]+" wanted_sanitizers "${flags}")
set(database "${work}/poolcheck-build/compile_commands.json")
if(NOT EXISTS "${database}")
  problem("no ${database}: cannot check the compile flags")
else()
  file(READ "${database}" compile_commands)
  string(JSON command_count LENGTH "${compile_commands}")
  if(command_count EQUAL 0)
    problem("${database} is empty")
  else()
    math(EXPR last "${command_count} - 1")
    foreach(index RANGE ${last})
      string(JSON compile GET "${compile_commands}" ${index} command)
      string(REGEX MATCHALL "-fsanitize=[^ ]+" sanitizers "${compile}")
      if(NOT sanitizers STREQUAL wanted_sanitizers)
        list(JOIN sanitizers " " got)
        list(JOIN wanted_sanitizers " " wanted)
        problem("compiled with ${got} where CXXFLAGS say ${wanted}: ${compile}")
        break()
      endif()
    endforeach()
  endif()
endif()

# Exactly the expected files, nothing more or less.
set(expected)
foreach(target IN LISTS targets)
  if(NOT target MATCHES "^[A-Za-z0-9_-]+$")
    problem("fuzzer name '${target}' is not [A-Za-z0-9_-]+")
  endif()
  list(APPEND expected "${target}" "${target}.dict" "${target}.options" "${target}_seed_corpus.zip")
endforeach()
file(GLOB present LIST_DIRECTORIES true RELATIVE "${out}" "${out}/*")
set(extra ${present})
list(REMOVE_ITEM extra ${expected})
set(missing ${expected})
list(REMOVE_ITEM missing ${present})
if(extra)
  problem("unexpected in $OUT: ${extra}")
endif()
if(missing)
  problem("missing from $OUT: ${missing}")
endif()

foreach(target IN LISTS targets)
  if(NOT EXISTS "${out}/${target}" OR NOT EXISTS "${out}/${target}_seed_corpus.zip"
     OR NOT EXISTS "${out}/${target}.options")
    continue()  # reported above
  endif()

  # Options: a [libfuzzer] section, and a dict that is the one beside it.
  poolcheck_libfuzzer_flags("${out}/${target}.options" options_flags has_section)
  if(NOT has_section)
    problem("${target}.options has no [libfuzzer] section")
  endif()
  foreach(flag IN LISTS options_flags)
    if(flag MATCHES "^-dict=(.*)$" AND NOT CMAKE_MATCH_1 STREQUAL "${out}/${target}.dict")
      problem("${target}.options names dict ${CMAKE_MATCH_1}, not ${target}.dict in $OUT")
    endif()
  endforeach()

  # The seed corpus zip: listable, extractable, entries named by their SHA-1.
  set(seeds "${check}/${target}/seeds")
  file(REMOVE_RECURSE "${check}/${target}")
  file(MAKE_DIRECTORY "${seeds}" "${check}/${target}/artifacts")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar tf "${out}/${target}_seed_corpus.zip"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_VARIABLE list_error)
  string(REGEX REPLACE "\n$" "" listing "${listing}")
  string(REPLACE "\n" ";" entries "${listing}")
  list(LENGTH entries entry_count)
  if(NOT rc EQUAL 0 OR entry_count EQUAL 0)
    problem("${target}_seed_corpus.zip: cannot list it, or it is empty (${rc}): ${list_error}")
    continue()
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E tar xf "${out}/${target}_seed_corpus.zip"
                  WORKING_DIRECTORY "${seeds}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    problem("${target}_seed_corpus.zip: cannot extract it (${rc})")
    continue()
  endif()
  set(non_empty 0)
  foreach(entry IN LISTS entries)
    string(LENGTH "${entry}" length)
    if(NOT entry MATCHES "^[0-9a-f]+$" OR NOT length EQUAL 40)
      problem("${target}_seed_corpus.zip: entry '${entry}' is not named by a 40-digit SHA-1")
    elseif(NOT EXISTS "${seeds}/${entry}")
      problem("${target}_seed_corpus.zip: entry ${entry} listed but not extracted")
    else()
      file(SHA1 "${seeds}/${entry}" sha1)
      if(NOT sha1 STREQUAL entry)
        problem("${target}_seed_corpus.zip: entry ${entry} holds bytes with SHA-1 ${sha1}")
      endif()
      file(SIZE "${seeds}/${entry}" size)
      if(size GREATER 0)
        math(EXPR non_empty "${non_empty} + 1")
      endif()
    endif()
  endforeach()
  file(GLOB extracted LIST_DIRECTORIES true RELATIVE "${seeds}" "${seeds}/*")
  list(LENGTH extracted extracted_count)
  if(NOT extracted_count EQUAL entry_count)
    problem("${target}_seed_corpus.zip: lists ${entry_count} entries, extracts ${extracted_count}")
  endif()

  # The zip against the tracked corpus: raw files in it as they are, wrappers
  # not (their unwrapped bytes are, which only the harness can compute, hence
  # the upper bound on the count).
  file(GLOB_RECURSE corpus_files LIST_DIRECTORIES false
       "${SOURCE_DIR}/corpus/${target}/seeds/*" "${SOURCE_DIR}/corpus/${target}/regressions/*")
  set(raw_sha1s)
  set(wrappers 0)
  foreach(file IN LISTS corpus_files)
    get_filename_component(name "${file}" NAME)
    if(name MATCHES "^\\." OR name MATCHES "\\.md$")
      continue()  # not corpus entries (collect_entry_files skips them too)
    endif()
    file(SHA1 "${file}" sha1)
    if(name MATCHES "\\.pcentry$")
      math(EXPR wrappers "${wrappers} + 1")
      if(sha1 IN_LIST entries)
        problem("${target}_seed_corpus.zip holds the wrapper ${file} itself, not its input")
      endif()
    else()
      list(APPEND raw_sha1s "${sha1}")
      if(NOT sha1 IN_LIST entries)
        problem("${target}_seed_corpus.zip lacks ${file} (SHA-1 ${sha1})")
      endif()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES raw_sha1s)
  list(LENGTH raw_sha1s raw_count)
  math(EXPR most "${raw_count} + ${wrappers}")
  if(entry_count GREATER most)
    problem("${target}_seed_corpus.zip has ${entry_count} entries; the corpus has at most ${most} distinct inputs")
  endif()

  # Run the fuzzer over the seeds with its options (dictionary included).
  set(command "${out}/${target}" ${options_flags} -runs=0
      "-artifact_prefix=${check}/${target}/artifacts/" "${seeds}")
  execute_process(COMMAND ${command} WORKING_DIRECTORY "${check}/${target}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  file(WRITE "${check}/${target}/run.log" "${log}")
  list(JOIN command " " shown)
  set(where "(command: ${shown} -- output in ${check}/${target}/run.log)")
  if(NOT rc EQUAL 0)
    problem("${target}: exited with ${rc} on its seed corpus ${where}")
  endif()
  if(log MATCHES "ParseDictionaryFile")
    problem("${target}: libFuzzer could not parse ${target}.dict ${where}")
  endif()
  if(NOT log MATCHES "Dictionary: ([0-9]+) entries" OR CMAKE_MATCH_1 EQUAL 0)
    problem("${target}: libFuzzer loaded no dictionary entries ${where}")
  endif()
  if(NOT log MATCHES "INFO: +([0-9]+) files found in" OR NOT CMAKE_MATCH_1 EQUAL non_empty)
    problem("${target}: libFuzzer did not find the ${non_empty} non-empty seed files ${where}")
  endif()
  if(NOT log MATCHES "INITED")
    problem("${target}: libFuzzer did not run the seed corpus ${where}")
  endif()
  message(STATUS "${target}: ${entry_count} seeds, dictionary and options checked, -runs=0 exit ${rc}")
endforeach()

list(LENGTH problems problem_count)
if(problem_count GREATER 0)
  list(JOIN problems "\n  " listed)
  message(FATAL_ERROR "oss-fuzz-build: ${problem_count} problem(s) in ${out}:\n  ${listed}")
endif()
list(LENGTH targets target_count)
message(STATUS "oss-fuzz-build: OK, ${target_count} fuzz targets in ${out}")
