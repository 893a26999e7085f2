#include "core/io_identity.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/dir_fd.h"
#include "core/error.h"

namespace ftlsim {
namespace {

namespace fs = std::filesystem;

// The folder a file `path` lives in ("." for a bare name).
std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

}  // namespace

std::optional<FileIdentity> identity_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

std::optional<std::string_view> pseudo_fs_name(long f_type) {
  switch (f_type) {
    case PROC_SUPER_MAGIC: return "proc";
    case SYSFS_MAGIC: return "sysfs";
    case CGROUP_SUPER_MAGIC:
    case CGROUP2_SUPER_MAGIC: return "cgroup";
    case DEBUGFS_MAGIC: return "debugfs";
    case TRACEFS_MAGIC: return "tracefs";
    case SECURITYFS_MAGIC: return "securityfs";
    case DEVPTS_SUPER_MAGIC: return "devpts";
    case BPF_FS_MAGIC: return "bpf";
    case PSTOREFS_MAGIC: return "pstore";
    case EFIVARFS_MAGIC: return "efivarfs";
    default: return std::nullopt;
  }
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

void RunInputs::add(std::string option, const std::string& path, FileIdentity id) {
  inputs_.push_back({std::move(option), path, id});
}

void RunInputs::add_planned(std::string option, const std::string& path) {
  if (path.empty()) return;
  if (const auto id = identity_of(folder_of(path))) inputs_.push_back({std::move(option), path, *id, true});
}

void RunInputs::add_planned(std::string option, const std::string& path, FileIdentity folder) {
  inputs_.push_back({std::move(option), path, folder, true});
}

static std::string input_name(const RunInputs::Input& in) {
  // convert's positional input has no option: "the input in.txt".
  return in.option == "input" ? fmt::format("the input {}", in.path) : fmt::format("the input {} {}", in.option, in.path);
}

void RunInputs::check_not_input(const Message& option, const std::string& path) const {
  if (const auto id = identity_of(path)) check_not_input(option, path, *id);
}

void RunInputs::check_not_input(const Message& option, const std::string& path, FileIdentity id) const {
  for (const Input& in : inputs_) {
    if (!in.planned && in.id == id) {
      throw InputError(option + Message(fmt::format(" {} is {} (the same file); an output never replaces an input",
                                                    path, input_name(in))));
    }
  }
}

void RunInputs::check_not_inside(const Message& option, const std::string& dir) const {
  if (const auto folder = identity_of(dir)) check_not_inside(option, dir, *folder);
}

namespace {

std::optional<FileIdentity> identity_of_fd(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  return FileIdentity{st.st_dev, st.st_ino};
}

// The folder the input `in` lies in (for a planned file, the folder it is
// made in), open. The path the kernel resolves for it (canonical) is text,
// so the folder is checked to hold that very input: the same device and
// inode under the last name (or, planned, to be that folder). Invalid when
// the input is no longer where its path leads.
UniqueFd open_folder_of_input(const RunInputs::Input& in) {
  std::error_code ec;
  const fs::path p = fs::canonical(in.planned ? folder_of(in.path) : in.path, ec);
  if (ec) return {};
  UniqueFd dir(::open((in.planned ? p : p.parent_path()).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!dir.valid()) return {};
  if (in.planned) return identity_of_fd(dir.get()) == in.id ? std::move(dir) : UniqueFd();
  struct stat st {};
  if (::fstatat(dir.get(), p.filename().c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      FileIdentity{st.st_dev, st.st_ino} != in.id) {
    return {};
  }
  return dir;
}

}  // namespace

void RunInputs::check_not_inside(const Message& option, const std::string& dir, FileIdentity folder) const {
  for (const Input& in : inputs_) {
    // Walk up from the input's folder (or the folder a planned file goes
    // into) to the root through "..", comparing every folder on the way:
    // the folders the input is in, as the kernel links them, not as a path
    // text names them.
    UniqueFd at = open_folder_of_input(in);
    if (!at.valid()) {
      throw InputError(option +
                       Message(fmt::format(
                           " {}: {} is no longer where its path leads (moved or removed while the run "
                           "started); run again",
                           dir, in.planned ? fmt::format("the folder of {} {}", in.option, in.path) : input_name(in))));
    }
    for (;;) {
      const std::optional<FileIdentity> id = identity_of_fd(at.get());
      if (id && *id == folder) {
        if (in.planned) {
          throw InputError(option +
                           Message(fmt::format(" {} would hold {} {}, which this run creates; write the results into "
                                               "another folder",
                                               dir, in.option, in.path)));
        }
        throw InputError(
            option + Message(fmt::format(" {} holds {}; write the results into another folder", dir, input_name(in))));
      }
      UniqueFd up(::openat(at.get(), "..", O_PATH | O_DIRECTORY | O_CLOEXEC));
      if (!up.valid() || !id || identity_of_fd(up.get()) == id) break;  // the root (its ".." is itself)
      at = std::move(up);
    }
  }
}

std::string folder_name_of(const std::string& path) {
  std::string t = path;
  for (;;) {
    if (t.size() > 1 && t.back() == '/') {
      t.pop_back();
    } else if (t.size() > 2 && t.compare(t.size() - 2, 2, "/.") == 0) {
      t.resize(t.size() - 2);
    } else {
      return t;
    }
  }
}

}  // namespace ftlsim
