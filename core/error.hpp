#pragma once
// Errors are values in the core: every rejected input becomes one Error, which
// the boundary renders as vLLM's OpenAI-style body (spec section 1).
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace poolcheck {

struct Error {
  std::string message;
  std::optional<std::string> param;
  std::string type = "BadRequestError";
  int code = 400;

  static Error bad_request(std::string message, std::optional<std::string> param = std::nullopt);
  static Error not_found(std::string message, std::optional<std::string> param = std::nullopt);
  // A broken internal invariant: a bug of the core, never a user error.
  static Error internal(std::string message);

  bool operator==(const Error&) const = default;
};

// A check that either passes or names the first failure.
using MaybeError = std::optional<Error>;

// A value or the error that prevented it.
template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { return std::get<1>(state_); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace poolcheck
