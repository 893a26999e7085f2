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
// An existing target may hold only entries a run of this kind writes
// (`own`) and hidden ftlsim staging leftovers: the set is replaced as a
// whole, so anything else in it would be lost, and is refused instead.
#include <string>
#include <vector>

#include "core/io_identity.h"

namespace ftlsim {

// True for the hidden ".NAME.ftlsim-XXXXXX" staging names AtomicFile and
// OutputDir create.
[[nodiscard]] bool is_staging_name(const std::string& name);

class OutputDir {
 public:
  // Every check before the work (check_output_folder and the entries of an
  // existing folder). Throws InputError naming `option` and `path`.
  OutputDir(std::string option, std::string path, std::vector<std::string> own, const RunInputs& inputs);
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  // Removes the staging folder unless published.
  ~OutputDir();

  // The staging folder, created (with the target's missing parents) on the
  // first call. Throws SystemError.
  const std::string& staging();
  // Puts the staged set in place of the target. Throws SystemError (the
  // target then still holds what it held before).
  void publish();
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  void check_entries() const;

  std::string option_;
  std::string path_;
  std::vector<std::string> own_;
  std::string staging_;
  bool published_ = false;
};

}  // namespace ftlsim
