#pragma once
// ConfFDP's device sizing (--sizing thres): the raw capacity follows from the
// logical capacity and the background GC threshold, in whole MiB, as
// ConfFDP's ssd_init_params (hw/femu/fdp/fdpftl.c) computes it:
//   ratio  = (integer) (100 x gc_thres_pcent / 100)
//   total  = logical_MiB x 100 / ratio            (integer division)
//   per die = total / (channels x LUNs)
//   lines  = per die / block_MiB                   (blocks per plane)
// so background GC starts when the lines in use equal the logical capacity.
// A scale S sizes the device as ConfFDP sizes one S times larger (logical
// capacity and blocks x S): the study's 1/128 device keeps the full device's
// line count (docs/model.md, Presets).
#include <cstdint>
#include <optional>
#include <string_view>

#include "ftl/geometry.h"

namespace ftlsim::ftl {

// "lines" -> nullopt (the lines as given: FEMU); "thres" -> 1; "thres:S" -> S.
// Throws InputError naming --sizing.
[[nodiscard]] std::optional<uint32_t> parse_sizing(std::string_view text);

// Blocks per plane (lines) ConfFDP gives `g` (its logical capacity, dies and
// block size) at background threshold `thres_pcent`, sized at scale `scale`.
// Throws InputError when ConfFDP could not size it: logical capacity or
// block size not whole MiB at that scale, a threshold below 1%, no line.
[[nodiscard]] uint32_t confdp_lines(const Geometry& g, double thres_pcent, uint32_t scale);

// The scale a preset is sized at under --sizing thres (its row in
// ftl/presets.h: 128 for the 1/128 presets, 1 otherwise).
[[nodiscard]] uint32_t preset_sizing_scale(std::string_view preset);

}  // namespace ftlsim::ftl
