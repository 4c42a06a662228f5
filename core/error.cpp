#include "core/error.hpp"

namespace poolcheck {

Error Error::bad_request(std::string message, std::optional<std::string> param) {
  return Error{std::move(message), std::move(param), "BadRequestError", 400};
}

Error Error::not_found(std::string message, std::optional<std::string> param) {
  return Error{std::move(message), std::move(param), "NotFoundError", 404};
}

Error Error::internal(std::string message) {
  return Error{std::move(message), std::nullopt, "InternalServerError", 500};
}

}  // namespace poolcheck
