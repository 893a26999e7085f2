#include "cli/parse_error_text.h"

#include <fmt/format.h>

namespace ftlsim::cli {

std::string parse_error_text(const CLI::ParseError& e, bool dash_o) {
  const std::string what = e.what();
  const std::string tag = ": At Most 1 required but received ";
  const size_t at = what.find(tag);
  if (at != std::string::npos && what.find(' ') > at) {
    const std::string option = what.substr(0, at);
    const std::string short_name = dash_o && option == "--out" ? " (-o)" : "";
    return fmt::format("{}{} given {} times; give it once", option, short_name, what.substr(at + tag.size()));
  }
  const std::string need = ": 1 required ";
  const std::string missing = " missing";
  const size_t n = what.find(need);
  if (n != std::string::npos && what.find(' ') > n && what.size() > n + need.size() + missing.size() &&
      what.compare(what.size() - missing.size(), missing.size(), missing) == 0) {
    const std::string type = what.substr(n + need.size(), what.size() - missing.size() - n - need.size());
    return fmt::format("{} needs a value ({})", what.substr(0, n), type);
  }
  return what;
}

}  // namespace ftlsim::cli
