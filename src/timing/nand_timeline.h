#pragma once
// NAND resources for timed mode: a BusyCalendar per plane (one per die
// unless --planes > 1: planes of a die read and program independently, an
// erase takes them all at once) and per channel (one page transfer at a
// time). An operation starts at the earliest time its resource is free at or
// after its ready time, as in FEMU's bbssd (ssd_advance_status in
// MoatLab/FEMU hw/femu/bbssd/ftl.c starts an operation at max(command time,
// the LUN's next available time)), except that idle gaps left behind a
// waiting operation can still be used (busy_calendar.h). All times in ns.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "timing/busy_calendar.h"
#include "timing/nand_map.h"
#include "timing/timing_config.h"

namespace ftlsim::timing {

class NandTimeline {
 public:
  NandTimeline() = default;
  NandTimeline(const TimingConfig& c, const NandMap& m)
      : read_(c.read_ns),
        program_(c.program_ns),
        erase_(c.erase_ns),
        xfer_(c.xfer_ns),
        planes_per_die_(m.planes_per_die()),
        planes_(uint64_t{m.dies()} * m.planes_per_die(),
                BusyCalendar(std::min(c.read_ns, c.program_ns), std::max(c.read_ns, c.program_ns))),
        channels_(m.channels(), BusyCalendar(c.xfer_ns)) {}

  // No reservation will be made to start before `t` any more: gaps that end
  // by then are forgotten. Never moves back.
  void set_horizon(uint64_t t) { horizon_ = std::max(horizon_, t); }

  // When a read of the page at `l`, ready at `ready`, would start in the array.
  [[nodiscard]] uint64_t read_start(NandLoc l, uint64_t ready) {
    return planes_[l.plane].earliest(ready, read_, horizon_);
  }
  // Page read: array read on the plane, then transfer out on the channel.
  // Returns when the data is out.
  uint64_t read(NandLoc l, uint64_t ready) {
    const uint64_t done = planes_[l.plane].reserve(ready, read_, horizon_) + read_;
    busy_ns_ += read_;
    return transfer(l.channel, done);
  }
  // read() if the array read can start before `limit`: then returns its
  // start and sets data_out; else returns when it could start, reserving
  // nothing.
  uint64_t read_if_before(NandLoc l, uint64_t ready, uint64_t limit, uint64_t& data_out) {
    const uint64_t s = planes_[l.plane].reserve_before(ready, read_, horizon_, limit);
    if (s < limit) {
      busy_ns_ += read_;
      data_out = transfer(l.channel, s + read_);
    }
    return s;
  }
  // Page program: transfer in on the channel, then program on the plane.
  // Returns when the program ends.
  uint64_t program(NandLoc l, uint64_t ready) {
    const uint64_t in = transfer(l.channel, ready);
    busy_ns_ += program_;
    return planes_[l.plane].reserve(in, program_, horizon_) + program_;
  }
  // When an erase of `die` (all its planes), ready at `ready`, would start.
  [[nodiscard]] uint64_t erase_start(uint32_t die, uint32_t rows, uint64_t ready) {
    const uint64_t dur = erase_ * rows;
    uint64_t s = ready;
    for (int round = 0; round < 8; ++round) {  // a time every plane has free
      uint64_t next = s;
      for (uint32_t p = 0; p < planes_per_die_; ++p) {
        next = std::max(next, planes_[die * planes_per_die_ + p].earliest(s, dur, horizon_));
      }
      if (next == s) return s;
      s = next;
    }
    for (uint32_t p = 0; p < planes_per_die_; ++p) s = std::max(s, planes_[die * planes_per_die_ + p].free_at());
    return s;
  }
  // Erases `rows` blocks on every plane of `die` (one multi-plane erase per
  // row). Returns when it ends.
  uint64_t erase(uint32_t die, uint32_t rows, uint64_t ready) {
    const uint64_t dur = erase_ * rows;
    const uint64_t s = erase_start(die, rows, ready);
    for (uint32_t p = 0; p < planes_per_die_; ++p) (void)planes_[die * planes_per_die_ + p].reserve(s, dur, horizon_);
    busy_ns_ += dur * planes_per_die_;
    return s + dur;
  }
  // Plane-nanoseconds of array work reserved so far (reads, programs, erases).
  [[nodiscard]] uint64_t busy_ns() const { return busy_ns_; }
  [[nodiscard]] uint64_t planes() const { return planes_.size(); }

 private:
  uint64_t transfer(uint32_t channel, uint64_t ready) {
    if (xfer_ == 0) return ready;
    return channels_[channel].reserve(ready, xfer_, horizon_) + xfer_;
  }

  uint64_t read_ = 0, program_ = 0, erase_ = 0, xfer_ = 0;
  uint32_t planes_per_die_ = 1;
  std::vector<BusyCalendar> planes_;
  std::vector<BusyCalendar> channels_;
  uint64_t horizon_ = 0;
  uint64_t busy_ns_ = 0;
};

}  // namespace ftlsim::timing
