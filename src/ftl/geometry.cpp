#include "ftl/geometry.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "core/error.h"

namespace ftlsim::ftl {

double Geometry::over_provisioning() const {
  if (logical_slots() == 0) return 0.0;
  return static_cast<double>(physical_slots()) / static_cast<double>(logical_slots()) - 1.0;
}

exact_u128 Geometry::exact_slots() const {
  return exact_u128{channels} * luns_per_channel * planes_per_lun * blocks_per_plane * pages_per_block *
         (page_bytes / kSlotBytes);
}

std::string exact_text(exact_u128 v) {
  if (v == 0) return "0";
  std::string digits;
  for (; v != 0; v /= 10) digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
  return digits;
}

std::vector<Problem> Geometry::problems() const {
  std::vector<Problem> p;
  auto positive = [&p](uint64_t v, const char* setting) {
    if (v == 0) p.push_back({setting, "", "must be at least 1"});
  };
  positive(channels, "channels");
  positive(luns_per_channel, "luns");
  positive(planes_per_lun, "planes");
  positive(blocks_per_plane, "blocks");
  positive(pages_per_block, "pages");
  if (page_bytes == 0 || page_bytes % kSlotBytes != 0) {
    p.push_back(
        {"page-size", fmt::format("{}", page_bytes), fmt::format("must be a non-zero multiple of {}", kSlotBytes)});
  }
  if (!p.empty()) return p;
  if (blocks_per_plane < 4) {
    p.push_back({"blocks", fmt::format("{}", blocks_per_plane),
                 ": at least 4 lines are needed (one open, one free for GC, two to choose from)"});
  }
  // Physical slot numbers are 32-bit with one value reserved as "none". The
  // product is exact (128 bits: five 32-bit factors and the slots per page
  // cannot wrap it), so no factor can wrap a smaller one into range.
  const exact_u128 slots = exact_slots();
  if (slots > kMaxPhysicalSlots) {
    p.push_back({"", "",
                 fmt::format("the geometry has {} x {} x {} x {} x {} x {} = {} 4 KiB slots (channels x LUNs x planes "
                             "x blocks x pages x slots per page); at most {} (2^32-2, 16 TiB) are supported",
                             channels, luns_per_channel, planes_per_lun, blocks_per_plane, pages_per_block,
                             page_bytes / kSlotBytes, exact_text(slots), kMaxPhysicalSlots)});
    return p;  // the other checks use the (now meaningless) 32-bit products
  }
  if (logical_bytes == 0) {
    p.push_back({"", "", "logical capacity is 0"});
  } else if (logical_bytes % kSlotBytes != 0) {
    p.push_back({"", "", fmt::format("logical capacity {} is not a multiple of {}", logical_bytes, kSlotBytes)});
  } else if (logical_slots() >= physical_slots()) {
    p.push_back({"", "",
                 fmt::format("logical capacity {} bytes is not smaller than physical {} bytes", logical_bytes,
                             physical_bytes())});
  }
  return p;
}

uint32_t blocks_for_capacity(const Geometry& g, uint64_t logical_bytes, double op) {
  const double needed = static_cast<double>(logical_bytes) * (1.0 + op);
  // Exact in double (not the 32-bit die count, which may have wrapped: the
  // geometry is checked after this).
  const double per_block_row =
      static_cast<double>(g.slots_per_block()) * g.channels * g.luns_per_channel * g.planes_per_lun * kSlotBytes;
  const double blocks = std::ceil(needed / per_block_row);
  if (!(blocks >= 1.0) || blocks > static_cast<double>(std::numeric_limits<uint32_t>::max())) {
    throw InputError(say("`logical` {} with `op` {} gives an impossible number of blocks", logical_bytes, op));
  }
  return static_cast<uint32_t>(blocks);
}

}  // namespace ftlsim::ftl
