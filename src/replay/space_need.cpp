#include "replay/space_need.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <memory>
#include <unordered_map>

#include "core/error.h"

namespace ftlsim::replay {
namespace {

// One bit per allocation unit, in leaves of 2^19 bits (64 KiB) made when
// first touched: memory follows the parts of the file the trace reaches,
// not the file's size (a sparse file may be exabytes long). The leaf last
// used is kept: a run of units stays in one leaf.
class UnitBits {
 public:
  // Sets bit i; true if it was clear.
  bool set(uint64_t i) {
    uint64_t& w = leaf(i >> kLeafShift)[(i & kLeafMask) >> 6];
    const uint64_t m = uint64_t{1} << (i & 63);
    if ((w & m) != 0) return false;
    w |= m;
    return true;
  }

 private:
  static constexpr unsigned kLeafShift = 19;
  static constexpr uint64_t kLeafMask = (uint64_t{1} << kLeafShift) - 1;
  uint64_t* leaf(uint64_t k) {
    if (k != last_ || last_leaf_ == nullptr) {
      std::unique_ptr<uint64_t[]>& l = leaves_[k];
      if (!l) l = std::make_unique<uint64_t[]>(size_t{1} << (kLeafShift - 6));  // zeroed
      last_ = k;
      last_leaf_ = l.get();
    }
    return last_leaf_;
  }
  std::unordered_map<uint64_t, std::unique_ptr<uint64_t[]>> leaves_;
  uint64_t last_ = 0;
  uint64_t* last_leaf_ = nullptr;
};

}  // namespace

uint64_t space_need(std::span<const trace::Record> records, const StreamGeometry& geo, uint64_t unit,
                    const Extents& allocated, uint64_t origin) {
  // The units that hold data already: looked up in the extents the first
  // time a write reaches a unit, not marked up front (a file may be a
  // terabyte of data in one extent). The extents sorted and merged:
  // disjoint, so their ends ascend too.
  Extents data;
  for (const auto& e : allocated) {
    if (e.first < e.second) data.push_back(e);
  }
  std::sort(data.begin(), data.end());
  size_t n = 0;
  for (const auto& e : data) {
    if (n != 0 && e.first <= data[n - 1].second) {
      data[n - 1].second = std::max(data[n - 1].second, e.second);
    } else {
      data[n++] = e;
    }
  }
  data.resize(n);
  const auto holds_data = [&data, unit](uint64_t u) {
    // The last extent starting before the unit's end reaches furthest of those.
    const auto after =
        std::partition_point(data.begin(), data.end(), [&](const auto& e) { return e.first < (u + 1) * unit; });
    return after != data.begin() && std::prev(after)->second > u * unit;
  };
  UnitBits reached;
  uint64_t units = 0;
  RequestStream stream(records, geo);
  IoRequest io;
  while (stream.next(io)) {
    if (io.op != trace::Op::kWrite) continue;
    const uint64_t start = origin + io.offset, end = start + io.bytes;
    for (uint64_t u = start / unit; u < (end + unit - 1) / unit; ++u) {
      if (reached.set(u) && !holds_data(u)) ++units;
    }
  }
  return units * unit;
}

Extents data_extents(int fd, const std::string& path) {
  Extents data;
  const off_t size = ::lseek(fd, 0, SEEK_END);
  if (size < 0) throw system_error_from_errno(path + ": cannot read its size");
  off_t pos = 0;
  while (pos < size) {
    const off_t start = ::lseek(fd, pos, SEEK_DATA);
    if (start < 0) {
      if (errno == ENXIO) break;                         // no data after pos
      data.assign(1, {0, static_cast<uint64_t>(size)});  // holes not known: all data
      break;
    }
    off_t end = ::lseek(fd, start, SEEK_HOLE);
    if (end < 0) end = size;
    data.emplace_back(static_cast<uint64_t>(start), static_cast<uint64_t>(end));
    pos = end;
  }
  return data;
}

uint64_t space_need_bound(const StreamScan& scan, uint64_t unit) {
  const auto w = static_cast<size_t>(trace::Op::kWrite);
  // An I/O of b bytes touches at most b / unit + 2 units.
  return scan.bytes[w] + scan.ios[w] * 2 * unit;
}

}  // namespace ftlsim::replay
