#pragma once
// The NAND side of timed mode: turns what the FTL does (TimingSink calls)
// into reservations on planes and channels (NandTimeline), and decides when
// GC work runs.
//
// What is modelled:
//  - Host reads and programs are placed when the request is issued, at the
//    issue time or later (first come, first served per resource). A request
//    completes when its last page is read out / programmed (no write cache).
//    A read-modify-write read delays the program of its slot.
//  - Background GC (the passes FEMU runs after a request) is queued, not
//    placed: before anything is placed at time t, queued GC operations that
//    can start before t on their die are placed (fill), so GC uses the time
//    host requests leave the dies idle. An operation started before a host
//    request arrives runs to its end (no preemption); a copy's program is
//    placed with its read.
//  - Forced GC (in the write path) places all queued GC work at once, so the
//    writing request's programs queue behind it on every die (the write
//    waits for free space, as behind FEMU's forced do_gc). Placing work at
//    a time later than a resource's busy-until would leave a gap nothing
//    can fill, so nothing waits for a global point in time.
//  - Ordering that data needs is kept: a program into a unit waits for the
//    unit's erase (placing it first if it is still queued: a gc_wait, as is
//    forced GC); a GC read waits for every program into its unit, an erase
//    for every program into and read of its unit. A host read does not wait
//    for the program of its data (a device would serve data in flight from
//    its buffers; no buffer hit is modelled, the read is timed on the die).
// All decisions are deterministic; no allocation per page once queues have
// grown to their working size.
#include <cstdint>
#include <vector>

#include "timing/event_series.h"
#include "timing/gc_queue.h"
#include "timing/nand_map.h"
#include "timing/nand_timeline.h"
#include "timing/timing_config.h"
#include "timing/timing_result.h"

namespace ftlsim::timing {

class TimedDevice {
 public:
  // `result` receives counters and GC events; it must outlive this object.
  TimedDevice(const TimingConfig& cfg, const NandMap& map, TimingResult& result);
  TimedDevice(const TimedDevice&) = delete;
  TimedDevice& operator=(const TimedDevice&) = delete;

  // A host request of type `op` issued at `now` (>= every earlier now).
  void begin_request(uint64_t now, HostOp op);
  // Ends it; returns its completion time (now when it used no NAND).
  uint64_t end_request();
  // The issue time of the request begun last.
  [[nodiscard]] uint64_t now() const { return now_; }
  // Whether the request just ended read a page (false: all slots unmapped).
  [[nodiscard]] bool request_read_nand() const { return req_reads_ != 0; }
  // Off: FTL operations are not timed (records the --ops filter skips).
  void set_recording(bool on) {
    queue_copies();
    recording_ = on;
  }
  // Places every queued GC operation; call once after the last request.
  void finish();

  // From the FTL (TimingSink). Slots are physical.
  void host_read(uint32_t slot);
  void host_program(uint32_t slot);
  void gc_begin(bool forced);
  // A GC copy is noted here, inline in the FTL's copy loop, and queued with
  // the copies noted before it before anything reads the queue (at the
  // pass's erase at the latest): the same operations in the same order.
  void gc_copy(uint32_t src, uint32_t dst) {
    if (!recording_) return;
    if (noted_ == kNoteBatch) [[unlikely]]
      queue_noted();
    notes_[noted_++] = Copy{src, dst};
  }
  void unit_erase(uint32_t unit);

  [[nodiscard]] uint64_t queued_gc_ops() {
    queue_copies();
    return queue_.pending();
  }

 private:
  struct Copy {
    uint32_t src, dst;
  };
  static constexpr uint32_t kNoteBatch = 4096;
  std::vector<Copy> notes_ = std::vector<Copy>(kNoteBatch);
  uint32_t noted_ = 0;
  // Queues the copies noted so far.
  void queue_copies() {
    if (noted_ != 0) queue_noted();
  }
  [[gnu::noinline]] void queue_noted();

  void fill(uint64_t now);
  // Places every queued operation with sequence number <= last, in order;
  // returns the latest end among them (0 if none).
  uint64_t drain_through(uint64_t last);
  // Places queued operation seq (not done), the first of `die`; returns when
  // it ends.
  uint64_t place(uint64_t seq, uint32_t die);
  // The rest of placing copy seq (op) once its read is reserved: the data is
  // out at data_out.
  uint64_t place_copy(uint64_t seq, uint32_t die, const GcOp& op, uint64_t data_out);
  [[nodiscard]] uint64_t erase_ready(const GcOp& op) const;
  // A queued operation (GcOp): a copy reads on plane a into plane b, from
  // unit c into unit d; an erase (d == kErase) erases unit c on die a.
  static constexpr uint32_t kErase = ~uint32_t{0};
  [[nodiscard]] uint32_t die_of(const GcOp& op) const { return op.d == kErase ? op.a : map_.die_of_plane(op.a); }
  // Before a host operation: places the queued work it depends on.
  void wait_for(uint64_t seq);

  NandMap map_;
  NandTimeline nand_;
  GcQueue queue_;
  TimingResult& out_;
  // Per unit: the last queued erase of it and the last queued copy into it.
  std::vector<uint64_t> last_erase_;
  std::vector<uint64_t> last_copy_in_;
  // Per unit, from what is placed: when its last erase ends, and the latest
  // end of a program into it and of a read from it. Operations may be placed
  // into idle gaps earlier than operations placed before them, so the order
  // data needs is kept by these times, not by placement order.
  std::vector<uint64_t> erase_end_;
  std::vector<uint64_t> program_end_;
  std::vector<uint64_t> read_end_;

  bool recording_ = true;
  bool forced_pass_ = false;
  HostOp op_ = HostOp::kRead;
  uint64_t now_ = 0;
  uint64_t floor_ = 0;      // host operations of this request start no earlier: its issue time
  uint64_t rmw_ready_ = 0;  // the next program waits for its read-modify-write read
  uint64_t req_end_ = 0;
  uint64_t req_reads_ = 0;
  // fill() skips its scan while no die's first queued operation can start
  // before fill_next_ (start times only move later) and no die's first
  // operation changed (fill_dirty_).
  uint64_t fill_next_ = 0;
  bool fill_dirty_ = true;
  // Per die, a time its first queued operation cannot start before (start
  // times only move later): fill() looks only at dies whose bound is before
  // now, in one pass over this array. 0 once the first operation changed
  // (placed, or queued on an idle die), kIdle while nothing is queued.
  static constexpr uint64_t kIdle = ~uint64_t{0};
  std::vector<uint64_t> head_start_;
  // Per die: what fill() last found of its first queued operation (valid
  // until that operation is placed): a ready time no later than its real one,
  // where it reads (a copy) and whether it is a copy.
  struct HeadCache {
    uint64_t ready = 0;
    uint32_t plane = 0;
    bool copy = false;
    bool valid = false;
  };
  std::vector<HeadCache> heads_;
  // The first operation of `die` changed.
  void head_changed(uint32_t die) {
    head_start_[die] = 0;
    heads_[die].valid = false;
  }
};

// The sink PageFtl calls in timed mode: forwards to a TimedDevice.
struct TimingSink {
  TimedDevice* dev = nullptr;
  void on_host_read(uint32_t slot) { dev->host_read(slot); }
  void on_host_program(uint32_t slot) { dev->host_program(slot); }
  void on_gc_begin(bool forced) { dev->gc_begin(forced); }
  void on_gc_copy(uint32_t src, uint32_t dst) { dev->gc_copy(src, dst); }
  void on_unit_erase(uint32_t unit) { dev->unit_erase(unit); }
};

}  // namespace ftlsim::timing
