#pragma once
// The settings of FtlConfig (GC and trim rules), each declared once: its
// name, its words or number, its help and its ConfFDP rule. The command
// line, sweeps, the resume key and summary.json's values come from this
// table (core/setting.h; docs/architecture.md, "Adding an option").
#include <array>
#include <span>
#include <string>
#include <string_view>

#include "core/setting.h"
#include "ftl/ftl_config.h"

namespace ftlsim::ftl {

// The words of the two-word GC and trim rules: FEMU's first.
inline constexpr Choice<bool> kGcCheckWords[] = {{false, "request", "once at the start of each write request, FEMU"},
                                                 {true, "page", "before every page written"}};
inline constexpr Choice<bool> kRgGcWords[] = {
    {false, "first",
     "FEMU: a background pass in the first RG over its threshold, forced GC while any RG is over its high threshold"},
    {true, "every", "each RG on its own"}};
inline constexpr Choice<bool> kGcOrderWords[] = {{false, "block", "block by block, FEMU"},
                                                 {true, "page", "page by page across the dies, ConfFDP"}};
// --gc-trigger: a bad word's error explains femu only; watermark's rule is long and lives in the
// descriptor's help (ftl_settings.cpp), which --help prints.
inline constexpr Choice<bool> kGcTriggerWords[] = {{false, "femu", "background victims need 1/8 invalid pages, FEMU"},
                                                   {true, "watermark", ""}};
inline constexpr Choice<bool> kTrimPartialWords[] = {{false, "unmap", "the page is unmapped, FEMU"},
                                                     {true, "keep", "it stays mapped"}};
inline constexpr Choice<bool> kTrimRangeWords[] = {
    {false, "exact", "its range, FEMU"},
    {true, "plus-one",
     "also the 4 KiB page after each range: ConfFDP's (nlb + 1) bug, reproduced because the study ran it"}};

// In the order of a sweep's axes (cli/model_settings.cpp places them).
[[nodiscard]] std::span<const Setting<FtlConfig>> ftl_settings();

// The text of setting `name` of `cfg` (its descriptor's printer).
[[nodiscard]] std::string ftl_setting_text(std::string_view name, const FtlConfig& cfg);

}  // namespace ftlsim::ftl
