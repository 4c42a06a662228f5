#pragma once
// Pairing queries with documents (spec section 6): 1:1, 1:N or N:N, in
// document order.
#include <cstddef>
#include <vector>

#include "core/error.hpp"
#include "core/model.hpp"
#include "core/request.hpp"

namespace poolcheck {

struct PairIndex {
  std::size_t query = 0;
  std::size_t document = 0;
  bool operator==(const PairIndex&) const = default;
};

// Checks, first failure wins: an object item on a model that is not
// multimodal; len1 > 1 and len1 != len2; len1 == 0; len2 == 0. All with param null.
Result<std::vector<PairIndex>> make_pairs(const std::vector<ScoreInput>& queries,
                                          const std::vector<ScoreInput>& documents,
                                          const ModelConfig& model);

}  // namespace poolcheck
