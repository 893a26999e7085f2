#include "sweep/sweep_folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/output_dir.h"
#include "core/output_set.h"
#include "sweep/sweep_resume.h"

namespace ftlsim::sim {

namespace {

// The names in the open folder `dir`, without "." and "..". Throws InputError.
std::vector<std::string> names_in(int dir, const std::string& shown) {
  std::vector<std::string> names;
  const int copy = ::fcntl(dir, F_DUPFD_CLOEXEC, 0);
  DIR* d = copy < 0 ? nullptr : ::fdopendir(copy);
  if (d == nullptr) {
    if (copy >= 0) ::close(copy);
    throw InputError(say("`out` {}: cannot list it ({})", shown, std::strerror(errno)));
  }
  ::rewinddir(d);
  errno = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  const int err = errno;
  ::closedir(d);
  if (err != 0) throw InputError(say("`out` {}: cannot list it ({})", shown, std::strerror(err)));
  return names;
}

}  // namespace

SweepFolder claim_sweep_folder(const InPlaceFolder& out, const SweepTable& table, bool force) {
  const std::string& dir = out.path();
  if (out.fd() < 0) return SweepFolder::kNew;  // absent
  std::vector<std::string> entries;
  for (std::string& name : names_in(out.fd(), dir)) {
    if (!is_staging_name(name)) entries.push_back(std::move(name));
  }
  std::sort(entries.begin(), entries.end());
  if (entries.empty()) return SweepFolder::kNew;
  struct stat csv_st {};
  if (::fstatat(out.fd(), "sweep.csv", &csv_st, AT_SYMLINK_NOFOLLOW) != 0) {
    throw InputError(
        say("`out` {} is not a sweep's folder (no sweep.csv; it holds {}{}); give a new or "
            "empty folder",
            dir, entries.front(), entries.size() > 1 ? ", ..." : ""));
  }
  if (!S_ISREG(csv_st.st_mode)) {
    throw InputError(say("`out` {}: its sweep.csv is {}, not a regular file; give a new or empty folder", dir,
                         file_type_name(csv_st.st_mode)));
  }
  const auto previous = read_sweep_rows(out.fd());
  for (const std::string& name : entries) {
    if (name != "sweep.csv" && previous.count(name) == 0) {
      throw InputError(
          say("`out` {} holds {}, which its sweep.csv does not name; a sweep's folder holds "
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
    throw InputError(
        say("`out` {} holds another sweep ({} configuration{} in its sweep.csv, not those of "
            "this command); give a new folder to keep it, or `force` to replace it",
            dir, previous.size(), previous.size() == 1 ? "" : "s"));
  }
  // --force removes only what the earlier sweep provably wrote: sweep.csv
  // as a regular file, and configuration folders whose every entry their
  // manifest proves (core/output_set.h). All of it is checked first, through
  // the folder opened once, so that nothing is removed when anything would stay.
  const int folder = out.fd();
  for (const std::string& name : entries) {
    struct stat st {};
    std::string why;
    if (name == "sweep.csv") {
      if (::fstatat(folder, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
        why = "sweep.csv (not a regular file)";
      }
    } else if (const auto unproven = unproven_folder(folder, name); !unproven.empty()) {
      why = fmt::format("{}{}", unproven.front(), unproven.size() > 1 ? ", ..." : "");
    }
    if (!why.empty()) {
      throw InputError(
          say("`out` {}: `force` removes only what the earlier sweep provably wrote, and "
              "{} holds {}; nothing was removed: move it away or give a new folder",
              dir, dir, why));
    }
  }
  // sweep.csv last: a removal stopped half-way (an error, a kill) leaves a
  // folder still recognised as a sweep's, which --force can then finish.
  for (const std::string& name : entries) {
    if (name != "sweep.csv" && !remove_written_set(folder, name)) {
      throw SystemError(say("`force`: cannot remove all of {}/{}", dir, name));
    }
  }
  if (::unlinkat(folder, "sweep.csv", 0) != 0) {
    throw system_error_from_errno(say("`force`: cannot remove {}/sweep.csv", dir));
  }
  return SweepFolder::kReplaced;
}

}  // namespace ftlsim::sim
