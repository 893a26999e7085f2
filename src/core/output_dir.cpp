#include "core/output_dir.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>  // renameat2, RENAME_NOREPLACE, RENAME_EXCHANGE (glibc 2.28+)
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/error.h"
#include "core/output_set.h"

namespace ftlsim {
namespace {

std::string entries_text(const std::vector<std::string>& names) {
  return fmt::format("{} entr{}: {}{}", names.size(), names.size() == 1 ? "y" : "ies", names.front(),
                     names.size() > 1 ? ", ..." : "");
}

}  // namespace

bool is_staging_name(const std::string& name) {
  return name.size() > 1 && name[0] == '.' && name.find(".ftlsim-") != std::string::npos;
}

OutputDir::OutputDir(Message option, std::string path, std::vector<std::string> own, const RunInputs& inputs)
    : option_(std::move(option)), path_(std::move(path)), own_(std::move(own)) {
  if (path_.empty()) throw InputError(option_ + Message(": the output folder is empty"));
  const std::string text = folder_name_of(path_);
  const size_t slash = text.rfind('/');
  name_ = slash == std::string::npos ? text : text.substr(slash + 1);
  parent_text_ = slash == std::string::npos ? std::string() : slash == 0 ? std::string("/") : text.substr(0, slash);
  if (name_.empty() || text == "/") {
    throw InputError(option_ + Message(fmt::format(" {}: give a folder below the root", path_)));
  }
  if (name_ == "." || name_ == "..") {
    // The folder is swapped out at the end: it must not hold the current
    // folder, which would then be removed under the user's shell.
    if (parent_text_.empty()) {
      throw InputError(option_ +
                       say(" {} is (or holds) the current folder; give a folder beside it, e.g. `out` results", path_));
    }
    throw InputError(option_ + Message(fmt::format(" {}: name the folder itself, not one through '..'", path_)));
  }
  open_parent();
  check_target(inputs);
}

OutputDir::OutputDir(Message option, int parent_fd, const std::string& parent_shown, std::string name,
                     std::vector<std::string> own, const RunInputs& inputs)
    : option_(std::move(option)),
      path_(parent_shown + "/" + name),
      own_(std::move(own)),
      parent_text_(parent_shown),
      name_(std::move(name)) {
  if (name_.empty() || name_ == "." || name_ == ".." || name_.find('/') != std::string::npos) {
    throw InputError(option_ + Message(fmt::format(" {}: not a folder name", path_)));
  }
  base_ = UniqueFd(::fcntl(parent_fd, F_DUPFD_CLOEXEC, 0));
  if (!base_.valid()) {
    throw system_error_from_errno(option_ + Message(fmt::format(" {}: cannot open its folder", path_)));
  }
  check_target(inputs);
}

void OutputDir::check_target(const RunInputs& inputs) {
  inputs.check_resolved(option_, path_);
  const auto refuse_folder = [&](const std::string& why) {
    throw InputError(option_ + Message(fmt::format(" {}: its folder is {}; give a folder on a disk", path_, why)));
  };
  // A kernel file system first: what its names are says nothing useful.
  if (pseudo_fs_of(base_.get())) refuse_folder(*no_outputs_in(base_.get()));
  // What the name is now (when its folder exists): a link or a non-folder is
  // refused as what it is, a device node in /dev included.
  struct stat st {};
  bool exists = false;
  if (missing_.empty()) {
    if (::fstatat(base_.get(), name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0) {
      exists = true;
    } else if (errno != ENOENT) {
      throw InputError(option_ + Message(fmt::format(" {}: cannot stat ({})", path_, std::strerror(errno))));
    }
  }
  if (exists && S_ISLNK(st.st_mode)) {
    throw InputError(option_ + Message(fmt::format(" {} is a symbolic link; give the folder it points to", path_)));
  }
  if (exists && !S_ISDIR(st.st_mode)) {
    throw InputError(option_ +
                     Message(fmt::format(" {} exists and is {}, not a folder", path_, file_type_name(st.st_mode))));
  }
  if (const auto why = no_outputs_in(base_.get())) refuse_folder(*why);  // devtmpfs
  if (::faccessat(base_.get(), ".", W_OK | X_OK, 0) != 0) {
    throw InputError(option_ + Message(fmt::format(" {}: cannot write into {} ({})", path_,
                                                   parent_text_.empty() ? "." : parent_text_, std::strerror(errno))));
  }
  if (!missing_.empty()) {
    // The folder and its parents are made by staging(): the first of them
    // must not be a file the run is about to create (replay --create).
    struct stat base {};
    if (::fstat(base_.get(), &base) == 0) {
      for (const RunInputs::Input& in : inputs.inputs()) {
        if (in.planned && in.id == FileIdentity{base.st_dev, base.st_ino} &&
            std::filesystem::path(in.path).filename() == missing_.front()) {
          throw InputError(option_ +
                           Message(fmt::format(" {} would be made inside {} {}, a file this run creates; write the "
                                               "results into another folder",
                                               path_, in.option, in.path)));
        }
      }
    }
    return;
  }
  if (!exists) return;
  const UniqueFd dir = open_subfolder(base_.get(), name_);
  if (!dir.valid()) {
    throw InputError(option_ + Message(fmt::format(" {}: cannot open ({})", path_, std::strerror(errno))));
  }
  inputs.check_not_inside(option_, path_, FileIdentity{st.st_dev, st.st_ino});
  check_existing(dir.get());
}

dev_t OutputDir::device() const {
  struct stat st {};
  if (::fstat(parent_.valid() ? parent_.get() : base_.get(), &st) != 0) {
    throw system_error_from_errno(fmt::format("{}: fstat", path_));
  }
  return st.st_dev;
}

RegularFileAt OutputDir::open_existing(const std::string& entry) const {
  if (!missing_.empty() || !base_.valid()) return {};
  UniqueFd dir = open_subfolder(base_.get(), name_);
  // "a/summary.json": each folder on the way opened without following links.
  std::string file_name = entry;
  for (size_t slash = file_name.find('/'); dir.valid() && slash != std::string::npos; slash = file_name.find('/')) {
    dir = open_subfolder(dir.get(), file_name.substr(0, slash));
    file_name.erase(0, slash + 1);
  }
  if (!dir.valid()) return {};
  // Never through a symbolic link, never a device's open, never waiting on a FIFO.
  return open_regular_at(dir.get(), file_name);
}

bool OutputDir::holds_file(const std::string& entry) const { return open_existing(entry).fd.valid(); }

std::optional<std::string> OutputDir::existing_text(const std::string& entry) const {
  const RegularFileAt file = open_existing(entry);
  if (!file.fd.valid()) return std::nullopt;
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(file.fd.get(), buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError(option_ + Message(fmt::format(" {}: cannot read {} ({})", path_, entry, std::strerror(errno))));
    }
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

void OutputDir::open_parent() {
  ParentFolder parent = open_parent_folder(option_, path_, parent_text_);
  base_ = std::move(parent.base);
  missing_ = std::move(parent.missing);
}

void OutputDir::check_existing(int dir) const {
  struct stat st {
  }, parent{};
  struct statx sx {};
  if (::fstat(dir, &st) != 0 || ::fstat(base_.get(), &parent) != 0 ||
      ::statx(dir, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx) != 0) {
    throw InputError(option_ + Message(fmt::format(" {}: cannot stat ({})", path_, std::strerror(errno))));
  }
  if (st.st_dev != parent.st_dev ||
      ((sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0 && (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0)) {
    throw InputError(option_ +
                     Message(fmt::format(" {} is a mount point; a run replaces its output folder as a whole, which a "
                                         "mount point cannot be: give a folder inside it",
                                         path_)));
  }
  const FileIdentity out_id{st.st_dev, st.st_ino};
  std::error_code ec;
  for (std::filesystem::path p = std::filesystem::current_path(ec); !ec && !p.empty(); p = p.parent_path()) {
    if (identity_of(p.string()) == out_id) {
      throw InputError(option_ +
                       say(" {} is (or holds) the current folder; give a folder beside it, e.g. `out` results", path_));
    }
    if (p == p.root_path()) break;
  }
  if (::faccessat(dir, ".", W_OK | X_OK, 0) != 0) {
    throw InputError(option_ + Message(fmt::format(" {}: cannot write into it ({})", path_, std::strerror(errno))));
  }
  // Names this kind of run never writes.
  const std::vector<std::string> unproven = unproven_entries(dir);
  std::vector<std::string> foreign;
  for (const std::string& e : unproven) {
    const std::string name = e.substr(0, e.find_first_of("/ "));
    if (name != kManifestName && std::find(own_.begin(), own_.end(), name) == own_.end() &&
        std::find(foreign.begin(), foreign.end(), name) == foreign.end()) {
      foreign.push_back(name);
    }
  }
  if (!foreign.empty()) {
    throw InputError(
        option_ +
        Message(fmt::format(
            " {} holds {} entr{} this run does not write ({}{}); a run replaces its output folder as a whole, so "
            "give a new or empty folder",
            path_, foreign.size(), foreign.size() == 1 ? "y" : "ies", foreign.front(),
            foreign.size() > 1 ? ", ..." : "")));
  }
  // Names it writes, but not provably by an earlier run.
  if (!unproven.empty()) {
    throw InputError(option_ + Message(fmt::format(
                                   " {} holds {} that no earlier ftlsim run provably wrote (a run deletes only "
                                   "the files its folder's manifest {} lists, unchanged); give a new or empty folder",
                                   path_, entries_text(unproven), kManifestName)));
  }
}

std::string OutputDir::shown(const std::string& entry) const {
  if (parent_text_.empty()) return entry;
  return parent_text_ == "/" ? "/" + entry : parent_text_ + "/" + entry;
}

Message OutputDir::shown_error(const Message& message) const {
  if (staging_.empty()) return message;
  return message.replaced(staging_, shown(staging_name_));
}

OutputDir::~OutputDir() {
  if (!published_ && !staging_name_.empty()) remove_staging_folder(base_.get(), staging_name_);
}

const std::string& OutputDir::staging() {
  if (!staging_.empty()) return staging_;
  ParentFolder parent{std::move(base_), std::move(missing_)};
  make_missing_folders(parent, path_);
  base_ = std::move(parent.base);
  missing_.clear();
  // ".NAME.ftlsim-XXXXXX" and its "-old" must fit NAME_MAX (255): a long
  // NAME is shortened in the staging name (the folder keeps its own).
  std::string name = fmt::format("{}/.{}.ftlsim-XXXXXX", fd_path(base_.get()), staging_stem(name_));
  if (::mkdtemp(name.data()) == nullptr) {
    throw system_error_from_errno(
        fmt::format("cannot create a staging folder in {} for {}", parent_text_.empty() ? "." : parent_text_, path_));
  }
  staging_name_ = name.substr(name.rfind('/') + 1);
  staging_fd_ = open_subfolder(base_.get(), staging_name_);
  if (!staging_fd_.valid()) throw system_error_from_errno(fmt::format("cannot open {}", shown(staging_name_)));
  ::fchmod(staging_fd_.get(), 0777 & ~process_umask());  // mkdtemp made it 0700
  staging_ = fd_path(staging_fd_.get());
  return staging_;
}

void OutputDir::publish() {
  staging();
  const std::string from = shown(staging_name_);
  write_manifest(staging_fd_.get(), from);
  const int dir = base_.get();
  if (::renameat2(dir, staging_name_.c_str(), dir, name_.c_str(), RENAME_NOREPLACE) == 0) {
    published_ = true;
    return;
  }
  if (errno == EINVAL) {
    // No RENAME_NOREPLACE on this file system: rename() onto an absent name.
    struct stat st {};
    if (::fstatat(dir, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 &&
        ::renameat(dir, staging_name_.c_str(), dir, name_.c_str()) == 0) {
      published_ = true;
      return;
    }
  } else if (errno != EEXIST && errno != ENOTEMPTY) {
    published_ = true;  // keep the staging folder: it holds the only copy of the results
    throw system_error_from_errno(fmt::format("cannot rename {} to {} (the results are in {})", from, path_, from));
  }
  // The target exists: it must still be a folder of this run's kind.
  struct stat st {};
  UniqueFd old;
  if (::fstatat(dir, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
    old = open_subfolder(dir, name_);
  if (!old.valid()) {
    published_ = true;
    throw SystemError(option_ + Message(fmt::format(" {} changed while the run went on (now {}); the results are in {}",
                                                    path_, file_type_name(st.st_mode), from)));
  }
  try {
    check_existing(old.get());
  } catch (const InputError& e) {
    published_ = true;  // keep the staging folder: it holds the only copy of the results
    throw SystemError(e.message() + Message(fmt::format("; the results are in {}", from)));
  }
  if (::renameat2(dir, staging_name_.c_str(), dir, name_.c_str(), RENAME_EXCHANGE) == 0) {
    published_ = true;
    remove_written_set(dir, staging_name_);  // the old set now has the staging name
    return;
  }
  if (errno != EINVAL) {
    published_ = true;  // keep the staging folder: it holds the only copy of the results
    throw system_error_from_errno(fmt::format("cannot exchange {} and {} (the results are in {})", from, path_, from));
  }
  // No RENAME_EXCHANGE: move the old set aside, the new one in, then drop the old.
  const std::string aside = staging_name_ + "-old";
  published_ = true;
  if (::renameat(dir, name_.c_str(), dir, aside.c_str()) != 0) {
    throw system_error_from_errno(fmt::format("cannot move {} aside (the results are in {})", path_, from));
  }
  if (::renameat(dir, staging_name_.c_str(), dir, name_.c_str()) != 0) {
    const SystemError e =
        system_error_from_errno(fmt::format("cannot rename {} to {} (the results are in {})", from, path_, from));
    ::renameat(dir, aside.c_str(), dir, name_.c_str());
    throw e;
  }
  remove_written_set(dir, aside);
}

}  // namespace ftlsim
