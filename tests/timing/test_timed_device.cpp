// TimedDevice driven by hand, on one die, with times worked out on paper:
// where queued background GC goes (only into idle time, and not preempted),
// forced GC blocking the write, and the data-order waits.
#include <catch2/catch.hpp>

#include "ftl/ftl_test_util.h"
#include "ftl/unit_shape.h"
#include "timing/nand_map.h"
#include "timing/timed_device.h"

using namespace ftlsim;
using namespace ftlsim::timing;

namespace {

// One die, one plane, 4 blocks of 4 pages: units (lines) of 4 slots, unit u
// holds slots 4u .. 4u+3.
NandMap line_map(const ftl::Geometry& g) {
  const ftl::UnitShape ru = ftl::line_shape(g);
  return NandMap(g, ru, ru.units_per_group);
}

NandMap one_die() { return line_map(test::geometry(1, 1, 1, 4, 4, 8)); }

TimingConfig small_latencies() {
  TimingConfig c;
  c.read_ns = 40;
  c.program_ns = 200;
  c.erase_ns = 2000;
  return c;
}

}  // namespace

TEST_CASE("background GC fills idle time, forced GC blocks the write, data order is kept", "[timing]") {
  TimingResult out;
  out.events = EventSeries(1'000'000);
  TimedDevice dev(small_latencies(), one_die(), out);

  // t=0: a host write (die busy 0..200), then a background pass decided at
  // t=0: copy slot 4 (unit 1) to slot 1 (unit 0), erase unit 1. Queued only.
  dev.begin_request(0, HostOp::kWrite);
  dev.host_program(0);
  dev.gc_begin(false);
  dev.gc_copy(4, 1);
  dev.unit_erase(1);
  CHECK(dev.end_request() == 200);
  CHECK(dev.queued_gc_ops() == 2);

  // t=100: the die is busy until 200, so no GC starts; the read queues
  // behind the write: 200..240.
  dev.begin_request(100, HostOp::kRead);
  dev.host_read(8);
  CHECK(dev.end_request() == 240);
  CHECK(dev.queued_gc_ops() == 2);

  // t=1000: the die was idle from 240: the copy ran 240..280 (read) and
  // 280..480 (program), the erase 480..2480. The read arriving at 1000 waits
  // for the erase that started before it: 2480..2520.
  dev.begin_request(1000, HostOp::kRead);
  CHECK(dev.queued_gc_ops() == 0);
  dev.host_read(9);
  CHECK(dev.end_request() == 2520);
  CHECK(out.gc_copies == 1);
  CHECK(out.erases == 1);

  // t=3000: a forced pass in the write path: copy 3000..3040..3240, erase
  // 3240..5240; the write's program waits for it: 5240..5440.
  dev.begin_request(3000, HostOp::kWrite);
  dev.gc_begin(true);
  dev.gc_copy(9, 2);
  dev.unit_erase(2);
  dev.host_program(3);
  CHECK(dev.end_request() == 5440);
  CHECK(out.gc_waits == 1);

  // t=5400: a write keeps the die busy until 5640; a background erase of
  // unit 1 is queued behind it.
  dev.begin_request(5400, HostOp::kWrite);
  dev.host_program(12);
  dev.gc_begin(false);
  dev.unit_erase(1);
  CHECK(dev.end_request() == 5640);

  // t=5500: the die is still busy, so the erase is still queued; a program
  // into unit 1 must wait for it: erase 5640..7640, program 7640..7840.
  dev.begin_request(5500, HostOp::kWrite);
  CHECK(dev.queued_gc_ops() == 1);
  dev.host_program(5);
  CHECK(dev.end_request() == 7840);
  CHECK(out.gc_waits == 2);

  // A read of data whose copy is still queued does not wait for the copy
  // (the old copy is still there, or the data in the controller's buffers):
  // it is timed as a read on the die, behind the program placed before it.
  dev.begin_request(7800, HostOp::kWrite);
  dev.host_program(13);  // 7840..8040
  dev.gc_begin(false);
  dev.gc_copy(13, 6);  // into unit 1, queued at 7800; its read waits for 13's program
  CHECK(dev.end_request() == 8040);
  dev.begin_request(7900, HostOp::kRead);
  dev.host_read(6);  // 8040..8080
  CHECK(dev.end_request() == 8080);
  CHECK(out.gc_waits == 2);

  dev.finish();  // the copy: read 8080..8120, program 8120..8320
  CHECK(dev.queued_gc_ops() == 0);
  CHECK(out.host_page_programs == 5);
  CHECK(out.host_page_reads == 3);
  CHECK(out.gc_copies == 3);
  CHECK(out.erases == 3);
  CHECK(out.nand_end_ns == 8320);
  // Array time: 3 host reads + 3 GC reads, 5 + 3 programs, 3 erases.
  CHECK(out.busy_ns == 6 * 40 + 8 * 200 + 3 * 2000);
  // GC events: copy latency from its decision to the end of its program.
  const std::string csv = out.events.csv();
  CHECK_THAT(csv, Catch::Contains("0,gc_copy,3,12288,"));
  CHECK_THAT(csv, Catch::Contains("0,erase,3,"));
}

TEST_CASE("an idle gap a GC program leaves waiting for its read is used by later work", "[timing]") {
  // Two dies, units of 8 slots: slot s on die s mod 2.
  TimingResult out;
  TimedDevice dev(small_latencies(), line_map(test::geometry(2, 1, 1, 4, 4, 16)), out);
  dev.begin_request(0, HostOp::kWrite);
  dev.host_program(1);  // die 1: 0..200
  dev.gc_begin(true);   // forced: placed at once
  dev.gc_copy(9, 2);    // read on die 1 200..240, program on die 0 240..440 (die 0 idle 0..240)
  dev.unit_erase(1);    // die 0 440..2440, die 1 240..2240
  dev.host_program(0);  // die 0: fits the idle 0..240
  CHECK(dev.end_request() == 200);
  dev.begin_request(10, HostOp::kRead);
  dev.host_read(3);  // die 1: after the erase, 2240..2280
  CHECK(dev.end_request() == 2280);
  CHECK(out.nand_end_ns == 2440);
}

TEST_CASE("untimed FTL operations take no device time", "[timing]") {
  TimingResult out;
  TimedDevice dev(small_latencies(), one_die(), out);
  dev.set_recording(false);
  dev.begin_request(0, HostOp::kWrite);
  dev.host_program(0);
  dev.gc_begin(true);
  dev.gc_copy(0, 4);
  dev.unit_erase(0);
  CHECK(dev.end_request() == 0);
  dev.set_recording(true);
  dev.begin_request(10, HostOp::kRead);
  dev.host_read(4);
  CHECK(dev.end_request() == 50);
  CHECK(dev.request_read_nand());
  CHECK(out.host_page_programs == 0);
  CHECK(out.gc_copies == 0);
}

TEST_CASE("read-modify-write: the slot's program waits for its read", "[timing]") {
  TimingResult out;
  TimingConfig c = small_latencies();
  c.xfer_ns = 5;
  TimedDevice dev(c, one_die(), out);
  dev.begin_request(0, HostOp::kWrite);
  dev.host_read(1);     // 0..40 array, 40..45 channel
  dev.host_program(2);  // channel 45..50, array 50..250
  CHECK(dev.end_request() == 250);
}
