// The pure parts of `poolcheck coverage` (fuzz/harness/coverage.hpp): the
// core/ figures from llvm-cov's JSON summary, the one-line summary, the
// thresholds, CMakeCache.txt values, the coverage-mapping check and the
// steps it runs. The run itself needs the coverage build (tools/coverage) and
// is not part of the test suite.
#include <elf.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

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

// An ELF64 file with no code: the header, the section names, then the section
// table (a null section, one per name, and the names' own .shstrtab last).
std::string elf_with_sections(const std::vector<std::string>& names) {
  std::string strings(1, '\0');
  std::vector<Elf64_Shdr> sections(1);  // index 0: the null section
  for (const std::string& name : names) {
    Elf64_Shdr section{};
    section.sh_name = static_cast<Elf64_Word>(strings.size());
    strings += name + '\0';
    sections.push_back(section);
  }
  Elf64_Shdr string_table{};
  string_table.sh_name = static_cast<Elf64_Word>(strings.size());
  strings += std::string(".shstrtab") + '\0';
  string_table.sh_type = SHT_STRTAB;
  string_table.sh_offset = sizeof(Elf64_Ehdr);
  string_table.sh_size = strings.size();
  sections.push_back(string_table);

  Elf64_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_ehsize = sizeof(Elf64_Ehdr);
  header.e_shoff = sizeof(Elf64_Ehdr) + strings.size();
  header.e_shentsize = sizeof(Elf64_Shdr);
  header.e_shnum = static_cast<Elf64_Half>(sections.size());
  header.e_shstrndx = static_cast<Elf64_Half>(sections.size() - 1);
  std::string bytes(reinterpret_cast<const char*>(&header), sizeof header);
  bytes += strings;
  for (const auto& section : sections) bytes.append(reinterpret_cast<const char*>(&section), sizeof section);
  return bytes;
}

TEST(Coverage, CoverageMappingIsASectionNotAString) {
  // Per process: other checkouts may run this test at the same time.
  const fs::path dir = fs::temp_directory_path();
  const std::string pid = std::to_string(::getpid());
  const std::vector<std::pair<std::string, bool>> files = {
      {elf_with_sections({".text", "__llvm_covfun", "__llvm_covmap", ".data"}), true},
      {elf_with_sections({".text", "__llvm_covmap"}), true},
      {elf_with_sections({".text", ".rodata"}), false},
      // The name as data only, as in any binary that mentions it (poolcheck itself).
      {elf_with_sections({".text", ".rodata"}) + std::string("__llvm_covmap") + '\0', false},
      {std::string("__llvm_covmap") + '\0', false},  // not ELF
  };
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path file = dir / ("poolcheck-coverage-test-" + pid + "-" + std::to_string(i));
    std::ofstream(file, std::ios::binary) << files[i].first;
    EXPECT_EQ(has_coverage_mapping(file), files[i].second) << "file " << i;
    fs::remove(file);
  }
  EXPECT_FALSE(has_coverage_mapping(dir / ("poolcheck-coverage-test-" + pid + "-missing")));
}

}  // namespace
}  // namespace poolcheck::harness
