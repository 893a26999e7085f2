#include "core/result_writer.h"

#include <fmt/format.h>

#include "core/build_identity.h"
#include "core/version.h"

namespace ftlsim {
namespace {

// The string value of `"name": "..."` in `json`, or nullopt. A quote inside
// a string value is escaped by JsonWriter, so the tag cannot appear inside
// one, and the value (a version or hex digits) holds no escaped quote.
std::optional<std::string> string_field(std::string_view json, std::string_view name) {
  const std::string tag = fmt::format("\"{}\": \"", name);
  const size_t at = json.find(tag);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view rest = json.substr(at + tag.size());
  const size_t end = rest.find('"');
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(rest.substr(0, end));
}

}  // namespace

std::optional<ResultWriter> result_writer(std::string_view json) {
  std::optional<std::string> version = string_field(json, "ftlsim_version");
  if (!version) return std::nullopt;
  return ResultWriter{std::move(*version), string_field(json, "ftlsim_sources")};
}

bool is_this_build(const ResultWriter& w) { return w.version == kVersion && w.sources == source_digest(); }

std::string describe(const ResultWriter& w) {
  if (!w.sources) return fmt::format("ftlsim {} from before the sources were recorded", w.version);
  return fmt::format("ftlsim {} (sources {})", w.version, *w.sources);
}

}  // namespace ftlsim
