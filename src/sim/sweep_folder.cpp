#include "sim/sweep_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/output_dir.h"
#include "core/output_set.h"
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
  if (ec) throw InputError(fmt::format("`out` {}: cannot list it ({})", dir, ec.message()));
  std::sort(entries.begin(), entries.end());
  if (entries.empty()) return SweepFolder::kNew;
  const std::string csv = dir + "/sweep.csv";
  if (!fs::exists(csv)) {
    throw InputError(fmt::format("`out` {} is not a sweep's folder (no sweep.csv; it holds {}{}); give a new or "
                                 "empty folder",
                                 dir, entries.front(), entries.size() > 1 ? ", ..." : ""));
  }
  const auto previous = read_sweep_rows(csv);
  for (const std::string& name : entries) {
    if (name != "sweep.csv" && previous.count(name) == 0) {
      throw InputError(fmt::format("`out` {} holds {}, which its sweep.csv does not name; a sweep's folder holds "
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
    throw InputError(fmt::format("`out` {} holds another sweep ({} configuration{} in its sweep.csv, not those of "
                                 "this command); give a new folder to keep it, or `force` to replace it",
                                 dir, previous.size(), previous.size() == 1 ? "" : "s"));
  }
  // --force removes only what the earlier sweep provably wrote: sweep.csv
  // as a regular file, and configuration folders whose every entry their
  // manifest proves (core/output_set.h). All of it is checked first, through
  // the folder opened once, so that nothing is removed when anything would stay.
  const UniqueFd folder = open_subfolder(AT_FDCWD, folder_name_of(dir));
  if (!folder.valid()) throw InputError(fmt::format("`out` {}: cannot open it ({})", dir, std::strerror(errno)));
  for (const std::string& name : entries) {
    struct stat st {};
    std::string why;
    if (name == "sweep.csv") {
      if (::fstatat(folder.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
        why = "sweep.csv (not a regular file)";
      }
    } else if (const auto unproven = unproven_folder(folder.get(), name); !unproven.empty()) {
      why = fmt::format("{}{}", unproven.front(), unproven.size() > 1 ? ", ..." : "");
    }
    if (!why.empty()) {
      throw InputError(fmt::format("`out` {}: `force` removes only what the earlier sweep provably wrote, and "
                                   "{} holds {}; nothing was removed: move it away or give a new folder",
                                   dir, dir, why));
    }
  }
  // sweep.csv last: a removal stopped half-way (an error, a kill) leaves a
  // folder still recognised as a sweep's, which --force can then finish.
  for (const std::string& name : entries) {
    if (name != "sweep.csv" && !remove_written_set(folder.get(), name)) {
      throw SystemError(fmt::format("`force`: cannot remove all of {}/{}", dir, name));
    }
  }
  if (::unlinkat(folder.get(), "sweep.csv", 0) != 0) {
    throw system_error_from_errno(fmt::format("`force`: cannot remove {}/sweep.csv", dir));
  }
  return SweepFolder::kReplaced;
}

}  // namespace ftlsim::sim
