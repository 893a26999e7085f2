// Every geometry product is exact (64 bits and more),
// so no count wraps another into range: a geometry past 2^32-2 slots of
// 4 KiB is refused naming the exact product (docs/cli.md, Device limits),
// one at the limit is accepted, and summary.json echoes what ran. Before,
// --channels 4294967295 --luns 4294967295 simulated one die (exit 0) and
// 65537 x 65537 simulated 131073 dies; 256 handles x 2^24 RGs crashed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "cli_run.h"

using namespace ftlsim;
using Catch::Contains;
using test::run_ftlsim;
using test::TempDir;

namespace {

std::string trace_of(const TempDir& tmp) {
  std::string t = test::uniform_trace(tmp, "g.ftr", "--logical 4M --writes 500 --seed 5");
  return t;
}

// `args` on a small trace is refused with exit 2 and a message holding `expected`.
void refused(const std::string& tag, const std::string& args, const std::string& expected) {
  const TempDir tmp(tag);
  const test::RunResult r = run_ftlsim("--trace " + trace_of(tmp) + " " + args + " --no-progress");
  INFO(args << "\n" << r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains(expected));
}

}  // namespace

TEST_CASE("geometry products that wrap 32 bits are refused with the exact product", "[cli][geometry]") {
  const TempDir tmp("geo-wrap");
  const std::string trace = trace_of(tmp);
  struct Case {
    std::string args;
    std::string product;  // slots, by hand (python3: (2**32-1)**2 * 256 * 256, ...)
  };
  const std::vector<Case> cases = {
      // products that wrap 32 bits: channels x LUNs to 1 die, 65537^2 to 131073 dies
      {"--channels 4294967295 --luns 4294967295", "1208925819051679221350400"},
      {"--channels 65537 --luns 65537", "281483566710784"},
      // dies x blocks: 2^16 x 2^16 dies wrap to 0 in 32 bits
      {"--channels 65536 --luns 65536 --blocks 4 --pages 1", "17179869184"},
      // channels x LUNs x planes
      {"--channels 65536 --luns 256 --planes 256 --blocks 4 --pages 1", "17179869184"},
      // pages x blocks on one die
      {"--channels 1 --luns 1 --blocks 65536 --pages 65536", "4294967296"},
      // 16 MiB pages (4096 slots each) x pages
      {"--channels 1 --luns 1 --blocks 4 --pages 1048576 --page-size 16M", "17179869184"},
      // one past the limit: 3 x 5 x 17 x 257 x 65537 = 2^32 - 1
      {"--channels 3 --luns 5 --planes 17 --blocks 257 --pages 65537", "4294967295"},
      // blocks derived from --logical and --op: from the exact die count (2^32 wrapped to 0)
      {"--channels 65536 --luns 65536 --pages 1 --logical 1G --op 0.25", "4294967296"},
      // FDP on a wrapped geometry: refused by the geometry, before the RU shape
      {"--channels 65536 --luns 65536 --blocks 4 --pages 1 --placement fdp --ru-size 64M", "17179869184"},
  };
  for (const Case& c : cases) {
    const test::RunResult r = run_ftlsim("--trace " + trace + " " + c.args + " --no-progress --mem-limit off");
    INFO(c.args << "\n" << r.output);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.output, Contains("= " + c.product + " 4 KiB slots") && Contains("at most 4294967294 (2^32-2"));
  }
}

TEST_CASE("a geometry of exactly 2^32-2 slots passes the geometry check", "[cli][geometry]") {
  // 2 x 2147483647 = 2^32 - 2: the limit itself; the memory check (1 GiB)
  // then refuses it, which shows the geometry was accepted.
  refused("geo-edge", "--channels 2 --luns 1 --blocks 2147483647 --pages 1 --mem-limit 1G", "this run needs about");
}

TEST_CASE("reclaim groups x handles past 2^32 streams are refused, not a crash", "[cli][geometry]") {
  // 256 handles x 2^24 RGs: 2 x 256 x 2^24 + 2^24 = 8606711808 streams,
  // which wrapped to 2^24 in 32 bits (a segmentation fault).
  refused("geo-streams",
          "--rg 16777216 --blocks 16777216 --channels 1 --luns 1 --pages 16 --placement fdp --ruh 256 --logical 8M "
          "--mem-limit off",
          "--rg 16777216 with --ruh 256 gives 8606711808 streams");
}

TEST_CASE("summary.json echoes the geometry that ran", "[cli][geometry]") {
  const TempDir tmp("geo-echo");
  const std::string trace = trace_of(tmp);
  // 3 x 5 x 17 x 20 x 2 = 10200 slots of 4 KiB, odd counts in every factor.
  const std::string out = tmp.file("o");
  const test::RunResult r = run_ftlsim("--trace " + trace +
                                       " --channels 3 --luns 5 --planes 17 --blocks 20 --pages 2 --no-progress "
                                       "--out " +
                                       out);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string s = test::slurp(out + "/summary.json");
  for (const char* field : {"\"channels\": 3", "\"luns_per_channel\": 5", "\"planes_per_lun\": 17",
                            "\"blocks_per_plane\": 20", "\"pages_per_block\": 2", "\"physical_bytes\": 41779200"}) {
    CHECK_THAT(s, Contains(field));
  }
}

// fit:P% with a tiny P: the capacity footprint / P passed 64 bits (a
// double-to-integer overflow said "a logical capacity of 0 slots") or the
// derived pages per block wrapped at 32 bits ("8 x 8 x 1 x 98 x 416946767").
TEST_CASE("a fit share too small for any geometry is refused with the true figure", "[cli][geometry]") {
  for (const std::string p : {"1e-15", "1e-18", "5e-20", "1e-22", "1e-300"}) {
    refused("geo-fit-tiny", "--preset femu-eth-512m --logical fit:" + p + "%", "too small a share");
  }
  const TempDir tmp("geo-fit-9");
  const test::RunResult r =
      run_ftlsim("--trace " + trace_of(tmp) + " --preset femu-eth-512m --logical fit:1e-09% --no-progress");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.output, Contains("more than the 4294967294 (2^32-2, 16 TiB) a geometry holds: too small a share"));
  CHECK(r.output.find("416946767") == std::string::npos);
  CHECK(r.output.find("capacity of 0 slots") == std::string::npos);
  CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
}

// fit keeps the preset's over-provisioning only as closely as whole pages
// per block allow, and says so. femu-default: 256 lines x 64 blocks, so a
// page per block is 16384 slots (64 MiB). 25600 pages of footprint at
// fit:100%: 25600 x 4/3 = 34133.3 slots wanted, ceil(34133.3 / 16384) = 3
// pages per block = 49152 slots, OP 49152 / 25600 - 1 = 92.0%. 12288
// pages: 12288 x 4/3 = 16384 slots, one page per block, OP exactly 1/3.
TEST_CASE("fit reports the over-provisioning whole pages per block give when it is not the one asked",
          "[cli][geometry]") {
  const TempDir tmp("geo-fit-op");
  for (const auto& [pages, shown] : {std::pair{25600, true}, std::pair{12288, false}}) {
    const std::string trace = tmp.file("seq" + std::to_string(pages) + ".ftr");
    const std::string out = tmp.file("o" + std::to_string(pages));
    REQUIRE(run_ftlsim("gen --pattern seq --logical " + std::to_string(pages * 4) + "K --writes " +
                       std::to_string(pages) + " --no-progress -o " + trace)
                .exit_code == 0);
    const test::RunResult r = run_ftlsim("--trace " + trace + " --logical fit:100% --no-progress --out " + out);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    const std::string s = test::slurp(out + "/summary.json");
    CHECK_THAT(s, Contains("\"over_provisioning_wanted\": 0.333333"));
    if (shown) {
      CHECK_THAT(r.output, Contains("(OP 92.0%)"));
      CHECK_THAT(r.output, Contains("fit OP     92.0%, not the 33.3% asked (the preset's, or --op): 3 pages per block "
                                    "is the fewest that reach it, and a page per block is 64.00 MiB here"));
      CHECK_THAT(s, Contains("\"pages_per_block\": 3"));
      CHECK_THAT(s, Contains("\"over_provisioning\": 0.92,"));
    } else {
      CHECK_THAT(r.output, Contains("(OP 33.3%)"));
      CHECK_THAT(r.output, !Contains("fit OP"));
      CHECK_THAT(s, Contains("\"pages_per_block\": 1"));
    }
  }
  // A sweep of fill levels: sweep.csv and the table carry each row's device.
  // fit:50%: 51200 logical slots, 51200 x 4/3 = 68266.7 wanted, ceil(68266.7 /
  // 16384) = 5 pages per block = 81920 slots, OP 81920 / 51200 - 1 = 0.6.
  const std::string sw = tmp.file("sw");
  const test::RunResult swept =
      run_ftlsim("--trace " + tmp.file("seq25600.ftr") + " --logical fit:100%,fit:50% --no-progress --out " + sw);
  INFO(swept.output);
  REQUIRE(swept.exit_code == 0);
  const std::string csv = test::slurp(sw + "/sweep.csv");
  CHECK_THAT(csv, Contains(",ru_not_fully_written,logical_bytes,physical_bytes,over_provisioning,"));
  CHECK_THAT(csv, Contains(",104857600,201326592,0.920000,"));
  CHECK_THAT(csv, Contains(",209715200,335544320,0.600000,"));
  CHECK_THAT(swept.output, Contains("logical   WAF     OP     GC onset\nfit:100%"));
  CHECK_THAT(swept.output, Contains("  92.0%  "));
  CHECK_THAT(swept.output, Contains("  60.0%  "));
  // Without fit, no such columns.
  const std::string plain = tmp.file("plain");
  REQUIRE(run_ftlsim("--trace " + tmp.file("seq25600.ftr") + " --logical 200M --gc-thres 60,70 --no-progress --out " +
                     plain)
              .exit_code == 0);
  CHECK_THAT(test::slurp(plain + "/sweep.csv"), !Contains("over_provisioning"));

  // --pages sizes the device itself: nothing was asked of the OP.
  const std::string out = tmp.file("given");
  REQUIRE(run_ftlsim("--trace " + tmp.file("seq25600.ftr") + " --logical fit:100% --pages 3 --no-progress --out " + out)
              .exit_code == 0);
  CHECK_THAT(test::slurp(out + "/summary.json"), Contains("\"over_provisioning_wanted\": null"));
}
