#include "cli/out_results.h"

#include <fmt/format.h>

#include <optional>

#include "core/error.h"
#include "core/escape.h"

namespace ftlsim::cli {

std::string key_in_json(const std::string& text) {
  // JsonWriter writes `"config_key": "HEX"`; a quote inside any string value
  // is escaped, so the tag cannot appear inside one.
  const std::string tag = "\"config_key\": \"";
  const size_t at = text.find(tag);
  if (at == std::string::npos) return "none";
  const size_t end = text.find('"', at + tag.size());
  return end == std::string::npos ? "none" : text.substr(at + tag.size(), end - at - tag.size());
}

void check_out_results(const OutputDir& out, std::span<const KeyedEntry> entries, bool replace,
                       std::string_view flag) {
  if (replace) return;
  for (const KeyedEntry& e : entries) {
    const std::optional<std::string> text = out.existing_text(e.entry);
    if (!text || key_in_json(*text) == e.key) continue;
    const std::string shown = escape_for_terminal(out.path());
    throw InputError(fmt::format("--out {}: holds the results of another configuration or trace ({}/{}); give "
                                 "another folder, or {} to replace them",
                                 shown, shown, e.entry, flag));
  }
}

}  // namespace ftlsim::cli
