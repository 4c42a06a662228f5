#include "properties/suites/request_generators.hpp"

#include <algorithm>
#include <limits>
#include <ostream>

#include "core/integer.hpp"
#include "core/json_input.hpp"
#include "core/output_json.hpp"
#include "properties/laws/coercion_laws.hpp"

namespace poolcheck::props {

// Integers beyond 64 bits, up to the 4,300 digits Python's int() reads from
// JSON text (the longest a body may hold; automatic mutant
// auto-json-input-275-relational-1 refused exactly 4,300), and a negative one
// of 4,300 characters, the longest a string spelling of it may be.
rc::Gen<Json> gen_big_integer() {
  return rc::gen::map(rc::gen::element<std::string>("18446744073709551616", "9223372036854775808",
                                                    "123456789012345678901234567890", "-9223372036854775809",
                                                    std::string(4300, '9'), "-" + std::string(4300, '9'),
                                                    "-" + std::string(4299, '9')),
                      [](const std::string& digits) { return Integer::from_decimal(digits).to_json(); });
}

rc::Gen<Json> gen_python_only_value() {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  return rc::gen::weightedOneOf<Json>({{3, rc::gen::element(Json(std::numeric_limits<double>::quiet_NaN()),
                                                              Json(kInfinity), Json(-kInfinity))},
                                       {1, gen_big_integer()}});
}

namespace {

// Free-form values as Python holds them: any JSON, sometimes an integer beyond
// 64 bits (kept digit for digit).
rc::Gen<Json> gen_python_json(int depth) {
  return rc::gen::weightedOneOf<Json>({{8, gen_json(depth)}, {1, gen_big_integer()}});
}

// One token each under the toy tokenizer (ASCII runs, or one other code
// point), as is every gen_white_space_neighbour. "AZ", "0z9" and the
// punctuation beside them hold every edge of the letter-and-digit ranges
// (automatic mutants auto-tokenizer-9-relational-7 and -12-relational-1 took
// 'z' for no letter and left 'A' upper-case).
const std::vector<std::string>& words() {
  static const std::vector<std::string> pool{"a", "cat", "sat", "on", "the", "mat", "bert", "42", "x9", "é", "東",
                                             "!", "ß", "Dog", "AZ", "0z9", "/", ":", "@", "[", "`", "{"};
  return pool;
}

rc::Gen<std::string> gen_text(int max_words) {
  return rc::gen::exec([max_words] {
    const int n = *rc::gen::inRange(0, max_words + 1);
    std::string text;
    for (int i = 0; i < n; ++i) {
      if (i > 0) text += *rc::gen::weightedOneOf<std::string>({{8, rc::gen::just(std::string(" "))}, {2, gen_white_space()}});
      text += *rc::gen::weightedOneOf<std::string>({{12, rc::gen::elementOf(words())}, {1, gen_white_space_neighbour()}});
    }
    return text;
  });
}

const std::vector<std::pair<std::string, std::string>>& score_shapes() {
  static const std::vector<std::pair<std::string, std::string>> shapes{
      {"queries", "documents"}, {"queries", "items"}, {"data_1", "data_2"}, {"text_1", "text_2"}};
  return shapes;
}

Json text_part(const std::string& text) { return Json{{"type", "text"}, {"text", text}}; }

Json image_part(int n) {
  return Json{{"type", "image_url"}, {"image_url", {{"url", "https://example.com/" + std::to_string(n) + ".png"}}}};
}

// A string, or on multimodal models sometimes a content object; at most one
// image, and only where `image` allows it.
Json gen_score_input(RequestCase& c, int max_words, bool image) {
  if (!c.model.multimodal || !chance(40)) return *gen_text(max_words);
  Json content = Json::array();
  const int texts = *rc::gen::inRange(0, 3);
  for (int i = 0; i < texts; ++i) content.push_back(text_part(*gen_text(max_words / 2 + 1)));
  if (image && chance(60)) {
    const auto at = *rc::gen::inRange<std::size_t>(0, content.size() + 1);
    content.insert(content.begin() + static_cast<std::ptrdiff_t>(at), image_part(*rc::gen::inRange(0, 9)));
  }
  c.content_objects = true;
  return Json{{"content", content}};
}

// One input as itself or in a list of one; otherwise a list.
Json gen_side(RequestCase& c, std::size_t count, int max_words, bool images) {
  if (count == 1 && chance(50)) return gen_score_input(c, max_words, images);
  Json side = Json::array();
  for (std::size_t i = 0; i < count; ++i) side.push_back(gen_score_input(c, max_words, images));
  return side;
}

std::pair<std::size_t, std::size_t> gen_side_lengths(const RequestShape& shape, bool rerank) {
  if (shape.any_cardinality)
    return {rerank ? 1 : *rc::gen::inRange<std::size_t>(0, 5), *rc::gen::inRange<std::size_t>(0, 5)};
  const int mode = *pick<int>({0, 1, 2});  // 1:1, 1:N, N:N
  const auto n = *rc::gen::inRange<std::size_t>(2, 5);
  if (mode == 0) return {1, 1};
  if (mode == 1 || rerank) return {1, n};
  return {n, n};
}

// A second complete shape that must not win the union (spec 11.5): after the
// chosen one in union order with any sides, or before it with a side that
// fails to validate. Its keys are then unknown keys.
void add_other_shape(const RequestCase& c, Json& body) {
  const auto& shapes = score_shapes();
  const auto chosen = std::find(shapes.begin(), shapes.end(), std::pair(c.first_side, c.second_side)) - shapes.begin();
  const auto other = *rc::gen::inRange<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(shapes.size()));
  const auto& [first, second] = shapes[static_cast<std::size_t>(other)];
  if (other == chosen || body.contains(first) || body.contains(second)) return;  // shares a key with the chosen shape
  const Json bad = *rc::gen::element(Json(5), Json(true), Json::array({7}), Json::object());
  const bool before = other < chosen;
  body[first] = before && chance(50) ? bad : Json(*gen_text(3));
  body[second] = before && !body[first].is_string() ? Json(*gen_text(3)) : (before ? bad : Json(*gen_text(3)));
}

// One side of another shape, alone, valid or not: an unknown key, whether the
// chosen shape validates or not (spec 11.5; automatic mutant
// auto-request-220-drop-not-1 reported such a key's error instead of the
// chosen shape's). Never the partner of a key present: that would complete
// a shape.
void add_lone_side(Json& body) {
  const auto& [first, second] = *rc::gen::elementOf(score_shapes());
  const std::string& key = chance(50) ? first : second;
  if (body.contains(key)) return;
  for (const auto& [a, b] : score_shapes())
    if ((a == key && body.contains(b)) || (b == key && body.contains(a))) return;
  body[key] = chance(50) ? *rc::gen::element(Json(5), Json(true), Json::array({7}), Json::object())
                         : Json(*gen_text(3));
}

void add_sides(RequestCase& c, Json& body, const RequestShape& shape, int max_words) {
  const bool rerank = c.endpoint == "rerank";
  const auto [len1, len2] = gen_side_lengths(shape, rerank);
  c.queries = len1;
  c.documents = len2;
  if (rerank) {
    c.first_side = "query";
    c.second_side = "documents";
    body["query"] = gen_score_input(c, max_words, false);
  } else {
    if (c.endpoint == "llm.score") {
      c.first_side = "data_1";
      c.second_side = "data_2";
    } else {
      std::tie(c.first_side, c.second_side) = *pick(score_shapes());
    }
    body[c.first_side] = gen_side(c, len1, max_words, false);
  }
  body[c.second_side] = gen_side(c, len2, max_words, true);
  if (c.endpoint == "score" && chance(15)) add_other_shape(c, body);
  if (c.endpoint == "score" && chance(10)) add_lone_side(body);
}

void add_truncation(RequestCase& c, Json& body, const RequestShape& shape) {
  if (chance(shape.truncation_percent)) {
    c.truncation = true;
    body["truncate_prompt_tokens"] = *rc::gen::weightedOneOf<std::int64_t>(
        {{6, rc::gen::inRange<std::int64_t>(0, c.model.max_model_len + 1)}, {1, rc::gen::just<std::int64_t>(-1)}});
  } else if (chance(5)) {
    body["truncate_prompt_tokens"] = nullptr;
  }
  if (chance(35)) {
    c.truncation_side = *rc::gen::element<std::string>("left", "right");
    body["truncation_side"] = c.truncation_side;
  }
}

// A cache_salt the spec accepts: 1..128 code points, none of @ / \ NUL.
// One in five is near the bound, in characters of each UTF-8 length (their
// continuation bytes odd and even), so a count of bytes, or of some of them,
// refuses it.
std::string gen_valid_salt() {
  if (chance(20)) {
    std::string salt;
    for (auto n = *rc::gen::inRange<std::size_t>(120, 129); n > 0; --n)
      salt += *rc::gen::element<std::string>("a", "\u00e9", "\u00ff", "\u4e2d", "\U0001F600");
    return salt;
  }
  std::string salt = *rc::gen::nonEmpty(gen_unicode_string(10));
  for (char& ch : salt)
    if (ch == '@' || ch == '/' || ch == '\\' || ch == '\0') ch = 's';
  return salt;
}

Json gen_chat_template_kwargs() {
  Json kwargs = *gen_object(1);
  for (const char* reserved : {"chat_template", "tools", "tokenize"}) kwargs.erase(reserved);
  return kwargs;
}

// The fields /score and /rerank share (spec section 6), each sometimes given.
void add_common_fields(RequestCase& c, Json& body, const RequestShape& shape) {
  const auto mml = c.model.max_model_len;
  if (chance(15)) body["model"] = chance(85) ? Json(c.model.name) : Json(nullptr);
  if (chance(10)) body["user"] = *gen_unicode_string(8);
  if (chance(25)) body["request_id"] = *gen_unicode_string(6);
  add_truncation(c, body, shape);
  if (chance(shape.padding_percent)) {
    c.padding = true;
    body["padding"] = "max_length";
  } else if (chance(10)) {
    body["padding"] = *rc::gen::element(Json("do_not_pad"), Json(nullptr));
  }
  if (chance(10)) body["priority"] = chance(80) ? Json(*gen_int()) : *gen_big_integer();  // a Python int
  if (chance(20)) {
    Json kwargs = *gen_object(2);
    if (chance(20)) kwargs["x"] = *gen_python_json(1);
    body["mm_processor_kwargs"] = chance(90) ? kwargs : Json(nullptr);
  }
  if (chance(25)) body["cache_salt"] = chance(90) ? Json(gen_valid_salt()) : Json(nullptr);
  if (chance(20)) body["use_activation"] = *rc::gen::element(Json(true), Json(false), Json(nullptr));
  if (chance(20)) body["max_tokens_per_query"] = gen_token_limit(mml);
  if (chance(20)) body["max_tokens_per_doc"] = gen_token_limit(mml);
  if (chance(15)) body["instruction"] = *gen_text(3);
  if (chance(15)) body["chat_template_kwargs"] = gen_chat_template_kwargs();
  if (chance(10)) body["x-" + *gen_key()] = *gen_python_json(1);  // unknown keys are ignored
  if (c.endpoint == "rerank" && chance(30))
    body["top_n"] = chance(90) ? Json(*rc::gen::inRange<std::int64_t>(0, 6))
                               : Integer::from_decimal("18446744073709551616").to_json();
}

// LLM.score's other arguments: the caller's params (task unset or classify,
// the extras carrier), truncation.
void add_offline_fields(RequestCase& c, Json& body, const RequestShape& shape) {
  if (chance(shape.caller_params_percent)) {
    PoolingParams params = *gen_pooling_params();
    params.task = *rc::gen::element(std::optional<std::string>(), std::optional<std::string>("classify"));
    params.extra_kwargs = chance(80) ? std::make_shared<Json>(*gen_extra_kwargs(c.model.max_model_len)) : nullptr;
    if (params.extra_kwargs && chance(10)) (*params.extra_kwargs)["x-python-int"] = *gen_python_json(0);
    c.caller_params = true;
    c.caller_extras = params.extra_kwargs && !params.extra_kwargs->empty();
    body["pooling_params"] = *gen_params_object(params);
  } else if (chance(10)) {
    body["pooling_params"] = nullptr;
  }
  add_truncation(c, body, shape);
}

// Deep nesting around the limit of 64 containers (the envelope counts).
std::string nested_request(int depth) {
  std::string open(static_cast<std::size_t>(depth), '[');
  std::string close(static_cast<std::size_t>(depth), ']');
  return R"({"endpoint":"score","request":{"queries":"q","documents":)" + open + "\"d\"" + close + "}}";
}

}  // namespace

std::string kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::Valid: return "valid";
    case InputKind::NearValid: return "near-valid";
    case InputKind::Junk: return "junk";
  }
  return "?";
}

void showValue(const RequestCase& request, std::ostream& os) {
  os << kind_name(request.kind);
  if (!request.defect.empty()) os << " (" << request.defect << ", calls for " << request.expected_family << ")";
  os << ": " << printable(request.bytes);
}

void refresh_bytes(RequestCase& request) {
  request.bytes = input_json(request.envelope);
  request.unescaped.clear();
  // Python clients escape non-ASCII by default (json.dumps' ensure_ascii):
  // \uXXXX escapes and surrogate pairs are what the parser mostly meets.
  if (chance(20)) {
    request.unescaped = request.bytes;
    request.bytes = ascii_escaped(request.bytes, chance(30));
  }
  // The broken string is in the bytes only: no unescaped text holds it.
  if (break_marked_string(request.bytes)) request.unescaped.clear();
}

const std::vector<std::string>& broken_json_strings() {
  // Surrogate escapes that pair with nothing (each range's edges: a low one
  // first, a high one after a high one); \u with a character next to the hex
  // digits' ranges; raw control characters (0x1f is the last); UTF-8 broken at
  // each byte of a sequence (second, third, fourth), and each sequence just
  // past a lead byte's allowed range (RFC 3629's table): overlong in each
  // length, a surrogate at either end, past U+10FFFF, a lead byte no form has,
  // a continuation byte alone (broken_utf8_sequences).
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out{"\\ud83d", "\\ud83d\\u0041", "\\ude00", "\\ud83d\\ud83d", "\\ud83dx",
                                 "\\ud83d\\ue000", "\\udbff\\u00e9", "\\udc00\\udc00", "\\udfff\\udfff",
                                 "\\udbff\\udbff", "\\ud800\\udbff", "\\udbff\\ue000", "\\u00/0", "\\u00:0",
                                 "\\u00@0", "\\u00G0", "\\u00`0", "\\u00g0", "\x1f", "\x01", "\t",
                                 std::string(1, '\0')};
    const auto& utf8 = broken_utf8_sequences();
    out.insert(out.end(), utf8.begin(), utf8.end());
    return out;
  }();
  return all;
}

bool break_marked_string(std::string& bytes) {
  static const std::string marker = input_json(Json(std::string(kBrokenStringMarker)));
  const auto at = bytes.find(marker);
  if (at == std::string::npos) return false;
  bytes.replace(at, marker.size(), "\"a" + *rc::gen::elementOf(broken_json_strings()) + "b\"");
  return true;
}

std::string words_text(std::int64_t count) {
  std::string text;
  for (std::int64_t i = 0; i < count; ++i) text += i == 0 ? "w" : " w";
  return text;
}

rc::Gen<RequestCase> gen_valid_request(const RequestShape& shape) {
  return rc::gen::exec([shape] {
    RequestCase c;
    c.endpoint = *pick(shape.endpoints);
    c.model = *gen_model(shape.modality);
    const int max_words = static_cast<int>(std::clamp<std::int64_t>(c.model.max_model_len / 2, 1, shape.max_words));
    Json body = Json::object();
    add_sides(c, body, shape, max_words);
    if (c.endpoint == "llm.score") add_offline_fields(c, body, shape);
    else add_common_fields(c, body, shape);

    c.envelope = Json::object();
    c.envelope["endpoint"] = c.endpoint;
    if (!c.model.json.is_null() || chance(20)) c.envelope["model"] = c.model.json;
    c.envelope["request"] = std::move(body);
    // Sometimes a typed field spelled as pydantic coerces it: the same value.
    if (chance(25)) {
      if (auto respelled = laws::respell_one_field(c.envelope, *rc::gen::arbitrary<std::uint64_t>())) {
        c.envelope = std::move(respelled->envelope);
        c.coerced = true;
      }
    }
    refresh_bytes(c);
    return c;
  });
}

rc::Gen<RequestCase> gen_junk_request() {
  return rc::gen::exec([] {
    RequestCase c = *gen_valid_request();
    c.kind = InputKind::Junk;
    c.unescaped.clear();  // the bytes change below (case 0 writes both again)
    switch (*rc::gen::element(0, 1, 2, 3, 4, 5)) {
      case 0:  // a body of any JSON
        c.envelope["request"] = *rc::gen::oneOf(gen_json(3), gen_object(3));
        refresh_bytes(c);
        return c;
      case 1:  // the valid bytes, damaged
        c.bytes = *gen_mutated(c.bytes);
        break;
      case 2:  // nesting around the depth limit
        c.bytes = nested_request(*rc::gen::inRange(58, 66));
        break;
      case 3:  // a BOM, pretty printing
        c.bytes = (chance(50) ? "\xEF\xBB\xBF" : "") + spread_json(input_json(c.envelope));
        return c;
      case 4:  // a duplicate key: the last one wins
        c.bytes = "{\"endpoint\": " + input_json(Json(*rc::gen::element<std::string>("score", "rerank", "x"))) + ", " +
                  c.bytes.substr(1);
        break;
      case 5:  // any bytes
        c.bytes = *rc::gen::resize(40, rc::gen::container<std::string>(rc::gen::arbitrary<char>()));
        break;
    }
    auto parsed = parse_bounded_json(c.bytes);
    c.envelope = parsed && parsed->is_object() ? *parsed : Json(nullptr);
    return c;
  });
}

rc::Gen<RequestCase> gen_request(const RequestShape& shape) {
  return rc::gen::exec([shape] {
    const int kind = *rc::gen::weightedElement<int>({{60, 0}, {25, 1}, {15, 2}});
    if (kind == 2) return *gen_junk_request();
    RequestCase c = *gen_valid_request(shape);
    return kind == 0 ? c : *gen_near_valid(c);
  });
}

}  // namespace poolcheck::props
