#pragma once
// An array of trivially copyable T that grows, in memory aligned to 2 MiB
// and advised for transparent huge pages (as HugeArray), mapped from the
// kernel directly. Growing moves the pages already there into the larger
// mapping (mremap: page tables are moved, nothing is copied or zeroed again)
// and leaves the rest to be zeroed by the kernel when first written. A
// ring that doubles from 2 MiB to 32 MiB so touches 32 MiB, not the
// 2 + 4 + 8 + 16 + 32 MiB of allocating each size anew and copying; and on
// a virtual machine the kernel's zeroing of fresh pages is what costs
// (bench/README.md, fourteenth round).
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

namespace ftlsim {

template <typename T>
class GrowingHugeArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  static constexpr size_t kHuge = size_t{2} << 20;

  GrowingHugeArray() = default;
  GrowingHugeArray(const GrowingHugeArray&) = delete;
  GrowingHugeArray& operator=(const GrowingHugeArray&) = delete;
  ~GrowingHugeArray() {
    if (data_ != nullptr) ::munmap(data_, bytes_);
  }

  // Grows to n elements (n > size()): elements [0, size()) keep their
  // values, the others are zero bytes. Throws std::bad_alloc.
  void grow(size_t n) {
    const size_t bytes = (n * sizeof(T) + kHuge - 1) / kHuge * kHuge;
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

  T* data_ = nullptr;
  size_t size_ = 0;
  size_t bytes_ = 0;
};

}  // namespace ftlsim
