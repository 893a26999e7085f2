#pragma once
// The Cartesian product of a sweep's options, the name (config_id) of each
// configuration in it, and the table of its rows that sweep.csv, resume and
// the folder claim share.
#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ftlsim::sim {

// At most this many configurations per sweep.
inline constexpr size_t kMaxConfigurations = 100000;

// Number of configurations in the product of axes of these sizes (each >= 1).
// Throws InputError beyond kMaxConfigurations.
[[nodiscard]] size_t product_size(std::span<const size_t> sizes);

// Item index on each axis for configuration `index` (< product_size) of the
// product: axes in the given order, the last axis varying fastest (like
// nested loops with the last axis innermost).
[[nodiscard]] std::vector<size_t> product_point(std::span<const size_t> sizes, size_t index);

// A short, filesystem-safe name for one configuration from its swept
// (option name without dashes, value) pairs: "gc-thres=60_placement=fdp".
// Characters other than [A-Za-z0-9.=+-] in values become '-'. A name longer
// than kMaxConfigIdBytes keeps its first kMaxConfigIdBytes - 17 bytes and
// ends in '~' and the 16 hex digits of the FNV-1a 64 hash of the full name.
inline constexpr size_t kMaxConfigIdBytes = 128;
[[nodiscard]] std::string config_id(std::span<const std::pair<std::string, std::string>> swept);

// Makes names unique in place by appending "-2", "-3", ... to repeats
// (sanitizing can map different values to one name).
void make_unique(std::vector<std::string>& names);

// The rows of a sweep, one per configuration in product order.
struct SweepTable {
  std::vector<std::string> axes;                 // swept option names (no dashes), product order
  std::vector<std::string> ids;                  // config_id per row
  std::vector<std::vector<std::string>> values;  // per row: one value per axis
  std::vector<std::string> keys;                 // config_key per row; empty: the column stays empty
  bool timed = false;                            // timed mode (--timing): sweep.csv has the timed columns
  bool fitted = false;                           // --logical fit: sweep.csv has the fitted device's columns
};

}  // namespace ftlsim::sim
