#include "cli/options.hpp"

#include <algorithm>
#include <charconv>

namespace poolcheck::cli {

std::optional<Options> parse_options(const std::string& command, const Args& args,
                                     const std::vector<std::string>& with_value,
                                     const std::vector<std::string>& switches) {
  Options options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() <= 2 || arg.rfind("--", 0) != 0) {
      options.positional.push_back(arg);
      continue;
    }
    const auto equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    if (std::find(with_value.begin(), with_value.end(), name) != with_value.end()) {
      if (equals != std::string::npos) {
        options.values[name] = arg.substr(equals + 1);
      } else if (i + 1 < args.size()) {
        options.values[name] = args[++i];
      } else {
        usage_error(command, name + " needs a value");
        return std::nullopt;
      }
    } else if (equals == std::string::npos &&
               std::find(switches.begin(), switches.end(), name) != switches.end()) {
      options.switches[name] = true;
    } else {
      usage_error(command, "unknown option " + arg);
      return std::nullopt;
    }
  }
  return options;
}

std::optional<std::string> value_of(const Options& options, const std::string& name) {
  auto it = options.values.find(name);
  return it == options.values.end() ? std::nullopt : std::optional<std::string>(it->second);
}

std::optional<double> parse_number(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace poolcheck::cli
