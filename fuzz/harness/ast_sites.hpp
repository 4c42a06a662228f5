#pragma once
// Where `poolcheck mutate --auto` may put a mutant: the operator sites of one
// C++ file as the compiler sees them. Clang's JSON AST dump is read as a stream
// (nlohmann's SAX interface): the dump of a core file runs to megabytes, and
// only the stack of open nodes is kept. A site is taken only when its node lies
// wholly in the file itself (not in a header, not in a macro expansion), once
// however many templates instantiate it, and only when the file's text at the
// site spells the operator: implicit code (a range-for's `!=`, a defaulted
// comparison) points at other tokens. Strings and comments hold no nodes and
// `->` is no operator node, so neither is ever mutated.
#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace poolcheck::harness {

// The mutation operators (auto_mutants.hpp turns a site into its mutants).
enum class Operator {
  Relational,       // < <= > >=, each to its two neighbours
  Equality,         // == with !=
  Logical,          // && with ||
  DropNot,          // a unary ! dropped
  IntegerLiteral,   // an integer literal +1 and -1
  PlusMinus,        // binary + with - on integers
  TrueFalse,        // true with false
  DeleteStatement,  // an assignment or a container insert/erase/push_back/emplace_back deleted
  Arithmetic,       // * / % on integers: * with /, % to /
  Bitwise,          // & | ^ << >> on integers: & with |, ^ to |, << with >>
  CompoundAssign,   // += with -=, *= with /=, &= with |=, <<= with >>=, ^= to |= (built-in, on integers)
  Increment,        // ++ with -- (built-in)
  NegateCondition,  // the condition of an if, a loop or a ?: negated, `c` to `!(c)`
  VoidCall,         // a statement that only calls a void function deleted
  StringLiteral,    // a string literal's first character dropped, or an `x` put before an empty or escaped one
};

inline constexpr Operator kAllOperators[] = {
    Operator::Relational,     Operator::Equality,  Operator::Logical,         Operator::DropNot,
    Operator::IntegerLiteral, Operator::PlusMinus, Operator::TrueFalse,       Operator::DeleteStatement,
    Operator::Arithmetic,     Operator::Bitwise,   Operator::CompoundAssign,  Operator::Increment,
    Operator::NegateCondition, Operator::VoidCall, Operator::StringLiteral};

// The name --operator takes and ids carry: "relational", "drop-not", ...
std::string_view operator_name(Operator op);
std::optional<Operator> operator_named(std::string_view name);

struct Site {
  Operator op = Operator::Relational;
  std::size_t offset = 0;  // of the operator token, the literal or the statement
  std::size_t length = 0;  // a statement's includes its ';'
  // A DropNot in a condition whose branch only returns the tested variable's
  // error (`if (!r) return r.error();`): every test kills it, so the report
  // counts the kill rate with and without these.
  bool error_propagation = false;
  bool operator==(const Site&) const = default;
};

// The sites of `main_file` (the file name as given to clang) in `dump`, the
// output of `clang++ -Xclang -ast-dump=json` (one JSON value, or the sequence
// of values -ast-dump-filter writes), checked against `source`, the file's
// text. Sorted by offset. An error when the dump is not JSON.
Result<std::vector<Site>> scan_ast_dump(std::istream& dump, const std::string& main_file, std::string_view source);

}  // namespace poolcheck::harness
