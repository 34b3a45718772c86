#pragma once
// One persistent worker thread that runs one job at a time for its owner: the ball step's
// pieces (integrate/validated_taylor.hpp, step_ball) split over two threads. No role in any
// guarantee: a job computes exactly what the owner would compute itself, and the owner combines
// the results in a fixed order, so the numbers do not depend on which thread ran what.
//
// Why persistent (not a thread per step): the log-norm certificate keeps its n × n scratch
// buffers per thread (numerics/log_norm_bound.cpp), and fresh buffers of that size fault in every
// page; a thread that lives as long as its stepper keeps them.
// The floating-point environment: the thread starts in its creator's rounding mode (inherited at
// creation), which need not be the owner's at a later start(); so each job runs with the mode the
// owner had when it called start() (set again at every job), and a job's doubles (e.g. the
// certificate's proposals, which any rounding mode makes valid but not equal) are those the owner
// would have computed.
#include <cfenv>
#include <condition_variable>
#include <ctime>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace softcert::support {

class HelperThread {
 public:
  HelperThread() : thread_([this] { loop(); }) {}
  HelperThread(const HelperThread&) = delete;
  HelperThread& operator=(const HelperThread&) = delete;
  ~HelperThread() {
    {
      const std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  // Runs job() on the helper thread; the caller must wait() before the next start(). The job
  // must not throw (an escaping exception is kept and rethrown by wait()).
  void start(std::function<void()> job) {
    {
      const std::lock_guard<std::mutex> lock(m_);
      job_ = std::move(job);
      rounding_ = std::fegetround();
      pending_ = true;
      done_ = false;
    }
    cv_.notify_all();
  }
  // Returns after the job started last has finished.
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [this] { return done_; });
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }
  // Thread CPU seconds the helper spent in jobs so far (bench reports).
  double cpu_seconds() const {
    const std::lock_guard<std::mutex> lock(m_);
    return cpu_;
  }

 private:
  static double thread_cpu() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
  void loop() {
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || pending_; });
      if (stop_) return;
      pending_ = false;
      std::function<void()> job = std::move(job_);
      const int mode = rounding_;
      lock.unlock();
      std::fesetround(mode);
      const double t0 = thread_cpu();
      std::exception_ptr err;
      try {
        job();
      } catch (...) {
        err = std::current_exception();
      }
      const double t1 = thread_cpu();
      lock.lock();
      cpu_ += t1 - t0;
      error_ = err;
      done_ = true;
      cv_.notify_all();
    }
  }

  mutable std::mutex m_;
  std::condition_variable cv_;
  std::function<void()> job_;
  int rounding_ = FE_TONEAREST;
  bool pending_ = false, done_ = true, stop_ = false;
  std::exception_ptr error_;
  double cpu_ = 0;
  std::thread thread_;  // last: started after every member above is initialised
};

// A HelperThread made on first use, owned by one object; a copy of the owner starts without one
// (two owners never share a helper: each may step on its own thread).
class LazyHelperThread {
 public:
  LazyHelperThread() = default;
  LazyHelperThread(const LazyHelperThread&) {}
  LazyHelperThread& operator=(const LazyHelperThread&) { return *this; }
  LazyHelperThread(LazyHelperThread&&) noexcept = default;
  LazyHelperThread& operator=(LazyHelperThread&&) noexcept = default;
  // The helper, started on first use; nullptr when no thread can be started (the owner then
  // does the work itself).
  HelperThread* get() {
    if (!p_) {
      try {
        p_ = std::make_unique<HelperThread>();
      } catch (const std::system_error&) {
        return nullptr;
      }
    }
    return p_.get();
  }
  double cpu_seconds() const { return p_ ? p_->cpu_seconds() : 0.0; }

 private:
  std::unique_ptr<HelperThread> p_;
};

}  // namespace softcert::support
