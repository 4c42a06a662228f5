#include "properties/laws/msgpack_refusal_laws.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json_input.hpp"
#include "properties/laws/msgpack_items.hpp"
#include "properties/laws/utf8_laws.hpp"

namespace poolcheck::laws {
namespace {

constexpr const char* kLaw = "msgpack-refusal-exact";
constexpr std::string_view kPrefix = "Invalid MessagePack: ";
constexpr std::string_view kUtf8Reason = "invalid UTF-8 in string";

using Kind = MsgpackItem::Kind;

// The MessagePack spec's names of the type bytes 0xc0..0xdf, and the width of
// the length or value field that follows each (0: none, or a fixext's).
struct Format {
  const char* name;
  std::size_t field;
};

constexpr Format kFormats[32] = {
    {"nil", 0},      {"(never used)", 0}, {"false", 0},   {"true", 0},    {"bin8", 1},    {"bin16", 2},
    {"bin32", 4},    {"ext8", 1},         {"ext16", 2},   {"ext32", 4},   {"float32", 4}, {"float64", 8},
    {"uint8", 1},    {"uint16", 2},       {"uint32", 4},  {"uint64", 8},  {"int8", 1},    {"int16", 2},
    {"int32", 4},    {"int64", 8},        {"fixext1", 0}, {"fixext2", 0}, {"fixext4", 0}, {"fixext8", 0},
    {"fixext16", 0}, {"str8", 1},         {"str16", 2},   {"str32", 4},   {"array16", 2}, {"array32", 4},
    {"map16", 2},    {"map32", 4}};

bool is_str_tag(std::uint8_t tag) { return (tag >= 0xa0 && tag <= 0xbf) || (tag >= 0xd9 && tag <= 0xdb); }

// msgspec reads no bin or ext, so neither does the decoder.
bool is_unsupported(std::uint8_t tag) { return (tag >= 0xc4 && tag <= 0xc9) || (tag >= 0xd4 && tag <= 0xd8); }

struct Due {
  std::string reason;
  std::size_t at;
};

// An open container: its items (a map's entries) still to come.
struct Open {
  std::uint64_t remaining;
  bool map;
  bool awaiting_key;
};

class Reading {
 public:
  explicit Reading(std::string_view bytes) : bytes_(bytes) {}

  // The refusal the document is owed, or nullopt when it is one whole,
  // well-formed document.
  std::optional<Due> refusal() {
    for (;;) {
      if (at_ == bytes_.size()) return Due{"unexpected end of input, a value was expected", at_};
      if (auto due = item()) return due;
      if (completed_ && !complete()) {
        if (at_ == bytes_.size()) return std::nullopt;
        return Due{"trailing data after the value", at_};
      }
    }
  }

 private:
  // Reads the item at at_; sets completed_ when it is a whole value (not a
  // container with items still to come).
  std::optional<Due> item() {
    const std::size_t start = at_;
    const auto tag = static_cast<std::uint8_t>(bytes_[start]);
    if (!open_.empty() && open_.back().awaiting_key && !is_str_tag(tag))
      return Due{"map key is not a string", start};
    if (tag == 0xc1) return Due{"reserved type byte 0xc1", start};
    const bool tagged = tag >= 0xc0 && tag <= 0xdf;
    if (is_unsupported(tag))
      return Due{"unsupported type " + std::string(kFormats[tag - 0xc0].name) + " (" + msgpack_tag_hex(tag) + ")",
                 start};
    if (tagged && bytes_.size() - start - 1 < kFormats[tag - 0xc0].field)
      return Due{"truncated " + std::string(kFormats[tag - 0xc0].name), start};
    const auto read = read_msgpack_item(bytes_, start);
    if (!read)  // a str whose bytes run past the end: every other item was judged whole above
      return Due{"string of " + std::to_string(str_length(start)) + " bytes runs past the end of input", start};
    at_ = read->end;
    completed_ = true;
    if (read->kind == Kind::Str && !well_formed_utf8(bytes_.substr(read->payload, read->length)))
      return Due{std::string(kUtf8Reason), read->payload};
    if (read->kind == Kind::Array || read->kind == Kind::Map) return open(*read, start);
    return std::nullopt;
  }

  // A str whose bytes run past the end: read_msgpack_item took it for none,
  // so its length is read here.
  std::uint64_t str_length(std::size_t start) const {
    const auto tag = static_cast<std::uint8_t>(bytes_[start]);
    if (tag <= 0xbf) return tag & 0x1fu;
    std::uint64_t length = 0;
    for (std::size_t i = 0; i < kFormats[tag - 0xc0].field; ++i)
      length = (length << 8) | static_cast<std::uint8_t>(bytes_[start + 1 + i]);
    return length;
  }

  std::optional<Due> open(const MsgpackItem& container, std::size_t start) {
    if (open_.size() >= static_cast<std::size_t>(kMaxNestingDepth))
      return Due{"containers nested more than " + std::to_string(kMaxNestingDepth) + " deep", start};
    const bool map = container.kind == Kind::Map;
    const std::size_t left = bytes_.size() - at_;
    if (container.length > left / (map ? 2 : 1))
      return Due{std::string(map ? "map" : "array") + " declares " + std::to_string(container.length) +
                     (map ? " entries" : " items") + " but only " + std::to_string(left) +
                     (left == 1 ? " byte follows" : " bytes follow"),
                 start};
    if (container.length == 0) return std::nullopt;
    open_.push_back({container.length, map, map});
    completed_ = false;
    return std::nullopt;
  }

  // Stores a whole value in the innermost open container, closing each
  // container it fills; false when the document's own value is whole.
  bool complete() {
    completed_ = false;
    while (!open_.empty()) {
      Open& top = open_.back();
      if (top.map && top.awaiting_key) {
        top.awaiting_key = false;
        return true;
      }
      top.awaiting_key = top.map;
      if (--top.remaining > 0) return true;
      open_.pop_back();
    }
    return false;
  }

  std::string_view bytes_;
  std::size_t at_ = 0;
  std::vector<Open> open_;
  bool completed_ = false;
};

}  // namespace

Violations msgpack_refusal_exact(std::string_view bytes, const Result<Json>& decoded) {
  const auto due = Reading(bytes).refusal();
  const bool utf8 = due && due->reason == kUtf8Reason;  // its byte is utf8-refusal's to judge
  const std::string owed =
      due ? std::string(kPrefix) + due->reason + " at byte " + (utf8 ? "N" : std::to_string(due->at)) : "";
  if (decoded) {
    if (!due || utf8) return {};
    return {{kLaw, "a document owed the refusal '" + owed + "' was accepted"}};
  }
  const std::string& message = decoded.error().message;
  if (!due) return {{kLaw, "a whole, well-formed document was refused with '" + message + "'"}};
  if (utf8 ? message.starts_with(owed.substr(0, owed.size() - 1)) : message == owed) return {};
  return {{kLaw, "the document's first defect is owed '" + owed + "'; got '" + message + "'"}};
}

}  // namespace poolcheck::laws
