#include "core/output_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE, RENAME_EXCHANGE (glibc 2.28+)
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include "core/error.h"

namespace ftlsim {
namespace {

namespace fs = std::filesystem;

// `path` absolute, without "." or ".." or a trailing '/', so that
// parent_path() is its folder ("--out ." names the current folder itself).
fs::path without_slash(const std::string& path) {
  fs::path p = fs::absolute(path).lexically_normal();
  if (p.filename().empty() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

void remove_all_quietly(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
}

}  // namespace

bool is_staging_name(const std::string& name) {
  return name.size() > 1 && name[0] == '.' && name.find(".ftlsim-") != std::string::npos;
}

OutputDir::OutputDir(std::string option, std::string path, std::vector<std::string> own, const RunInputs& inputs)
    : option_(std::move(option)), path_(std::move(path)), own_(std::move(own)) {
  check_output_folder(option_, path_, inputs);
  const fs::path target = without_slash(path_);
  if (!target.has_parent_path() || target == target.root_path()) {
    throw InputError(fmt::format("{} {}: give a folder below the root", option_, path_));
  }
  // The folder is swapped out at the end: it must not hold the current
  // folder, which would then be removed under the user's shell.
  if (const auto out_id = identity_of(path_)) {
    std::error_code ec;
    for (fs::path p = fs::current_path(ec); !ec && !p.empty(); p = p.parent_path()) {
      if (identity_of(p.string()) == out_id) {
        throw InputError(fmt::format("{} {} is (or holds) the current folder; give a folder beside it, e.g. "
                                     "--out results",
                                     option_, path_));
      }
      if (p == p.root_path()) break;
    }
  }
  check_entries();
}

OutputDir::~OutputDir() {
  if (!published_ && !staging_.empty()) remove_all_quietly(staging_);
}

void OutputDir::check_entries() const {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(path_, ec))) return;
  std::vector<std::string> foreign;
  for (fs::directory_iterator it(path_, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (std::find(own_.begin(), own_.end(), name) == own_.end() && !is_staging_name(name)) foreign.push_back(name);
  }
  if (ec) throw InputError(fmt::format("{} {}: cannot list it ({})", option_, path_, ec.message()));
  if (foreign.empty()) return;
  std::sort(foreign.begin(), foreign.end());
  throw InputError(fmt::format(
      "{} {} holds {} entr{} this run does not write ({}{}); a run replaces its output folder as a whole, so "
      "give a new or empty folder",
      option_, path_, foreign.size(), foreign.size() == 1 ? "y" : "ies", foreign.front(),
      foreign.size() > 1 ? ", ..." : ""));
}

const std::string& OutputDir::staging() {
  if (!staging_.empty()) return staging_;
  const fs::path target = without_slash(path_);
  fs::path parent = target.parent_path();
  if (parent.empty()) parent = ".";
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw SystemError(fmt::format("cannot create the folder {} for {}: {}", parent.string(), path_, ec.message()));
  std::string name = (parent / fmt::format(".{}.ftlsim-XXXXXX", target.filename().string())).string();
  if (::mkdtemp(name.data()) == nullptr) {
    throw system_error_from_errno(fmt::format("cannot create a staging folder in {} for {}", parent.string(), path_));
  }
  ::chmod(name.c_str(), 0777 & ~process_umask());  // mkdtemp made it 0700
  staging_ = name;
  return staging_;
}

void OutputDir::publish() {
  const std::string& from = staging();
  const std::string to = without_slash(path_).string();
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) {
    published_ = true;
    return;
  }
  if (errno == EINVAL) {
    // No RENAME_NOREPLACE on this file system: rename() onto an absent name.
    struct stat st {};
    if (::lstat(to.c_str(), &st) != 0 && std::rename(from.c_str(), to.c_str()) == 0) {
      published_ = true;
      return;
    }
  } else if (errno != EEXIST && errno != ENOTEMPTY) {
    published_ = true;  // keep the staging folder: it holds the only copy of the results
    throw system_error_from_errno(fmt::format("cannot rename {} to {} (the results are in {})", from, to, from));
  }
  // The target exists: it must still be a folder of this run's kind.
  struct stat st {};
  if (::lstat(to.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    throw SystemError(fmt::format("{} {} changed while the run went on (now {}); the results are in {}", option_,
                                  path_, file_type_name(st.st_mode), from));
  }
  try {
    check_entries();
  } catch (const InputError& e) {
    published_ = true;  // keep the staging folder: it holds the only copy of the results
    throw SystemError(fmt::format("{}; the results are in {}", e.what(), from));
  }
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_EXCHANGE) == 0) {
    // `from` now names the old set.
    published_ = true;
    remove_all_quietly(from);
    return;
  }
  if (errno != EINVAL) {
    published_ = true;  // keep the staging folder: it holds the only copy of the results
    throw system_error_from_errno(fmt::format("cannot exchange {} and {} (the results are in {})", from, to, from));
  }
  // No RENAME_EXCHANGE: move the old set aside, the new one in, then drop the old.
  std::string aside = from + "-old";
  if (std::rename(to.c_str(), aside.c_str()) != 0) {
    published_ = true;
    throw system_error_from_errno(fmt::format("cannot move {} aside (the results are in {})", to, from));
  }
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    const SystemError e = system_error_from_errno(fmt::format("cannot rename {} to {} (the results are in {})", from, to, from));
    std::rename(aside.c_str(), to.c_str());
    published_ = true;
    throw e;
  }
  published_ = true;
  remove_all_quietly(aside);
}

}  // namespace ftlsim
