#include "sweep/sweep_pool.h"

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

#include "core/error.h"

namespace ftlsim::sim {

std::string_view status_name(SweepStatus s) {
  switch (s) {
    case SweepStatus::kDone: return "done";
    case SweepStatus::kError: return "error";
    case SweepStatus::kMissing: break;
  }
  return "missing";
}

std::vector<SweepOutcome> run_sweep(const TraceView& trace, std::span<const SweepJob> jobs, unsigned threads,
                                    const SweepCallbacks& callbacks) {
  std::vector<SweepOutcome> outcomes(jobs.size());
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;  // guards done, failure and the progress callback
  size_t done = 0;
  std::exception_ptr failure;

  const auto cancelled = [&] { return callbacks.cancel != nullptr && callbacks.cancel->load(); };
  auto worker = [&] {
    while (!stop.load(std::memory_order_relaxed) && !cancelled()) {
      const size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= jobs.size()) return;
      try {
        SweepOutcome& out = outcomes[i];
        const SweepJob& job = jobs[i];
        if (!job.error.empty()) {
          out.error = callbacks.error_text ? callbacks.error_text(job.error) : job.error.str();
          out.status = SweepStatus::kError;
        } else {
          try {
            out.result =
                simulate(job.run.config, job.trace != nullptr ? *job.trace : trace, job.run.options, job.run.placement);
            out.status = SweepStatus::kDone;
          } catch (const InputError& e) {
            out.error = callbacks.error_text ? callbacks.error_text(e.message()) : e.message().str();
            out.status = SweepStatus::kError;
          }
          if (callbacks.input_intact && !callbacks.input_intact()) {
            out = SweepOutcome{};  // missing: run again on resume
            stop.store(true, std::memory_order_relaxed);
          }
        }
        if (callbacks.on_done) callbacks.on_done(i, out);
        const std::lock_guard lock(mutex);
        ++done;
        if (callbacks.progress) callbacks.progress(done, jobs.size());
      } catch (...) {
        const std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };

  const size_t n_threads = std::clamp<size_t>(threads, 1, std::max<size_t>(jobs.size(), 1));
  if (n_threads == 1) {
    worker();
  } else {
    std::vector<std::jthread> pool;
    pool.reserve(n_threads);
    for (size_t t = 0; t < n_threads; ++t) pool.emplace_back(worker);
  }  // joined here
  if (failure) std::rethrow_exception(failure);
  return outcomes;
}

}  // namespace ftlsim::sim
