#!/usr/bin/env bash
# .clusterfuzzlite/build.sh: builds poolcheck's fuzz targets for OSS-Fuzz /
# ClusterFuzzLite (docs/clusterfuzzlite.md). The base-builder image runs it
# with the source in $SRC/poolcheck (the Dockerfile copies it there) and
# these variables set:
#   CXX, CXXFLAGS       compiler and flags: sanitizer, coverage and
#                       -fsanitize=fuzzer-no-link already in CXXFLAGS
#   LIB_FUZZING_ENGINE  link flags for libFuzzer's runtime and main
#   OUT                 where the fuzzers go; WORK: scratch space
# CC and CFLAGS are not used: poolcheck is C++ only.
#
# Writes, for each fuzz target T of fuzz/CMakeLists.txt (POOLCHECK_FUZZ_TARGETS):
# $OUT/T, $OUT/T.dict, $OUT/T.options and $OUT/T_seed_corpus.zip (the
# poolcheck_oss_fuzz_out target; fuzz/oss_fuzz_out.cmake). The list of
# targets lives in CMake only, so a new target needs no edit here.
#
# Locally (what the `integration` test does, fuzz/oss_fuzz_check.cmake):
#   SRC=dir-holding-poolcheck OUT=/tmp/out WORK=/tmp/work CXX=clang++ \
#   CXXFLAGS='-O1 -fsanitize=address,undefined -fsanitize=fuzzer-no-link' \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer .clusterfuzzlite/build.sh
# Parallel jobs: CMAKE_BUILD_PARALLEL_LEVEL if set, else nproc.
set -euo pipefail

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  # The comment block at the top of this file.
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"
  exit 0
fi

missing=()
for var in SRC OUT WORK CXX LIB_FUZZING_ENGINE; do
  [[ -n ${!var:-} ]] || missing+=("$var")
done
if ((${#missing[@]})); then
  echo "build.sh: not set: ${missing[*]} (OSS-Fuzz's base-builder sets them; see --help)" >&2
  exit 2
fi
source_dir="$SRC/poolcheck"
if [[ ! -f $source_dir/CMakeLists.txt || ! -d $source_dir/fuzz ]]; then
  echo "build.sh: no poolcheck source tree at $source_dir (the Dockerfile copies it there)" >&2
  exit 2
fi

# The integration test reads this directory's compile_commands.json.
build_dir="$WORK/poolcheck-build"
# CMAKE_BUILD_TYPE=None (no per-configuration flags): the optimisation and
# debug flags are OSS-Fuzz's, from CXXFLAGS, which CMake reads on the first
# configure. POOLCHECK_FUZZ_FLAGS_FROM_ENV: the build adds no sanitizer or
# fuzzer flags of its own; POOLCHECK_FUZZ_ENGINE links the fuzzers with
# $LIB_FUZZING_ENGINE, never a hard-coded -fsanitize=fuzzer. No tests: they
# need GoogleTest and RapidCheck, which the image does not have.
cmake -S "$source_dir" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE=None \
  -DCMAKE_CXX_COMPILER="$CXX" \
  -DPOOLCHECK_TESTS=OFF \
  -DPOOLCHECK_BENCH=OFF \
  -DPOOLCHECK_SANITIZE=OFF \
  -DPOOLCHECK_FUZZ=ON \
  -DPOOLCHECK_FUZZ_FLAGS_FROM_ENV=ON \
  -DPOOLCHECK_FUZZ_ENGINE="$LIB_FUZZING_ENGINE" \
  -DPOOLCHECK_OSS_FUZZ_OUT="$OUT"
# Only the fuzzers, the seed exporter and what they need: not the CLI or the
# replay drivers.
cmake --build "$build_dir" --target poolcheck_oss_fuzz_out \
  --parallel "${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
