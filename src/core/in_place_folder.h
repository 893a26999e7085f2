#pragma once
// An output folder a run writes into in place, entry by entry, and that a
// later run finds again: a sweep's --out (sweep.csv and one folder per
// configuration, resumed across runs). Unlike OutputDir (output_dir.h) it is
// never replaced as a whole.
//
// The path is resolved once, by the kernel, when the InPlaceFolder is made:
// the folder (or, while it is absent, its nearest existing ancestor) is
// opened, and every later check, read, creation and write goes through that
// open folder, so "link/../results" means one folder throughout, even if the
// link is changed while the run goes on. A trailing "/" or "/." is dropped
// first, so "symdir/" and "symdir/." are the symbolic link "symdir"
// (refused) as "symdir" is.
#include <optional>
#include <string>

#include "core/dir_fd.h"
#include "core/io_identity.h"

namespace ftlsim {

class InPlaceFolder {
 public:
  // Every check before the work: the folder is not a symbolic link, is a
  // folder if it exists, is on a disk (not /proc, sysfs, ...), can be
  // written, and holds none of `inputs`. Throws InputError naming `option`
  // and `path`.
  InPlaceFolder(std::string option, std::string path, const RunInputs& inputs);

  // The open folder, or -1 while it does not exist.
  [[nodiscard]] int fd() const { return dir_.get(); }
  // Creates the folder and its missing parents through the ancestor opened
  // at construction (nothing when it exists) and returns fd(). Throws
  // SystemError, also when the folder appeared meanwhile (it was not checked).
  int create();
  // The path as given, for messages.
  [[nodiscard]] const std::string& path() const { return path_; }
  // "/proc/self/fd/N/NAME" (dir_fd.h fd_path): the entry NAME of the open
  // folder, for code that takes path text. REQUIRES fd() >= 0.
  [[nodiscard]] std::string entry(const std::string& name) const;
  // `message` with the open folder's /proc/self/fd/N text replaced by path().
  [[nodiscard]] std::string shown_error(std::string message) const;

  // Where the open folder went when its path no longer leads to it (it was
  // renamed, removed or replaced while the run went on): what the path names
  // now ("absent", "another folder", "a regular file", ...) and the open
  // folder's path now, as the kernel tells it (/proc/self/fd/N). nullopt
  // while the path still leads to it, or before the folder exists. For
  // messages only: nothing is done through the path.
  struct Moved {
    std::string now;
    std::string where;
  };
  [[nodiscard]] std::optional<Moved> moved() const;

 private:
  std::string option_;
  std::string path_;
  std::string name_;     // the folder's name in its parent
  ParentFolder parent_;  // its parent, or the nearest existing ancestor
  UniqueFd dir_;
};

}  // namespace ftlsim
