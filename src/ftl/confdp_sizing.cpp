#include "ftl/confdp_sizing.h"

#include <fmt/format.h>

#include <charconv>

#include "core/error.h"

namespace ftlsim::ftl {

std::optional<uint32_t> parse_sizing(std::string_view text) {
  if (text == "lines") return std::nullopt;
  if (text == "thres") return 1;
  if (text.substr(0, 6) == "thres:") {
    const std::string_view n = text.substr(6);
    uint32_t scale = 0;
    const auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), scale);
    if (ec == std::errc() && p == n.data() + n.size() && scale >= 1) return scale;
  }
  throw InputError(
      say("`sizing`: '{}' is not lines (the preset's or `blocks`' line count, FEMU), thres "
          "(lines from the logical capacity and `gc-thres`, ConfFDP) or thres:S (as ConfFDP "
          "sizes a device S times larger, S >= 1)",
          text));
}

uint32_t confdp_lines(const Geometry& g, double thres_pcent, uint32_t scale) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  if (scale == 0 || g.logical_bytes > UINT64_MAX / scale / 100 || g.block_bytes() > UINT64_MAX / scale) {
    throw InputError(say("`sizing` thres:{}: the scaled device does not fit 64-bit sizes", scale));
  }
  const uint64_t logical = g.logical_bytes * scale;
  const uint64_t block = g.block_bytes() * scale;
  const std::string at = scale == 1 ? std::string() : fmt::format(" at scale {}", scale);
  if (logical % kMiB != 0 || block % kMiB != 0 || block == 0) {
    throw InputError(
        say("`sizing` thres{}: ConfFDP sizes its device in whole MiB, but the logical capacity "
            "is {} bytes and a block {} bytes{} (use `sizing` thres:S with a scale S that makes "
            "both whole MiB, or `sizing` lines)",
            scale == 1 ? "" : fmt::format(":{}", scale), logical, block, at));
  }
  // ConfFDP: user_space_ratio = 100 * gc_thres_pcent, gc_thres_pcent being
  // the percentage / 100.0 as a double, stored in an integer.
  const double user_space = 100.0 * (thres_pcent / 100.0);
  if (!(user_space >= 1.0 && user_space <= 100.0)) {
    throw InputError(
        say("`sizing` thres: `gc-thres` {} gives ConfFDP a user space ratio of {} (below 1 it "
            "divides by zero in its ssd_init_params); give 1 to 100",
            thres_pcent, user_space));
  }
  const auto ratio = static_cast<uint64_t>(user_space);
  const uint64_t total_mib = logical / kMiB * 100 / ratio;
  const uint64_t per_die_mib = total_mib / g.dies();
  const uint64_t lines = per_die_mib / (block / kMiB);
  if (lines == 0 || lines > UINT32_MAX) {
    throw InputError(say("`sizing` thres: ConfFDP gives {} lines for {} MiB logical at `gc-thres` {}{}", lines,
                         logical / kMiB, thres_pcent, at));
  }
  return static_cast<uint32_t>(lines);
}

}  // namespace ftlsim::ftl
