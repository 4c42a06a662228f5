#pragma once
// Generators of what the worker side reads: token-type lists (as the bytes the
// fuzz target `token_types` reads) and worker batches.
#include <iosfwd>
#include <string>
#include <vector>

#include "core/token_types.hpp"
#include "properties/suites/generators.hpp"

namespace poolcheck::props {

struct TokenTypesCase {
  std::vector<std::int64_t> types;
  std::string kind;   // "valid" (0*1*), "near-valid" (one element off) or "invalid"
  std::string bytes;  // encodes `types` as laws::token_types_from_bytes reads them
};
void showValue(const TokenTypesCase& input, std::ostream& os);
rc::Gen<TokenTypesCase> gen_token_types();
// 0*1* with one defect the compression must reject: a 0 after a 1, or a 2.
rc::Gen<TokenTypesCase> gen_misordered_token_types();

struct BatchCase {
  std::vector<BatchRequest> batch;
  std::vector<std::int64_t> ids;  // the batch's token ids, below 2^30; sometimes fewer than its tokens
};
void showValue(const BatchCase& input, std::ostream& os);
rc::Gen<BatchCase> gen_batch();
// The batch as `poolcheck batch` reads it.
Json batch_to_json(const BatchCase& input);

}  // namespace poolcheck::props
