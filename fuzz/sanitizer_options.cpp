// ASan's defaults for the libFuzzer binaries, the targets and their baselines
// alike (fuzz/CMakeLists.txt links this file into both, never into the replay
// drivers or the command line). An ASAN_OPTIONS given at run time still wins.
//
// malloc_context_size=0: no stack is recorded for each allocation and free.
// That stack walk and stack-depot insert per malloc and free was about a
// quarter of the `request` target's time (Fuzzing.md, "Performance"), and all
// it buys is the allocation and free stacks printed in a heap-use-after-free
// or leak report. Detection is unchanged; `poolcheck repro` and the replay
// drivers replay a finding with the full report (AFL++ campaigns have always
// run this way, fuzz/harness/afl_engine.cpp).
extern "C" const char* __asan_default_options() { return "malloc_context_size=0"; }
