#pragma once
// An output folder that always holds one run's complete set of files or is
// left as it was. The run writes into a fresh staging folder beside the
// target (".NAME.ftlsim-XXXXXX", mkdtemp) and publish() renames it into
// place: atomically (RENAME_NOREPLACE) when the target is absent, else by
// exchanging the two (RENAME_EXCHANGE) and removing the old set. A run that
// fails or is interrupted before publish() leaves the target untouched (the
// staging folder is removed, or, after a crash, stays as a hidden
// ".ftlsim-" folder that no one takes for a result).
//
// The path is resolved once, by the kernel, when the OutputDir is made: its
// folder is opened, and every later check, creation, rename and removal is
// relative to that open folder (openat, mkdirat, renameat2, unlinkat), so
// "link/../results" means one folder throughout. A trailing "/" or "/." is
// dropped first, so "symdir/" and "symdir/." are the symbolic link "symdir"
// (refused) as "symdir" is.
//
// An existing target may hold only entries a run of this kind writes
// (`own`), each proven by the folder's manifest (core/output_set.h): the
// old set is removed entry by entry, and only what the manifest proves.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "core/dir_fd.h"
#include "core/error.h"
#include "core/io_identity.h"

namespace ftlsim {

// True for the hidden ".NAME.ftlsim-XXXXXX" staging names AtomicFile and
// OutputDir create.
[[nodiscard]] bool is_staging_name(const std::string& name);

class OutputDir {
 public:
  // Every check before the work. Throws InputError naming `option` and `path`.
  OutputDir(Message option, std::string path, std::vector<std::string> own, const RunInputs& inputs);
  // The folder `name` inside the open folder `parent_fd` (duplicated: the
  // caller may close its own), shown as "PARENT_SHOWN/NAME" in messages;
  // the path text is never opened again.
  OutputDir(Message option, int parent_fd, const std::string& parent_shown, std::string name,
            std::vector<std::string> own, const RunInputs& inputs);
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  // Removes the staging folder unless published.
  ~OutputDir();

  // The staging folder as a path that leads to the open folder itself
  // (core/dir_fd.h fd_path), created (with the target's missing parents)
  // on the first call. Throws SystemError.
  const std::string& staging();
  // Runs `write(staging())`. A SystemError it throws (disk full, ...) is
  // thrown again naming the staging folder where the user finds it
  // ("PARENT/.NAME.ftlsim-XXXXXX"), not as /proc/self/fd/N.
  template <typename F>
  void write(F&& write) {
    try {
      write(staging());
    } catch (const SystemError& e) {
      throw SystemError(shown_error(e.message()));
    }
  }
  // `message` with the staging path text replaced as write() does.
  [[nodiscard]] Message shown_error(const Message& message) const;
  // Puts the staged set in place of the target. Throws SystemError (the
  // target then still holds what it held before).
  void publish();
  [[nodiscard]] const std::string& path() const { return path_; }
  // The file system the results go to: that of the folder resolved at
  // construction (the target's folder, or its nearest existing ancestor).
  [[nodiscard]] dev_t device() const;
  // The text of the regular file `entry` ("summary.json", "a/summary.json")
  // in the existing target, read through the folder resolved at
  // construction, following no symbolic link; nullopt when the target or
  // the entry is absent or the entry is not a regular file. Throws
  // SystemError when it cannot be read.
  [[nodiscard]] std::optional<std::string> existing_text(const std::string& entry) const;
  // Whether the existing target holds `entry` as a regular file (opened as
  // existing_text() opens it, nothing read).
  [[nodiscard]] bool holds_file(const std::string& entry) const;

 private:
  void check_existing(int dir) const;
  // `entry` of the existing target opened as existing_text() says (no fd: absent or not a regular file).
  [[nodiscard]] RegularFileAt open_existing(const std::string& entry) const;
  void check_target(const RunInputs& inputs);
  void open_parent();
  [[nodiscard]] std::string shown(const std::string& entry) const;

  Message option_;
  std::string path_;
  std::vector<std::string> own_;
  std::string parent_text_;           // the folder part of the path as given ("" for a bare name)
  std::string name_;                  // the target's name in its folder
  UniqueFd base_;                     // the target's folder, or its nearest existing ancestor
  std::vector<std::string> missing_;  // folders to create below base_ to reach the target's folder
  UniqueFd parent_;                   // the target's folder, once it exists
  std::string staging_name_;
  UniqueFd staging_fd_;
  std::string staging_;
  bool published_ = false;
};

}  // namespace ftlsim
