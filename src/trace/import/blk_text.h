#pragma once
// Internal to the blkparse and ftrace-blk importers: the parts of a blktrace
// event line both print the same way (kernel/trace/blktrace.c and
// blkparse_fmt.c share the layout after the device number).
#include <cstdint>
#include <string>
#include <string_view>

#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {

// What a request does, from its RWBS string and length.
enum class BlkKind : uint8_t { kWrite, kRead, kTrim, kFlush, kNoData };

// RWBS: an optional leading 'F' (preflush), one operation letter (W write,
// R read, D discard, N none, F flush: the block tracepoints' spelling of a
// flush operation), then flags from F (FUA), A, S, M, E, which are ignored.
// A write of non-zero length is a write even with a preflush; a preflush or
// flush operation with no data is a flush; N, and a read, write or discard
// of length 0, move no data. False with `why` for anything else.
[[nodiscard]] inline bool decode_rwbs(std::string_view rwbs, uint32_t sectors, BlkKind& kind, std::string& why) {
  const auto is_op = [](char c) { return c == 'W' || c == 'R' || c == 'D' || c == 'N' || c == 'F'; };
  size_t i = 0;
  bool preflush = false;
  if (rwbs.size() >= 2 && rwbs[0] == 'F' && is_op(rwbs[1])) {
    preflush = true;
    i = 1;
  }
  if (i >= rwbs.size() || !is_op(rwbs[i]) || rwbs.size() > 8) {
    why = fmt::format("RWBS {} has no operation letter (W, R, D, N or F)", scan::quote(rwbs));
    return false;
  }
  const char op = rwbs[i];
  for (size_t k = i + 1; k < rwbs.size(); ++k) {
    const char c = rwbs[k];
    if (c != 'F' && c != 'A' && c != 'S' && c != 'M' && c != 'E') {
      why = fmt::format("RWBS {} has an unknown flag {}", scan::quote(rwbs), scan::quote(rwbs.substr(k, 1)));
      return false;
    }
  }
  switch (op) {
    case 'W': kind = sectors > 0 ? BlkKind::kWrite : (preflush ? BlkKind::kFlush : BlkKind::kNoData); break;
    case 'R': kind = sectors > 0 ? BlkKind::kRead : BlkKind::kNoData; break;
    case 'D': kind = sectors > 0 ? BlkKind::kTrim : BlkKind::kNoData; break;
    case 'N': kind = preflush ? BlkKind::kFlush : BlkKind::kNoData; break;
    default: kind = BlkKind::kFlush; break;  // 'F': a flush operation
  }
  return true;
}

// What follows RWBS in a Q, D or C line, in one of the shapes the kernel and
// blkparse print:
//   SECTOR + N [COMM]            SECTOR + N (ELAPSED) [COMM]
//   [COMM]                       (ELAPSED) [COMM]          zero length
//   SECTOR [ERR]                 SECTOR (ELAPSED) [ERR]    zero-length completion
//   BYTES (CDB ..) [COMM]        (CDB ..) [ERR]            SCSI passthrough: no sectors
// C events carry the error number in the brackets instead of a name.
struct BlkTail {
  uint64_t sector = 0;
  uint32_t sectors = 0;      // 0 unless the line has "+ N"
  std::string_view bracket;  // inside the last [...]: comm, or the error for C
};

[[nodiscard]] inline bool parse_blk_tail(std::string_view rest, BlkTail& t, std::string& why) {
  rest = scan::trim(rest);
  t = BlkTail{};
  if (rest.empty()) {
    why = "the line ends after RWBS (expected SECTOR + N [COMM])";
    return false;
  }
  if (rest.back() != ']') {
    why = "the line does not end in ']' (truncated?)";
    return false;
  }
  const size_t open = rest.find('[');
  if (open == std::string_view::npos) {
    why = "no '[' before the closing ']'";
    return false;
  }
  t.bracket = rest.substr(open + 1, rest.size() - open - 2);
  std::string_view head = scan::trim(rest.substr(0, open));
  if (!head.empty() && head.back() == ')') {  // (ELAPSED) or (CDB ..): drop it
    const size_t paren = head.find('(');
    if (paren == std::string_view::npos) {
      why = "')' without '('";
      return false;
    }
    head = scan::trim(head.substr(0, paren));
  }
  if (head.empty()) return true;  // zero length
  scan::Tokens tok(head);
  const std::string_view sector = tok.next();
  if (!scan::parse_uint(sector, "sector", t.sector, why)) return false;
  const std::string_view plus = tok.next();
  if (plus.empty()) return true;  // SECTOR [ERR], or BYTES (CDB) [COMM]: no sectors
  if (plus != "+") {
    why = fmt::format("expected '+' after the sector, found {}", scan::quote(plus));
    return false;
  }
  if (!scan::parse_uint(tok.next(), "length", t.sectors, why)) return false;
  if (const std::string_view extra = tok.next(); !extra.empty()) {
    why = fmt::format("unexpected {} after SECTOR + N", scan::quote(extra));
    return false;
  }
  if (t.sector > std::numeric_limits<uint64_t>::max() - t.sectors) {
    why = fmt::format("sector {} + {} overflows 64 bits", t.sector, t.sectors);
    return false;
  }
  return true;
}

// Fills `ev` from a decoded request; false (and counts it) when it moves no
// data and is not a flush.
[[nodiscard]] inline bool blk_event(BlkKind kind, const BlkTail& t, Event& ev, ImportSummary& s) {
  switch (kind) {
    case BlkKind::kWrite: ev.op = Op::kWrite; break;
    case BlkKind::kRead: ev.op = Op::kRead; break;
    case BlkKind::kTrim: ev.op = Op::kTrim; break;
    case BlkKind::kFlush:
      ev.op = Op::kFlush;
      ev.lba = 0;
      ev.sectors = 0;
      return true;
    case BlkKind::kNoData: ++s.no_data; return false;
  }
  ev.lba = t.sector;
  ev.sectors = t.sectors;
  return true;
}

// "MAJ,MIN" as blkparse and the kernel print it.
[[nodiscard]] inline bool parse_blk_device(std::string_view tok, uint32_t& dev, std::string& why) {
  const size_t comma = tok.find(',');
  if (comma == std::string_view::npos || !parse_maj_min(tok, dev)) {
    why = fmt::format("device {} is not MAJ,MIN", scan::quote(tok));
    return false;
  }
  return true;
}

}  // namespace ftlsim::trace::detail
