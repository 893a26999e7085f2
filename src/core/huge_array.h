#pragma once
// An array of trivially copyable T in memory mapped from the kernel at a
// 2 MiB boundary and advised for transparent huge pages. The FTL's maps are
// read and written at random; with 4 KiB pages nearly every access would
// also miss the TLB. Where THP is off the advice is ignored and this is a
// plain array.
//
// It can grow: grow() moves the pages already there into the larger mapping
// (mremap: page tables are moved, nothing is copied or zeroed again) and
// leaves the rest to be zeroed by the kernel when first written. A ring
// that doubles from 2 MiB to 32 MiB so touches 32 MiB, not the 2 + 4 + 8 +
// 16 + 32 MiB of allocating each size anew and copying (the timed GC
// queue's ring; bench/README.md, fourteenth round).
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

namespace ftlsim {

template <typename T>
class HugeArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr size_t kHuge = size_t{2} << 20;

  HugeArray() = default;
  HugeArray(size_t n, T fill) { assign(n, fill); }
  HugeArray(const HugeArray&) = delete;
  HugeArray& operator=(const HugeArray&) = delete;
  HugeArray(HugeArray&& o) noexcept : data_(o.data_), size_(o.size_), bytes_(o.bytes_) {
    o.data_ = nullptr;
    o.size_ = o.bytes_ = 0;
  }
  HugeArray& operator=(HugeArray&& o) noexcept {
    if (this != &o) {
      release();
      data_ = o.data_;
      size_ = o.size_;
      bytes_ = o.bytes_;
      o.data_ = nullptr;
      o.size_ = o.bytes_ = 0;
    }
    return *this;
  }
  ~HugeArray() { release(); }

  // Replaces the contents with n copies of fill. Throws std::bad_alloc.
  // A fill of zero bytes writes nothing: the new mapping is zero pages,
  // which the kernel backs only where they are first written (a map sized
  // for a 2 TiB device costs memory and time for the part a trace touches).
  void assign(size_t n, T fill) {
    release();
    if (n == 0) return;
    bytes_ = whole_pages(n);
    data_ = static_cast<T*>(map_aligned(bytes_));
    size_ = n;
    static constexpr T kZero{};
    if (std::memcmp(&fill, &kZero, sizeof(T)) != 0) std::fill(data_, data_ + n, fill);
  }
  // Grows to n elements (n > size()): elements [0, size()) keep their
  // values, the others are zero bytes. Throws std::bad_alloc.
  void grow(size_t n) {
    const size_t bytes = whole_pages(n);
    void* p = map_aligned(bytes);
    if (data_ != nullptr) {
      // The old pages into the start of the new mapping (which is unmapped
      // there first); where the kernel refuses, a copy.
      if (::mremap(data_, bytes_, bytes_, MREMAP_MAYMOVE | MREMAP_FIXED, p) == MAP_FAILED) {
        std::memcpy(p, data_, bytes_);
        ::munmap(data_, bytes_);
      }
    }
    data_ = static_cast<T*>(p);
    bytes_ = bytes;
    size_ = n;
  }

  [[nodiscard]] T* data() { return data_; }
  [[nodiscard]] const T* data() const { return data_; }
  [[nodiscard]] size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  static size_t whole_pages(size_t n) { return (n * sizeof(T) + kHuge - 1) / kHuge * kHuge; }
  // `bytes` (a multiple of 2 MiB) of zero pages at a 2 MiB boundary.
  static void* map_aligned(size_t bytes) {
    void* raw = ::mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
    const uintptr_t aligned = (start + kHuge - 1) / kHuge * kHuge;
    if (aligned != start) ::munmap(raw, aligned - start);
    const uintptr_t end = start + bytes + kHuge;
    if (end != aligned + bytes) ::munmap(reinterpret_cast<void*>(aligned + bytes), end - (aligned + bytes));
    void* p = reinterpret_cast<void*>(aligned);
    ::madvise(p, bytes, MADV_HUGEPAGE);
    return p;
  }
  void release() {
    if (data_ != nullptr) ::munmap(data_, bytes_);
    data_ = nullptr;
    size_ = bytes_ = 0;
  }

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t bytes_ = 0;
};

}  // namespace ftlsim
