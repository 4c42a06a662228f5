#pragma once
// Generators of PoolingParams on their other paths: the wire form (the
// MessagePack bytes the engine core receives) and verify inputs.
#include <iosfwd>
#include <string>

#include "properties/suites/generators.hpp"

namespace poolcheck::props {

struct WireCase {
  std::string bytes;  // MessagePack, as the engine core receives it
  std::string kind;   // "encoded", "mutated bytes" or a defect's name
  std::string expected_family;  // for a defect
  std::string expected_message;  // for a defect whose message the generator knows to the byte; else empty
  std::size_t encoded_length = 0;  // wire array length, for "encoded"
  bool nested_extras = false;      // extra_kwargs holds a container
  bool late_interaction = false;
};
void showValue(const WireCase& input, std::ostream& os);
// Generated params' encoding, sometimes with damaged bytes, sometimes with
// lengths and integers in wider forms than msgspec's shortest, and floats as
// float32 where that holds them (kind "wider forms"): a decoder reads any form.
rc::Gen<WireCase> gen_wire_case(const PoolingParams& params);
// A valid wire array with one defect: a wrong element type, too many
// elements, another output_kind, a removed task, cut bytes (anywhere, or where
// an item is due), no array, a map key of another type, a count past the bytes
// left, containers nested past the limit.
rc::Gen<WireCase> gen_wire_defect();

struct VerifyCase {
  std::string bytes;  // {"model": ..., "pooling_params": ...} as check_verify_input reads it
  std::string task;   // as given, "null" when unset
  std::string pooling_type;
  bool matryoshka = false;
  std::string defect;           // for a defect
  std::string expected_family;  // for a defect
};
void showValue(const VerifyCase& input, std::ostream& os);
rc::Gen<VerifyCase> gen_verify_case();
// A verify input with one defect verify (or the object form) must reject.
rc::Gen<VerifyCase> gen_verify_defect();

}  // namespace poolcheck::props
