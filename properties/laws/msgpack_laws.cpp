#include "properties/laws/msgpack_laws.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace poolcheck::laws {
namespace {

constexpr const char* kLaw = "shortest-form";

// A length-prefixed family: its fix form's tag range and limit (0: none), and
// the tags of its 8-, 16- and 32-bit forms (0: no such form).
struct Family {
  const char* name;
  const char* unit;  // what its length counts
  std::uint8_t fix_first, fix_last;
  std::uint64_t fix_limit;
  std::uint8_t tag8, tag16, tag32;
  std::uint64_t children_per_item;  // a map item is a key and a value
  bool payload;                     // str and bin: the items are bytes
};

constexpr Family kStr{"str", "bytes", 0xa0, 0xbf, 32, 0xd9, 0xda, 0xdb, 0, true};
constexpr Family kBin{"bin", "bytes", 0, 0, 0, 0xc4, 0xc5, 0xc6, 0, true};
constexpr Family kArray{"array", "items", 0x90, 0x9f, 16, 0, 0xdc, 0xdd, 1, false};
constexpr Family kMap{"map", "entries", 0x80, 0x8f, 16, 0, 0xde, 0xdf, 2, false};
constexpr Family kFamilies[] = {kStr, kBin, kArray, kMap};

// The length bytes msgspec writes for `length` items of `family` (0: fix form).
int shortest_width(const Family& family, std::uint64_t length) {
  if (length < family.fix_limit) return 0;
  if (family.tag8 != 0 && length <= 0xff) return 1;
  return length <= 0xffff ? 2 : 4;
}

int unsigned_width(std::uint64_t v) { return v < 0x80 ? 0 : v <= 0xff ? 1 : v <= 0xffff ? 2 : v <= 0xffffffff ? 4 : 8; }

int signed_width(std::int64_t v) {
  return v >= -32 ? 0 : v >= INT8_MIN ? 1 : v >= INT16_MIN ? 2 : v >= INT32_MIN ? 4 : 8;
}

std::string hex(std::uint8_t tag) {
  static const char* digits = "0123456789abcdef";
  return std::string("0x") + digits[tag >> 4] + digits[tag & 0xf];
}

class Walk {
 public:
  explicit Walk(std::string_view bytes) : bytes_(bytes) {}

  // The first complaint, or nothing when the whole document is in form.
  std::optional<std::string> run() {
    std::uint64_t pending = 1;  // elements still to read; iterative, so any depth
    while (pending > 0) {
      --pending;
      if (auto complaint = element(pending)) return complaint;
    }
    if (at_ != bytes_.size()) return at(at_) + std::to_string(bytes_.size() - at_) + " bytes after the document";
    return std::nullopt;
  }

 private:
  std::string at(std::size_t offset) const { return "at byte " + std::to_string(offset) + ": "; }

  std::optional<std::uint64_t> take(int width) {
    if (bytes_.size() - at_ < static_cast<std::size_t>(width)) return std::nullopt;
    std::uint64_t value = 0;
    for (int i = 0; i < width; ++i) value = (value << 8) | static_cast<std::uint8_t>(bytes_[at_++]);
    return value;
  }

  std::optional<std::string> element(std::uint64_t& pending) {
    if (at_ >= bytes_.size()) return at(at_) + "the document ends inside an element";
    const std::size_t start = at_;
    const auto tag = static_cast<std::uint8_t>(bytes_[at_++]);
    if (tag < 0x80 || tag >= 0xe0 || tag == 0xc0 || tag == 0xc2 || tag == 0xc3) return std::nullopt;
    if (tag == 0xcb) return skip(8, start);
    if (tag >= 0xcc && tag <= 0xcf) return integer(tag, start, false);
    if (tag >= 0xd0 && tag <= 0xd3) return integer(tag, start, true);
    for (const Family& family : kFamilies)
      if (auto width = header_width(family, tag)) return sized(family, tag, *width, start, pending);
    return at(start) + "tag " + hex(tag) + ", which msgspec never writes here (float32, ext or unused)";
  }

  static std::optional<int> header_width(const Family& family, std::uint8_t tag) {
    if (family.fix_limit > 0 && tag >= family.fix_first && tag <= family.fix_last) return 0;
    if (family.tag8 != 0 && tag == family.tag8) return 1;
    if (tag == family.tag16) return 2;
    if (tag == family.tag32) return 4;
    return std::nullopt;
  }

  std::optional<std::string> sized(const Family& family, std::uint8_t tag, int width, std::size_t start,
                                   std::uint64_t& pending) {
    const auto length = width == 0 ? std::optional<std::uint64_t>(tag - family.fix_first) : take(width);
    if (!length) return at(start) + "the document ends inside a " + family.name + " header";
    if (shortest_width(family, *length) != width)
      return at(start) + "a " + family.name + " of " + std::to_string(*length) + " " + family.unit + " has " +
             std::to_string(width) + " length bytes (" + hex(tag) + "); msgspec writes " +
             std::to_string(shortest_width(family, *length));
    if (family.payload) return skip(*length, start);
    pending += *length * family.children_per_item;
    return std::nullopt;
  }

  std::optional<std::string> integer(std::uint8_t tag, std::size_t start, bool is_signed) {
    const int width = 1 << (tag & 0x3);
    const auto raw = take(width);
    if (!raw) return at(start) + "the document ends inside an integer";
    if (!is_signed) {
      if (unsigned_width(*raw) == width) return std::nullopt;
      return at(start) + "the integer " + std::to_string(*raw) + " has " + std::to_string(width) +
             " value bytes (" + hex(tag) + "); msgspec writes " + std::to_string(unsigned_width(*raw));
    }
    const int shift = 64 - 8 * width;  // sign-extend the width's two's complement
    const auto value = static_cast<std::int64_t>(*raw << shift) >> shift;
    if (value >= 0)
      return at(start) + "the integer " + std::to_string(value) + " in the signed family (" + hex(tag) +
             "); msgspec writes a non-negative int unsigned";
    if (signed_width(value) == width) return std::nullopt;
    return at(start) + "the integer " + std::to_string(value) + " has " + std::to_string(width) +
           " value bytes (" + hex(tag) + "); msgspec writes " + std::to_string(signed_width(value));
  }

  std::optional<std::string> skip(std::uint64_t count, std::size_t start) {
    if (bytes_.size() - at_ < count) return at(start) + "the document ends inside an element's bytes";
    at_ += count;
    return std::nullopt;
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace

Violations shortest_forms(std::string_view msgpack) {
  if (auto complaint = Walk(msgpack).run()) return {{kLaw, *complaint}};
  return {};
}

}  // namespace poolcheck::laws
