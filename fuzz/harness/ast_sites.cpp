#include "fuzz/harness/ast_sites.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

namespace poolcheck::harness {
namespace {

constexpr std::pair<Operator, std::string_view> kNames[] = {
    {Operator::Relational, "relational"},       {Operator::Equality, "equality"},
    {Operator::Logical, "logical"},             {Operator::DropNot, "drop-not"},
    {Operator::IntegerLiteral, "int-literal"},  {Operator::PlusMinus, "plus-minus"},
    {Operator::TrueFalse, "true-false"},        {Operator::DeleteStatement, "delete-statement"},
    {Operator::Arithmetic, "arithmetic"},       {Operator::Bitwise, "bitwise"},
    {Operator::CompoundAssign, "compound-assign"}, {Operator::Increment, "increment"},
    {Operator::NegateCondition, "negate-condition"}, {Operator::VoidCall, "void-call"},
    {Operator::StringLiteral, "string-literal"},
};

bool is_one_of(std::string_view text, std::initializer_list<std::string_view> options) {
  return std::find(options.begin(), options.end(), text) != options.end();
}

// The operator family of a binary operator's spelling, if it is mutated.
std::optional<Operator> binary_family(std::string_view spelling, bool integer_operands) {
  if (is_one_of(spelling, {"<", "<=", ">", ">="})) return Operator::Relational;
  if (is_one_of(spelling, {"==", "!="})) return Operator::Equality;
  if (is_one_of(spelling, {"&&", "||"})) return Operator::Logical;
  if (!integer_operands) return std::nullopt;  // string +, stream <<, set operations: not arithmetic
  if (is_one_of(spelling, {"+", "-"})) return Operator::PlusMinus;
  if (is_one_of(spelling, {"*", "/", "%"})) return Operator::Arithmetic;
  if (is_one_of(spelling, {"&", "|", "^", "<<", ">>"})) return Operator::Bitwise;
  if (is_one_of(spelling, {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="})) return Operator::CompoundAssign;
  return std::nullopt;
}

bool is_integer_type(std::string_view type) {
  for (std::string_view prefix : {"const ", "volatile "})
    while (type.substr(0, prefix.size()) == prefix) type.remove_prefix(prefix.size());
  return is_one_of(type, {"int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "short",
                          "unsigned short", "signed char", "unsigned char", "char"});
}

// The offset of the first character at or after `at` that is neither white
// space nor inside a comment.
std::size_t skip_blank(std::string_view source, std::size_t at) {
  while (at < source.size()) {
    if (source[at] == ' ' || source[at] == '\t' || source[at] == '\n' || source[at] == '\r') {
      ++at;
    } else if (source.substr(at, 2) == "//") {
      at = std::min(source.find('\n', at), source.size());
    } else if (source.substr(at, 2) == "/*") {
      const auto end = source.find("*/", at + 2);
      at = end == std::string_view::npos ? source.size() : end + 2;
    } else {
      break;
    }
  }
  return at;
}

// A half-open byte range of the main file; `in_file` false when any end of it
// lies elsewhere (a header, a macro expansion) or is unknown.
struct Span {
  std::size_t begin = 0, end = 0;
  bool in_file = false;
};

// What a finished node tells its parent.
struct Summary {
  std::string kind;
  Span span;
  std::string var;       // the variable it reads (through casts, parentheses, `operator bool`)
  std::string negated;   // `!var`: the variable
  std::string error_of;  // `var.error()`: the variable
  std::string member;    // a MemberExpr's member name
  std::string base;      // ... and the variable it is a member of
  std::string call;      // a member call's method name
  std::string opcode;    // an operator's token: a built-in one's opcode, an overloaded one's callee
  bool assignment = false;
  bool void_call = false;  // a call of a function that returns void
};

// One source location object of the dump.
struct Loc {
  std::size_t offset = 0, tok_len = 0;
  bool has_offset = false;
  bool macro = false;  // it has spellingLoc / expansionLoc parts
};

struct NodeFrame {
  std::string kind, opcode, name, referenced, type, desugared_type;
  bool skip = false;  // implicit code, or inside it
  bool has_init = false, has_var = false;
  Loc begin, end;
  bool begin_in_file = false, end_in_file = false;
  std::array<Summary, 5> children;  // the first five: enough for an IfStmt's init, var, cond, then, else
  std::size_t child_count = 0;
};

enum class Container { Node, Inner, Range, Loc, Type, ReferencedDecl, IncludedFrom, Other };

struct Open {
  Container container;
  std::string key;  // the key it was opened under ("" in an array)
  Loc loc;          // for Container::Loc
};

// Expressions that only pass their single operand on, and so what it reads.
bool is_wrapper(std::string_view kind) {
  return is_one_of(kind, {"ImplicitCastExpr", "ParenExpr", "ExprWithCleanups", "CXXConstructExpr",
                          "MaterializeTemporaryExpr", "CXXBindTemporaryExpr", "CXXFunctionalCastExpr", "ConstantExpr"});
}

// Where a statement's condition sits among its children (an absent child of a
// `for` is dumped as an empty node, so the places hold). None for a condition
// that declares a variable (`if (auto r = f())`): its text is a declaration.
std::optional<std::size_t> condition_index(const NodeFrame& node) {
  std::optional<std::size_t> at;
  if (node.kind == "IfStmt" && !node.has_var) at = node.has_init ? 1 : 0;
  if (node.kind == "WhileStmt" && !node.has_var) at = 0;
  if (node.kind == "ForStmt") at = 2;
  if (node.kind == "DoStmt") at = 1;
  if (node.kind == "ConditionalOperator") at = 0;
  if (at && *at >= std::min(node.child_count, node.children.size())) return std::nullopt;
  return at;
}

class SiteScanner : public nlohmann::json_sax<nlohmann::json> {
 public:
  SiteScanner(std::string main_file, std::string_view source) : main_file_(std::move(main_file)), source_(source) {}

  void start_value() { file_.clear(); }  // clang starts each dumped declaration afresh
  std::vector<Site> sites() const {
    std::vector<Site> out;
    for (const auto& [key, site] : sites_) out.push_back(site);
    return out;
  }

  bool null() override { return true; }
  bool boolean(bool value) override {
    if (open_.back().container != Container::Node) return true;
    NodeFrame& node = nodes_.back();
    if (key_ == "isImplicit" && value) node.skip = true;
    if (key_ == "hasInit") node.has_init = value;
    if (key_ == "hasVar") node.has_var = value;
    return true;
  }
  bool number_integer(number_integer_t value) override {
    return value < 0 ? true : number_unsigned(static_cast<number_unsigned_t>(value));
  }
  bool number_unsigned(number_unsigned_t value) override {
    if (open_.back().container != Container::Loc) return true;
    if (key_ == "offset") {
      open_.back().loc.offset = static_cast<std::size_t>(value);
      open_.back().loc.has_offset = true;
    } else if (key_ == "tokLen") {
      open_.back().loc.tok_len = static_cast<std::size_t>(value);
    }
    return true;
  }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t& value) override;
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override;
  bool end_object() override;
  bool start_array(std::size_t) override {
    const bool inner = open_.back().container == Container::Node && key_ == "inner";
    open_.push_back({inner ? Container::Inner : Container::Other, key_, {}});
    return true;
  }
  bool end_array() override {
    open_.pop_back();
    return true;
  }
  bool key(string_t& value) override {
    key_ = value;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    error_ = "the AST dump is not JSON at byte " + std::to_string(position) + ": " + e.what();
    return false;
  }
  const std::string& error() const { return error_; }

 private:
  Container child_container() const;
  Summary summarise(const NodeFrame& node) const;
  void find_sites(const NodeFrame& node, const Summary& summary);
  void binary_site(const NodeFrame& node);
  void operator_call_site(const NodeFrame& node);
  void increment_site(const Span& span, std::string_view opcode);
  void statement_site(const Summary& summary);
  void condition_site(const Summary& condition);
  void string_literal_site(const Span& span);
  void tag_error_propagation(const NodeFrame& node);
  void add(Operator op, std::size_t offset, std::size_t length) {
    sites_.emplace(std::make_pair(offset, op), Site{op, offset, length, false});
  }
  std::string_view text(const Span& span) const { return source_.substr(span.begin, span.end - span.begin); }

  std::string main_file_;
  std::string_view source_;
  std::string file_;  // the file of the last location that named one (the dump names it only when it changes)
  std::string key_;
  std::vector<Open> open_;
  std::vector<NodeFrame> nodes_;
  std::map<std::pair<std::size_t, Operator>, Site> sites_;  // keyed so that template instances count once
  std::string error_;
};

Container SiteScanner::child_container() const {
  if (open_.empty() || open_.back().container == Container::Inner) return Container::Node;
  switch (open_.back().container) {
    case Container::Node:
      if (key_ == "range") return Container::Range;
      if (key_ == "loc") return Container::Loc;
      if (key_ == "type") return Container::Type;
      if (key_ == "referencedDecl") return Container::ReferencedDecl;
      return Container::Other;
    case Container::Range:
      return Container::Loc;
    case Container::Loc:
      return key_ == "includedFrom" ? Container::IncludedFrom : Container::Loc;
    default:
      return Container::Other;
  }
}

bool SiteScanner::start_object(std::size_t) {
  const Container container = child_container();
  if (container == Container::Loc && open_.back().container == Container::Loc) open_.back().loc.macro = true;
  if (container == Container::Node) {
    NodeFrame node;
    node.skip = !nodes_.empty() && nodes_.back().skip;
    nodes_.push_back(std::move(node));
  }
  open_.push_back({container, key_, {}});
  return true;
}

bool SiteScanner::string(string_t& value) {
  const Open& top = open_.back();
  // Every location object names its file when it differs from the previous
  // one's, in the order the dump writes them; "includedFrom" names another.
  if (key_ == "file" && top.container != Container::IncludedFrom) file_ = value;
  if (nodes_.empty()) return true;
  NodeFrame& node = nodes_.back();
  if (top.container == Container::Node) {
    if (key_ == "kind") node.kind = value;
    if (key_ == "opcode") node.opcode = value;
    if (key_ == "name") node.name = value;
  } else if (top.container == Container::Type) {
    if (key_ == "qualType") node.type = value;
    if (key_ == "desugaredQualType") node.desugared_type = value;
  } else if (top.container == Container::ReferencedDecl && key_ == "name") {
    node.referenced = value;
  }
  return true;
}

bool SiteScanner::end_object() {
  const Open closed = open_.back();
  open_.pop_back();
  if (closed.container == Container::Loc) {
    if (open_.back().container == Container::Range) {
      const bool in_file = closed.loc.has_offset && !closed.loc.macro && file_ == main_file_;
      NodeFrame& node = nodes_.back();
      if (closed.key == "begin") {
        node.begin = closed.loc;
        node.begin_in_file = in_file;
      } else {
        node.end = closed.loc;
        node.end_in_file = in_file;
      }
    }
    return true;
  }
  if (closed.container != Container::Node) return true;
  NodeFrame node = std::move(nodes_.back());
  nodes_.pop_back();
  Summary summary = summarise(node);
  if (!node.skip) find_sites(node, summary);
  if (!nodes_.empty()) {
    NodeFrame& parent = nodes_.back();
    if (parent.child_count < parent.children.size()) parent.children[parent.child_count] = std::move(summary);
    ++parent.child_count;
  }
  return true;
}

Summary SiteScanner::summarise(const NodeFrame& node) const {
  Summary s;
  s.kind = node.kind;
  if (node.kind == "UnaryOperator" || node.kind == "BinaryOperator") s.opcode = node.opcode;
  s.void_call = is_one_of(node.kind, {"CallExpr", "CXXMemberCallExpr"}) && node.type == "void";
  s.span = {node.begin.offset, node.end.offset + node.end.tok_len, node.begin_in_file && node.end_in_file};
  if (s.span.in_file && (s.span.end < s.span.begin || s.span.end > source_.size())) s.span.in_file = false;
  const bool one_child = node.child_count == 1;
  const Summary* first = node.child_count > 0 ? &node.children[0] : nullptr;
  if (node.kind == "DeclRefExpr") {
    s.var = node.referenced;
  } else if (node.kind == "MemberExpr" && first) {
    s.member = node.name;
    s.base = first->var;
  } else if (node.kind == "CXXMemberCallExpr" && first) {
    s.call = first->member;
    if (one_child && first->member == "operator bool") s.var = first->base;
    if (one_child && first->member == "error") s.error_of = first->base;
  } else if (node.kind == "UnaryOperator" && node.opcode == "!" && first) {
    s.negated = first->var;
  } else if (node.kind == "BinaryOperator" || node.kind == "CompoundAssignOperator") {
    s.assignment = node.kind == "CompoundAssignOperator" || node.opcode == "=";
  } else if (node.kind == "CXXOperatorCallExpr" && first && first->span.in_file) {
    s.opcode = text(first->span);
    s.assignment = is_one_of(s.opcode, {"=", "+=", "-=", "*=", "/=", "|=", "&="});
  } else if (is_wrapper(node.kind) && one_child) {
    Summary inner = *first;
    inner.kind = s.kind;
    inner.span = s.span;
    return inner;
  } else if ((node.kind == "ReturnStmt" || node.kind == "CompoundStmt") && one_child) {
    s.error_of = first->error_of;
  }
  return s;
}

void SiteScanner::find_sites(const NodeFrame& node, const Summary& summary) {
  if (node.kind == "BinaryOperator" || node.kind == "CompoundAssignOperator") binary_site(node);
  if (node.kind == "CXXOperatorCallExpr") operator_call_site(node);
  if (node.kind == "IfStmt") tag_error_propagation(node);
  if (const auto cond = condition_index(node)) condition_site(node.children[*cond]);
  if (summary.span.in_file) {
    const std::string_view token = text(summary.span);
    if (node.kind == "UnaryOperator" && node.opcode == "!" && token.substr(0, 1) == "!")
      add(Operator::DropNot, summary.span.begin, 1);
    if (node.kind == "IntegerLiteral" && !token.empty() && token[0] >= '0' && token[0] <= '9')
      add(Operator::IntegerLiteral, summary.span.begin, token.size());
    if (node.kind == "CXXBoolLiteralExpr" && (token == "true" || token == "false"))
      add(Operator::TrueFalse, summary.span.begin, token.size());
    if (node.kind == "UnaryOperator" && is_one_of(node.opcode, {"++", "--"})) increment_site(summary.span, node.opcode);
    // A static_assert's message is never run.
    if (node.kind == "StringLiteral" && (nodes_.empty() || nodes_.back().kind != "StaticAssertDecl"))
      string_literal_site(summary.span);
  }
  if (!nodes_.empty() && nodes_.back().kind == "CompoundStmt") statement_site(summary);
}

// A binary operator's token lies between its operands: found there, past
// white space and comments, and checked.
void SiteScanner::binary_site(const NodeFrame& node) {
  if (node.child_count != 2 || !node.begin_in_file || !node.end_in_file) return;
  const Span& left = node.children[0].span;
  const Span& right = node.children[1].span;
  if (!left.in_file || !right.in_file || left.end > right.begin) return;
  const std::string& type = node.desugared_type.empty() ? node.type : node.desugared_type;
  const auto family = binary_family(node.opcode, is_integer_type(type));
  if (!family) return;
  const std::size_t at = skip_blank(source_, left.end);
  if (source_.substr(at, node.opcode.size()) != node.opcode) return;
  if (skip_blank(source_, at + node.opcode.size()) != right.begin) return;
  add(*family, at, node.opcode.size());
}

// An overloaded operator's callee names the token: `a == b` on strings, and
// the rewritten `a != b` of C++20, whose callee is `operator==` at the `!=`.
void SiteScanner::operator_call_site(const NodeFrame& node) {
  if (node.child_count != 3 || !node.children[0].span.in_file) return;
  const Span& callee = node.children[0].span;
  const std::string_view token = text(callee);
  if (const auto family = binary_family(token, false)) add(*family, callee.begin, token.size());
}

// A built-in `++` or `--` is spelled at the start of its expression (prefix)
// or at its end (postfix).
void SiteScanner::increment_site(const Span& span, std::string_view opcode) {
  if (span.end - span.begin < 3) return;
  if (text({span.begin, span.begin + 2, true}) == opcode) add(Operator::Increment, span.begin, 2);
  else if (text({span.end - 2, span.end, true}) == opcode) add(Operator::Increment, span.end - 2, 2);
}

// A statement of a block that assigns or inserts into / erases from a
// container, or else only calls a void function, when it ends with its own
// ';': deleted with it. `reserve` is a capacity hint, never a behaviour.
void SiteScanner::statement_site(const Summary& summary) {
  const bool container_call = is_one_of(summary.call, {"insert", "erase", "push_back", "emplace_back"});
  const bool deletes = summary.assignment || container_call;
  const bool void_call = summary.void_call && summary.call != "reserve";
  if (!summary.span.in_file || !(deletes || void_call)) return;
  const std::size_t semicolon = skip_blank(source_, summary.span.end);
  if (semicolon >= source_.size() || source_[semicolon] != ';') return;
  add(deletes ? Operator::DeleteStatement : Operator::VoidCall, summary.span.begin, semicolon + 1 - summary.span.begin);
}

// A condition negated whole. Not a `!x` (drop-not makes that mutant) nor an
// `==` or `!=` (equality's swap is its negation).
void SiteScanner::condition_site(const Summary& condition) {
  if (!condition.span.in_file || is_one_of(condition.opcode, {"!", "==", "!="})) return;
  add(Operator::NegateCondition, condition.span.begin, condition.span.end - condition.span.begin);
}

// A string literal's first token, through its closing quote: `"abc"`,
// `u8"abc"`, the `"abc"` of `"abc"sv` or of `"ab" "c"`. Not a raw string.
void SiteScanner::string_literal_site(const Span& span) {
  const std::string_view token = text(span);
  const std::size_t open = token.find('"');
  if (open == std::string_view::npos || token.substr(0, open).find('R') != std::string_view::npos) return;
  for (std::size_t i = open + 1; i < token.size(); ++i) {
    if (token[i] == '\\') {
      ++i;
    } else if (token[i] == '"') {
      add(Operator::StringLiteral, span.begin, i + 1);
      return;
    }
  }
}

void SiteScanner::tag_error_propagation(const NodeFrame& node) {
  const std::size_t cond = (node.has_init ? 1 : 0) + (node.has_var ? 1 : 0);
  if (cond + 1 >= node.child_count || cond + 1 >= node.children.size()) return;
  const Summary& test = node.children[cond];
  const Summary& branch = node.children[cond + 1];
  if (test.negated.empty() || test.negated != branch.error_of || !test.span.in_file) return;
  const auto it = sites_.find({test.span.begin, Operator::DropNot});
  if (it != sites_.end()) it->second.error_propagation = true;
}

}  // namespace

std::string_view operator_name(Operator op) {
  for (const auto& [each, name] : kNames)
    if (each == op) return name;
  return "?";
}

std::optional<Operator> operator_named(std::string_view name) {
  for (const auto& [each, each_name] : kNames)
    if (each_name == name) return each;
  return std::nullopt;
}

Result<std::vector<Site>> scan_ast_dump(std::istream& dump, const std::string& main_file, std::string_view source) {
  SiteScanner scanner(main_file, source);
  for (;;) {
    dump >> std::ws;
    if (dump.peek() == std::char_traits<char>::eof()) break;
    scanner.start_value();
    // Not strict: the filtered dump is a sequence of values, read one at a time.
    if (!nlohmann::json::sax_parse(dump, &scanner, nlohmann::json::input_format_t::json, false))
      return Error::bad_request(scanner.error().empty() ? "the AST dump could not be read" : scanner.error());
  }
  return scanner.sites();
}

}  // namespace poolcheck::harness
