#include "properties/suites/input_mutations.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>

#include "core/envelope.hpp"
#include "core/json_input.hpp"
#include "core/msgpack.hpp"
#include "core/preprocess.hpp"
#include "core/token_types.hpp"
#include "core/wire.hpp"
#include "properties/laws/check.hpp"
#include "properties/laws/coercion_laws.hpp"
#include "properties/suites/params_generators.hpp"
#include "properties/suites/request_generators.hpp"
#include "properties/suites/token_type_generators.hpp"

namespace poolcheck::props {
namespace {

// ------------------------------------------------------------ JSON plumbing

// Uniform in [low, high) whatever the generation size: inRange alone draws from
// a range that grows with the size (generators.hpp), which would make the
// later mutations and positions rare at the small sizes.
template <class T>
T uniform(T low, T high) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(low, high));
}

// The object under `key`, made an object when it is missing or not one.
Json& object_at(Json& parent, const std::string& key) {
  Json& child = parent[key];
  if (!child.is_object()) child = Json::object();
  return child;
}

// A member of `object` drawn uniformly; null when it has none.
const std::string* any_key(const Json& object) {
  if (!object.is_object() || object.empty()) return nullptr;
  auto it = object.begin();
  std::advance(it, uniform<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(object.size())));
  return &it.key();
}

// Copies one member of `from` into `into` (an object after the call).
bool graft_one_member(Json& into, const Json& from) {
  const std::string* key = any_key(from);
  if (key == nullptr) return false;
  if (!into.is_object()) into = Json::object();
  into[*key] = from[*key];
  return true;
}

// Makes `into` differ from what it was as `after` differs from `before`, member
// by member (a changed or new key is copied, a removed one erased); values that
// are not both objects are copied whole.
void graft_changes(Json& into, const Json& before, const Json& after) {
  if (!before.is_object() || !after.is_object()) {
    if (before != after) into = after;
    return;
  }
  if (!into.is_object()) into = Json::object();
  for (const auto& [key, value] : after.items()) {
    const auto old = before.find(key);
    if (old == before.end() || *old != value) into[key] = value;
  }
  for (const auto& [key, value] : before.items())
    if (!after.contains(key)) into.erase(key);
}

std::string endpoint_of(const Json& envelope) {
  const auto it = envelope.find("endpoint");
  return it != envelope.end() && it->is_string() ? it->get<std::string>() : "score";
}

// A valid request for the same endpoint as `envelope`, freshly generated.
RequestCase fresh_request(const Json& envelope) {
  RequestShape shape;
  const std::string endpoint = endpoint_of(envelope);
  if (std::find(shape.endpoints.begin(), shape.endpoints.end(), endpoint) != shape.endpoints.end())
    shape.endpoints = {endpoint};
  return *gen_valid_request(shape);
}

// The request keys a side can have, in the score union's order, then rerank's and LLM.score's.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kShapes{{{"queries", "documents"},
                                                                                 {"queries", "items"},
                                                                                 {"data_1", "data_2"},
                                                                                 {"text_1", "text_2"},
                                                                                 {"query", "documents"},
                                                                                 {"data_1", "data_2"}}};

// The first shape whose two keys `body` has, as an index into kShapes.
std::optional<std::size_t> shape_of(const Json& body) {
  for (std::size_t i = 0; i < kShapes.size(); ++i)
    if (body.contains(kShapes[i].first) && body.contains(kShapes[i].second)) return i;
  return std::nullopt;
}

// ------------------------------------------------------- request mutations

using Mutation = bool (*)(Json& envelope, std::string& what);

Json& request_body(Json& envelope) { return object_at(envelope, "request"); }

bool fresh_field(Json& envelope, std::string& what) {
  const RequestCase fresh = fresh_request(envelope);
  const bool model = fresh.envelope.contains("model") && fresh.envelope["model"].is_object() && chance(20);
  const std::string part = model ? "model" : "request";
  what = "fresh field: " + part;
  return graft_one_member(object_at(envelope, part), fresh.envelope[part]);
}

// A catalogued defect (request_defects.cpp), as the members it changed.
bool defect(Json& envelope, std::string& what) {
  const DefectKind kind = *gen_defect_kind();
  const RequestCase base = *gen_valid_request(kind.base);
  const RequestCase bad = *gen_with_defect(base, kind);
  what = "defect: " + kind.name;
  if (!bad.envelope.is_object() || endpoint_of(bad.envelope) != endpoint_of(envelope)) {
    // The defect is in the bytes, or belongs to another endpoint: take the case whole.
    auto parsed = parse_bounded_json(bad.bytes);
    if (!parsed || !parsed->is_object()) return false;
    envelope = std::move(*parsed);
    return true;
  }
  for (const char* part : {"model", "request"}) {
    const auto before = base.envelope.find(part), after = bad.envelope.find(part);
    if (after == bad.envelope.end()) {
      if (before != base.envelope.end()) envelope.erase(part);
    } else {
      const Json none = Json::object();
      graft_changes(envelope[part], before == base.envelope.end() ? none : *before, *after);
    }
  }
  return true;
}

// The typed fields of the envelope's online endpoint (none for LLM.score),
// the booleans alone when `bools_only`.
std::vector<const laws::TypedField*> online_typed_fields(const Json& envelope, bool bools_only) {
  const std::string endpoint = endpoint_of(envelope);
  std::vector<const laws::TypedField*> fields;
  if (endpoint != "score" && endpoint != "rerank") return fields;
  for (const auto& field : laws::typed_fields())
    if (field.applies_to(endpoint == "rerank") && (field.is_bool || !bools_only)) fields.push_back(&field);
  return fields;
}

// One typed field in a spelling pydantic rejects (laws::rejected_int_spellings,
// rejected_bool_spellings), for the spellings-refused law: the defect
// catalogue holds them too, but draws one among all its defects.
bool rejected_spelling(Json& envelope, std::string& what) {
  const auto fields = online_typed_fields(envelope, false);
  if (fields.empty()) return false;
  const laws::TypedField& field = **rc::gen::elementOf(fields);
  const auto& spellings = field.is_bool ? laws::rejected_bool_spellings() : laws::rejected_int_spellings();
  const Json& value = (*rc::gen::elementOf(spellings)).value;
  request_body(envelope)[std::string(field.name)] = value;
  what = "rejected spelling: " + std::string(field.name) + " = " + input_json(value).substr(0, 40);
  return true;
}

// A boolean field in a spelling pydantic takes, written whether or not the
// input held the field: the respelling below changes only a field the input
// already holds as a plain JSON boolean, which few inputs do, so a slip in
// reading one spelling (automatic mutant auto-fields-188-true-false-1 took
// "0" as true) was met once in tens of thousands of executions.
bool taken_bool_spelling(Json& envelope, std::string& what) {
  const auto fields = online_typed_fields(envelope, true);
  if (fields.empty()) return false;
  const laws::TypedField& field = **rc::gen::elementOf(fields);
  const Json value = *rc::gen::elementOf(laws::bool_spellings(*rc::gen::arbitrary<bool>()));
  request_body(envelope)[std::string(field.name)] = value;
  what = "taken spelling: " + std::string(field.name) + " = " + input_json(value);
  return true;
}

bool respell(Json& envelope, std::string& what) {
  if (chance(25)) return rejected_spelling(envelope, what);
  if (chance(25)) return taken_bool_spelling(envelope, what);
  auto respelled = laws::respell_one_field(envelope, *rc::gen::arbitrary<std::uint64_t>());
  if (!respelled) return false;
  envelope = std::move(respelled->envelope);
  what = "coerced spelling: " + respelled->what;
  return true;
}

bool add_or_remove_pair(Json& envelope, std::string& what) {
  Json& body = request_body(envelope);
  const auto shape = shape_of(body);
  if (!shape) return false;
  Json& side = body[std::string(chance(50) ? kShapes[*shape].first : kShapes[*shape].second)];
  if (side.is_array() && !side.empty() && chance(40)) {
    side.erase(uniform<std::size_t>(0, side.size()));
    what = "remove a pair";
    return true;
  }
  // A fresh input of the same endpoint: the first one of its second side.
  const RequestCase fresh = fresh_request(envelope);
  const Json& other = fresh.envelope["request"][fresh.second_side];
  const Json input = other.is_array() ? (other.empty() ? Json("") : other[0]) : other;
  if (!side.is_array()) side = Json::array({side});
  side.insert(side.begin() + uniform<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(side.size()) + 1), input);
  what = "add a pair";
  return true;
}

// The sides moved to another endpoint's keys, or to another score shape.
bool switch_shape(Json& envelope, std::string& what) {
  Json& body = request_body(envelope);
  const auto from = shape_of(body);
  if (!from) return false;
  Json first = body[std::string(kShapes[*from].first)], second = body[std::string(kShapes[*from].second)];
  body.erase(std::string(kShapes[*from].first));
  body.erase(std::string(kShapes[*from].second));
  const std::string endpoint = *rc::gen::element<std::string>("score", "rerank", "llm.score");
  const std::size_t to = endpoint == "rerank" ? 4 : endpoint == "llm.score" ? 5 : uniform<std::size_t>(0, 4);
  if (endpoint == "rerank" && first.is_array()) first = first.empty() ? Json("") : Json(first[0]);
  body[std::string(kShapes[to].first)] = std::move(first);
  body[std::string(kShapes[to].second)] = std::move(second);
  envelope["endpoint"] = endpoint;
  what = "shape {" + std::string(kShapes[to].first) + ", " + std::string(kShapes[to].second) + "} of " + endpoint;
  return true;
}

bool switch_model(Json& envelope, std::string& what) {
  const ModelCase model = *gen_model();
  if (model.json.is_null()) envelope.erase("model");
  else envelope["model"] = model.json;
  what = "tokenizer style " + style_name(model.style);
  return true;
}

// The longest prompt the request gives now (its token count), 8 when it is refused.
// Planned from the Json value itself: no bytes to write and read back, and no
// tokens built (a padded request may hold 2^24).
std::int64_t longest_prompt(const Json& envelope) {
  const auto parsed = envelope_from_json(envelope);
  if (!parsed) return 8;
  const auto lengths = plan_prompt_lengths(parsed->model, parsed->request);
  if (!lengths || lengths->empty()) return 8;
  return *std::max_element(lengths->begin(), lengths->end());
}

bool truncate_near_count(Json& envelope, std::string& what) {
  const std::int64_t target = std::max<std::int64_t>(-1, longest_prompt(envelope) + uniform<int>(-3, 2));
  request_body(envelope)["truncate_prompt_tokens"] = target;
  if (chance(30)) request_body(envelope)["truncation_side"] = *rc::gen::element<std::string>("left", "right");
  what = "truncate_prompt_tokens " + std::to_string(target);
  return true;
}

bool toggle_padding(Json& envelope, std::string& what) {
  Json& body = request_body(envelope);
  const auto padding = body.find("padding");
  const bool padded = padding != body.end() && *padding == "max_length";
  if (padded) body.erase("padding");
  else body["padding"] = "max_length";
  what = padded ? "padding off" : "padding max_length";
  return true;
}

// The request padded to the bound on its prompt tokens (spec 10.15): padding
// max_length, and a max_model_len that makes its pairs hold 2^24 tokens
// together, or one token a pair fewer or more. A power-of-two number of pairs
// meets 2^24 exactly; any other lands just under it, or over it by a pair.
bool pad_to_token_total(Json& envelope, std::string& what) {
  const auto parsed = envelope_from_json(envelope);
  if (!parsed) return false;
  const auto pairs = static_cast<std::int64_t>(
      std::max(parsed->request.queries.size(), parsed->request.documents.size()));
  if (pairs == 0) return false;
  const std::int64_t max_model_len = std::max<std::int64_t>(1, kMaxTotalTokens / pairs + uniform<int>(-1, 2));
  object_at(envelope, "model")["max_model_len"] = max_model_len;
  request_body(envelope)["padding"] = "max_length";
  what = "token total: " + std::to_string(pairs) + " pairs padded to " + std::to_string(max_model_len);
  return true;
}

// A typed int field of an online request (laws::typed_fields) set to a Python
// int beyond 64 bits: accepted, refused by its bound, or by a later check,
// but never as no valid integer (spec 11.2).
bool big_integer_field(Json& envelope, std::string& what) {
  const std::string endpoint = endpoint_of(envelope);
  if (endpoint != "score" && endpoint != "rerank") return false;
  std::vector<std::string_view> fields;
  for (const auto& field : laws::typed_fields())
    if (!field.is_bool && field.applies_to(endpoint == "rerank")) fields.push_back(field.name);
  const std::string name(fields[uniform<std::size_t>(0, fields.size())]);
  const Json value = *gen_big_integer();
  request_body(envelope)[name] = value;
  what = "big integer: " + name + " = " + input_json(value);
  return true;
}

// A second complete shape of the score union beside the body's own: the same
// sides (a valid class the union may pick first or later) or a generated
// value of any type in one side (a class that fails, so the union must try
// the next one, spec 11.5).
bool second_union_class(Json& envelope, std::string& what) {
  if (endpoint_of(envelope) != "score") return false;
  Json& body = request_body(envelope);
  const auto from = shape_of(body);
  if (!from || *from >= 4) return false;
  const auto to = uniform<std::size_t>(0, 4);
  const auto [first, second] = kShapes[to];
  if (to == *from) return false;
  const bool broken = chance(50);
  const Json first_side = body[std::string(kShapes[*from].first)];
  const Json second_side = body[std::string(kShapes[*from].second)];
  body[std::string(first)] = first_side;
  body[std::string(second)] = broken ? *gen_json(1) : second_side;
  what = std::string("union class {") + std::string(first) + ", " + std::string(second) + "} added" +
         (broken ? ", one side of any type" : "");
  return true;
}

// The containers of `value` (itself included) with the containers around each.
void containers(Json& value, int depth, std::vector<std::pair<Json*, int>>& out) {
  if (!value.is_structured()) return;
  out.emplace_back(&value, depth);
  for (auto& child : value) containers(child, depth + 1, out);
}

// Nesting to exactly the parser's limit, or one past it: a value of the request
// wrapped in as many lists as it takes.
bool nest_to_limit(Json& envelope, std::string& what) {
  const int want = kMaxNestingDepth + (chance(30) ? 1 : 0);
  std::vector<std::pair<Json*, int>> found;
  containers(envelope, 1, found);
  const auto [container, depth] = found[uniform<std::size_t>(0, found.size())];
  if (container->empty() || depth >= want) return false;
  auto it = container->begin();
  std::advance(it, uniform<std::ptrdiff_t>(0, static_cast<std::ptrdiff_t>(container->size())));
  Json inner = it->is_structured() ? Json("x") : *it;  // a scalar, so the depth is exactly `want`
  for (int level = depth; level < want; ++level) inner = Json::array({std::move(inner)});
  *it = std::move(inner);
  what = "nesting to " + std::to_string(want);
  return true;
}

// A value Python's json reads and strict JSON has not (NaN, an infinity, an
// integer beyond 64 bits) in place of a member or element of one of the
// request's containers, or added to it. In the extras it must come out as it
// went in, printed so (spec 11.3); in a typed field it is refused, or coerced,
// as pydantic does.
bool python_only_value(Json& envelope, std::string& what) {
  std::vector<std::pair<Json*, int>> found;
  containers(request_body(envelope), 2, found);
  Json& container = *found[uniform<std::size_t>(0, found.size())].first;
  const Json value = *gen_python_only_value();
  std::string where;
  if (container.is_object()) {
    const std::string* key = chance(70) ? any_key(container) : nullptr;
    where = key != nullptr ? *key : "python";
    container[where] = value;
  } else {
    const auto at = uniform<std::size_t>(0, container.size() + 1);
    where = "[" + std::to_string(at) + "]";
    if (at == container.size()) container.push_back(value);
    else container[at] = value;
  }
  what = "python value: " + where + " = " + input_json(value);
  return true;
}

// The task of `input`'s pooling_params: none, a known one or any text.
bool switch_task(Json& input, std::string& what) {
  Json& params = object_at(input, "pooling_params");
  if (chance(15)) {
    params.erase("task");
    what = "no task";
  } else {
    params["task"] = *gen_task();
    what = "task " + params["task"].get<std::string>();
  }
  return true;
}

// The caller's task of an LLM.score call. One that is not classify is refused
// with its repr() in the message (spec 7 step 1), which only a task drawn
// whole, with its odd characters, shows (automatic mutant
// auto-python-repr-41-int-literal-1 printed U+0080 to U+00BF as they are).
bool caller_task(Json& envelope, std::string& what) {
  if (endpoint_of(envelope) != "llm.score") return false;
  switch_task(request_body(envelope), what);
  what = "caller task: " + what;
  return true;
}

constexpr const char* kTextCut = "text cut";
constexpr const char* kBrokenString = "broken string";
constexpr const char* kEscapedText = "escaped text";

constexpr std::array<std::pair<Mutation, const char*>, 14> kRequestMutations{{
    {fresh_field, "fresh field"},
    {defect, "defect"},
    {respell, "coerced spelling"},
    {add_or_remove_pair, "pair"},
    {switch_shape, "shape"},
    {switch_model, "tokenizer style"},
    {truncate_near_count, "truncate_prompt_tokens"},
    {toggle_padding, "padding"},
    {pad_to_token_total, "token total"},
    {nest_to_limit, "nesting"},
    {big_integer_field, "big integer"},
    {second_union_class, "union class"},
    {python_only_value, "python value"},
    {caller_task, "caller task"},
}};

// The caller's extra_kwargs of an LLM.score call, made (with one generated
// member, so that there is a key to repeat) when the call has none. Of the
// request's objects it is the one carried whole to every output and through the
// wire, where a repeated key that kept the wrong value shows; few inputs hold
// one, and a scheduler that seldom picks them (AFL++'s favoured entries) would
// then seldom widen it, so it is drawn on its own.
Json& caller_extras(Json& envelope) {
  Json& extras = object_at(object_at(request_body(envelope), "pooling_params"), "extra_kwargs");
  if (extras.empty()) extras[*gen_key()] = *gen_json(1);
  return extras;
}

// An object of the request, half the time grown past the 16 keys where the
// parser starts its hash index (core/json_input.cpp; below it, a linear search
// finds the repeat), then one of its first keys repeated with a fresh value
// (the last one wins). A duplicate key has no place in a Json value, so it is
// written into the bytes: a marker member, renamed once dumped. For an
// LLM.score call, half the draws take the caller's extra_kwargs.
std::optional<MutatedInput> object_with_repeated_key(Json envelope) {
  std::vector<Json*> objects;
  if (endpoint_of(envelope) == "llm.score" && chance(50)) {
    objects.push_back(&caller_extras(envelope));
  } else {
    std::vector<std::pair<Json*, int>> found;
    containers(request_body(envelope), 2, found);
    for (const auto& [container, depth] : found)
      if (container->is_object() && !container->empty()) objects.push_back(container);
  }
  if (objects.empty()) return std::nullopt;
  Json& object = *objects[uniform<std::size_t>(0, objects.size())];
  const std::string repeated = std::next(object.begin(), uniform<std::ptrdiff_t>(
                                                             0, std::min<std::ptrdiff_t>(3, static_cast<std::ptrdiff_t>(object.size()))))
                                   .key();
  const std::size_t wide = chance(50) ? uniform<std::size_t>(17, 21) : 0;
  for (int i = 0; object.size() < wide; ++i)
    object["x-filler-" + std::to_string(i)] = i;
  const RequestCase fresh = fresh_request(envelope);
  const auto same = fresh.envelope["request"].find(repeated);
  const std::string marker = "\x01poolcheck-repeated-key\x01";
  object[marker] = same != fresh.envelope["request"].end() ? *same : *gen_json(1);
  std::string bytes = input_json(envelope);
  const std::string written = input_json(Json(marker));
  bytes.replace(bytes.find(written), written.size(), input_json(Json(repeated)));
  return MutatedInput{std::move(bytes),
                      "repeated key '" + repeated + "' in an object of " + std::to_string(object.size()) + " keys"};
}

// ------------------------------------------------------- verify mutations

using VerifyMutation = bool (*)(Json& input, std::string& what);

bool fresh_verify_field(Json& input, std::string& what) {
  const VerifyCase fresh = chance(50) ? *gen_verify_case() : *gen_verify_defect();
  const auto parsed = parse_bounded_json(fresh.bytes);
  if (!parsed || !parsed->is_object()) return false;
  const std::string part = chance(50) ? "model" : "pooling_params";
  const auto from = parsed->find(part);
  if (from == parsed->end()) return false;
  Json& into = object_at(input, part);
  // The pooler's own fields one at a time too: they decide what verify allows.
  if (part == "model" && from->contains("pooler") && chance(50)) {
    what = "fresh pooler field" + (fresh.defect.empty() ? "" : " (" + fresh.defect + ")");
    return graft_one_member(object_at(into, "pooler"), (*from)["pooler"]);
  }
  what = "fresh " + part + " field" + (fresh.defect.empty() ? "" : " (" + fresh.defect + ")");
  return graft_one_member(into, *from);
}

// n + delta, held at the int64 limits: the sizes come from the input.
std::int64_t saturated(std::int64_t n, std::int64_t delta) {
  std::int64_t sum = 0;
  if (!__builtin_add_overflow(n, delta, &sum)) return sum;
  return delta > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
}

// dimensions on either side of the model's range, its listed sizes included.
bool dimensions_at_edges(Json& input, std::string& what) {
  const Json& model = object_at(input, "model");
  const auto size = model.find("embedding_size");
  const std::int64_t embedding = size != model.end() && size->is_number_integer() ? size->get<std::int64_t>() : 384;
  std::vector<std::int64_t> edges{0, 1, -1, embedding, saturated(embedding, 1), saturated(embedding, -1)};
  const auto listed = model.find("matryoshka_dimensions");
  if (listed != model.end() && listed->is_array())
    for (const auto& d : *listed)
      if (d.is_number_integer()) edges.insert(edges.end(), {d.get<std::int64_t>(), saturated(d.get<std::int64_t>(), 1)});
  const std::int64_t d = *rc::gen::elementOf(edges);
  object_at(input, "pooling_params")["dimensions"] = d;
  what = "dimensions " + std::to_string(d);
  return true;
}

bool switch_pooler(Json& input, std::string& what) {
  const std::string type = *rc::gen::element<std::string>("CLS", "MEAN", "LAST", "STEP", "ALL");
  object_at(object_at(input, "model"), "pooler")["pooling_type"] = type;
  if (chance(30)) object_at(input, "model")["is_matryoshka"] = *rc::gen::arbitrary<bool>();
  what = "pooler " + type;
  return true;
}

constexpr std::array<VerifyMutation, 4> kVerifyMutations{fresh_verify_field, dimensions_at_edges, switch_task,
                                                         switch_pooler};

// ----------------------------------------------------- the other formats

// One array element replaced, added or dropped: a generated params' own value
// at that position, or any JSON value (a wrong type).
bool edit_wire_element(Json& array, std::string& what) {
  const Json fresh = encode_wire(*gen_pooling_params());
  const auto at = uniform<std::size_t>(0, std::max<std::size_t>(array.size(), 1) + 1);
  switch (*rc::gen::element(0, 1, 2, 3)) {
    case 0:
      if (at >= fresh.size() || at >= array.size()) return false;
      array[at] = fresh[at];
      what = "element " + std::to_string(at) + " from generated params";
      return true;
    case 1:
      if (at >= array.size()) return false;
      array[at] = *gen_json(1);
      what = "element " + std::to_string(at) + " of another type";
      return true;
    case 2:
      if (array.empty()) return false;
      array.erase(array.size() - 1);
      what = "last element dropped";
      return true;
    default:
      array.push_back(array.size() < fresh.size() ? fresh[array.size()] : *gen_json(1));
      what = "element added";
      return true;
  }
}

void types_to_bytes(const std::vector<std::int64_t>& types, std::string& bytes) {
  bytes.clear();
  for (std::int64_t t : types) bytes += static_cast<char>(t < 0 ? 0x100 + t : t);
}

// One mutated text in ten is cut short (gen_json_cut), mostly just after a
// byte that promises more: the end of the input where the reader looks ahead.
// The cut text no longer parses; the next mutation of it starts afresh.
MutatedInput maybe_cut(MutatedInput input) {
  if (!chance(10)) return input;
  input.bytes.resize(*gen_json_cut(input.bytes));
  input.what = std::string(kTextCut) + " after " + input.what;
  return input;
}

// The string values of `value`, at any depth.
void string_values(Json& value, std::vector<Json*>& out) {
  if (value.is_string()) out.push_back(&value);
  else if (value.is_structured())
    for (auto& child : value) string_values(child, out);
}

// A mutated tree written as JSON text, its broken strings broken: a value
// that is kBrokenStringMarker (a defect of the catalogue grafted in) and, in
// one text in twenty, a string value drawn from the tree, become one of
// broken_json_strings (UTF-8 just outside a lead byte's range, overlong, a
// surrogate, cut short; a lone surrogate escape; a raw control character), as
// refresh_bytes breaks them for the properties. No tree holds such a string,
// so no other mutation writes one, and byte mutations meet one of them (0x7F
// after 0xC3, say) about once in tens of thousands of runs: the reader's UTF-8
// edges (utf8-continuation-floor-7f) were the catalogue's slowest find. Then
// maybe_cut. One text in ten is written with every non-ASCII character as
// `\uXXXX` (surrogate pairs above U+FFFF), as ascii_escaped writes it for the
// properties: the printer writes no escape, and without these the door's
// escape reader met a surrogate pair only where a seed held one.
MutatedInput written(Json tree, std::string what) {
  std::vector<Json*> strings;
  if (chance(5)) string_values(tree, strings);
  if (!strings.empty()) {
    *strings[uniform<std::size_t>(0, strings.size())] = std::string(kBrokenStringMarker);
    what = std::string(kBrokenString) + " after " + what;
  }
  std::string text = input_json(tree);
  if (chance(10)) {
    text = ascii_escaped(text, chance(30));
    what = std::string(kEscapedText) + " after " + what;
  }
  MutatedInput out{std::move(text), std::move(what)};
  // The drawn string and a marker a defect grafted: each broken on its own.
  while (break_marked_string(out.bytes)) {
  }
  return maybe_cut(std::move(out));
}

}  // namespace

const std::vector<std::string>& request_mutation_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [mutation, name] : kRequestMutations) out.emplace_back(name);
    out.emplace_back("repeated key");
    out.emplace_back(kTextCut);
    out.emplace_back(kBrokenString);
    out.emplace_back(kEscapedText);
    return out;
  }();
  return names;
}

rc::Gen<MutatedInput> gen_request_mutation(const Json& envelope) {
  return rc::gen::exec([envelope] {
    if (!envelope.is_object()) return MutatedInput{(*gen_request()).bytes, "fresh request"};
    if (chance(8))
      if (auto repeated = object_with_repeated_key(envelope)) return *repeated;
    for (int attempt = 0; attempt < 4; ++attempt) {
      Json mutated = envelope;
      std::string what;
      const auto& [mutation, name] = kRequestMutations[uniform<std::size_t>(0, kRequestMutations.size())];
      if (mutation(mutated, what)) return written(std::move(mutated), std::move(what));
    }
    return MutatedInput{(*gen_request()).bytes, "fresh request"};
  });
}

rc::Gen<MutatedInput> gen_verify_mutation(const Json& input) {
  return rc::gen::exec([input] {
    Json mutated = input.is_object() ? input : Json::object();
    std::string what;
    for (int attempt = 0; attempt < 4; ++attempt)
      if (kVerifyMutations[uniform<std::size_t>(0, kVerifyMutations.size())](mutated, what))
        return written(std::move(mutated), std::move(what));
    return MutatedInput{(*gen_verify_case()).bytes, "fresh verify case"};
  });
}

rc::Gen<MutatedInput> gen_params_wire_mutation(const std::string& bytes) {
  return rc::gen::exec([bytes] {
    auto decoded = from_msgpack(bytes);
    if (!decoded || !decoded->is_array() || chance(10)) {
      const WireCase fresh = chance(50) ? *gen_wire_case(*gen_pooling_params()) : *gen_wire_defect();
      return MutatedInput{fresh.bytes, "generated wire case: " + fresh.kind};
    }
    std::string what;
    for (int attempt = 0; attempt < 4; ++attempt)
      if (edit_wire_element(*decoded, what))
        if (auto encoded = to_msgpack(*decoded)) return MutatedInput{std::move(*encoded), what};
    return MutatedInput{(*gen_wire_case(*gen_pooling_params())).bytes, "generated wire case"};
  });
}

rc::Gen<MutatedInput> gen_token_types_mutation(const std::string& bytes) {
  return rc::gen::exec([bytes] {
    std::vector<std::int64_t> types = laws::token_types_from_bytes(bytes);
    const auto at = uniform<std::size_t>(0, types.size() + 1);
    std::string what;
    switch (*rc::gen::element(0, 1, 2, 3, 4)) {
      case 0: {  // a run of one type: long runs are what compression and packing see
        const std::int64_t type = *rc::gen::weightedElement<std::int64_t>({{6, 0}, {6, 1}, {1, 2}});
        const auto length = chance(80) ? uniform<std::size_t>(1, 16) : uniform<std::size_t>(16, 600);
        types.insert(types.begin() + static_cast<std::ptrdiff_t>(at), length, type);
        what = "run of " + std::to_string(length) + " type " + std::to_string(type);
        break;
      }
      case 1: {  // the run around `at` removed
        if (at >= types.size()) return MutatedInput{(*gen_token_types()).bytes, "generated types"};
        auto begin = types.begin() + static_cast<std::ptrdiff_t>(at), end = begin;
        while (begin != types.begin() && *(begin - 1) == *end) --begin;
        while (end != types.end() && *end == *begin) ++end;
        types.erase(begin, end);
        what = "run removed";
        break;
      }
      case 2: {  // the 0/1 boundary moved
        const auto first_one = std::find(types.begin(), types.end(), 1);
        if (first_one == types.end()) return MutatedInput{(*gen_token_types()).bytes, "generated types"};
        *first_one = 0;
        what = "boundary moved";
        break;
      }
      case 3:  // a batch separator (check_token_types splits at negatives)
        types.insert(types.begin() + static_cast<std::ptrdiff_t>(at), uniform<std::int64_t>(-4, 0));
        what = "separator";
        break;
      default: {
        const TokenTypesCase fresh = chance(50) ? *gen_token_types() : *gen_misordered_token_types();
        return MutatedInput{fresh.bytes, "generated types: " + fresh.kind};
      }
    }
    std::string out;
    types_to_bytes(types, out);
    return MutatedInput{std::move(out), what};
  });
}

}  // namespace poolcheck::props
