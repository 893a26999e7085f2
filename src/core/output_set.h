#pragma once
// What an output folder's earlier run provably wrote. Every folder ftlsim
// publishes carries a manifest (kManifestName) listing each file it wrote,
// with its inode, size and change time, and each sub-folder. A later run
// replaces or removes such a folder only when every entry in it is one the
// manifest lists, of the same type, inode, size and change time, on the
// folder's own file system and not a mount point: anything else (a file the
// user added or changed, a folder named like an output, a bind mount, a
// ".x.ftlsim-y" name, a folder without a manifest) is someone else's and is
// never deleted. Everything works on open folders (openat/unlinkat), never
// on path text.
#include <string>
#include <vector>

namespace ftlsim {

// Hidden, and not a staging name (is_staging_name() is false for it).
inline constexpr const char* kManifestName = ".ftlsim_manifest";

// Writes the manifest of the folder `dir` (an open folder holding what this
// run wrote, nothing else), naming everything in it at any depth. `shown`
// names the folder in messages. Throws SystemError.
void write_manifest(int dir, const std::string& shown);

// The entries of the open folder `dir` that its manifest does not prove
// this program wrote, each as "NAME (why)", at any depth; empty when the
// whole folder may go (an empty folder included).
[[nodiscard]] std::vector<std::string> unproven_entries(int dir);

// The same for the entry `name` of the open folder `parent`, which must
// itself be a folder on the same file system, not a mount point; each
// finding is "NAME/ENTRY (why)" or "NAME (why)".
[[nodiscard]] std::vector<std::string> unproven_folder(int parent, const std::string& name);

// True when the folder `name` in `parent` still holds everything its
// manifest lists: every entry present, of its type, and each file of its
// inode, size and change time (a sweep's configuration is carried over only
// then: a result file deleted or replaced makes it run again; a file the
// user added beside them changes nothing).
[[nodiscard]] bool written_set_intact(int parent, const std::string& name);

// Removes from the folder `name` in `parent` (never a mount point) every entry its manifest
// proves, at any depth, then the manifest and the folder once empty.
// Anything else stays. Returns true when the folder is gone.
bool remove_written_set(int parent, const std::string& name);

// Removes the staging folder `name` in `parent` that this process made
// (mkdtemp) and alone wrote into, when the run did not publish it: its
// files and folders on its own file system, never a mount point in it.
// Returns true when it is gone.
bool remove_staging_folder(int parent, const std::string& name);

}  // namespace ftlsim
