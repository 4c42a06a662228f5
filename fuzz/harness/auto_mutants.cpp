#include "fuzz/harness/auto_mutants.hpp"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <random>
#include <regex>

namespace poolcheck::harness {
namespace {

// One way to change a site: its new text, and how the description shows it.
struct Edit {
  std::string replacement;
  std::string shown;  // "`<` -> `<=`"
};

std::string in_backticks(std::string_view text) { return "`" + std::string(text) + "`"; }

Edit swap_to(std::string_view from, std::string_view to) {
  return {std::string(to), in_backticks(from) + " -> " + in_backticks(to)};
}

// Each relational operator's neighbours: the same direction with the other
// boundary (an off-by-one), and the other direction with the same boundary.
std::vector<std::string_view> relational_neighbours(std::string_view op) {
  if (op == "<") return {"<=", ">"};
  if (op == "<=") return {"<", ">="};
  if (op == ">") return {">=", "<"};
  return {">", "<="};
}

// An integer literal's value and the spelling around it: "0x1Fu" is 31 in hex
// with suffix "u". Octal and binary literals are left alone.
struct Literal {
  std::uint64_t value = 0;
  bool hex = false;
  std::string suffix;
};

std::optional<Literal> read_literal(std::string_view token) {
  Literal literal;
  const auto suffix_at = token.find_last_not_of("uUlLzZ");
  if (suffix_at == std::string_view::npos) return std::nullopt;
  literal.suffix = std::string(token.substr(suffix_at + 1));
  std::string digits(token.substr(0, suffix_at + 1));
  digits.erase(std::remove(digits.begin(), digits.end(), '\''), digits.end());
  literal.hex = digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
  if (literal.hex) digits.erase(0, 2);
  else if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
  const char* end = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(digits.data(), end, literal.value, literal.hex ? 16 : 10);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return literal;
}

std::string literal_text(std::uint64_t value, bool hex, const std::string& suffix) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value, hex ? 16 : 10);
  return (hex ? "0x" : "") + std::string(text, end) + suffix;
}

std::vector<Edit> literal_edits(std::string_view token, char before) {
  const auto literal = read_literal(token);
  if (!literal) return {};
  std::vector<Edit> edits;
  if (literal->value != UINT64_MAX) edits.push_back(swap_to(token, literal_text(literal->value + 1, literal->hex, literal->suffix)));
  if (literal->value > 0) {
    edits.push_back(swap_to(token, literal_text(literal->value - 1, literal->hex, literal->suffix)));
  } else if (literal->suffix.find_first_of("uU") == std::string::npos) {
    // `x-0` must not become the decrement `x--1`.
    const std::string minus_one = (before == '-' || before == '+' ? " -1" : "-1") + literal->suffix;
    edits.push_back({minus_one, in_backticks(token) + " -> " + in_backticks("-1" + literal->suffix)});
  }
  return edits;
}

// A statement as one line for a description: white space runs folded, long ones cut.
std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  if (out.size() > 60) {
    out.resize(57);
    out += "...";
  }
  return out;
}

// The operator an arithmetic, bitwise, compound-assignment or increment token
// becomes: its inverse where it has one, else its nearest neighbour.
std::string_view swapped_operator(std::string_view token) {
  static constexpr std::pair<std::string_view, std::string_view> kSwaps[] = {
      {"*", "/"},   {"/", "*"},   {"%", "/"},   {"&", "|"},     {"|", "&"},     {"^", "|"},   {"<<", ">>"},
      {">>", "<<"}, {"+=", "-="}, {"-=", "+="}, {"*=", "/="},   {"/=", "*="},   {"&=", "|="}, {"|=", "&="},
      {"^=", "|="}, {"<<=", ">>="}, {">>=", "<<="}, {"%=", "/="}, {"++", "--"}, {"--", "++"}};
  for (const auto& [from, to] : kSwaps)
    if (from == token) return to;
  return {};
}

// A string literal (its first token, `"abc"` or `u8"abc"`) with its first
// character dropped, a whole UTF-8 sequence; an empty one, or one that starts
// with an escape, gets an `x` before its text instead. A message, a key or a
// name spelled wrong: what the laws must see whenever the core prints it.
std::vector<Edit> string_literal_edits(std::string_view token) {
  const std::size_t first = token.find('"') + 1;
  if (first == 0 || first >= token.size()) return {};
  std::string changed(token);
  if (token[first] == '"' || token[first] == '\\') {
    changed.insert(first, "x");
  } else {
    std::size_t length = 1;
    while (first + length < token.size() && (static_cast<unsigned char>(token[first + length]) & 0xC0) == 0x80)
      ++length;
    changed.erase(first, length);
  }
  return {{changed, in_backticks(one_line(token)) + " -> " + in_backticks(one_line(changed))}};
}

std::vector<Edit> edits_of(const Site& site, std::string_view source) {
  const std::string_view token = source.substr(site.offset, site.length);
  switch (site.op) {
    case Operator::Relational: {
      std::vector<Edit> edits;
      for (auto to : relational_neighbours(token)) edits.push_back(swap_to(token, to));
      return edits;
    }
    case Operator::Equality: return {swap_to(token, token == "==" ? "!=" : "==")};
    case Operator::Logical: return {swap_to(token, token == "&&" ? "||" : "&&")};
    case Operator::PlusMinus: return {swap_to(token, token == "+" ? "-" : "+")};
    case Operator::TrueFalse: return {swap_to(token, token == "true" ? "false" : "true")};
    case Operator::DropNot: return {{"", "`!` dropped"}};
    case Operator::IntegerLiteral: return literal_edits(token, site.offset > 0 ? source[site.offset - 1] : ' ');
    case Operator::DeleteStatement:
    case Operator::VoidCall: return {{"", in_backticks(one_line(token)) + " deleted"}};
    case Operator::NegateCondition: return {{"!(" + std::string(token) + ")", in_backticks(one_line(token)) + " negated"}};
    case Operator::StringLiteral: return string_literal_edits(token);
    case Operator::Arithmetic:
    case Operator::Bitwise:
    case Operator::CompoundAssign:
    case Operator::Increment: {
      const auto to = swapped_operator(token);
      return to.empty() ? std::vector<Edit>{} : std::vector<Edit>{swap_to(token, to)};
    }
  }
  return {};
}

// The lines of a text, each with its '\n' (the last one may lack it).
std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const auto size = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(0, size));
    text.remove_prefix(size);
  }
  return lines;
}

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::string joined(const std::vector<std::string_view>& lines, std::size_t from, std::size_t to) {
  std::string text;
  for (std::size_t i = from; i < to; ++i) text += lines[i];
  return text;
}

bool occurs_once(std::string_view source, std::string_view text) {
  const auto at = source.find(text);
  return at != std::string_view::npos && source.find(text, at + 1) == std::string_view::npos;
}

// What the catalogue reads back as it was written: the parser drops trailing
// blank lines and reads "=== " and "--- " lines as its own.
bool keeps(std::string_view text) {
  const auto lines = lines_of(text);
  if (!lines.empty() && is_blank(lines.back())) return false;
  return std::none_of(lines.begin(), lines.end(), [](std::string_view line) {
    return line.substr(0, 4) == "=== " || line.substr(0, 4) == "--- ";
  });
}

std::string id_stem(const std::string& file) {
  std::string stem = fs::path(file).stem().string();
  std::replace(stem.begin(), stem.end(), '_', '-');
  return stem;
}

}  // namespace

std::optional<LineChange> whole_line_change(std::string_view source, std::size_t offset, std::size_t length,
                                            std::string_view replacement) {
  const auto lines = lines_of(source);
  std::size_t first = 0, start = 0;  // the line holding `offset`, and where it starts
  while (first + 1 < lines.size() && start + lines[first].size() <= offset) start += lines[first++].size();
  std::size_t last = first, end = start + lines[first].size();  // the line holding the change's last byte
  while (last + 1 < lines.size() && end < offset + length) end += lines[++last].size();
  std::string changed = std::string(source.substr(start, offset - start)) + std::string(replacement) +
                        std::string(source.substr(offset + length, end - offset - length));
  std::string kept;
  for (auto line : lines_of(changed))
    if (!is_blank(line)) kept += line;
  LineChange change{{}, {}, static_cast<int>(first + 1), static_cast<int>(last + 1)};
  for (std::size_t above = first, below = last + 1;;) {
    change.find = joined(lines, above, below);
    change.replace = joined(lines, above, first) + kept + joined(lines, last + 1, below);
    if (occurs_once(source, change.find) && keeps(change.find) && (change.replace.empty() || keeps(change.replace)))
      return change;
    const bool grow_above = above > 0 && (first - above <= below - (last + 1) || below == lines.size());
    if (grow_above) --above;
    else if (below < lines.size()) ++below;
    else return std::nullopt;
  }
}

std::string target_of_file(std::string_view file) {
  const std::string stem = fs::path(file).stem().string();
  if (stem.find("msgpack") != std::string::npos || stem.find("wire") != std::string::npos) return "params_wire";
  if (stem == "token_types") return "token_types";
  if (stem == "verify") return "verify";
  return "request";
}

namespace {

// The name of the function defined at file scope that holds `offset`: the
// last line before it that starts at column 0 with a name and `(`.
std::string enclosing_function(std::string_view source, std::size_t offset) {
  static const std::regex kDefinition(R"(^[A-Za-z][^(;=]*?([A-Za-z_]\w*)\()");
  std::string name;
  std::size_t line = 0;
  while (line < offset && line < source.size()) {
    const std::size_t end = std::min(source.find('\n', line), source.size());
    std::match_results<std::string_view::const_iterator> m;
    const std::string_view text = source.substr(line, end - line);
    if (std::regex_search(text.begin(), text.end(), m, kDefinition)) name = m[1].str();
    line = end + 1;
  }
  return name;
}

constexpr std::string_view kBigIntegerRefusal = "integer_out_of_range";

// The line of `source` that holds `offset`.
std::string_view line_at(std::string_view source, std::size_t offset) {
  const std::size_t newline = offset == 0 ? std::string_view::npos : source.rfind('\n', offset - 1);
  const std::size_t from = newline == std::string_view::npos ? 0 : newline + 1;
  return source.substr(from, std::min(source.find('\n', offset), source.size()) - from);
}

}  // namespace

std::string target_of_site(std::string_view file, std::string_view source, std::size_t offset) {
  const auto stem = fs::path(file).stem();
  // The encoder's refusal of an integer beyond 64 bits: MessagePack holds no
  // such integer, so params_wire's inputs never meet it; a request's
  // extra_kwargs (JSON integers of any length) does, through its full check's
  // wire round trip.
  if (stem == "msgpack" && (enclosing_function(source, offset) == kBigIntegerRefusal ||
                            line_at(source, offset).find(kBigIntegerRefusal) != std::string_view::npos))
    return "request";
  if (stem != "json_api") return target_of_file(file);
  // The commands of every target: each site goes to the target that runs its command.
  const std::string function = enclosing_function(source, offset);
  for (const char* command : {"compress", "reconstruct", "batch"})
    if (function.find(command) != std::string::npos) return "token_types";
  if (function.find("params") != std::string::npos) return "params_wire";
  if (function.find("verify") != std::string::npos) return "verify";
  return "request";
}

std::vector<AutoMutant> mutants_of_file(const std::string& file, std::string_view source,
                                        const std::vector<Site>& sites) {
  std::vector<AutoMutant> mutants;
  std::map<std::pair<int, Operator>, int> numbered;  // per line and operator: the last n given
  for (const Site& site : sites) {
    if (site.offset + site.length > source.size()) continue;
    for (const Edit& edit : edits_of(site, source)) {
      const auto change = whole_line_change(source, site.offset, site.length, edit.replacement);
      if (!change) continue;
      AutoMutant m;
      m.op = site.op;
      m.error_propagation = site.error_propagation;
      m.first_line = change->first_line;
      m.last_line = change->last_line;
      const std::string name(operator_name(site.op));
      const int n = ++numbered[{change->first_line, site.op}];
      m.mutant.id = "auto-" + id_stem(file) + "-" + std::to_string(change->first_line) + "-" + name + "-" +
                    std::to_string(n);
      m.mutant.module = "auto";
      m.mutant.target = target_of_site(file, source, site.offset);
      m.mutant.provenance = "poolcheck mutate --auto (" + name + ")";
      m.mutant.description = file + ":" + std::to_string(change->first_line) + ": " + edit.shown +
                             (site.error_propagation ? " (error propagation)" : "");
      m.mutant.file = file;
      m.mutant.find = change->find;
      m.mutant.replace = change->replace;
      mutants.push_back(std::move(m));
    }
  }
  return mutants;
}

std::vector<std::size_t> seeded_sample(std::size_t population, std::size_t count, std::uint64_t seed) {
  std::vector<std::size_t> order(population);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::mt19937_64 random(seed);
  count = std::min(count, population);
  // A partial Fisher-Yates shuffle; std::uniform_int_distribution differs between standard libraries.
  for (std::size_t i = 0; i < count; ++i) std::swap(order[i], order[i + random() % (population - i)]);
  order.resize(count);
  std::sort(order.begin(), order.end());
  return order;
}

std::string catalogue_block(const Mutant& m) {
  return "=== " + m.id + "\nmodule: " + m.module + "\ntarget: " + m.target + "\nprovenance: " + m.provenance +
         "\ndescription: " + m.description + "\nfile: " + m.file + "\n--- find\n" + m.find +
         (m.find.ends_with("\n") ? "" : "\n") + "--- replace\n" + m.replace +
         (m.replace.empty() || m.replace.ends_with("\n") ? "" : "\n") + "\n";
}

}  // namespace poolcheck::harness
