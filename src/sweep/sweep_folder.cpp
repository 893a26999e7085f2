#include "sweep/sweep_folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <vector>

#include "core/build_identity.h"
#include "core/dir_fd.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/output_dir.h"
#include "core/output_set.h"
#include "core/result_writer.h"
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

// The build that wrote the earlier sweep in the open folder `dir`: named by
// the summary.json of the first of its `previous` rows that is done.
std::optional<ResultWriter> sweep_writer(int dir,
                                         const std::map<std::string, std::map<std::string, std::string>>& previous) {
  for (const auto& [id, cells] : previous) {
    const auto status = cells.find("status");
    if (status == cells.end() || status->second != "done") continue;
    if (id.empty() || id == "." || id == ".." || id.find('/') != std::string::npos) continue;  // not a folder of it
    const UniqueFd folder = open_subfolder(dir, id);
    if (!folder.valid()) continue;
    const RegularFileAt file = open_regular_at(folder.get(), "summary.json");
    if (!file.fd.valid()) continue;
    std::string text(4096, '\0');  // the fields lead the file
    const ssize_t got = ::pread(file.fd.get(), text.data(), text.size(), 0);
    if (got <= 0) continue;
    text.resize(static_cast<size_t>(got));
    return result_writer(text);
  }
  return std::nullopt;
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
    // A single run's folder (summary.json, published as a whole) is not
    // taken by a sweep, --force or not (docs/cli.md).
    const bool single = std::binary_search(entries.begin(), entries.end(), std::string("summary.json"));
    throw InputError(say("`out` {} is not a sweep's folder (no sweep.csv; it holds {}); give a new or empty folder",
                         dir,
                         single ? std::string("a single run's results, summary.json")
                                : entries.front() + (entries.size() > 1 ? ", ..." : "")));
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
    if (const std::optional<ResultWriter> w = sweep_writer(out.fd(), previous); w && !is_this_build(*w)) {
      // Another build's model computed it: its keys differ whatever the options.
      throw InputError(
          say("`out` {} holds another sweep ({} configuration{} in its sweep.csv, written by {}, whose numbers may "
              "differ from this build's; this is {}); give a new folder to keep it, or `force` to replace it",
              dir, previous.size(), previous.size() == 1 ? "" : "s", escape_for_terminal(describe(*w)), this_build()));
    }
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
