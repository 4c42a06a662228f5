#include "properties/suites/token_type_generators.hpp"

#include <algorithm>
#include <ostream>

#include "core/output_json.hpp"
#include "properties/laws/rendered_laws.hpp"

namespace poolcheck::props {
namespace {

std::vector<std::int64_t> zeros_then_ones(std::size_t zeros, std::size_t ones) {
  std::vector<std::int64_t> types(zeros, 0);
  types.insert(types.end(), ones, 1);
  return types;
}

rc::Gen<std::vector<std::int64_t>> gen_zeros_then_ones(std::size_t min_ones) {
  return rc::gen::exec([min_ones] {
    const auto zeros = *rc::gen::inRange<std::size_t>(0, 12);
    return zeros_then_ones(zeros, *rc::gen::inRange<std::size_t>(min_ones, 12));
  });
}

// The inverse of laws::token_types_from_bytes: byte b < 0xFC is the type
// b % 3 (so each of 0, 1, 2 has many spellings), 0xFC..0xFF are -4..-1.
std::string encode_types(const std::vector<std::int64_t>& types) {
  std::string bytes;
  for (std::int64_t t : types)
    bytes += static_cast<char>(t < 0 ? 0x100 + t : t + 3 * *rc::gen::weightedOneOf<std::int64_t>(
                                                            {{4, rc::gen::just<std::int64_t>(0)},
                                                             {1, rc::gen::inRange<std::int64_t>(1, 84)}}));
  return bytes;
}

// A 0 after the first 1, or a 2: what compression must reject.
void misorder(std::vector<std::int64_t>& types) {
  const auto first_one = static_cast<std::size_t>(std::find(types.begin(), types.end(), 1) - types.begin());
  if (first_one < types.size() && chance(50)) {
    const auto at = *rc::gen::inRange<std::size_t>(first_one + 1, types.size() + 1);
    types.insert(types.begin() + static_cast<std::ptrdiff_t>(at), 0);
  } else if (types.empty()) {
    types.push_back(2);
  } else {
    types[*rc::gen::inRange<std::size_t>(0, types.size())] = 2;
  }
}

}  // namespace

void showValue(const TokenTypesCase& input, std::ostream& os) {
  os << input.kind << " token types " << dump_json(Json(input.types));
}

rc::Gen<TokenTypesCase> gen_token_types() {
  return rc::gen::exec([] {
    TokenTypesCase c;
    c.kind = *rc::gen::weightedElement<std::string>({{4, "valid"}, {3, "near-valid"}, {3, "invalid"}});
    if (c.kind == "invalid") {
      c.types = *rc::gen::resize(16, rc::gen::container<std::vector<std::int64_t>>(
                                         rc::gen::element<std::int64_t>(0, 1, 2, -1, -2, -3, -4)));
    } else {
      c.types = *gen_zeros_then_ones(0);
      if (c.kind == "near-valid") {
        if (chance(30)) {  // a negative passes silently (vLLM quirk)
          if (c.types.empty()) c.types.push_back(0);
          c.types[*rc::gen::inRange<std::size_t>(0, c.types.size())] = *rc::gen::inRange<std::int64_t>(-4, 0);
        } else {
          misorder(c.types);
        }
      }
    }
    c.bytes = encode_types(c.types);
    return c;
  });
}

rc::Gen<TokenTypesCase> gen_misordered_token_types() {
  return rc::gen::exec([] {
    TokenTypesCase c{*gen_zeros_then_ones(1), "near-valid", ""};
    misorder(c.types);
    c.bytes = encode_types(c.types);
    return c;
  });
}

void showValue(const BatchCase& input, std::ostream& os) {
  os << "batch " << dump_json(batch_to_json(input)) << " with ids " << dump_json(Json(input.ids));
}

Json batch_to_json(const BatchCase& input) { return laws::batch_command_input(input.batch); }

rc::Gen<BatchCase> gen_batch() {
  return rc::gen::exec([] {
    BatchCase c;
    // Sometimes two requests without boundaries (so no type list is built)
    // whose lengths each fit the 2^24 bound and together cross it, or meet it.
    if (chance(3)) {
      const std::int64_t half = (kMaxTotalTokens / 2) + *rc::gen::element<std::int64_t>(0, 1);
      for (int i = 0; i < 2; ++i) c.batch.push_back(BatchRequest{std::nullopt, half});
      return c;
    }
    const int requests = *rc::gen::inRange(0, 6);
    std::int64_t total = 0;
    for (int i = 0; i < requests; ++i) {
      BatchRequest request;
      request.seq_len = *rc::gen::weightedOneOf<std::int64_t>(
          {{12, rc::gen::inRange<std::int64_t>(0, 12)}, {1, rc::gen::inRange<std::int64_t>(-3, 0)}});
      total += std::max<std::int64_t>(request.seq_len, 0);
      const std::string params = *rc::gen::weightedElement<std::string>(
          {{6, "boundary"}, {2, "none"}, {2, "no extras"}, {2, "no key"}, {1, "null key"}, {1, "non-integer key"}});
      if (params == "none") {
        c.batch.push_back(request);
        continue;
      }
      request.params = PoolingParams{};
      if (params != "no extras") {
        Json extras = *gen_object(1);
        extras.erase(std::string(kCompressedTokenTypeIds));
        const std::string key(kCompressedTokenTypeIds);
        if (params == "null key") extras[key] = nullptr;
        if (params == "non-integer key") extras[key] = *rc::gen::element(Json("2"), Json(1.5), Json(true));
        if (params == "boundary")  // inside the sequence mostly, past its end or negative sometimes
          extras[key] = *rc::gen::weightedOneOf<std::int64_t>(
              {{6, rc::gen::inRange<std::int64_t>(0, std::max<std::int64_t>(request.seq_len, 0) + 1)},
               {1, rc::gen::inRange<std::int64_t>(request.seq_len + 1, request.seq_len + 5)},
               {1, rc::gen::inRange<std::int64_t>(-3, 0)}});
        request.params->extra_kwargs = std::make_shared<Json>(std::move(extras));
      }
      c.batch.push_back(request);
    }
    const std::int64_t count = std::max<std::int64_t>(
        0, total + *rc::gen::weightedOneOf<std::int64_t>({{8, rc::gen::just<std::int64_t>(0)},
                                                          {1, rc::gen::inRange<std::int64_t>(-3, 0)},
                                                          {1, rc::gen::inRange<std::int64_t>(1, 4)}}));
    for (std::int64_t i = 0; i < count; ++i)
      c.ids.push_back(*rc::gen::weightedOneOf<std::int64_t>(
          {{6, rc::gen::inRange<std::int64_t>(1000, 30522)},
           {1, rc::gen::element<std::int64_t>(0, 101, 102, (std::int64_t{1} << 30) - 1)},
           {1, rc::gen::inRange<std::int64_t>(0, std::int64_t{1} << 30)}}));
    // Sometimes one id outside the packable range: an internal error (the packing law).
    if (!c.ids.empty() && chance(5))
      c.ids[*rc::gen::inRange<std::size_t>(0, c.ids.size())] = *rc::gen::element<std::int64_t>(-1, std::int64_t{1} << 30);
    return c;
  });
}

}  // namespace poolcheck::props
