#include "core/io_identity.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/error.h"

namespace ftlsim {
namespace {

namespace fs = std::filesystem;

// The folder a file `path` lives in ("." for a bare name).
std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Throws unless `dir` is a folder this process may create entries in.
void check_writable_folder(std::string_view option, const std::string& path, const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    throw InputError(fmt::format("{} {}: its folder {} does not exist", option, path, dir));
  }
  if (!S_ISDIR(st.st_mode)) throw InputError(fmt::format("{} {}: {} is not a folder", option, path, dir));
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw InputError(fmt::format("{} {}: cannot write into {} ({})", option, path, dir, std::strerror(errno)));
  }
}

// `dir` as an absolute path without a trailing '/' ("out/" -> "/cwd/out").
fs::path clean_folder(const std::string& dir) {
  fs::path p = fs::absolute(dir).lexically_normal();
  if (p.filename().empty() && p != p.root_path()) p = p.parent_path();
  return p;
}

}  // namespace

std::optional<FileIdentity> identity_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

std::string_view file_type_name(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

mode_t process_umask() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8) & 0777);
  }
  return 022;
}

void RunInputs::add(std::string option, const std::string& path) {
  if (path.empty()) return;
  if (const auto id = identity_of(path)) inputs_.push_back({std::move(option), path, *id});
}

void RunInputs::check_not_input(std::string_view option, const std::string& path) const {
  const auto id = identity_of(path);
  if (!id) return;
  for (const Input& in : inputs_) {
    if (in.id == *id) {
      throw InputError(fmt::format("{} {} is the input {} {} (the same file); an output never replaces an input",
                                   option, path, in.option, in.path));
    }
  }
}

void RunInputs::check_not_inside(std::string_view option, const std::string& dir) const {
  const auto folder = identity_of(dir);
  if (!folder) return;
  for (const Input& in : inputs_) {
    // Walk up from the input to the root, comparing every folder on the way.
    std::error_code ec;
    fs::path p = fs::canonical(in.path, ec);
    if (ec) continue;
    for (;;) {
      if (const auto id = identity_of(p.string()); id && *id == *folder) {
        throw InputError(fmt::format("{} {} holds the input {} {}; write the results into another folder",
                                     option, dir, in.option, in.path));
      }
      if (p == p.root_path() || !p.has_parent_path()) break;
      p = p.parent_path();
    }
  }
}

void check_output_file(std::string_view option, const std::string& path, bool force, const RunInputs& inputs) {
  if (path.empty()) throw InputError(fmt::format("{}: the output path is empty", option));
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) {
      throw InputError(fmt::format("{} {} is {}; outputs are regular files, and ftlsim never replaces anything "
                                   "else (--force or not)",
                                   option, path, file_type_name(st.st_mode)));
    }
    inputs.check_not_input(option, path);
    if (!force) throw InputError(fmt::format("{}: already exists (use --force to overwrite)", path));
  } else if (errno != ENOENT) {
    throw InputError(fmt::format("{} {}: cannot stat ({})", option, path, std::strerror(errno)));
  }
  check_writable_folder(option, path, folder_of(path));
}

void check_output_folder(std::string_view option, const std::string& dir, const RunInputs& inputs) {
  if (dir.empty()) throw InputError(fmt::format("{}: the output folder is empty", option));
  struct stat st {};
  if (::lstat(dir.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      throw InputError(fmt::format("{} {} is a symbolic link; give the folder it points to", option, dir));
    }
    if (!S_ISDIR(st.st_mode)) {
      throw InputError(fmt::format("{} {} exists and is {}, not a folder", option, dir, file_type_name(st.st_mode)));
    }
    inputs.check_not_inside(option, dir);
    check_writable_folder(option, dir, dir);
    const fs::path clean = clean_folder(dir);
    check_writable_folder(option, dir, clean.has_parent_path() ? clean.parent_path().string() : clean.string());
    return;
  }
  if (errno != ENOENT && errno != ENOTDIR) {
    throw InputError(fmt::format("{} {}: cannot stat ({})", option, dir, std::strerror(errno)));
  }
  // Absent: the nearest existing parent must be a writable folder.
  fs::path p = clean_folder(dir);
  while (p.has_parent_path() && p != p.root_path()) {
    p = p.parent_path();
    if (::stat(p.c_str(), &st) == 0) break;
    if (errno != ENOENT && errno != ENOTDIR) throw InputError(fmt::format("{} {}: cannot stat {} ({})", option, dir, p.string(), std::strerror(errno)));
  }
  check_writable_folder(option, dir, p.string());
}

}  // namespace ftlsim
