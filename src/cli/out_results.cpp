#include "cli/out_results.h"

#include <fmt/format.h>

#include <optional>

#include "core/build_identity.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/io_identity.h"
#include "core/result_writer.h"

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

namespace {

// The result files of every kind of run that writes an output folder: a
// folder holding one this run does not write holds another kind's results.
constexpr std::string_view kResultEntries[] = {"summary.json", "a/summary.json", "b/summary.json", "qd_sweep.json",
                                               "sweep.csv"};

}  // namespace

void check_out_results(const OutputDir& out, std::span<const KeyedEntry> entries, bool replace, std::string_view flag) {
  if (replace) return;
  for (const std::string_view entry : kResultEntries) {
    bool own = false;
    for (const KeyedEntry& e : entries) own = own || e.entry == entry;
    if (own || !out.holds_file(std::string(entry))) continue;
    const std::string shown = escape_for_terminal(folder_name_of(out.path()));
    throw InputError(
        fmt::format("--out {}: holds the results of another kind of run ({}/{}); give another folder, "
                    "or {} to replace them",
                    shown, shown, entry, flag));
  }
  for (const KeyedEntry& e : entries) {
    const std::optional<std::string> text = out.existing_text(e.entry);
    if (!text || key_in_json(*text) == e.key) continue;
    const std::string shown = escape_for_terminal(folder_name_of(out.path()));
    if (const std::optional<ResultWriter> w = result_writer(*text); w && !is_this_build(*w)) {
      // Another build's model computed them: their key differs whatever the options.
      throw InputError(
          fmt::format("--out {}: holds results written by {} ({}/{}), whose numbers may differ from "
                      "this build's (this is {}); give another folder, or {} to replace them",
                      shown, escape_for_terminal(describe(*w)), shown, e.entry, this_build(), flag));
    }
    throw InputError(
        fmt::format("--out {}: holds the results of another configuration or trace ({}/{}); give "
                    "another folder, or {} to replace them",
                    shown, shown, e.entry, flag));
  }
}

}  // namespace ftlsim::cli
