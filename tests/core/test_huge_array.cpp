// HugeArray: what was written survives each growth (the pages are
// moved, not copied), the new part reads as zeros, and the memory stays at
// a 2 MiB boundary (a transparent huge page's).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/huge_array.h"

using ftlsim::HugeArray;

TEST_CASE("a huge array keeps its values and zeroes the rest at every doubling", "[core]") {
  HugeArray<uint64_t> a;
  CHECK(a.size() == 0);
  a.grow(262144);  // 2 MiB
  for (size_t i = 0; i < a.size(); ++i) a[i] = i * 7 + 1;
  for (size_t n = 524288; n <= 4194304; n *= 2) {  // 4, 8, 16, 32 MiB
    const size_t old = a.size();
    a.grow(n);
    REQUIRE(a.size() == n);
    CHECK(reinterpret_cast<uintptr_t>(a.data()) % HugeArray<uint64_t>::kHuge == 0);
    bool kept = true, zero = true;
    for (size_t i = 0; i < old; ++i) kept = kept && a[i] == i * 7 + 1;
    for (size_t i = old; i < n; ++i) zero = zero && a[i] == 0;
    CHECK(kept);
    CHECK(zero);
    for (size_t i = old; i < n; ++i) a[i] = i * 7 + 1;  // the next round checks these too
  }
}

TEST_CASE("a huge array of a size that is not whole huge pages", "[core]") {
  struct Entry {
    uint32_t a, b, c;
  };
  HugeArray<Entry> a;
  a.grow(1000);  // 12,000 bytes in one 2 MiB page
  for (uint32_t i = 0; i < 1000; ++i) a[i] = Entry{i, i + 1, i + 2};
  a.grow(300000);  // 3.6 MB: two huge pages
  bool kept = true, zero = true;
  for (uint32_t i = 0; i < 1000; ++i) kept = kept && a[i].a == i && a[i].b == i + 1 && a[i].c == i + 2;
  for (uint32_t i = 1000; i < 300000; ++i) zero = zero && a[i].a == 0 && a[i].b == 0 && a[i].c == 0;
  CHECK(kept);
  CHECK(zero);
  CHECK(reinterpret_cast<uintptr_t>(a.data()) % HugeArray<Entry>::kHuge == 0);
}

TEST_CASE("a huge array filled, moved and filled again", "[core]") {
  HugeArray<uint32_t> a(1'000'000, 0xFFFFFFFFu);  // as the FTL's l2p: every slot unmapped
  CHECK(std::all_of(a.data(), a.data() + a.size(), [](uint32_t v) { return v == 0xFFFFFFFFu; }));
  CHECK(reinterpret_cast<uintptr_t>(a.data()) % HugeArray<uint32_t>::kHuge == 0);
  a[999'999] = 5;
  HugeArray<uint32_t> b(std::move(a));
  CHECK(a.size() == 0);
  CHECK(a.data() == nullptr);
  REQUIRE(b.size() == 1'000'000);
  CHECK(b[999'999] == 5);
  b.assign(10, 3);
  CHECK(b.size() == 10);
  CHECK(std::all_of(b.data(), b.data() + 10, [](uint32_t v) { return v == 3; }));
  a = std::move(b);
  CHECK(a.size() == 10);
  CHECK(a[9] == 3);
  a.grow(600'000);  // from a filled array too
  CHECK(a[9] == 3);
  CHECK(a[599'999] == 0);
}

TEST_CASE("a huge array assigned zeros reads zeros, also after values were written", "[core]") {
  // A zero fill writes nothing (the mapping is zero pages): every element
  // still reads 0, and assign() maps afresh, so old values do not show.
  HugeArray<uint32_t> a(3'000'000, 0);
  CHECK(std::all_of(a.data(), a.data() + a.size(), [](uint32_t v) { return v == 0; }));
  for (size_t i = 0; i < a.size(); i += 4099) a[i] = 0xABCD;
  a.assign(3'000'000, 0);
  CHECK(std::all_of(a.data(), a.data() + a.size(), [](uint32_t v) { return v == 0; }));
  struct Pair {
    uint32_t x, y;
  };
  HugeArray<Pair> p(1000, Pair{0, 1});  // not all zero bytes: filled
  CHECK(std::all_of(p.data(), p.data() + p.size(), [](const Pair& v) { return v.x == 0 && v.y == 1; }));
}
