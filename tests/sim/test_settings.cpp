// The setting descriptors (core/setting.h): each default is the struct's
// initialiser printed, every printed value parses back to itself, every
// word of a word-valued setting round-trips, and problems name settings.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "core/setting.h"
#include "fdp/fdp_settings.h"
#include "ftl/ftl_settings.h"
#include "ftl/geometry_settings.h"
#include "ftl/presets.h"
#include "timing/timing_settings.h"

using namespace ftlsim;

namespace {

// print(parse(print(C{}))) == print(C{}), and every ConfFDP value parses
// and prints as given.
template <class C>
void check_table(std::span<const Setting<C>> table, std::set<std::string>& names) {
  for (const Setting<C>& s : table) {
    INFO(s.name);
    CHECK(names.insert(std::string(s.name)).second);  // names are unique across tables
    const std::string printed = s.print(C{});
    if (!printed.empty()) {
      C c{};
      s.parse(c, printed);
      CHECK(s.print(c) == printed);
    }
    CHECK(s.default_text() == (s.unset_keeps ? std::string() : printed));
    if (!s.confdp.empty()) {
      C c{};
      s.parse(c, s.confdp);
      CHECK(s.print(c) == s.confdp);
    }
    C c{};
    CHECK_THROWS_AS(s.parse(c, "no-such-value"), InputError);
  }
}

}  // namespace

TEST_CASE("settings: defaults from the structs, printing and parsing agree", "[unit]") {
  std::set<std::string> names;
  check_table(ftl::geometry_settings(), names);
  check_table(ftl::ftl_settings(), names);
  check_table(fdp::fdp_settings(), names);
  check_table(timing::timing_settings(), names);
  // The defaults config_keys of earlier sweeps hold.
  CHECK(ftl::ftl_setting_text("gc-thres", ftl::FtlConfig{}) == "75");
  CHECK(ftl::ftl_setting_text("forced-passes", ftl::FtlConfig{}) == "femu");
  CHECK(fdp::fdp_setting_text("ru-time-limit", fdp::FdpConfig{}) == "off");
  const auto t = timing::timing_settings();
  CHECK(find_setting(t, "read-time")->default_text() == "40us");
  CHECK(find_setting(t, "erase-time")->default_text() == "2ms");
  CHECK(find_setting(t, "xfer-time")->default_text() == "0");
  CHECK(find_setting(t, "read-time")->key_name() == "read");
}

TEST_CASE("settings: every word of a word-valued setting round-trips", "[unit]") {
  for (const auto& w : ftl::kGcOrderWords) {
    ftl::FtlConfig c;
    find_setting(ftl::ftl_settings(), "gc-order")->parse(c, w.word);
    CHECK(c.gc.page_order == w.value);
  }
  for (const auto& w : fdp::kRuhTypeWords) {
    fdp::FdpConfig c;
    find_setting(fdp::fdp_settings(), "ruh-type")->parse(c, w.word);
    CHECK(fdp::ruh_types_name(c.ruh_types) == w.word);
  }
  CHECK(choice_list(ftl::kTrimPartialWords) == "unmap (the page is unmapped, FEMU) or keep (it stays mapped)");
}

TEST_CASE("settings: problems name the setting, never a flag", "[unit]") {
  fdp::FdpConfig c;
  CHECK_THROWS_WITH(find_setting(fdp::fdp_settings(), "ruh")->parse(c, "300"), "`ruh` 300 must be between 1 and 256");
  CHECK_THROWS_WITH(find_setting(fdp::fdp_settings(), "pi-gc")->parse(c, "both"),
                    Catch::StartsWith("`pi-gc`: 'both' is not gc-ru ("));
  try {
    (void)ftl::preset("nope");
    FAIL("no error");
  } catch (const SettingError& e) {
    CHECK(e.problem().setting == "preset");
    CHECK(e.problem().value == "nope");
    CHECK_THAT(e.what(), Catch::StartsWith("`preset`: unknown preset 'nope' (known: femu-default, "));
  }
}

TEST_CASE("presets: one table gives names, geometry and help", "[unit]") {
  CHECK(ftl::presets().size() == 5);
  CHECK(ftl::preset_geometry("femu-eth-512m").pages_per_block == 32);
  CHECK(ftl::preset("confdp-eth").confdp_sizing);
  CHECK(ftl::preset("femu-eth-512m").sizing_scale == 128);
  CHECK_THAT(ftl::presets_help(), Catch::Contains("femu-default (16 GiB raw, 8x8 LUNs, 256 lines of 1 MiB blocks, "
                                                  "12 GiB logical"));
  CHECK(ftl::preset_values([](const ftl::Geometry& g) { return std::to_string(g.channels); }) == "8 for all presets");
}
