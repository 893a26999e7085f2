#include "sim/sweep_folder.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "core/error.h"
#include "core/output_dir.h"
#include "sim/sweep_resume.h"

namespace ftlsim::sim {

SweepFolder claim_sweep_folder(const std::string& dir, const SweepTable& table, bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(dir, ec))) return SweepFolder::kNew;  // absent (check_output_folder ran)
  std::vector<std::string> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!is_staging_name(name)) entries.push_back(name);
  }
  if (ec) throw InputError(fmt::format("--out {}: cannot list it ({})", dir, ec.message()));
  std::sort(entries.begin(), entries.end());
  if (entries.empty()) return SweepFolder::kNew;
  const std::string csv = dir + "/sweep.csv";
  if (!fs::exists(csv)) {
    throw InputError(fmt::format("--out {} is not a sweep's folder (no sweep.csv; it holds {}{}); give a new or "
                                 "empty folder",
                                 dir, entries.front(), entries.size() > 1 ? ", ..." : ""));
  }
  const auto previous = read_sweep_rows(csv);
  for (const std::string& name : entries) {
    if (name != "sweep.csv" && previous.count(name) == 0) {
      throw InputError(fmt::format("--out {} holds {}, which its sweep.csv does not name; a sweep's folder holds "
                                   "only sweep.csv and its configurations' folders: give a new or empty folder",
                                   dir, name));
    }
  }
  bool same = previous.size() == table.ids.size();
  for (size_t i = 0; same && i < table.ids.size(); ++i) {
    const auto it = previous.find(table.ids[i]);
    same = it != previous.end() && it->second.count("config_key") != 0 &&
           it->second.at("config_key") == table.keys[i] && !table.keys[i].empty();
  }
  if (same) return SweepFolder::kResume;
  if (!force) {
    throw InputError(fmt::format("--out {} holds another sweep ({} configuration{} in its sweep.csv, not those of "
                                 "this command); give a new folder to keep it, or --force to replace it",
                                 dir, previous.size(), previous.size() == 1 ? "" : "s"));
  }
  // sweep.csv last: a removal stopped half-way (an error, a kill) leaves a
  // folder still recognised as a sweep's, which --force can then finish.
  for (const std::string& name : entries) {
    if (name == "sweep.csv") continue;
    fs::remove_all(fs::path(dir) / name, ec);
    if (ec) throw SystemError(fmt::format("--force: cannot remove {}/{}: {}", dir, name, ec.message()));
  }
  fs::remove(fs::path(dir) / "sweep.csv", ec);
  if (ec) throw SystemError(fmt::format("--force: cannot remove {}/sweep.csv: {}", dir, ec.message()));
  return SweepFolder::kReplaced;
}

}  // namespace ftlsim::sim
