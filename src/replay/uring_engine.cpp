#include "replay/uring_engine.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <liburing.h>
#include <linux/nvme_ioctl.h>
#include <sys/uio.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>

#include "core/error.h"
#include "core/io_units.h"
#include "core/units.h"
#include "replay/data_pattern.h"
#include "replay/nvme_cmd.h"
#include "timing/time_scale.h"

namespace ftlsim::replay {
namespace {

using trace::Op;

// Linux 6.16 added `__u8 write_stream` to struct io_uring_sqe, in the union
// at byte 44 that also holds file_index (include/uapi/linux/io_uring.h;
// io_uring/io_uring.c checks BUILD_BUG_SQE_ELEM(44, __u8, write_stream)).
// The installed liburing 2.3 headers predate the field, so the byte is set
// by its ABI offset; io_uring_prep_rw() zeroes it (file_index = 0).
constexpr size_t kSqeWriteStreamOffset = 44;
static_assert(offsetof(io_uring_sqe, file_index) == kSqeWriteStreamOffset,
              "the write_stream byte shares the union at byte 44 with file_index");

constexpr uint64_t kLateNs = 1'000'000;  // a timed submission this late counts as late
constexpr uint64_t kProgressEveryNs = kNsPerSecond;
constexpr uint64_t kMaxBufferBytes = uint64_t{1} << 30;

uint64_t now_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * kNsPerSecond + static_cast<uint64_t>(ts.tv_nsec);
}

void sleep_until(uint64_t deadline_ns) {
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(deadline_ns / kNsPerSecond);
  ts.tv_nsec = static_cast<long>(deadline_ns % kNsPerSecond);
  ::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);  // EINTR: the caller re-checks
}

struct FreeDeleter {
  void operator()(uint8_t* p) const { std::free(p); }
};

struct Slot {
  uint64_t offset = 0;
  uint64_t submit_ns = 0;
  uint32_t bytes = 0;
  uint32_t record = 0;
  uint32_t inflight_pos = 0;  // index in Engine::inflight_
  trace::PlacementId pid = 0;
  Op op = Op::kWrite;
  bool filler_ok = true;  // the buffer holds the pattern filler (a read overwrites it)
  nvme::DsmRange dsm;     // NVMe trims: the range the command points at
};

class Engine {
 public:
  Engine(const Target& target, std::span<const trace::Record> records, const StreamGeometry& geo,
         const StreamScan& scan, const ReplayConfig& cfg, const PlacementPlan& plan, const EngineHooks& hooks)
      : target_(target),
        records_(records),
        cfg_(cfg),
        plan_(plan),
        hooks_(hooks),
        stream_(records, geo),
        nvme_(target.info().kind == TargetKind::kNvmeGeneric),
        sync_trim_(target.info().kind == TargetKind::kBlockDevice),
        total_bytes_(scan.moved_bytes()) {
    interval_ = cfg.interval_bytes != 0 ? cfg.interval_bytes : std::max<uint64_t>(total_bytes_ / 100, 1);
    next_row_ = interval_;
    uint64_t largest = std::max<uint64_t>(scan.largest_data_io, 4096);
    slot_bytes_ = static_cast<uint32_t>((largest + 4095) / 4096 * 4096);
    size_t pid_count = 1;
    for (const trace::Record& r : records) pid_count = std::max<size_t>(pid_count, size_t{r.pid} + 1);
    result_.bytes_by_pid.resize(pid_count);
    t0_ = records.empty() ? 0 : records[0].time_ns;
  }
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine() {
    if (!ring_ready_) return;
    // The kernel tears a ring down asynchronously; a file still registered
    // with it would stay open for a moment after this process exits, and a
    // block device's exclusive claim with it (the next replay would find
    // the device busy). Unregistering drops the reference now.
    if (fixed_file_) io_uring_unregister_files(&ring_);
    if (fixed_buffers_) io_uring_unregister_buffers(&ring_);
    io_uring_queue_exit(&ring_);
  }

  EngineResult run();

 private:
  void setup();
  [[nodiscard]] bool conflicts(const IoRequest& r) const;
  [[nodiscard]] uint64_t due_ns(uint32_t record) const;
  void prepare(uint32_t s, const IoRequest& r);
  void prepare_nvme(io_uring_sqe* sqe, Slot& sl, uint8_t* buf);
  void sync_trim(const IoRequest& r);
  void reap(uint64_t now);
  void complete(uint32_t s, int res, uint64_t now);
  void account(Op op, uint32_t bytes, trace::PlacementId pid, uint64_t latency);
  void fail(const std::string& what);
  void row(uint64_t now);
  [[nodiscard]] uint64_t records_done() const { return have_pending_ ? pending_.record : stream_.position(); }
  [[nodiscard]] uint8_t* buffer(uint32_t s) const { return buffers_.get() + size_t{s} * slot_bytes_; }

  const Target& target_;
  std::span<const trace::Record> records_;
  const ReplayConfig& cfg_;
  const PlacementPlan& plan_;
  const EngineHooks& hooks_;
  RequestStream stream_;
  const bool nvme_;
  const bool sync_trim_;
  const uint64_t total_bytes_;

  io_uring ring_{};
  bool ring_ready_ = false;
  int file_ = -1;  // fixed-file index 0, or the plain fd
  bool fixed_file_ = false;
  bool fixed_buffers_ = false;
  uint32_t slot_bytes_ = 4096;
  std::unique_ptr<uint8_t, FreeDeleter> buffers_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_;
  std::vector<uint32_t> inflight_;  // busy slot indices, compact
  std::vector<uint32_t> batch_;     // prepared since the last submission

  IoRequest pending_{};
  bool have_pending_ = false;
  bool eof_ = false;
  bool stopping_ = false;
  uint64_t start_ns_ = 0;
  uint64_t t0_ = 0;

  uint64_t bytes_done_ = 0;
  uint64_t ios_done_ = 0;
  uint64_t interval_ = 1;
  uint64_t next_row_ = 1;
  uint64_t last_row_ns_ = 0, last_row_bytes_ = 0, last_row_ios_ = 0;
  LatencyHistogram interval_latency_;
  uint64_t last_progress_ns_ = 0;
  EngineResult result_;
};

void Engine::setup() {
  const uint32_t qd = cfg_.queue_depth;
  const uint64_t buffer_bytes = uint64_t{qd} * slot_bytes_;
  if (buffer_bytes > kMaxBufferBytes) {
    throw InputError(
        say("`qd` {} x the largest I/O ({}) needs {} of buffers, more than {}; lower `qd` or "
            "`max-io`",
            qd, format_bytes(slot_bytes_), format_bytes(buffer_bytes), format_bytes(kMaxBufferBytes)));
  }
  io_uring_params p{};
  const unsigned extra = nvme_ ? (IORING_SETUP_SQE128 | IORING_SETUP_CQE32) : 0u;
  p.flags = extra | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
  int rc = io_uring_queue_init_params(qd, &ring_, &p);
  if (rc == -EINVAL) {  // a kernel before 6.0 lacks SINGLE_ISSUER
    p = io_uring_params{};
    p.flags = extra;
    rc = io_uring_queue_init_params(qd, &ring_, &p);
  }
  if (rc < 0) {
    throw SystemError(
        fmt::format("io_uring setup with {} entries: {} (is io_uring disabled by "
                    "/proc/sys/kernel/io_uring_disabled?)",
                    qd, std::strerror(-rc)));
  }
  ring_ready_ = true;

  void* mem = nullptr;
  if (::posix_memalign(&mem, std::max<size_t>(target_.info().mem_align, 4096), buffer_bytes) != 0) {
    throw SystemError(fmt::format("cannot allocate {} of I/O buffers", format_bytes(buffer_bytes)));
  }
  buffers_.reset(static_cast<uint8_t*>(mem));
  fill_pattern({buffers_.get(), buffer_bytes});
  slots_.resize(qd);
  free_.reserve(qd);
  for (uint32_t s = qd; s > 0; --s) free_.push_back(s - 1);
  inflight_.reserve(qd);
  batch_.reserve(qd);

  // Registered buffers count against RLIMIT_MEMLOCK for unprivileged users;
  // without them the replay still runs, with plain reads and writes.
  if (!nvme_) {
    std::vector<iovec> iov(qd);
    for (uint32_t s = 0; s < qd; ++s) iov[s] = {buffer(s), slot_bytes_};
    fixed_buffers_ = io_uring_register_buffers(&ring_, iov.data(), qd) == 0;
  }
  const int fd = target_.fd();
  fixed_file_ = io_uring_register_files(&ring_, &fd, 1) == 0;
  file_ = fixed_file_ ? 0 : fd;
  result_.registered_buffers = fixed_buffers_;
  result_.registered_file = fixed_file_;
}

bool Engine::conflicts(const IoRequest& r) const {
  if (r.op == Op::kFlush) return !inflight_.empty();
  const uint64_t end = r.offset + r.bytes;
  for (const uint32_t s : inflight_) {
    const Slot& o = slots_[s];
    if (o.op == Op::kFlush) continue;
    if (r.op == Op::kRead && o.op == Op::kRead) continue;
    if (r.offset < o.offset + o.bytes && o.offset < end) return true;
  }
  return false;
}

uint64_t Engine::due_ns(uint32_t record) const {
  const uint64_t t = records_[record].time_ns;
  if (t <= t0_) return start_ns_;
  // Saturating: run_replay's caller refused spans beyond 2^62 ns (time_scale.h).
  return start_ns_ + timing::scaled_issue_ns(t - t0_, cfg_.speed);
}

void Engine::prepare(uint32_t s, const IoRequest& r) {
  Slot& sl = slots_[s];
  sl.offset = r.offset;
  sl.bytes = r.bytes;
  sl.record = r.record;
  sl.pid = r.pid;
  sl.op = r.op;
  sl.inflight_pos = static_cast<uint32_t>(inflight_.size());
  inflight_.push_back(s);
  batch_.push_back(s);
  result_.max_inflight = std::max<uint32_t>(result_.max_inflight, static_cast<uint32_t>(inflight_.size()));

  uint8_t* buf = buffer(s);
  if (r.op == Op::kWrite) {
    if (!sl.filler_ok) {
      fill_pattern({buf, slot_bytes_});
      sl.filler_ok = true;
    }
    stamp_pattern({buf, r.bytes}, r.offset, r.record, r.pid);
  } else if (r.op == Op::kRead) {
    sl.filler_ok = false;
  }

  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);  // never null: at most queue_depth are prepared per submission
  if (nvme_) {
    prepare_nvme(sqe, sl, buf);
  } else {
    switch (r.op) {
      case Op::kWrite:
        if (fixed_buffers_) {
          io_uring_prep_write_fixed(sqe, file_, buf, r.bytes, r.offset, static_cast<int>(s));
        } else {
          io_uring_prep_write(sqe, file_, buf, r.bytes, r.offset);
        }
        if (plan_.mode == PlacementMode::kStream) {
          reinterpret_cast<uint8_t*>(sqe)[kSqeWriteStreamOffset] = plan_.stream_by_pid[r.pid];
        }
        break;
      case Op::kRead:
        if (fixed_buffers_) {
          io_uring_prep_read_fixed(sqe, file_, buf, r.bytes, r.offset, static_cast<int>(s));
        } else {
          io_uring_prep_read(sqe, file_, buf, r.bytes, r.offset);
        }
        break;
      case Op::kTrim:
        io_uring_prep_fallocate(sqe, file_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(r.offset),
                                static_cast<off_t>(r.bytes));
        break;
      case Op::kFlush: io_uring_prep_fsync(sqe, file_, IORING_FSYNC_DATASYNC); break;
      case Op::kMarker: break;  // never emitted by the stream
    }
    if (fixed_file_) sqe->flags |= IOSQE_FIXED_FILE;
  }
  sqe->user_data = s;
}

void Engine::prepare_nvme(io_uring_sqe* sqe, Slot& sl, uint8_t* buf) {
  const NvmeNamespace& ns = target_.info().nvme;
  const uint64_t slba = sl.offset / ns.lba_bytes;
  const uint32_t blocks = sl.bytes / ns.lba_bytes;
  nvme_uring_cmd cmd{};
  switch (sl.op) {
    case Op::kWrite: {
      std::optional<uint16_t> dspec;
      if (plan_.mode == PlacementMode::kNvme) dspec = plan_.dspec_by_pid[sl.pid];
      cmd = nvme::write_cmd(ns.nsid, slba, blocks, buf, sl.bytes, dspec);
      break;
    }
    case Op::kRead: cmd = nvme::read_cmd(ns.nsid, slba, blocks, buf, sl.bytes); break;
    case Op::kTrim:
      sl.dsm = nvme::DsmRange{0, blocks, slba};
      cmd = nvme::deallocate_cmd(ns.nsid, &sl.dsm);
      break;
    case Op::kFlush: cmd = nvme::flush_cmd(ns.nsid); break;
    case Op::kMarker: break;
  }
  std::memset(sqe, 0, 2 * sizeof(io_uring_sqe));  // SQE128: the command fills the second half
  sqe->opcode = IORING_OP_URING_CMD;
  sqe->fd = file_;
  if (fixed_file_) sqe->flags |= IOSQE_FIXED_FILE;
  sqe->cmd_op = NVME_URING_CMD_IO;
  static_assert(sizeof(nvme_uring_cmd) <= 80, "the NVMe command must fit the 80 command bytes of a 128-byte SQE");
  std::memcpy(sqe->cmd, &cmd, sizeof cmd);
}

void Engine::sync_trim(const IoRequest& r) {
  const uint64_t t = now_ns();
  const int rc = target_.discard(r.offset, r.bytes);
  const uint64_t done = now_ns();
  if (rc != 0) {
    ++result_.ops[static_cast<size_t>(Op::kTrim)].errors;
    fail(fmt::format("trim (BLKDISCARD) of {} bytes at offset {} (record {}): {}", r.bytes, r.offset, r.record,
                     std::strerror(-rc)));
    return;
  }
  account(Op::kTrim, r.bytes, r.pid, done - t);
}

void Engine::account(Op op, uint32_t bytes, trace::PlacementId pid, uint64_t latency) {
  OpTotals& t = result_.ops[static_cast<size_t>(op)];
  ++t.ios;
  t.bytes += bytes;
  t.latency_ns.record(latency);
  interval_latency_.record(latency);
  PidBytes& pb = result_.bytes_by_pid[pid];
  if (op == Op::kWrite) pb.write += bytes;
  if (op == Op::kRead) pb.read += bytes;
  if (op == Op::kTrim) pb.trim += bytes;
  bytes_done_ += bytes;
  ++ios_done_;
}

void Engine::fail(const std::string& what) {
  if (!result_.io_error) {
    result_.io_error = true;
    result_.stop_reason = "I/O error: " + what;
  }
  stopping_ = true;
}

void Engine::complete(uint32_t s, int res, uint64_t now) {
  Slot& sl = slots_[s];
  const bool data = sl.op == Op::kRead || sl.op == Op::kWrite;
  const bool ok = nvme_ ? res == 0 : (data ? res == static_cast<int>(sl.bytes) : res >= 0);
  if (ok) {
    account(sl.op, sl.bytes, sl.pid, now - sl.submit_ns);
  } else {
    ++result_.ops[static_cast<size_t>(sl.op)].errors;
    std::string why;
    if (res < 0) {
      why = std::strerror(-res);
    } else if (nvme_) {
      why = fmt::format("NVMe status {:#x}", res);
    } else {
      why = fmt::format("only {} of {} bytes transferred", res, sl.bytes);
    }
    fail(fmt::format("{} of {} bytes at offset {} (record {}): {}", trace::op_name(sl.op), sl.bytes, sl.offset,
                     sl.record, why));
  }
  // Release the slot: swap it out of the compact in-flight list.
  const uint32_t pos = sl.inflight_pos;
  const uint32_t last = inflight_.back();
  inflight_[pos] = last;
  slots_[last].inflight_pos = pos;
  inflight_.pop_back();
  free_.push_back(s);
}

void Engine::reap(uint64_t now) {
  unsigned head = 0;
  unsigned seen = 0;
  io_uring_cqe* cqe = nullptr;
  io_uring_for_each_cqe(&ring_, head, cqe) {
    ++seen;
    if (cqe->user_data < slots_.size()) complete(static_cast<uint32_t>(cqe->user_data), cqe->res, now);
  }
  io_uring_cq_advance(&ring_, seen);
}

void Engine::row(uint64_t now) {
  EventRow e;
  e.elapsed_ns = now - start_ns_;
  e.records = records_done();
  e.trace_time_ns = e.records > 0 ? records_[e.records - 1].time_ns : 0;
  e.ios = ios_done_;
  e.bytes = bytes_done_;
  e.interval_ios = ios_done_ - last_row_ios_;
  e.interval_bytes = bytes_done_ - last_row_bytes_;
  e.interval_ns = now - last_row_ns_;
  e.interval_p50_ns = interval_latency_.percentile(0.50);
  e.interval_p99_ns = interval_latency_.percentile(0.99);
  e.interval_max_ns = interval_latency_.max();
  e.inflight = static_cast<uint32_t>(inflight_.size());
  e.marker = stream_.last_marker();
  result_.events.push_back(e);
  interval_latency_.clear();
  last_row_ns_ = now;
  last_row_bytes_ = bytes_done_;
  last_row_ios_ = ios_done_;
}

EngineResult Engine::run() {
  setup();
  const bool timed = cfg_.mode == ReplayMode::kTimed;
  start_ns_ = now_ns();
  last_row_ns_ = start_ns_;
  last_progress_ns_ = start_ns_;
  uint64_t now = start_ns_;
  uint64_t wait_until = 0;
  while (true) {
    if (!stopping_ && hooks_.stop != nullptr && hooks_.stop->load(std::memory_order_relaxed)) {
      stopping_ = true;
      result_.interrupted = true;
      if (result_.stop_reason.empty()) result_.stop_reason = "interrupted";
    }
    // Fill the queue in trace order.
    wait_until = 0;
    while (!stopping_ && !free_.empty()) {
      if (!have_pending_) {
        bool more = false;
        try {
          more = stream_.next(pending_);
        } catch (const InputError& e) {
          // The pre-flight scan accepted every record, so the trace changed
          // since: stop submitting and let the report say why.
          result_.input_error = true;
          result_.stop_reason = e.what();
          stopping_ = true;
          break;
        }
        if (!more) {
          eof_ = true;
          break;
        }
        have_pending_ = true;
      }
      if (timed) {
        const uint64_t due = due_ns(pending_.record);
        if (now < due) {
          wait_until = due;
          break;
        }
      }
      if (conflicts(pending_)) break;
      if (timed) {
        const uint64_t lag = now - due_ns(pending_.record);
        result_.lag_ns.record(lag);
        if (lag > kLateNs) ++result_.late_ios;
      }
      have_pending_ = false;
      if (pending_.op == Op::kTrim && sync_trim_) {
        sync_trim(pending_);
        now = now_ns();
        continue;
      }
      prepare(free_.back(), pending_);
      free_.pop_back();
    }
    if (!batch_.empty()) {
      const uint64_t t = now_ns();
      for (const uint32_t s : batch_) slots_[s].submit_ns = t;
      batch_.clear();
    }
    if (inflight_.empty()) {
      if (stopping_ || (eof_ && !have_pending_)) break;
      if (wait_until > now) sleep_until(wait_until);
      now = now_ns();
      continue;
    }
    int rc = 0;
    if (wait_until > now) {
      const uint64_t wait = wait_until - now;
      __kernel_timespec ts{};
      ts.tv_sec = static_cast<decltype(ts.tv_sec)>(wait / kNsPerSecond);
      ts.tv_nsec = static_cast<decltype(ts.tv_nsec)>(wait % kNsPerSecond);
      io_uring_cqe* cqe = nullptr;
      rc = io_uring_submit_and_wait_timeout(&ring_, &cqe, 1, &ts, nullptr);
    } else {
      rc = io_uring_submit_and_wait(&ring_, 1);
    }
    if (rc < 0 && rc != -EINTR && rc != -ETIME && rc != -EAGAIN && rc != -EBUSY) {
      fail(fmt::format("io_uring_enter: {}", std::strerror(-rc)));
      // Nothing more can be submitted or reaped reliably: stop here.
      break;
    }
    now = now_ns();
    reap(now);
    if (bytes_done_ >= next_row_) {
      row(now);
      next_row_ = (bytes_done_ / interval_ + 1) * interval_;
    }
    if (hooks_.progress && now - last_progress_ns_ >= kProgressEveryNs) {
      last_progress_ns_ = now;
      hooks_.progress({now - start_ns_, bytes_done_, total_bytes_, ios_done_, static_cast<uint32_t>(inflight_.size())});
    }
  }
  now = now_ns();
  // A last row at the end, unless the last one already shows the end state.
  const bool same = !result_.events.empty() && result_.events.back().ios == ios_done_ &&
                    result_.events.back().records == records_done() &&
                    result_.events.back().marker == stream_.last_marker();
  if (!same) row(now);
  result_.elapsed_ns = now - start_ns_;
  result_.records_done = records_done();
  result_.partial =
      result_.io_error || result_.input_error || (result_.interrupted && result_.records_done < records_.size());
  if (!result_.partial && !result_.io_error && !result_.input_error) {
    result_.stop_reason.clear();
    result_.interrupted = false;
  }
  return std::move(result_);
}

}  // namespace

EngineResult run_replay(const Target& target, std::span<const trace::Record> records, const StreamGeometry& geo,
                        const StreamScan& scan, const ReplayConfig& cfg, const PlacementPlan& plan,
                        const EngineHooks& hooks) {
  auto engine = std::make_unique<Engine>(target, records, geo, scan, cfg, plan, hooks);
  return engine->run();
}

}  // namespace ftlsim::replay
