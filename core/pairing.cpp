#include "core/pairing.hpp"

namespace poolcheck {
namespace {

bool any_object(const std::vector<ScoreInput>& side) {
  for (const auto& input : side)
    if (input.is_object) return true;
  return false;
}

}  // namespace

Result<std::vector<PairIndex>> make_pairs(const std::vector<ScoreInput>& queries,
                                          const std::vector<ScoreInput>& documents,
                                          const ModelConfig& model) {
  if (!model.is_multimodal && (any_object(queries) || any_object(documents)))
    return Error::bad_request("MultiModalParam is not supported for " + model.architecture);
  if (queries.size() > 1 && queries.size() != documents.size())
    return Error::bad_request("Input lengths must be either 1:1, 1:N or N:N");
  if (queries.empty()) return Error::bad_request("At least one text element must be given");
  if (documents.empty()) return Error::bad_request("At least one text_pair element must be given");

  std::vector<PairIndex> pairs;
  pairs.reserve(documents.size());
  for (std::size_t i = 0; i < documents.size(); ++i)
    pairs.push_back({queries.size() == 1 ? 0 : i, i});
  return pairs;
}

}  // namespace poolcheck
