#include "fuzz/harness/engine.hpp"

namespace poolcheck::harness {

std::unique_ptr<FuzzEngine> make_engine(EngineKind kind) {
  return kind == EngineKind::Afl ? make_afl_engine() : make_libfuzzer_engine();
}

std::string grouped(std::uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace poolcheck::harness
