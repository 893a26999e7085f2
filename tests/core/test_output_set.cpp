// Output folders act on the folder that was checked, and delete only what
// an earlier run provably wrote: OutputDir
// resolves its path once and works through the open folder, so
// "link/../results" is one folder from the check to the publish; "symdir/"
// and "symdir/." are the symbolic link they name; an existing folder is
// replaced only when its manifest proves every entry in it.
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "cli/cli_run.h"
#include "core/error.h"
#include "core/in_place_folder.h"
#include "core/io_identity.h"
#include "core/output_dir.h"
#include "core/output_set.h"

namespace fs = std::filesystem;
using Catch::Contains;
using ftlsim::OutputDir;
using ftlsim::test::names_in;
using ftlsim::test::put;
using ftlsim::test::slurp;

namespace {

const std::vector<std::string> kOwn = {"summary.json", "timeseries.csv", "a"};

// Publishes a set of `files` (relative names, "a/x" makes folder a) into `out`.
void publish_set(const std::string& out, const std::vector<std::string>& files, const std::string& text = "set") {
  OutputDir d("--out", out, kOwn, {});
  for (const std::string& f : files) {
    if (f.find('/') != std::string::npos)
      fs::create_directories(d.staging() + "/" + fs::path(f).parent_path().string());
    put(d.staging() + "/" + f, text);
  }
  d.publish();
}

}  // namespace

TEST_CASE("an output path is resolved once: link/../results is one folder throughout", "[core][unit]") {
  const ftlsim::test::TempDir tmp("outdir-dotdot");
  const std::string work = tmp.file("work");
  fs::create_directories(work + "/results");
  fs::create_directories(tmp.file("elsewhere/sub"));
  put(work + "/results/t.ftr", "trace");
  put(work + "/results/notes.txt", "mine");
  fs::create_symlink("../elsewhere/sub", work + "/link");
  // The kernel resolves link/.. to elsewhere: the results go to
  // elsewhere/results, and work/results (which lexical normalisation would
  // name) keeps its files: the check and the publish act on one folder.
  publish_set(work + "/link/../results", {"summary.json"});
  CHECK(names_in(work + "/results") == std::set<std::string>{"t.ftr", "notes.txt"});
  CHECK(slurp(work + "/results/notes.txt") == "mine");
  CHECK(names_in(tmp.file("elsewhere/results")) == std::set<std::string>{"summary.json"});
  CHECK(fs::exists(tmp.file("elsewhere/results") + "/" + ftlsim::kManifestName));
  // Again, replacing that set: still the same folder, work/results untouched.
  publish_set(work + "/link/../results", {"timeseries.csv"});
  CHECK(names_in(tmp.file("elsewhere/results")) == std::set<std::string>{"timeseries.csv"});
  CHECK(fs::exists(tmp.file("elsewhere/results") + "/" + ftlsim::kManifestName));
  CHECK(names_in(work + "/results") == std::set<std::string>{"t.ftr", "notes.txt"});
  // Missing parents below a "..": created where the kernel puts them.
  publish_set(work + "/link/../new/deeper", {"summary.json"});
  CHECK(fs::exists(tmp.file("elsewhere/new/deeper/summary.json")));
  CHECK_FALSE(fs::exists(work + "/new"));
  // The folder a name ending in ".." means is not the one named: refused.
  CHECK_THROWS_WITH(OutputDir("--out", work + "/results/..", kOwn, {}), Contains("not one through '..'"));
}

TEST_CASE("symdir, symdir/ and symdir/. are the same symbolic link, refused", "[core][unit]") {
  const ftlsim::test::TempDir tmp("outdir-symdir");
  const std::string real = tmp.file("real");
  publish_set(real, {"summary.json"});
  fs::create_symlink(real, tmp.file("symdir"));
  for (const std::string suffix : {"", "/", "/.", "/./", "//", "/./."}) {
    INFO(suffix);
    CHECK_THROWS_WITH(OutputDir("--out", tmp.file("symdir") + suffix, kOwn, {}), Contains("is a symbolic link"));
    CHECK_THROWS_WITH(ftlsim::InPlaceFolder("--out", tmp.file("symdir") + suffix, {}), Contains("is a symbolic link"));
  }
  CHECK(names_in(real) == std::set<std::string>{"summary.json"});
  CHECK(fs::exists(real + "/" + ftlsim::kManifestName));
  // A real folder given as "real/." is that folder.
  publish_set(real + "/.", {"timeseries.csv"});
  CHECK(names_in(real) == std::set<std::string>{"timeseries.csv"});
  CHECK(fs::exists(real + "/" + ftlsim::kManifestName));
  CHECK(names_in(tmp.file("")) == std::set<std::string>{"real", "symdir"});
}

TEST_CASE("a run deletes only what an earlier run provably wrote", "[core][unit]") {
  const ftlsim::test::TempDir tmp("outdir-proof");
  const std::string out = tmp.file("out");

  SECTION("a folder named like an output, with someone's file in it") {
    fs::create_directories(out + "/a");
    put(out + "/a/thesis.tex", "years of work");
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("a (not written by ftlsim)"));
    CHECK(slurp(out + "/a/thesis.tex") == "years of work");
  }
  SECTION("a set ftlsim wrote, then a file added to its sub-folder") {
    publish_set(out, {"a/summary.json", "summary.json"});
    put(out + "/a/thesis.tex", "years of work");
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("a/thesis.tex (not written by ftlsim)"));
    CHECK(slurp(out + "/a/thesis.tex") == "years of work");
  }
  SECTION("an output name that is a folder (summary.json/)") {
    fs::create_directories(out + "/summary.json");
    put(out + "/summary.json/keep", "k");
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("summary.json (not written by ftlsim)"));
    // ... also when a manifest lists summary.json as a file.
    publish_set(tmp.file("o2"), {"summary.json"});
    fs::remove(tmp.file("o2/summary.json"));
    fs::create_directories(tmp.file("o2/summary.json"));
    put(tmp.file("o2/summary.json/keep"), "k");
    CHECK_THROWS_WITH(OutputDir("--out", tmp.file("o2"), kOwn, {}),
                      Contains("summary.json (not the file ftlsim wrote)"));
    CHECK(slurp(tmp.file("o2/summary.json/keep")) == "k");
  }
  SECTION("a file ftlsim wrote, changed or replaced since") {
    publish_set(out, {"summary.json", "timeseries.csv"});
    put(out + "/timeseries.csv", "edited by hand");  // same name, same inode, new size
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("timeseries.csv (changed since ftlsim wrote it)"));
    const std::string copy = tmp.file("copy");
    put(copy, "set");  // same size, another inode
    fs::rename(copy, out + "/timeseries.csv");
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("timeseries.csv (changed since ftlsim wrote it)"));
    CHECK(slurp(out + "/timeseries.csv") == "set");
    // Same inode and size, its status changed (a new file under a reused
    // inode number shows the same way).
    publish_set(tmp.file("o3"), {"summary.json"});
    fs::permissions(tmp.file("o3/summary.json"), fs::perms::owner_read, fs::perm_options::replace);
    CHECK_THROWS_WITH(OutputDir("--out", tmp.file("o3"), kOwn, {}),
                      Contains("summary.json (changed since ftlsim wrote it)"));
  }
  SECTION("no manifest: nothing in it is provably ftlsim's") {
    fs::create_directories(out);
    put(out + "/summary.json", "from somewhere else");
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("no earlier ftlsim run provably wrote"));
    CHECK(slurp(out + "/summary.json") == "from somewhere else");
  }
  SECTION("staging-like names and symbolic links inside") {
    fs::create_directories(out + "/.x.ftlsim-y");
    put(out + "/.x.ftlsim-y/data", "d");
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains(".x.ftlsim-y"));
    fs::remove_all(out + "/.x.ftlsim-y");
    publish_set(out, {"summary.json"});
    fs::remove(out + "/summary.json");
    fs::create_symlink(tmp.file("elsewhere"), out + "/summary.json");
    CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("summary.json (not the file ftlsim wrote)"));
  }
  SECTION("an entry named .ftlsim_manifest that ftlsim did not write proves nothing") {
    // A file of the user's, a folder with a user's file in it, a symbolic
    // link: each is refused by name, and removing the set leaves it (they
    // used to pass as "no manifest, nothing else", and the folder was
    // swapped out into a hidden staging folder). FIFOs: test_cli_output_manifest.cpp.
    const std::string m = std::string("/") + ftlsim::kManifestName;
    fs::create_directories(tmp.file("f"));
    put(tmp.file("f") + m, "my notes");
    fs::create_directories(tmp.file("d") + m);
    put(tmp.file("d") + m + "/thesis.tex", "years of work");
    fs::create_directories(tmp.file("l"));
    put(tmp.file("notes"), "my notes");
    fs::create_symlink(tmp.file("notes"), tmp.file("l") + m);
    // ... and a real manifest with a line cut short.
    publish_set(tmp.file("c"), {"summary.json"});
    const std::string text = slurp(tmp.file("c") + m);
    fs::remove(tmp.file("c") + m);
    put(tmp.file("c") + m, text.substr(0, text.size() - 3));
    const int parent = ::open(tmp.file("").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(parent >= 0);
    for (const auto& [dir, why] :
         std::vector<std::pair<std::string, std::string>>{{"f", "not a manifest ftlsim wrote"},
                                                          {"d", "a folder"},
                                                          {"l", "a symbolic link"},
                                                          {"c", "not a manifest ftlsim wrote"}}) {
      INFO(dir);
      CHECK_THROWS_WITH(OutputDir("--out", tmp.file(dir), kOwn, {}),
                        Contains(std::string(ftlsim::kManifestName) + " (" + why));
      CHECK_FALSE(ftlsim::remove_written_set(parent, dir));
      CHECK(fs::exists(fs::symlink_status(tmp.file(dir) + m)));
    }
    ::close(parent);
    CHECK(slurp(tmp.file("f") + m) == "my notes");
    CHECK(slurp(tmp.file("d") + m + "/thesis.tex") == "years of work");
    CHECK(fs::is_symlink(tmp.file("l") + m));
    CHECK(fs::exists(tmp.file("c/summary.json")));
  }
  SECTION("a proven set is replaced, and an empty folder is taken") {
    publish_set(out, {"a/summary.json", "summary.json"}, "old");
    publish_set(out, {"timeseries.csv"}, "new");
    CHECK(names_in(out) == std::set<std::string>{"timeseries.csv"});
    CHECK(fs::exists(out + "/" + ftlsim::kManifestName));
    CHECK(names_in(tmp.file("")) == std::set<std::string>{"out"});
    fs::create_directories(tmp.file("empty"));
    publish_set(tmp.file("empty"), {"summary.json"});
    CHECK(names_in(tmp.file("empty")) == std::set<std::string>{"summary.json"});
    CHECK(fs::exists(tmp.file("empty") + "/" + ftlsim::kManifestName));
  }
}

TEST_CASE("removing a set leaves every entry its manifest does not prove", "[core][unit]") {
  const ftlsim::test::TempDir tmp("outdir-remove");
  const std::string out = tmp.file("out");
  publish_set(out, {"a/summary.json", "summary.json", "timeseries.csv"});
  // Someone adds a file to the sub-folder and edits another after the check.
  put(out + "/a/thesis.tex", "mine");
  put(out + "/timeseries.csv", "edited");
  const int parent = ::open(tmp.file("").c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  REQUIRE(parent >= 0);
  CHECK_FALSE(ftlsim::remove_written_set(parent, "out"));
  ::close(parent);
  // Removed: the proven summary.json files; kept: the rest, and the folders holding them.
  CHECK(names_in(out) == std::set<std::string>{"a", "timeseries.csv"});
  CHECK(fs::exists(out + "/" + ftlsim::kManifestName));
  CHECK(names_in(out + "/a") == std::set<std::string>{"thesis.tex"});
  CHECK(slurp(out + "/timeseries.csv") == "edited");
}

TEST_CASE("mount points inside or at an output folder are never replaced (root)", "[core][unit]") {
  if (::geteuid() != 0) {
    WARN("skipped: bind mounts need root");
    return;
  }
  const ftlsim::test::TempDir tmp("outdir-mounts");
  const std::string out = tmp.file("out"), other = tmp.file("other");
  fs::create_directories(other);
  put(other + "/keep", "k");
  publish_set(out, {"summary.json", "a/summary.json"});
  // A bind mount at out/a (a name the run writes) and at out itself.
  fs::remove(out + "/a/summary.json");
  if (::mount(other.c_str(), (out + "/a").c_str(), nullptr, MS_BIND, nullptr) != 0) {
    WARN("skipped: cannot bind-mount here");
    return;
  }
  CHECK_THROWS_WITH(OutputDir("--out", out, kOwn, {}), Contains("a (a mount point)"));
  ::umount((out + "/a").c_str());
  fs::create_directories(tmp.file("mnt"));
  REQUIRE(::mount(other.c_str(), tmp.file("mnt").c_str(), nullptr, MS_BIND, nullptr) == 0);
  CHECK_THROWS_WITH(OutputDir("--out", tmp.file("mnt"), kOwn, {}), Contains("is a mount point"));
  ::umount(tmp.file("mnt").c_str());
  CHECK(slurp(other + "/keep") == "k");
  CHECK(names_in(other) == std::set<std::string>{"keep"});
}
