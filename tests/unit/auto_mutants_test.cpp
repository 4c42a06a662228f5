// `poolcheck mutate --auto`'s generation, without running a mutant: the
// operator and literal sites clang reports in a fixture (strings, comments, `->`, a
// template instantiated twice and a macro left alone), the whole-line form and
// its widening, ids, seeded sampling, equivalent.txt and --changed-since.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "fuzz/harness/auto_mutants.hpp"
#include "fuzz/harness/changed_lines.hpp"
#include "fuzz/harness/equivalent_list.hpp"
#include "fuzz/harness/site_analysis.hpp"

namespace poolcheck::harness {
namespace {

// One line per construct; the comment says what the scanner must make of it.
constexpr std::string_view kFixture =
    "#include <string>\n"
    "#include <vector>\n"
    "#define LESS(a, b) ((a) < (b))\n"
    "namespace poolcheck {\n"
    "struct Node { int b; };\n"
    "struct Res { bool ok; explicit operator bool() const { return ok; } int error() const { return 7; } };\n"
    "template <class T> bool smaller(T x, T y) { return x < y; }\n"  // 7: one site, two instances
    "int use(const Node* a, std::vector<int>& v, bool flag) {\n"
    "  std::string text = \"a < b && c\";\n"                          // 9: the string, nothing in it
    "  // a comment with && and ||\n"                                 // 10: nor in a comment
    "  int n = a->b + 1;\n"                                           // 11: + and 1, not ->
    "  if (!flag) n = 2;\n"                                           // 12: ! and 2; no block statement
    "  if (LESS(n, 3)) v.push_back(n);\n"                             // 13: nothing of the macro
    "  bool s = smaller(1, 2) || smaller(1.0, 2.0);\n"                // 14: ||, 1, 2
    "  v.push_back(n);\n"                                             // 15: a deletable statement
    "  n = n == 4 ? n : 0;\n"                                         // 16: deletable; ==, 4, 0
    "  return s ? n : 0;\n"                                           // 17: the ?:'s condition, 0
    "}\n"
    "int pass_on(const Res& r) {\n"
    "  if (!r) return r.error();\n"                                   // 20: error propagation
    "  return 0;\n"                                                   // 21: 0
    "}\n"
    "unsigned mix(unsigned x, std::string& s) {\n"
    "  x <<= x % 3u;\n"                                               // 24: deletable; <<=, %, 3u
    "  x = (x & 1u) | (x >> 2);\n"                                     // 25: deletable; &, |, >>, 1u, 2
    "  s += \"a\";\n"                                                 // 26: deletable, but a string's += is no arithmetic
    "  for (int i = 0; i < 2; i++) --x;\n"                             // 27: 0, the condition, <, 2, ++, --
    "  return x * 2u;\n"                                              // 28: *, 2u
    "}\n"
    "void note(int&);\n"
    "int branch(int n, bool b, const std::string& s, std::vector<int>& v) {\n"
    "  if (b && n > 1) return 1;\n"                                  // 32: the condition whole
    "  while (n != 0) --n;\n"                                         // 33: != is equality's: not negated
    "  if (int k = n) return k;\n"                                    // 34: a declaration: not negated
    "  v.reserve(4);\n"                                               // 35: a capacity hint: not deleted
    "  note(n);\n"                                                    // 36: a void call: deletable
    "  if (s == \"x\" || !b) v.clear();\n"                             // 37: the || whole; no block statement
    "  do v.clear(); while (!b);\n"                                  // 38: !b is drop-not's
    "  return b ? n : 0;\n"                                           // 39: the ?:'s condition
    "}\n"
    "std::string spell() {\n"
    "  static_assert(sizeof(int), \"never run\");\n"                   // 42: a static_assert's message: nothing
    "  std::string s = R\"(a)\";\n"                                    // 43: a raw string: nothing
    "  s += \"ab\" \"cd\";\n"                                          // 44: deletable; the first token only
    "  return s + \"\\n\" + \"\";\n"                                   // 45: an escape, an empty string
    "}\n"
    "}  // namespace poolcheck\n";

std::string describe(const Site& site, std::string_view source) {
  const auto line = std::count(source.begin(), source.begin() + static_cast<long>(site.offset), '\n') + 1;
  return std::to_string(line) + " " + std::string(operator_name(site.op)) + " `" +
         std::string(source.substr(site.offset, site.length)) + "`" + (site.error_propagation ? " (ep)" : "");
}

TEST(AutoMutantSites, ClangSeesOperatorsAndLiteralsNotInsideStringsCommentsArrowsOrMacros) {
  const fs::path dir = fs::path(testing::TempDir()) / "poolcheck-auto-mutants";
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ofstream(dir / "fixture.cpp", std::ios::binary) << kFixture;
  auto sites = sites_from_clang(dir, "fixture.cpp", kFixture, dir / "fixture.ast.json");
  fs::remove_all(dir, ec);
  if (!sites && sites.error().message.find("could not be started") != std::string::npos)
    GTEST_SKIP() << "no clang++ on PATH: " << sites.error().message;
  ASSERT_TRUE(sites) << sites.error().message;
  std::vector<std::string> found;
  for (const auto& site : *sites) found.push_back(describe(site, kFixture));
  const std::vector<std::string> expected = {
      "6 int-literal `7`",
      "7 relational `<`",
      "9 string-literal `\"a < b && c\"`",
      "11 plus-minus `+`",
      "11 int-literal `1`",
      "12 drop-not `!`",
      "12 int-literal `2`",
      "14 int-literal `1`",
      "14 int-literal `2`",
      "14 logical `||`",
      "15 delete-statement `v.push_back(n);`",
      "16 delete-statement `n = n == 4 ? n : 0;`",
      "16 equality `==`",
      "16 int-literal `4`",
      "16 int-literal `0`",
      "17 negate-condition `s`",
      "17 int-literal `0`",
      "20 drop-not `!` (ep)",
      "21 int-literal `0`",
      "24 delete-statement `x <<= x % 3u;`",
      "24 compound-assign `<<=`",
      "24 arithmetic `%`",
      "24 int-literal `3u`",
      "25 delete-statement `x = (x & 1u) | (x >> 2);`",
      "25 bitwise `&`",
      "25 int-literal `1u`",
      "25 bitwise `|`",
      "25 bitwise `>>`",
      "25 int-literal `2`",
      "26 delete-statement `s += \"a\";`",
      "26 string-literal `\"a\"`",
      "27 int-literal `0`",
      "27 negate-condition `i < 2`",
      "27 relational `<`",
      "27 int-literal `2`",
      "27 increment `++`",
      "27 increment `--`",
      "28 arithmetic `*`",
      "28 int-literal `2u`",
      "32 negate-condition `b && n > 1`",
      "32 logical `&&`",
      "32 relational `>`",
      "32 int-literal `1`",
      "32 int-literal `1`",
      "33 equality `!=`",
      "33 int-literal `0`",
      "33 increment `--`",
      "35 int-literal `4`",
      "36 void-call `note(n);`",
      "37 negate-condition `s == \"x\" || !b`",
      "37 equality `==`",
      "37 string-literal `\"x\"`",
      "37 logical `||`",
      "37 drop-not `!`",
      "38 drop-not `!`",
      "39 negate-condition `b`",
      "39 int-literal `0`",
      "44 delete-statement `s += \"ab\" \"cd\";`",
      "44 string-literal `\"ab\"`",
      "45 string-literal `\"\\n\"`",
      "45 string-literal `\"\"`",
  };
  EXPECT_EQ(found, expected);
}

TEST(AutoMutants, EachSiteBecomesCatalogueBlocksThatReadBackAndApply) {
  const std::string source = "int f(int a) {\n  if (a < 3) return 1;\n  return 0;\n}\n";
  const std::vector<Site> sites = {{Operator::Relational, source.find('<'), 1, false}};
  const auto mutants = mutants_of_file("core/token_types.cpp", source, sites);
  ASSERT_EQ(mutants.size(), 2u);
  const Mutant& first = mutants[0].mutant;
  EXPECT_EQ(catalogue_block(first),
            "=== auto-token-types-2-relational-1\n"
            "module: auto\n"
            "target: token_types\n"
            "provenance: poolcheck mutate --auto (relational)\n"
            "description: core/token_types.cpp:2: `<` -> `<=`\n"
            "file: core/token_types.cpp\n"
            "--- find\n"
            "  if (a < 3) return 1;\n"
            "--- replace\n"
            "  if (a <= 3) return 1;\n"
            "\n");
  EXPECT_EQ(mutants[1].mutant.id, "auto-token-types-2-relational-2");
  EXPECT_EQ(mutants[1].mutant.replace, "  if (a > 3) return 1;\n");

  std::string catalogue;
  for (const auto& m : mutants) catalogue += catalogue_block(m.mutant);
  auto parsed = parse_catalogue(catalogue, "generated");
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->size(), 2u);
  EXPECT_EQ((*parsed)[0].find, first.find);
  EXPECT_EQ((*parsed)[0].replace, first.replace);
  auto applied = apply_mutant((*parsed)[1], source);
  ASSERT_TRUE(applied) << applied.error().message;
  EXPECT_EQ(*applied, "int f(int a) {\n  if (a > 3) return 1;\n  return 0;\n}\n");
}

TEST(AutoMutants, TargetsFollowTheFile) {
  EXPECT_EQ(target_of_file("core/msgpack.cpp"), "params_wire");
  EXPECT_EQ(target_of_file("core/wire.cpp"), "params_wire");
  EXPECT_EQ(target_of_file("core/token_types.cpp"), "token_types");
  EXPECT_EQ(target_of_file("core/verify.cpp"), "verify");
  EXPECT_EQ(target_of_file("core/request.cpp"), "request");
}

TEST(AutoMutants, JsonApiSitesGoToTheTargetThatRunsTheirCommand) {
  const std::string source =
      "namespace {\n\ntemplate <class T>\nResult<T> guarded(Body body) {\n  return body();\n}\n\n}  // namespace\n\n"
      "Result<Json> compress_json(std::string_view input) {\n  return a < b;\n}\n\n"
      "MaybeError check_reconstruct_len(std::int64_t len) {\n  if (len < 0) return e;\n}\n\n"
      "Result<std::string> params_encode_msgpack(std::string_view input) {\n  return a < b;\n}\n\n"
      "Result<Json> verify_json(std::string_view input) {\n  return a < b;\n}\n";
  const auto at = [&](const std::string& text, std::size_t after = 0) { return source.find(text, after); };
  EXPECT_EQ(target_of_site("core/json_api.cpp", source, at("body()")), "request");
  EXPECT_EQ(target_of_site("core/json_api.cpp", source, at("a < b")), "token_types");
  EXPECT_EQ(target_of_site("core/json_api.cpp", source, at("len < 0")), "token_types");
  EXPECT_EQ(target_of_site("core/json_api.cpp", source, at("a < b", at("len < 0"))), "params_wire");
  EXPECT_EQ(target_of_site("core/json_api.cpp", source, source.rfind("a < b")), "verify");
  // Elsewhere the file decides, whatever the function's name.
  EXPECT_EQ(target_of_site("core/preprocess.cpp", source, at("a < b", at("len < 0"))), "request");
}

TEST(AutoMutants, AStringLiteralLosesItsFirstCharacterOrGainsAnX) {
  const std::string source =
      "auto a = \"Input should\";\nauto b = \"\";\nauto c = \"\\n\";\nauto d = \"\xc3\xa9t\xc3\xa9\";\n"
      "auto e = u8\"ab\" \"cd\";\n";
  std::vector<Site> sites;
  for (const std::string literal : {"\"Input should\"", "\"\"", "\"\\n\"", "\"\xc3\xa9t\xc3\xa9\"", "u8\"ab\""})
    sites.push_back({Operator::StringLiteral, source.find(literal), literal.size(), false});
  const auto mutants = mutants_of_file("core/errors.cpp", source, sites);
  ASSERT_EQ(mutants.size(), 5u);
  EXPECT_EQ(mutants[0].mutant.replace, "auto a = \"nput should\";\n");
  EXPECT_EQ(mutants[0].mutant.description, "core/errors.cpp:1: `\"Input should\"` -> `\"nput should\"`");
  EXPECT_EQ(mutants[1].mutant.replace, "auto b = \"x\";\n");
  EXPECT_EQ(mutants[2].mutant.replace, "auto c = \"x\\n\";\n");
  EXPECT_EQ(mutants[3].mutant.replace, "auto d = \"t\xc3\xa9\";\n");  // the whole UTF-8 sequence
  EXPECT_EQ(mutants[4].mutant.replace, "auto e = u8\"b\" \"cd\";\n");
  EXPECT_EQ(mutants[4].mutant.id, "auto-errors-5-string-literal-1");
}

TEST(AutoMutants, TheBigIntegerRefusalGoesToTheTargetWhoseInputsHoldOne) {
  const std::string source =
      "Error integer_out_of_range(const Json& value) {\n  return a < b;\n}\n\n"
      "MaybeError put_value(std::string& out, const Json& value) {\n  if (a < b) put(out);\n"
      "  if (is_big_integer(value)) return integer_out_of_range(value);\n  return c < d;\n}\n";
  const auto at = [&](const std::string& text) { return source.find(text); };
  EXPECT_EQ(target_of_site("core/msgpack.cpp", source, at("a < b")), "request");
  EXPECT_EQ(target_of_site("core/msgpack.cpp", source, at("is_big_integer")), "request");
  EXPECT_EQ(target_of_site("core/msgpack.cpp", source, at("if (a < b)")), "params_wire");
  EXPECT_EQ(target_of_site("core/msgpack.cpp", source, at("c < d")), "params_wire");
  EXPECT_EQ(target_of_site("core/msgpack.cpp", source, 0), "request");
  // Only the encoder's file: a function of that name elsewhere keeps its file's target.
  EXPECT_EQ(target_of_site("core/wire.cpp", source, at("a < b")), "params_wire");
}

TEST(AutoMutants, LiteralsStepBothWaysKeepingTheirSpelling) {
  const std::string source = "int a = 0x1F;\nunsigned b = 0u;\nint c = x-0;\n";
  const std::vector<Site> sites = {{Operator::IntegerLiteral, source.find("0x1F"), 4, false},
                                   {Operator::IntegerLiteral, source.find("0u"), 2, false},
                                   {Operator::IntegerLiteral, source.find("x-0") + 2, 1, false}};
  std::vector<std::string> replaced;
  for (const auto& m : mutants_of_file("core/x.cpp", source, sites)) replaced.push_back(m.mutant.replace);
  const std::vector<std::string> expected = {"int a = 0x20;\n", "int a = 0x1e;\n", "unsigned b = 1u;\n",
                                             "int c = x-1;\n", "int c = x- -1;\n"};
  EXPECT_EQ(replaced, expected);  // 0u has no -1; x-0 does not become the decrement x--1
}

TEST(AutoMutants, ArithmeticBitwiseAssignmentAndIncrementSwapToTheirInverse) {
  const std::string source = "a * b;\na % b;\na ^ b;\na << b;\na >>= b;\na %= b;\ni--;\n";
  const std::vector<Site> sites = {{Operator::Arithmetic, source.find('*'), 1, false},
                                   {Operator::Arithmetic, source.find('%'), 1, false},
                                   {Operator::Bitwise, source.find('^'), 1, false},
                                   {Operator::Bitwise, source.find("<<"), 2, false},
                                   {Operator::CompoundAssign, source.find(">>="), 3, false},
                                   {Operator::CompoundAssign, source.find("%="), 2, false},
                                   {Operator::Increment, source.find("--"), 2, false}};
  std::vector<std::string> replaced;
  for (const auto& m : mutants_of_file("core/x.cpp", source, sites)) replaced.push_back(m.mutant.replace);
  const std::vector<std::string> expected = {"a / b;\n", "a / b;\n",   "a | b;\n", "a >> b;\n",
                                             "a <<= b;\n", "a /= b;\n", "i++;\n"};
  EXPECT_EQ(replaced, expected);
}

TEST(AutoMutants, ConditionsAreNegatedWholeAndVoidCallsDeleted) {
  const std::string source = "if (a < b && c) f();\nreset(x);\n";
  const std::vector<Site> sites = {{Operator::NegateCondition, source.find("a <"), 10, false},
                                   {Operator::VoidCall, source.find("reset"), 9, false}};
  const auto mutants = mutants_of_file("core/x.cpp", source, sites);
  ASSERT_EQ(mutants.size(), 2u);
  EXPECT_EQ(mutants[0].mutant.replace, "if (!(a < b && c)) f();\n");
  EXPECT_EQ(mutants[0].mutant.description, "core/x.cpp:1: `a < b && c` negated");
  EXPECT_EQ(mutants[1].mutant.replace, "");  // the line goes with its only statement
  EXPECT_EQ(mutants[1].mutant.description, "core/x.cpp:2: `reset(x);` deleted");
}

TEST(WholeLineChange, WidensUntilTheFindTextIsUnique) {
  const std::string source = "a();\n  x = 1;\nb();\n\n  x = 1;\nc();\n";
  const auto second = source.rfind("1;");
  auto change = whole_line_change(source, second, 1, "2");
  ASSERT_TRUE(change);
  EXPECT_EQ(change->first_line, 5);
  // The blank line above is no help: as text, "\n  x = 1;\n" also ends line 1
  // (apply_mutant matches text, not lines). So line 6 joins.
  EXPECT_EQ(change->find, "\n  x = 1;\nc();\n");
  EXPECT_EQ(change->replace, "\n  x = 2;\nc();\n");
  EXPECT_EQ(source.find(change->find), source.rfind(change->find));
}

TEST(WholeLineChange, ADeletionDropsTheLineItEmpties) {
  const std::string source = "f();\n  v.push_back(1);\ng();\n";
  const auto at = source.find("v.push");
  auto change = whole_line_change(source, at, std::string("v.push_back(1);").size(), "");
  ASSERT_TRUE(change);
  EXPECT_EQ(change->find, "  v.push_back(1);\n");
  EXPECT_EQ(change->replace, "");
}

TEST(WholeLineChange, NothingWhenTheCatalogueCouldNotReadItBack) {
  EXPECT_FALSE(whole_line_change("--- x;\n", 4, 1, "y"));  // the parser takes "--- " lines for its own
}

TEST(SeededSample, TheSameSeedChoosesTheSameMutants) {
  const auto first = seeded_sample(1000, 20, 1);
  EXPECT_EQ(first, seeded_sample(1000, 20, 1));
  EXPECT_NE(first, seeded_sample(1000, 20, 2));
  EXPECT_EQ(first.size(), 20u);
  EXPECT_TRUE(std::is_sorted(first.begin(), first.end()));
  EXPECT_EQ(std::set<std::size_t>(first.begin(), first.end()).size(), 20u);
  EXPECT_EQ(seeded_sample(5, 20, 1), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  // Pinned: a change of the sampling would change every documented sample.
  EXPECT_EQ(seeded_sample(10, 3, 1), (std::vector<std::size_t>{4, 7, 8}));
}

TEST(EquivalentList, ReadsIdsWithTheirReasons) {
  auto entries = parse_equivalent_list(
      "# judged equivalent\n\nauto-pairing-25-int-literal-1   a reserve() capacity hint\n"
      "auto-x-1-drop-not-1\tthe value is never read\n",
      "equivalent.txt");
  ASSERT_TRUE(entries) << entries.error().message;
  ASSERT_EQ(entries->size(), 2u);
  EXPECT_EQ((*entries)[0].id, "auto-pairing-25-int-literal-1");
  EXPECT_EQ((*entries)[0].reason, "a reserve() capacity hint");
  EXPECT_EQ((*entries)[0].line, 3);
  EXPECT_EQ((*entries)[1].reason, "the value is never read");
}

TEST(EquivalentList, AnEntryNeedsAReasonAndOneLine) {
  auto bare = parse_equivalent_list("auto-a-1-drop-not-1\n", "equivalent.txt");
  ASSERT_FALSE(bare);
  EXPECT_NE(bare.error().message.find("equivalent.txt:1: auto-a-1-drop-not-1 has no reason"), std::string::npos);
  auto twice = parse_equivalent_list("m one\nm two\n", "equivalent.txt");
  ASSERT_FALSE(twice);
  EXPECT_NE(twice.error().message.find("equivalent.txt:2: m is listed twice"), std::string::npos);
}

TEST(EquivalentList, AnEntryWhoseMutantIsGoneIsAnError) {
  auto entries = parse_equivalent_list("auto-a-1-drop-not-1 why\nauto-a-9-drop-not-1 why\n", "eq.txt");
  ASSERT_TRUE(entries);
  EXPECT_FALSE(check_equivalent_entries(*entries, {"auto-a-1-drop-not-1", "auto-a-9-drop-not-1"}, "eq.txt"));
  auto stale = check_equivalent_entries(*entries, {"auto-a-1-drop-not-1"}, "eq.txt");
  ASSERT_TRUE(stale);
  EXPECT_NE(stale->message.find("eq.txt:2: auto-a-9-drop-not-1"), std::string::npos);
  EXPECT_EQ(stale->message.find("auto-a-1-drop-not-1"), std::string::npos);
}

TEST(ChangedLines, TheNewSideOfEachHunk) {
  const std::string diff =
      "diff --git a/core/x.cpp b/core/x.cpp\n"
      "--- a/core/x.cpp\n"
      "+++ b/core/x.cpp\n"
      "@@ -3 +3 @@ void f() {\n"
      "-  a();\n"
      "+  b();\n"
      "@@ -10,0 +11,2 @@\n"
      "+  c();\n"
      "+  d();\n"
      "@@ -20,2 +22,0 @@\n"
      "-  e();\n"
      "-  f();\n"
      "diff --git a/core/gone.cpp b/core/gone.cpp\n"
      "--- a/core/gone.cpp\n"
      "+++ /dev/null\n"
      "@@ -1,5 +0,0 @@\n";
  const ChangedLines changed = parse_unified_diff(diff);
  ASSERT_EQ(changed.size(), 1u);
  EXPECT_EQ(changed.at("core/x.cpp"), (std::set<int>{3, 11, 12}));
  EXPECT_TRUE(touches(changed, "core/x.cpp", 3, 3));
  EXPECT_TRUE(touches(changed, "core/x.cpp", 4, 11));  // a multi-line mutant reaching a changed line
  EXPECT_FALSE(touches(changed, "core/x.cpp", 4, 10));
  EXPECT_FALSE(touches(changed, "core/x.cpp", 22, 22));  // a pure deletion marks no line
  EXPECT_FALSE(touches(changed, "core/y.cpp", 3, 3));
}

}  // namespace
}  // namespace poolcheck::harness
