// The mutation gate's catalogue: reading it, applying a mutant, and the
// shipped catalogue still applying to the current core (so that a change of
// the core that strands a mutant fails here, in every workflow, not only in
// the slow `mutation` run).
#include <gtest/gtest.h>

#include "fuzz/harness/mutants.hpp"

namespace poolcheck::harness {
namespace {

constexpr std::string_view kOne =
    "# a comment\n"
    "\n"
    "=== off-by-one\n"
    "module: truncation\n"
    "target: request\n"
    "provenance: a slip\n"
    "description: keeps one token too many\n"
    "file: core/x.cpp\n"
    "--- find\n"
    "  return a < b;\n"
    "--- replace\n"
    "  return a <= b;\n"
    "\n"
    "=== deleted-line\n"
    "module: cloning\n"
    "target: token_types\n"
    "provenance: a slip\n"
    "description: forgets the copy\n"
    "file: core/y.cpp\n"
    "--- find\n"
    "  copy();\n"
    "  more();\n"
    "--- replace\n"
    "\n";

TEST(MutantCatalogue, ReadsEveryFieldAndTheFindAndReplaceLines) {
  auto mutants = parse_catalogue(kOne, "cat.txt");
  ASSERT_TRUE(mutants) << mutants.error().message;
  ASSERT_EQ(mutants->size(), 2u);
  const Mutant& first = (*mutants)[0];
  EXPECT_EQ(first.id, "off-by-one");
  EXPECT_EQ(first.module, "truncation");
  EXPECT_EQ(first.target, "request");
  EXPECT_EQ(first.provenance, "a slip");
  EXPECT_EQ(first.description, "keeps one token too many");
  EXPECT_EQ(first.file, "core/x.cpp");
  EXPECT_EQ(first.find, "  return a < b;\n");
  EXPECT_EQ(first.replace, "  return a <= b;\n");
  EXPECT_EQ(first.line, 3);
  EXPECT_EQ((*mutants)[1].find, "  copy();\n  more();\n");
  EXPECT_EQ((*mutants)[1].replace, "");  // a deletion
}

TEST(MutantCatalogue, NamesTheLineOfEachMistake) {
  const std::string header =
      "=== m\nmodule: a\ntarget: request\nprovenance: p\ndescription: d\nfile: core/x.cpp\n";
  const std::pair<std::string, std::string> cases[] = {
      {"stray text\n" + header, "cat.txt:1: text before the first \"=== ID\" line"},
      {"=== bad id!\n", "cat.txt:1: bad mutant id \"bad id!\""},
      {header + "--- find\nx\n--- replace\ny\n" + header + "--- find\nx\n--- replace\ny\n",
       "cat.txt:11: duplicate id m"},
      {header + "colour: red\n", "cat.txt:7: unknown key \"colour\""},
      {header + "module: b\n", "cat.txt:7: \"module\" given twice"},
      {header + "--- replace\ny\n", "cat.txt:7: expected \"--- find\" then \"--- replace\" in mutant m"},
      {header + "--- find\nx\n--- replace\nx\n", "cat.txt:1: mutant m changes nothing"},
      {"=== m\nmodule: a\ntarget: request\nprovenance: p\ndescription: d\n--- find\nx\n--- replace\ny\n",
       "cat.txt:1: mutant m has no file"},
      {"=== m\nmodule: a\ntarget: nope\nprovenance: p\ndescription: d\nfile: f\n--- find\nx\n--- replace\ny\n",
       "cat.txt:1: mutant m: unknown target \"nope\""},
      {"# only comments\n", "cat.txt: no mutants"},
  };
  for (const auto& [text, message] : cases) {
    auto mutants = parse_catalogue(text, "cat.txt");
    ASSERT_FALSE(mutants) << text;
    EXPECT_EQ(mutants.error().message, message) << text;
  }
}

TEST(MutantCatalogue, AppliesOnlyWhereTheFindTextOccursExactlyOnce) {
  auto mutants = parse_catalogue(kOne, "cat.txt");
  ASSERT_TRUE(mutants);
  const Mutant& m = (*mutants)[0];
  auto applied = apply_mutant(m, "int f() {\n  return a < b;\n}\n");
  ASSERT_TRUE(applied);
  EXPECT_EQ(*applied, "int f() {\n  return a <= b;\n}\n");

  auto gone = apply_mutant(m, "int f() {\n  return a > b;\n}\n");
  ASSERT_FALSE(gone);
  EXPECT_EQ(gone.error().message,
            "mutant off-by-one no longer applies: core/x.cpp does not contain its find text (catalogue line 3); "
            "update the mutant with the code");
  auto twice = apply_mutant(m, "  return a < b;\n  return a < b;\n");
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message,
            "mutant off-by-one is ambiguous: its find text occurs more than once in core/x.cpp (catalogue line 3)");
}

TEST(MutantCatalogue, TheShippedCatalogueAppliesToTheCurrentCore) {
  const fs::path root = POOLCHECK_SOURCE_DIR;
  auto mutants = load_catalogue(root / "tests" / "mutation" / "catalogue.txt");
  ASSERT_TRUE(mutants) << mutants.error().message;
  EXPECT_GE(mutants->size(), 20u);
  const auto problems = check_catalogue_applies(*mutants, root);
  EXPECT_FALSE(problems) << (problems ? problems->message : "");
  for (const auto& m : *mutants) EXPECT_EQ(m.file.rfind("core/", 0), 0u) << m.id << " must mutate the core";
}

}  // namespace
}  // namespace poolcheck::harness
