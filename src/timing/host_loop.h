#pragma once
// The host side of timed mode: issues the trace's requests to the device in
// an open loop (at their time stamps / speed) or a closed loop (qd
// outstanding), runs the discrete-event loop, and collects per-request
// latencies. The FTL work of record i is done by step(i), the same function
// fast mode runs per record, so both modes make the same FTL decisions in the
// same order; TimedDevice hears of the NAND operations through the FTL's
// sink and says when the request completes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include "timing/event_queue.h"
#include "timing/time_scale.h"
#include "timing/timed_device.h"
#include "timing/timing_result.h"
#include "trace/record.h"

namespace ftlsim::timing {

// REQUIRES: cfg passed TimingConfig::problems(); `dev` writes into `out`.
// step(i) applies record i to the FTL (throws InputError for a bad record).
template <class Step>
void run_host_loop(std::span<const trace::Record> records, uint32_t sector_bytes, const TimingConfig& cfg,
                   TimedDevice& dev, TimingResult& out, Step&& step) {
  using trace::Op;
  EventQueue queue;
  queue.reserve(cfg.mode == HostMode::kClosed ? cfg.qd + 1 : 4096);
  const size_t n = records.size();

  auto timed = [&](uint8_t op) {
    switch (cfg.ops) {
      case OpFilter::kRead: return op == static_cast<uint8_t>(Op::kRead);
      case OpFilter::kWrite: return op == static_cast<uint8_t>(Op::kWrite);
      case OpFilter::kAll: break;
    }
    return true;
  };
  // Runs record i at time t; true when it became a timed request (its
  // completion, to be queued, is in `done`).
  Event done;
  auto issue = [&](size_t i, uint64_t t) {
    const trace::Record& r = records[i];
    HostOp op = HostOp::kRead;
    switch (r.op) {
      case static_cast<uint8_t>(Op::kRead): op = HostOp::kRead; break;
      case static_cast<uint8_t>(Op::kWrite): op = HostOp::kWrite; break;
      case static_cast<uint8_t>(Op::kTrim): op = HostOp::kTrim; break;
      case static_cast<uint8_t>(Op::kMarker):
        step(i);  // not a device request
        return false;
      default:  // flush (nothing to write back: no write cache), or bad: step decides
        dev.begin_request(t, HostOp::kTrim);
        step(i);
        (void)dev.end_request();
        return false;
    }
    if (!timed(r.op)) {
      dev.set_recording(false);
      dev.begin_request(t, op);
      step(i);
      (void)dev.end_request();
      dev.set_recording(true);
      return false;
    }
    dev.begin_request(t, op);
    step(i);
    Event& e = done;
    e = Event{};
    e.time = dev.end_request();
    e.start = t;
    e.index = i;
    e.kind = EventKind::kCompletion;
    e.op = static_cast<uint8_t>(op);
    if (op == HostOp::kRead && !dev.request_read_nand()) {
      ++out.unmapped_reads;
      e.op = static_cast<uint8_t>(HostOp::kCount);  // completes at once, not in the read statistics
    }
    return true;
  };
  auto complete = [&](const Event& e) {
    // The run lasts until its last host completion, an unmapped read's too
    // (it completes at once, in no op's statistics).
    out.sim_time_ns = std::max(out.sim_time_ns, e.time);
    if (e.op >= kHostOps) return;
    const uint64_t latency = e.time - e.start;
    const uint64_t bytes = uint64_t{records[e.index].sectors} * sector_bytes;
    OpTiming& o = out.ops[e.op];
    o.bytes += bytes;
    o.latency.record(latency);
    out.events.add(static_cast<SeriesKind>(e.op), e.time, latency, bytes);
  };

  if (cfg.mode == HostMode::kClosed) {
    size_t next = 0;
    // Issues the next record that becomes a timed request; false at the end.
    auto issue_next = [&](uint64_t t) {
      while (next < n) {
        if (issue(next++, t)) return true;
      }
      return false;
    };
    for (uint32_t k = 0; k < cfg.qd && next < n; ++k) {
      if (issue_next(0)) queue.push(done);
    }
    while (!queue.empty()) {
      // The earliest completion is replaced by the request it lets in (one
      // pass down the heap), or removed at the end of the trace.
      const Event e = queue.top();
      complete(e);
      if (issue_next(e.time)) {
        (void)queue.pop_push(done);
      } else {
        (void)queue.pop();
      }
    }
  } else if (n != 0) {
    // Time 0 is the first record's time stamp; a time stamp below the
    // previous one is issued at the previous time.
    // Issue times beyond 2^62 ns are refused (time_scale.h; the commands
    // check first, naming the file), so none is clamped and latencies stay exact.
    check_issue_span(records, cfg.speed, "the trace");
    const uint64_t t0 = records[0].time_ns;
    uint64_t last = 0;
    auto arrival = [&](size_t i) {
      const uint64_t ts = records[i].time_ns;
      const uint64_t t = ts >= t0 ? scaled_issue_ns(ts - t0, cfg.speed) : 0;
      if (i > 0 && ts < records[i - 1].time_ns) ++out.backwards_timestamps;
      last = std::max(last, t);
      Event e;
      e.time = last;
      e.index = i;
      e.kind = EventKind::kArrival;
      queue.push(e);
    };
    arrival(0);
    while (!queue.empty()) {
      const Event e = queue.pop();
      switch (e.kind) {
        case EventKind::kArrival:
          if (issue(e.index, e.time)) queue.push(done);
          if (e.index + 1 < n) arrival(e.index + 1);
          break;
        case EventKind::kCompletion: complete(e); break;
      }
    }
  }
  dev.finish();
}

}  // namespace ftlsim::timing
