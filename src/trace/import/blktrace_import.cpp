// blktrace's binary files: what the kernel's block tracer hands blktrace(8),
// one file per CPU (DEV.blktrace.0, DEV.blktrace.1, ...), read as blkparse(1)
// reads them. Each record is a struct blk_io_trace (linux/blktrace_api.h,
// version 7: 48 bytes in the byte order of the machine that wrote it, which
// the magic tells) followed by pdu_len bytes of payload. A request's record
// becomes what blkparse's default text of it becomes through the blkparse
// importer: RWBS built as blkparse builds it, length bytes >> 9, a SCSI
// passthrough (BLK_TC_PC) request without sectors. Process notes
// (BLK_TN_PROCESS) name the pids for --pid-map comm: rules.
//
// The files are read in two passes. The first checks every record's framing
// (magic, version, payload inside the file) and finds where each CPU's
// runs of records start in each file, before any record is written: a damaged frame stops the import (no
// later record can be found), whatever --skip-bad says. The second merges
// the CPUs' streams by time: each CPU's records are in time order in the
// file that holds them (one file per CPU from blktrace; all CPUs in one
// file from `blktrace -o -`, in runs of a buffer each), so a stream is a
// cursor over one file that jumps from one of its CPU's runs to the next.
// A record whose range overflows is a malformed record (--skip-bad).
#include <linux/blktrace_api.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/import/blk_text.h"
#include "trace/import/import_driver.h"

namespace ftlsim::trace::detail {
namespace {

constexpr size_t kHeaderBytes = sizeof(blk_io_trace);
static_assert(kHeaderBytes == 48, "struct blk_io_trace is 48 bytes in version 7");

// One record's header, in the host's byte order, and where it lies.
struct Frame {
  blk_io_trace t;
  size_t pos;      // byte offset of the record in its file
  uint64_t index;  // 1-based record number in its file
};

// Decodes the record at `pos` of `file`; false with `why` for a frame that
// is not a version-7 blktrace record or does not fit in the file.
[[nodiscard]] bool read_frame(std::string_view file, size_t pos, blk_io_trace& t, std::string& why) {
  if (file.size() - pos < kHeaderBytes) {
    why = fmt::format("truncated: {} bytes left, a record header is {}", file.size() - pos, kHeaderBytes);
    return false;
  }
  std::memcpy(&t, file.data() + pos, kHeaderBytes);
  if ((t.magic & 0xFFFFFF00u) != BLK_IO_TRACE_MAGIC) {
    if ((__builtin_bswap32(t.magic) & 0xFFFFFF00u) != BLK_IO_TRACE_MAGIC) {
      why = fmt::format("magic {:#010x} is not blktrace's ({:#010x}); not a blktrace file, or damaged", t.magic,
                        BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION);
      return false;
    }
    t.magic = __builtin_bswap32(t.magic);
    t.sequence = __builtin_bswap32(t.sequence);
    t.time = __builtin_bswap64(t.time);
    t.sector = __builtin_bswap64(t.sector);
    t.bytes = __builtin_bswap32(t.bytes);
    t.action = __builtin_bswap32(t.action);
    t.pid = __builtin_bswap32(t.pid);
    t.device = __builtin_bswap32(t.device);
    t.cpu = __builtin_bswap32(t.cpu);
    t.error = __builtin_bswap16(t.error);
    t.pdu_len = __builtin_bswap16(t.pdu_len);
  }
  if ((t.magic & 0xFFu) != BLK_IO_TRACE_VERSION) {
    why = fmt::format("blktrace version {} (only version {} is known)", t.magic & 0xFFu, BLK_IO_TRACE_VERSION);
    return false;
  }
  if (file.size() - pos - kHeaderBytes < t.pdu_len) {
    why = fmt::format("truncated: a payload of {} bytes, {} left", t.pdu_len, file.size() - pos - kHeaderBytes);
    return false;
  }
  return true;
}

[[noreturn]] void frame_error(const std::string& source, uint64_t index, size_t pos, const std::string& why) {
  throw InputError(fmt::format("{}: record {} (byte {}): {}", source, index, pos, why));
}

// Where one CPU's records lie in a file: the first record of each of its
// runs (maximal sequences of consecutive records of that CPU).
struct RunStart {
  size_t pos;
  uint64_t index;  // 1-based record number in the file
};
struct CpuRuns {
  uint32_t cpu;
  std::vector<RunStart> runs;
};

// Every CPU's runs in `file`, CPUs in order of first appearance; checks every
// frame. One entry per run: one per CPU for blktrace's per-CPU files, one per
// buffer's worth for a `blktrace -o -` stream.
std::vector<CpuRuns> file_runs(std::string_view file, const std::string& source) {
  std::vector<CpuRuns> cpus;
  std::unordered_map<uint32_t, size_t> slot;
  blk_io_trace t{};
  std::string why;
  uint64_t index = 0;
  bool first = true;
  uint32_t last_cpu = 0;
  for (size_t pos = 0; pos < file.size(); pos += kHeaderBytes + t.pdu_len) {
    ++index;
    if (!read_frame(file, pos, t, why)) frame_error(source, index, pos, why);
    if (!first && t.cpu == last_cpu) continue;
    first = false;
    last_cpu = t.cpu;
    const auto [it, added] = slot.try_emplace(t.cpu, cpus.size());
    if (added) cpus.push_back(CpuRuns{t.cpu, {}});
    cpus[it->second].runs.push_back(RunStart{pos, index});
  }
  return cpus;
}

// The records of one CPU in one file, in file order (frames checked before):
// linear in the CPU's own records, whatever the other CPUs hold.
class CpuStream {
 public:
  CpuStream(std::string_view file, size_t file_index, CpuRuns runs)
      : file_(file), file_index_(file_index), cpu_(runs.cpu), runs_(std::move(runs.runs)) {
    next_ = runs_.front().pos;
    index_ = runs_.front().index;
    advance();
  }
  [[nodiscard]] bool done() const { return done_; }
  [[nodiscard]] const Frame& frame() const { return frame_; }
  [[nodiscard]] size_t file_index() const { return file_index_; }
  void advance() {
    std::string why;
    while (true) {
      if (next_ < file_.size()) {
        (void)read_frame(file_, next_, frame_.t, why);  // checked by file_runs
        if (frame_.t.cpu == cpu_) {
          frame_.pos = next_;
          frame_.index = index_;
          next_ += kHeaderBytes + frame_.t.pdu_len;
          ++index_;
          return;
        }
      }
      if (++run_ == runs_.size()) {  // the run ended: on to the next
        done_ = true;
        return;
      }
      next_ = runs_[run_].pos;
      index_ = runs_[run_].index;
    }
  }

 private:
  std::string_view file_;
  size_t file_index_;
  uint32_t cpu_;
  std::vector<RunStart> runs_;
  size_t run_ = 0;
  size_t next_ = 0;
  uint64_t index_ = 0;
  Frame frame_{};
  bool done_ = false;
};

// RWBS as blkparse prints it (blkparse_fmt.c, fill_rwbs).
std::string_view rwbs_of(const blk_io_trace& t, char (&buf)[8]) {
  const auto has = [&t](uint32_t category) { return (t.action & BLK_TC_ACT(category)) != 0; };
  size_t i = 0;
  if (has(BLK_TC_FLUSH)) buf[i++] = 'F';
  if (has(BLK_TC_DISCARD)) {
    buf[i++] = 'D';
  } else if (has(BLK_TC_WRITE)) {
    buf[i++] = 'W';
  } else {
    buf[i++] = t.bytes != 0 ? 'R' : 'N';
  }
  if (has(BLK_TC_FUA)) buf[i++] = 'F';
  if (has(BLK_TC_AHEAD)) buf[i++] = 'A';
  if (has(BLK_TC_SYNC)) buf[i++] = 'S';
  if (has(BLK_TC_META)) buf[i++] = 'M';
  return {buf, i};
}

class BlktraceReader {
 public:
  explicit BlktraceReader(const DriveContext& ctx) : ctx_(ctx), s_(*ctx.summary) {
    switch (ctx.options->action) {
      case BlkAction::kQueue: wanted_ = __BLK_TA_QUEUE; break;
      case BlkAction::kIssue: wanted_ = __BLK_TA_ISSUE; break;
      case BlkAction::kComplete: wanted_ = __BLK_TA_COMPLETE; break;
    }
  }

  template <class P>
  void run(P& placer) {
    std::vector<CpuStream> streams;
    for (size_t f = 0; f < ctx_.texts.size(); ++f) {
      for (CpuRuns& runs : file_runs(ctx_.texts[f], ctx_.sources[f])) {
        streams.emplace_back(ctx_.texts[f], f, std::move(runs));
      }
    }
    // Earliest record first; equal times in stream order (file, then the
    // CPU's first appearance in it).
    const auto later = [&streams](size_t a, size_t b) {
      const uint64_t ta = streams[a].frame().t.time;
      const uint64_t tb = streams[b].frame().t.time;
      return ta != tb ? ta > tb : a > b;
    };
    std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
    for (size_t i = 0; i < streams.size(); ++i) {
      if (!streams[i].done()) heap.push(i);
    }
    EventWriter<P> out(placer, ctx_, !ctx_.options->keep_time);
    ProgressLine* const progress = ctx_.options->progress;
    uint64_t bytes_read = 0;
    uint64_t records_read = 0;
    while (!heap.empty()) {
      const size_t i = heap.top();
      heap.pop();
      CpuStream& st = streams[i];
      const Frame& fr = st.frame();
      bytes_read += kHeaderBytes + fr.t.pdu_len;
      ++records_read;
      if (progress != nullptr && (records_read & (kProgressBatch - 1)) == 0) [[unlikely]] {
        progress->set(bytes_read);
      }
      Event ev;
      if (decode(st, fr, ev)) out.write(ev);
      st.advance();
      if (!st.done()) heap.push(i);
    }
    out.finish();
    if (progress != nullptr) progress->set(bytes_read);
    s_.lines = records_read;
  }

 private:
  // False for a record that is not an imported request (counted as such).
  bool decode(const CpuStream& st, const Frame& fr, Event& ev) {
    const blk_io_trace& t = fr.t;
    const std::string_view file = ctx_.texts[st.file_index()];
    if ((t.action & BLK_TC_ACT(BLK_TC_NOTIFY)) != 0) {
      note(file, fr);
      return false;
    }
    if ((t.action & 0xFFFFu & ~uint32_t{__BLK_TA_CGROUP}) != wanted_) {
      ++s_.other_actions;
      return false;
    }
    const uint32_t sectors = (t.action & BLK_TC_ACT(BLK_TC_PC)) != 0 ? 0 : t.bytes >> 9;
    if (t.sector > UINT64_MAX - sectors) {
      on_bad_line(ctx_.sources[st.file_index()], fr.index,
                  fmt::format("sector {} + {} overflows 64 bits (the record at byte {})", t.sector, sectors, fr.pos),
                  ctx_.options->skip_bad, s_.bad_lines, &s_.first_bad_line, &s_.first_bad_reason, "record");
      return false;
    }
    char buf[8];
    BlkKind kind{};
    std::string why;
    (void)decode_rwbs(rwbs_of(t, buf), sectors, kind, why);  // always an operation letter, known flags
    if (!blk_event(kind, BlkTail{t.sector, sectors, {}}, ev, s_)) return false;
    ev.time_ns = t.time;
    ev.dev = t.device;
    ev.proc = t.pid;
    const auto name = names_.find(t.pid);
    ev.comm = name == names_.end() ? std::string_view() : std::string_view(name->second);
    return true;
  }

  // A process note names its pid (the payload: an optional cgroup id, then
  // the name, NUL-padded); a later note renames it (a new process under a
  // reused pid; blkparse keeps the first name). Other notes (time stamps,
  // messages) are skipped.
  void note(std::string_view file, const Frame& fr) {
    const uint32_t kind = fr.t.action & 0xFFFFu;
    if ((kind & ~uint32_t{__BLK_TN_CGROUP}) != __BLK_TN_PROCESS) return;
    std::string_view payload = file.substr(fr.pos + kHeaderBytes, fr.t.pdu_len);
    if ((kind & __BLK_TN_CGROUP) != 0) payload.remove_prefix(std::min<size_t>(payload.size(), sizeof(uint64_t)));
    payload = payload.substr(0, std::min(payload.find('\0'), payload.size()));
    names_[fr.t.pid] = std::string(payload);
  }

  const DriveContext& ctx_;
  ImportSummary& s_;
  uint32_t wanted_ = __BLK_TA_ISSUE;
  std::unordered_map<uint32_t, std::string> names_;
};

}  // namespace

void run_blktrace(const DriveContext& ctx) {
  if (auto* h = std::get_if<HintPlacer>(ctx.placer); h != nullptr) h->index->set_match_device(true);
  BlktraceReader reader(ctx);
  std::visit([&](auto& placer) { reader.run(placer); }, *ctx.placer);
  ctx.sink->flush();
}

}  // namespace ftlsim::trace::detail
