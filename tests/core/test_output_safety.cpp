// Output files and folders: AtomicFile
// never writes through a name planted beside its target, publishes without
// replacing unless asked, and never replaces anything but a regular file;
// an OutputFile is checked in the folder it opened, which is the folder the
// AtomicFile writes into, and the commit checks the name there again;
// RunInputs compares by device and inode; OutputDir swaps in one complete
// set and leaves the old one when the run fails.
#include <sys/stat.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "cli/cli_run.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "core/in_place_folder.h"
#include "core/io_identity.h"
#include "core/output_dir.h"

namespace fs = std::filesystem;
using Catch::Contains;
using ftlsim::Existing;
using ftlsim::test::names_in;
using ftlsim::test::put;
using ftlsim::test::slurp;

namespace {}  // namespace

TEST_CASE("a symbolic link planted at the old temporary name is never written through", "[core][unit]") {
  const ftlsim::test::TempDir tmp("atomic-symlink");
  const std::string victim = tmp.file("victim.txt");
  put(victim, "precious");
  const std::string out = tmp.file("out.csv");
  // The name the old code wrote to: "<path>.tmp.<pid>", opened with fopen("wb").
  fs::create_symlink(victim, out + ".tmp." + std::to_string(::getpid()));
  ftlsim::write_file_atomically(out, "result\n");
  CHECK(slurp(victim) == "precious");
  CHECK(slurp(out) == "result\n");
  // Nothing else left beside it: the planted link, the victim, the output.
  CHECK(names_in(tmp.file("")).size() == 3);
}

TEST_CASE("publishing without replace is atomic: of two writers one wins, the other is refused", "[core][unit]") {
  const ftlsim::test::TempDir tmp("atomic-race");
  const std::string out = tmp.file("same.ftr");
  // Both pass the constructor's exists check before either commits (the
  // window two concurrent `convert -o same.ftr` had).
  ftlsim::AtomicFile first(out);
  ftlsim::AtomicFile second(out);
  first.write("first");
  second.write("second");
  first.commit();
  CHECK_THROWS_WITH(second.commit(), Contains(out + ": already exists"));
  CHECK(slurp(out) == "first");
  CHECK(names_in(tmp.file("")) == std::set<std::string>{"same.ftr"});
  // With replace, the finished file goes over the old one.
  ftlsim::write_file_atomically(out, "third", Existing::kReplace);
  CHECK(slurp(out) == "third");
}

TEST_CASE("an output is a regular file or absent: nothing else is replaced, --force or not", "[core][unit]") {
  const ftlsim::test::TempDir tmp("atomic-types");
  const std::string fifo = tmp.file("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0644) == 0);
  const std::string target = tmp.file("target.txt");
  put(target, "kept");
  const std::string link = tmp.file("link");
  fs::create_symlink(target, link);
  const std::string dir = tmp.file("dir");
  fs::create_directory(dir);
  for (const auto& [path, kind] : {std::pair{fifo, "a FIFO"},
                                   {link, "a symbolic link"},
                                   {dir, "a folder"},
                                   {std::string("/dev/null"), "a character device"}}) {
    INFO(path);
    CHECK_THROWS_WITH(ftlsim::write_file_atomically(path, "x", Existing::kReplace), Contains(kind));
    CHECK_THROWS_WITH((void)ftlsim::open_output_file("-o", path, true, {}), Contains("-o " + path + " is " + kind));
  }
  CHECK(fs::is_fifo(fifo));
  CHECK(fs::is_symlink(link));
  CHECK(slurp(target) == "kept");
  struct stat st {};
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  CHECK_THROWS_WITH((void)ftlsim::open_output_file("-o", target, false, {}), Contains("already exists (use `force`"));
  (void)ftlsim::open_output_file("-o", target, true, {});  // a regular file with --force: fine
  CHECK_THROWS_WITH((void)ftlsim::open_output_file("-o", tmp.file("none/x.ftr"), false, {}),
                    Contains("does not exist"));
}

TEST_CASE("inputs are compared by device and inode", "[core][unit]") {
  const ftlsim::test::TempDir tmp("inputs");
  const std::string trace = tmp.file("t.ftr");
  put(trace, "trace");
  fs::create_hard_link(trace, tmp.file("hard.ftr"));
  fs::create_symlink(trace, tmp.file("soft.ftr"));
  fs::create_directories(tmp.file("sub"));
  ftlsim::RunInputs inputs;
  inputs.add("--trace", tmp.file("soft.ftr"));
  inputs.add("--pid-map", tmp.file("missing.txt"));  // absent: nothing to protect
  for (const std::string& name : {trace, tmp.file("hard.ftr"), tmp.file("sub/../t.ftr")}) {
    CHECK_THROWS_WITH(inputs.check_not_input("-o", name), Contains("is the input --trace"));
  }
  inputs.check_not_input("-o", tmp.file("other.ftr"));
  CHECK_THROWS_WITH((void)ftlsim::open_output_file("-o", tmp.file("hard.ftr"), true, inputs), Contains("is the input"));
  // A folder holding an input, at any depth.
  CHECK_THROWS_WITH(inputs.check_not_inside("--out", tmp.file("")), Contains("holds the input --trace"));
  CHECK_THROWS_WITH(ftlsim::InPlaceFolder("--out", tmp.file("sub/.."), inputs), Contains("holds the input"));
  (void)ftlsim::InPlaceFolder("--out", tmp.file("sub"), inputs);
  (void)ftlsim::InPlaceFolder("--out", tmp.file("new/deeper"), inputs);  // absent: its parents may be created
  CHECK_THROWS_WITH(ftlsim::InPlaceFolder("--out", trace, inputs), Contains("not a folder"));
  CHECK_THROWS_WITH(ftlsim::InPlaceFolder("--out", tmp.file("soft.ftr"), inputs), Contains("symbolic link"));

  // The folders an input lies in are those the kernel links it into, not
  // those its path names later: recorded through link -> out/, then link
  // turned to elsewhere/. A walk up from the path's text would look in
  // elsewhere/ and let out/ be replaced with the input in it.
  fs::create_directories(tmp.file("out"));
  fs::create_directories(tmp.file("elsewhere"));
  put(tmp.file("out/in.ftr"), "in");
  put(tmp.file("elsewhere/in.ftr"), "other");
  fs::create_symlink("out", tmp.file("link"));
  ftlsim::RunInputs moved;
  moved.add("--trace", tmp.file("link/in.ftr"));
  CHECK_THROWS_WITH(moved.check_not_inside("--out", tmp.file("out")), Contains("holds the input --trace"));
  fs::remove(tmp.file("link"));
  fs::create_symlink("elsewhere", tmp.file("link"));
  CHECK_THROWS_WITH(moved.check_not_inside("--out", tmp.file("out")), Contains("is no longer where its path leads"));
  CHECK_THROWS_WITH(ftlsim::OutputDir("--out", tmp.file("out"), {"in.ftr"}, moved), Contains("no longer where"));
  CHECK(slurp(tmp.file("out/in.ftr")) == "in");
}

TEST_CASE("an output folder is replaced as one set, or left as it was", "[core][unit]") {
  const ftlsim::test::TempDir tmp("outdir");
  const std::string out = tmp.file("run");
  const std::vector<std::string> own = {"summary.json", "timeseries.csv", "events.csv"};
  {
    ftlsim::OutputDir d("--out", out, own, {});
    CHECK_FALSE(fs::exists(out));
    put(d.staging() + "/summary.json", "old summary");
    put(d.staging() + "/timeseries.csv", "old series");
    put(d.staging() + "/events.csv", "old events");
    d.publish();
  }
  REQUIRE(names_in(out) == std::set<std::string>{"summary.json", "timeseries.csv", "events.csv"});

  // A run that fails half-way leaves the old set, and no staging folder.
  {
    ftlsim::OutputDir d("--out", out, own, {});
    put(d.staging() + "/summary.json", "new summary");
  }
  CHECK(slurp(out + "/summary.json") == "old summary");
  CHECK(names_in(tmp.file("")) == std::set<std::string>{"run"});

  // A complete run without events.csv: the old events.csv does not survive.
  {
    ftlsim::OutputDir d("--out", out + "/", own, {});
    put(d.staging() + "/summary.json", "new summary");
    put(d.staging() + "/timeseries.csv", "new series");
    d.publish();
  }
  CHECK(names_in(out) == std::set<std::string>{"summary.json", "timeseries.csv"});
  CHECK(slurp(out + "/summary.json") == "new summary");
  CHECK(names_in(tmp.file("")) == std::set<std::string>{"run"});

  // Anything this kind of run does not write makes the folder someone else's.
  put(out + "/notes.txt", "mine");
  CHECK_THROWS_WITH(ftlsim::OutputDir("--out", out, own, {}),
                    Contains("holds 1 entry this run does not write (notes.txt)"));
  CHECK(slurp(out + "/notes.txt") == "mine");
  // Swapping out the current folder would leave the shell in a removed one.
  CHECK_THROWS_WITH(ftlsim::OutputDir("--out", ".", own, {}), Contains("is (or holds) the current folder"));
}

TEST_CASE("an in-place output folder is resolved once: a link changed afterwards changes nothing", "[core][unit]") {
  const ftlsim::test::TempDir tmp("inplace-once");
  const std::string work = tmp.file("work");
  fs::create_directories(work + "/results");
  fs::create_directories(tmp.file("elsewhere/sub"));
  fs::create_directories(tmp.file("other/sub"));
  put(work + "/results/notes.txt", "x");
  const auto point_link_to = [&](const std::string& target) {
    fs::remove(work + "/link");
    fs::create_symlink(target, work + "/link");
  };
  point_link_to("../elsewhere/sub");
  // Absent, with a missing parent: made where link/.. led when it was checked.
  ftlsim::InPlaceFolder absent("--out", work + "/link/../res/deeper", {});
  CHECK(absent.fd() < 0);
  point_link_to("../other/sub");
  REQUIRE(absent.create() >= 0);
  put(absent.entry("sweep.csv"), "a");
  CHECK(slurp(tmp.file("elsewhere/res/deeper/sweep.csv")) == "a");
  CHECK_FALSE(fs::exists(tmp.file("other/res")));
  CHECK(names_in(work + "/results") == std::set<std::string>{"notes.txt"});
  // Existing: the folder opened when checked, whatever the link says later.
  fs::create_directories(tmp.file("other/res/deeper"));
  point_link_to("../elsewhere/sub");
  ftlsim::InPlaceFolder existing("--out", work + "/link/../res/deeper", {});
  REQUIRE(existing.fd() >= 0);
  point_link_to("../other/sub");
  CHECK(existing.create() == existing.fd());
  put(existing.entry("b"), "b");
  CHECK(slurp(tmp.file("elsewhere/res/deeper/b")) == "b");
  CHECK(names_in(tmp.file("other/res/deeper")).empty());
  // Messages name the folder as given, never /proc/self/fd/N.
  CHECK(existing.shown_error("cannot write " + existing.entry("b") + ": disk full") ==
        "cannot write " + work + "/link/../res/deeper/b: disk full");
  // A folder that appears between the check and the creation was not checked: refused.
  ftlsim::InPlaceFolder raced("--out", tmp.file("raced"), {});
  fs::create_directories(tmp.file("raced"));
  put(tmp.file("raced/thesis.tex"), "t");
  CHECK_THROWS_WITH(raced.create(), Contains("appeared while the run started"));
  CHECK(slurp(tmp.file("raced/thesis.tex")) == "t");
  // Pseudo file systems and dots through missing folders are refused.
  CHECK_THROWS_WITH(ftlsim::InPlaceFolder("--out", "/proc/ftlsim-out", {}), Contains("file system"));
  CHECK_THROWS_WITH(ftlsim::InPlaceFolder("--out", tmp.file("nope/.."), {}), Contains("does not exist"));
}

TEST_CASE("an output file's folder is resolved once: a link changed before the commit changes nothing",
          "[core][unit]") {
  const ftlsim::test::TempDir tmp("atomic-once");
  fs::create_directories(tmp.file("work"));
  fs::create_directories(tmp.file("elsewhere/sub"));
  fs::create_directories(tmp.file("other/sub"));
  fs::create_directories(tmp.file("elsewhere/out"));
  fs::create_directories(tmp.file("other/out"));
  const auto point_link_to = [&](const std::string& target) {
    fs::remove(tmp.file("work/link"));
    fs::create_symlink(target, tmp.file("work/link"));
  };
  const std::string path = tmp.file("work/link/../out/t.ftr");
  for (const Existing existing : {Existing::kRefuse, Existing::kReplace}) {
    INFO((existing == Existing::kRefuse ? "refuse" : "replace"));
    put(tmp.file("other/out/t.ftr"), "theirs");  // what the path names after the change
    point_link_to("../elsewhere/sub");
    {
      ftlsim::AtomicFile f(path, existing);
      point_link_to("../other/sub");
      f.write("ours");
      f.commit();
    }
    CHECK(slurp(tmp.file("elsewhere/out/t.ftr")) == "ours");
    CHECK(slurp(tmp.file("other/out/t.ftr")) == "theirs");
    CHECK(names_in(tmp.file("elsewhere/out")) == std::set<std::string>{"t.ftr"});  // no temporary left
    CHECK(names_in(tmp.file("other/out")) == std::set<std::string>{"t.ftr"});
    fs::remove(tmp.file("elsewhere/out/t.ftr"));
  }
  // Dropped without commit: nothing left in either folder.
  point_link_to("../elsewhere/sub");
  {
    ftlsim::AtomicFile f(path, Existing::kReplace);
    point_link_to("../other/sub");
    f.write("x");
  }
  CHECK(names_in(tmp.file("elsewhere/out")).empty());
}

TEST_CASE("an output file is checked in the folder it is written into: a link swapped after the open changes nothing",
          "[core][unit]") {
  const ftlsim::test::TempDir tmp("output-file-once");
  fs::create_directories(tmp.file("a"));
  fs::create_directories(tmp.file("b"));
  const std::string trace = tmp.file("b/t.ftr");
  put(trace, "trace");
  ftlsim::RunInputs inputs;
  inputs.add("--trace", trace);
  const std::string link = tmp.file("link");
  const auto point_link_to = [&](const std::string& target) {
    fs::remove(link);
    fs::create_symlink(target, link);
  };
  const std::string path = link + "/t.ftr";  // a/t.ftr (absent) or b/t.ftr (the input)

  // Opened through link -> a, checked and written after link -> b: the
  // check looks at a/, and the write goes there; the trace is untouched.
  point_link_to("a");
  {
    ftlsim::OutputFile out(path);
    point_link_to("b");
    out.check("-o", true, inputs);
    ftlsim::AtomicFile f(std::move(out));
    f.write("ours");
    f.commit();
  }
  CHECK(slurp(tmp.file("a/t.ftr")) == "ours");
  CHECK(slurp(trace) == "trace");
  CHECK(names_in(tmp.file("b")) == std::set<std::string>{"t.ftr"});
  fs::remove(tmp.file("a/t.ftr"));

  // Opened through link -> b: the name there is the input, so the check
  // refuses, whatever the link says when it runs (it names a/ by then).
  point_link_to("b");
  {
    ftlsim::OutputFile out(path);
    point_link_to("a");
    CHECK_THROWS_WITH(out.check("-o", true, inputs), Contains("-o " + path + " is the input --trace " + trace));
    CHECK_THROWS_AS(ftlsim::AtomicFile(std::move(out)), std::logic_error);  // an unchecked output is never written
  }
  CHECK(names_in(tmp.file("a")).empty());
  CHECK(slurp(trace) == "trace");

  // Checked, then the input moved into the checked folder under the output's
  // name before the commit: the commit checks the name again and refuses.
  point_link_to("a");
  {
    ftlsim::AtomicFile f(ftlsim::open_output_file("-o", path, true, inputs));
    f.write("ours");
    fs::rename(trace, tmp.file("a/t.ftr"));
    CHECK_THROWS_WITH(f.commit(), Contains("is the input --trace"));
    CHECK(slurp(tmp.file("a/t.ftr")) == "trace");
    fs::rename(tmp.file("a/t.ftr"), trace);
    // Anything else there by the commit is refused as at the check.
    REQUIRE(::mkfifo(tmp.file("a/t.ftr").c_str(), 0644) == 0);
    CHECK_THROWS_WITH(f.commit(), Contains("-o " + path + " is a FIFO"));
    fs::remove(tmp.file("a/t.ftr"));
  }
  CHECK(names_in(tmp.file("a")).empty());  // no temporary left
  CHECK(slurp(trace) == "trace");

  // The free space is the checked folder's file system's.
  point_link_to("a");
  const ftlsim::OutputFile room = ftlsim::open_output_file("-o", path, false, {});
  CHECK(room.free_bytes().has_value());
  CHECK_THROWS_WITH((void)ftlsim::open_output_file("-o", "/proc/x.ftr", false, {}), Contains("proc file system"));
}
