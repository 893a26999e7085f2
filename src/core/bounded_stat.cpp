#include "core/bounded_stat.h"

#include <cerrno>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace ftlsim {
namespace {

// Shared by the caller and the helper thread, which may outlive the call.
struct Pending {
  std::mutex m;
  std::condition_variable done_cv;
  bool done = false;
  BoundedStat result;
};

}  // namespace

BoundedStat stat_bounded(const std::string& path, std::chrono::milliseconds bound) {
  auto pending = std::make_shared<Pending>();
  std::thread([pending, path] {
    BoundedStat r;
    if (::stat(path.c_str(), &r.st) != 0) r.error = errno;
    const std::lock_guard<std::mutex> lock(pending->m);
    pending->result = r;
    pending->done = true;
    pending->done_cv.notify_one();
  }).detach();
  std::unique_lock<std::mutex> lock(pending->m);
  if (!pending->done_cv.wait_for(lock, bound, [&] { return pending->done; })) {
    BoundedStat late;
    late.answered = false;
    return late;
  }
  return pending->result;
}

}  // namespace ftlsim
