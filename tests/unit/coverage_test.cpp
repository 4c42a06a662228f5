// The pure parts of `poolcheck coverage` (fuzz/harness/coverage.hpp): the
// core/ figures from llvm-cov's JSON summary, the one-line summary, the
// thresholds, CMakeCache.txt values and the steps it runs. The run itself
// needs the coverage build (tools/coverage) and is not part of the test suite.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "core/json.hpp"
#include "fuzz/harness/coverage.hpp"

namespace poolcheck::harness {
namespace {

Json file_summary(const std::string& name, int lines_covered, int lines, int branches_covered, int branches,
                  int functions_covered, int functions) {
  auto count = [](int covered, int total) {
    return Json{{"count", total}, {"covered", covered}, {"percent", total ? 100.0 * covered / total : 0.0}};
  };
  return Json{{"filename", name},
              {"summary",
               {{"branches", count(branches_covered, branches)},
                {"functions", count(functions_covered, functions)},
                {"instantiations", count(functions_covered, functions)},
                {"lines", count(lines_covered, lines)},
                {"regions", count(0, 0)}}}};
}

// The shape of `llvm-cov export -summary-only` (format 2.0.1).
Json export_of(const Json& files) {
  return Json{{"data", Json::array({{{"files", files}, {"totals", Json::object()}}})},
              {"type", "llvm.coverage.json.export"},
              {"version", "2.0.1"}};
}

TEST(Coverage, FiguresSumTheFilesUnderTheDirectoryOnly) {
  const Json exported = export_of(Json::array({
      file_summary("/repo/core/request.cpp", 90, 100, 45, 50, 9, 10),
      file_summary("/repo/core/json.hpp", 10, 10, 0, 0, 1, 1),
      file_summary("/repo/properties/laws/check.cpp", 1, 500, 0, 80, 0, 40),
      file_summary("/repo/core-extra/x.cpp", 0, 70, 0, 7, 0, 7),  // a sibling, not under core/
      file_summary("/usr/include/c++/12/bits/stl_vector.h", 3, 900, 1, 60, 2, 50),
  }));
  const auto figures = figures_under(exported, "/repo/core");
  ASSERT_TRUE(figures) << figures.error().message;
  EXPECT_EQ(figures->files, 2u);
  EXPECT_EQ(figures->lines.covered, 100u);
  EXPECT_EQ(figures->lines.total, 110u);
  EXPECT_EQ(figures->branches.covered, 45u);
  EXPECT_EQ(figures->branches.total, 50u);
  EXPECT_EQ(figures->functions.covered, 10u);
  EXPECT_EQ(figures->functions.total, 11u);
}

TEST(Coverage, FiguresMatchPathsAfterNormalisation) {
  const Json exported = export_of(Json::array({file_summary("/repo/build/../core/./wire.cpp", 1, 2, 1, 2, 1, 1)}));
  const auto figures = figures_under(exported, "/repo/./core/");
  ASSERT_TRUE(figures) << figures.error().message;
  EXPECT_EQ(figures->files, 1u);
  EXPECT_EQ(figures->lines.total, 2u);
}

TEST(Coverage, FiguresAreAnErrorWithoutAnyFileUnderTheDirectory) {
  const auto figures = figures_under(export_of(Json::array({file_summary("/elsewhere/a.cpp", 1, 1, 0, 0, 1, 1)})),
                                     "/repo/core");
  ASSERT_FALSE(figures);
  EXPECT_EQ(figures.error().message, "no covered file under /repo/core/");
}

TEST(Coverage, FiguresRejectWhatIsNotAnExportSummary) {
  for (const Json& bad : {Json(nullptr), Json::array(), Json{{"data", 1}}, Json{{"data", Json::array({1})}},
                          export_of(Json::array({Json{{"filename", "/repo/core/a.cpp"}}}))}) {
    const auto figures = figures_under(bad, "/repo/core");
    ASSERT_FALSE(figures) << bad.dump();
    EXPECT_EQ(figures.error().message, "not an `llvm-cov export -summary-only` document") << bad.dump();
  }
  Json no_branches = file_summary("/repo/core/a.cpp", 1, 1, 0, 0, 1, 1);
  no_branches["summary"].erase("branches");
  const auto figures = figures_under(export_of(Json::array({no_branches})), "/repo/core");
  ASSERT_FALSE(figures);
  EXPECT_EQ(figures.error().message, "malformed summary for /repo/core/a.cpp");
}

TEST(Coverage, SummaryLineRoundsDown) {
  CoverageFigures figures;
  figures.lines = {2301, 2394};        // 96.115%
  figures.branches = {1999, 2000};     // 99.95%: must not read 100.0%
  figures.functions = {0, 0};          // nothing to cover
  EXPECT_EQ(summary_line("core/", figures),
            "coverage core/: lines 96.1% (2301/2394), branches 99.9% (1999/2000), functions 100.0% (0/0)");
}

TEST(Coverage, ThresholdsCompareTheExactRatio) {
  CoverageFigures figures;
  figures.lines = {9499, 10000};  // 94.99%: reads 94.9%, below 95
  figures.branches = {900, 1000};
  EXPECT_EQ(unmet_thresholds(figures, {95.0, 90.0}), std::vector<std::string>{"lines 94.9% < 95%"});
  EXPECT_EQ(unmet_thresholds(figures, {94.99, 90.0}), std::vector<std::string>{});
  EXPECT_EQ(unmet_thresholds(figures, {std::nullopt, 90.5}), std::vector<std::string>{"branches 90.0% < 90.5%"});
  EXPECT_EQ(unmet_thresholds(figures, {}), std::vector<std::string>{});
}

TEST(Coverage, CMakeCacheValues) {
  const std::string cache =
      "# This is the CMakeCache file.\n"
      "CMAKE_CXX_COMPILER_AR:FILEPATH=/usr/bin/llvm-ar-14\r\n"
      "CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/clang++\r\n"
      "CMAKE_CXX_FLAGS:STRING=-fprofile-instr-generate -fcoverage-mapping\n"
      "EMPTY:STRING=";
  EXPECT_EQ(cmake_cache_value(cache, "CMAKE_CXX_COMPILER"), "/usr/bin/clang++");
  EXPECT_EQ(cmake_cache_value(cache, "CMAKE_CXX_FLAGS"), "-fprofile-instr-generate -fcoverage-mapping");
  EXPECT_EQ(cmake_cache_value(cache, "EMPTY"), "");
  EXPECT_EQ(cmake_cache_value(cache, "CMAKE_CXX"), std::nullopt);
  EXPECT_EQ(cmake_cache_value(cache, "MISSING"), std::nullopt);
}

TEST(Coverage, StepsReplayEachCorpusTargetThenPropertiesThenUnitTests) {
  const fs::path root = POOLCHECK_SOURCE_DIR;
  const auto steps = coverage_steps(root, "/b");
  std::vector<std::string> names;
  for (const auto& step : steps) names.push_back(step.name);
  EXPECT_EQ(names, (std::vector<std::string>{"corpus-params_wire", "corpus-request", "corpus-token_types",
                                              "corpus-verify", "properties-pr", "unit-tests"}));
  EXPECT_EQ(steps[1].argv, (std::vector<std::string>{"/b/fuzz/poolcheck_replay_request", (root / "corpus" / "request").string()}));
  EXPECT_EQ(steps[4].argv, std::vector<std::string>{"/b/properties/poolcheck_properties"});
  EXPECT_EQ(steps[4].environment, (std::vector<std::pair<std::string, std::string>>{{"POOLCHECK_PROFILE", "pr"}}));
  EXPECT_EQ(steps[5].argv, std::vector<std::string>{"/b/tests/poolcheck_unit_tests"});
}

TEST(Coverage, CoverageMappingIsFoundInTheBinary) {
  // Per process: other checkouts may run this test at the same time.
  const fs::path dir = fs::temp_directory_path();
  const std::string pid = std::to_string(::getpid());
  const fs::path with = dir / ("poolcheck-coverage-test-with-" + pid);
  const fs::path without = dir / ("poolcheck-coverage-test-without-" + pid);
  using namespace std::string_literals;
  std::ofstream(with, std::ios::binary) << "\x7f" "ELF\0\0.text\0__llvm_covmap\0"s;
  std::ofstream(without, std::ios::binary) << "\x7f" "ELF\0\0.text\0.data\0"s;
  EXPECT_TRUE(has_coverage_mapping(with));
  EXPECT_FALSE(has_coverage_mapping(without));
  EXPECT_FALSE(has_coverage_mapping(dir / "poolcheck-coverage-test-missing"));
  fs::remove(with);
  fs::remove(without);
}

}  // namespace
}  // namespace poolcheck::harness
