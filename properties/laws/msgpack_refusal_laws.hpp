#pragma once
// The MessagePack door refuses a document at its first defect, with the
// defect's reason and byte (spec 10.11, core/msgpack). This law finds that
// defect its own way: it walks the items with read_msgpack_item
// (msgpack_items.hpp), keeps its own stack of open containers, and names the
// refusal the document is owed. The wire laws see only documents the decoder
// took, and the error laws only the message's shape, so a decoder that refused
// a good document (automatic mutant auto-msgpack-196-relational-7 took no
// str32 for a map key) or named the wrong defect passed them all.
#include <string_view>

#include "core/error.hpp"
#include "core/json.hpp"
#include "properties/laws/violation.hpp"

namespace poolcheck::laws {

// Law "msgpack-refusal-exact": `decoded` is what from_msgpack(bytes) gave.
// A whole, well-formed document is accepted; any other is refused with
// `Invalid MessagePack: <reason> at byte N`, the first defect in reading order:
//   N = size, a value expected      unexpected end of input, a value was expected
//   a map key not in a str form     map key is not a string
//   0xc1; bin, ext, fixext          reserved type byte 0xc1; unsupported type <name> (0x..)
//   a length or value cut short     truncated <name>
//   a str's bytes cut short         string of L bytes runs past the end of input
//   a str's bytes not UTF-8         invalid UTF-8 in string (its byte: utf8-refusal)
//   a container 65 deep             containers nested more than 64 deep
//   more items than bytes left      array declares C items but only B bytes follow
//                                   (map: C entries, two bytes each; "1 byte follows")
//   bytes after the value           trailing data after the value
// Where the document's first defect is ill-formed UTF-8, an acceptance is
// utf8-refusal's to report, and so is the refusal's byte.
Violations msgpack_refusal_exact(std::string_view bytes, const Result<Json>& decoded);

}  // namespace poolcheck::laws
