#include "replay/request_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>

#include "core/error.h"
#include "core/units.h"
#include "trace/ftr_reader.h"

namespace ftlsim::replay {
namespace {

using trace::Op;

// Trims are not split by max_io_bytes (they move no data); this keeps their
// length within IoRequest::bytes.
constexpr uint64_t kMaxTrimPiece = uint64_t{1} << 30;

}  // namespace

RequestStream::RequestStream(std::span<const trace::Record> records, const StreamGeometry& geo)
    : records_(records), geo_(geo) {
  if (records.size() >= std::numeric_limits<uint32_t>::max()) {
    throw InputError(fmt::format("{}: {} records; a replay handles fewer than 2^32", geo.trace_path, records.size()));
  }
  const bool ok = std::has_single_bit(geo.block_bytes) && geo.target_bytes > 0 &&
                  geo.target_bytes % geo.block_bytes == 0 && geo.max_io_bytes >= geo.block_bytes &&
                  geo.max_io_bytes % geo.block_bytes == 0 && geo.sector_bytes > 0;
  if (!ok) {
    throw InputError(say("replay: target of {} bytes with {}-byte blocks and `max-io` {} cannot be replayed to",
                         geo.target_bytes, geo.block_bytes, geo.max_io_bytes));
  }
}

bool RequestStream::start_record() {
  const trace::Record& r = records_[index_];
  if (!trace::record_ok(r)) {
    throw InputError(fmt::format("{}: record {}: {}", geo_.trace_path, index_, trace::check_record(r)));
  }
  const auto op = static_cast<Op>(r.op);
  if (op == Op::kMarker) {
    marker_ = r.lba;
    return false;
  }
  if (!geo_.ops.has(op)) return false;
  if (op == Op::kFlush) {
    active_ = true;
    cur_offset_ = 0;
    cur_left_ = 0;
    return true;
  }
  const uint64_t sb = geo_.sector_bytes;
  const uint64_t len = uint64_t{r.sectors} * sb;
  const uint64_t bb = geo_.block_bytes;
  const uint64_t target = geo_.target_bytes;
  const auto beyond = [&](const char* why) {
    return InputError(fmt::format(
        "{}: record {}: {} of sectors [{}, {}) ({}-byte sectors) {} the target's {} bytes ({}){}", geo_.trace_path,
        index_, trace::op_name(op), r.lba, r.lba + r.sectors, sb, why, target, format_bytes(target),
        geo_.wrap ? "" : "; use --wrap to fold LBAs into the target, or a larger target"));
  };
  // Widen [a, a + len) to whole blocks (a read or write cannot move less);
  // anything that overflows 64 bits lies beyond every target. A trim is
  // narrowed instead, to the whole blocks inside its range: widened, it
  // would discard the data of neighbouring sectors it never trimmed. One
  // with no whole block inside sends nothing.
  if (r.lba > (std::numeric_limits<uint64_t>::max() - len - bb) / sb) throw beyond("ends beyond");
  const uint64_t a = r.lba * sb;
  const bool narrow = op == Op::kTrim;
  const uint64_t start = narrow ? (a + bb - 1) / bb * bb : a / bb * bb;
  const uint64_t end = narrow ? (a + len) / bb * bb : (a + len + bb - 1) / bb * bb;
  const bool whole = start == a && end == a + len;
  if (narrow && !whole) ++counts_.narrowed;
  if (narrow && end <= start) {
    ++counts_.dropped_trims;
    return false;
  }
  if (!whole && !narrow) ++counts_.widened;
  const uint64_t widened_len = end - start;
  uint64_t offset = start;
  if (end > target) {
    if (!geo_.wrap) throw beyond("ends beyond");
    if (widened_len > target) throw beyond("is longer than");
    offset = start % target;
    if (offset != start) ++counts_.wrapped;
  }
  active_ = true;
  cur_offset_ = offset;
  cur_left_ = widened_len;
  piece_max_ = op == Op::kTrim ? kMaxTrimPiece : geo_.max_io_bytes;
  return true;
}

bool RequestStream::next(IoRequest& out) {
  while (true) {
    if (active_) {
      const trace::Record& r = records_[index_];
      out.record = static_cast<uint32_t>(index_);
      out.pid = r.pid;
      out.op = static_cast<Op>(r.op);
      if (cur_left_ == 0) {  // a flush
        out.offset = 0;
        out.bytes = 0;
      } else {
        const uint64_t n = std::min({cur_left_, piece_max_, geo_.target_bytes - cur_offset_});
        out.offset = cur_offset_;
        out.bytes = static_cast<uint32_t>(n);
        cur_offset_ += n;
        cur_left_ -= n;
        if (cur_offset_ == geo_.target_bytes) cur_offset_ = 0;  // the rest of a wrapped range
      }
      if (cur_left_ == 0) {
        active_ = false;
        ++index_;
      }
      return true;
    }
    if (index_ >= records_.size()) return false;
    if (!start_record()) ++index_;
  }
}

uint64_t StreamScan::moved_bytes() const {
  return bytes[static_cast<size_t>(Op::kWrite)] + bytes[static_cast<size_t>(Op::kRead)] +
         bytes[static_cast<size_t>(Op::kTrim)];
}

StreamScan scan_stream(std::span<const trace::Record> records, const StreamGeometry& geo) {
  StreamScan s;
  s.records = records.size();
  for (size_t i = 0; i < records.size(); ++i) {
    const trace::Record& r = records[i];
    // The first pass over the records: a malformed one is refused here,
    // before the rest of a file that may be huge is read.
    if (!trace::record_ok(r)) [[unlikely]] {
      throw InputError(fmt::format("{}: record {}: {}", geo.trace_path, i, trace::check_record(r)));
    }
    ++s.op_records[r.op];
    if (!geo.ops.has(static_cast<Op>(r.op)) && static_cast<Op>(r.op) != Op::kMarker) ++s.skipped[r.op];
  }
  std::vector<bool> pid_seen(size_t{1} << 16, false);
  RequestStream stream(records, geo);
  IoRequest io;
  uint64_t last_record = std::numeric_limits<uint64_t>::max();
  uint64_t pieces = 0;
  while (stream.next(io)) {
    const auto op = static_cast<size_t>(io.op);
    ++s.ios[op];
    s.bytes[op] += io.bytes;
    if (io.op == Op::kWrite) pid_seen[io.pid] = true;
    if (io.op == Op::kWrite || io.op == Op::kRead) s.largest_data_io = std::max(s.largest_data_io, io.bytes);
    if (io.record != last_record) {
      if (pieces > 1) ++s.split;
      pieces = 0;
      last_record = io.record;
    }
    ++pieces;
  }
  if (pieces > 1) ++s.split;
  static_cast<RangeCounts&>(s) = stream.range_counts();
  for (size_t p = 0; p < pid_seen.size(); ++p) {
    if (pid_seen[p]) s.write_pids.push_back(static_cast<trace::PlacementId>(p));
  }
  return s;
}

}  // namespace ftlsim::replay
