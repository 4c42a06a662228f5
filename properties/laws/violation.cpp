#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

std::string describe(const Violations& violations) {
  std::string out;
  for (const auto& v : violations) out += "[" + v.law + "] " + v.description + "\n";
  return out;
}

void append(Violations& into, Violations more) {
  into.insert(into.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

}  // namespace poolcheck::laws
