#pragma once
// pqueue.c's rules (FEMU hw/femu/lib/pqueue.c) exactly as docs/model.md
// "Victim queue" states them, written plainly: a binary min-heap d[1..n] of
// unit numbers (d[0] unused) keyed by key(u), each unit's index kept by the
// caller through pos(u) (0: not queued). The reference FTL's victim heap
// (reference_ftl.cpp), what tests/ftl/test_victims.cpp compares the
// engine's HeapVictims with, index by index, and the heap of the plain
// one-die FTL bench/plain_line_ftl.cpp.
#include <cstdint>
#include <vector>

namespace ftlsim::reftest {

// Key: uint32_t(uint32_t unit); Pos: uint32_t&(uint32_t unit).
template <class Key, class Pos>
struct PqueueModel {
  std::vector<uint32_t>& d;
  Key key;
  Pos pos;

  void place_at(uint32_t i, uint32_t u) {
    d[i] = u;
    pos(u) = i;
  }
  void bubble_up(uint32_t i) {
    const uint32_t moving = d[i];
    while (i > 1 && key(d[i / 2]) > key(moving)) {
      place_at(i, d[i / 2]);
      i /= 2;
    }
    place_at(i, moving);
  }
  // The left child unless the right one exists and the left one's key is
  // greater; 0 when there is no child.
  uint32_t maxchild(uint32_t i) const {
    const auto n = static_cast<uint32_t>(d.size()) - 1;
    const uint32_t left = 2 * i;
    if (left > n) return 0;
    if (left + 1 <= n && key(d[left]) > key(d[left + 1])) return left + 1;
    return left;
  }
  void percolate_down(uint32_t i) {
    const uint32_t moving = d[i];
    for (uint32_t child = maxchild(i); child != 0 && key(moving) > key(d[child]); child = maxchild(i)) {
      place_at(i, d[child]);
      i = child;
    }
    place_at(i, moving);
  }
  void insert(uint32_t u) {
    d.push_back(u);
    bubble_up(static_cast<uint32_t>(d.size()) - 1);
  }
  // Takes the top out; the last entry goes to the root and percolates down.
  uint32_t pop() {
    const uint32_t top = d[1];
    const uint32_t last = d.back();
    d.pop_back();
    pos(top) = 0;
    if (d.size() > 1) {
      d[1] = last;
      percolate_down(1);
    }
    return top;
  }
  // After u's key changed: bubble up if its parent's key is now greater,
  // else percolate down.
  void change_priority(uint32_t u) {
    const uint32_t i = pos(u);
    if (i > 1 && key(d[i / 2]) > key(u)) {
      bubble_up(i);
    } else {
      percolate_down(i);
    }
  }
};

}  // namespace ftlsim::reftest
