#pragma once
// A fixed-size array of trivially copyable T in memory aligned to 2 MiB and
// advised for transparent huge pages. The FTL's maps are read and written at
// random; with 4 KiB pages nearly every access would also miss the TLB.
// Where THP is off the advice is ignored and this is a plain array.
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

namespace ftlsim {

template <typename T>
class HugeArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  HugeArray() = default;
  HugeArray(size_t n, T fill) { assign(n, fill); }
  HugeArray(const HugeArray&) = delete;
  HugeArray& operator=(const HugeArray&) = delete;
  HugeArray(HugeArray&& o) noexcept : data_(o.data_), size_(o.size_) {
    o.data_ = nullptr;
    o.size_ = 0;
  }
  HugeArray& operator=(HugeArray&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = o.data_;
      size_ = o.size_;
      o.data_ = nullptr;
      o.size_ = 0;
    }
    return *this;
  }
  ~HugeArray() { std::free(data_); }

  // Replaces the contents with n copies of fill. Throws std::bad_alloc.
  void assign(size_t n, T fill) {
    constexpr size_t kHuge = size_t{2} << 20;
    std::free(data_);
    data_ = nullptr;
    size_ = 0;
    if (n == 0) return;
    const size_t bytes = (n * sizeof(T) + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, bytes);
    if (p == nullptr) throw std::bad_alloc();
    ::madvise(p, bytes, MADV_HUGEPAGE);
    data_ = static_cast<T*>(p);
    size_ = n;
    std::fill(data_, data_ + n, fill);
  }

  [[nodiscard]] T* data() { return data_; }
  [[nodiscard]] const T* data() const { return data_; }
  [[nodiscard]] size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace ftlsim
