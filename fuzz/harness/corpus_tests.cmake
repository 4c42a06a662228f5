# The `corpus` tests: `poolcheck repro corpus/<target>` per target directory
# (seeds and regressions, each entry in its own child process). Directories are
# read when repro runs, so a promoted regression is picked up with no edit and
# no re-configure; a new target directory re-runs the configure step (the
# corpus directory is a configure dependency). Included from tests/CMakeLists.txt.
set(poolcheck_corpus_dir ${PROJECT_SOURCE_DIR}/corpus)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${poolcheck_corpus_dir})
foreach(target IN ITEMS request params_wire token_types verify)
  if(IS_DIRECTORY ${poolcheck_corpus_dir}/${target})
    add_test(NAME repro-${target}
             COMMAND poolcheck repro ${poolcheck_corpus_dir}/${target}
                     --junit ${CMAKE_BINARY_DIR}/repro-${target}.junit.xml)
    set_tests_properties(repro-${target} PROPERTIES LABELS corpus TIMEOUT 600)
  endif()
endforeach()
