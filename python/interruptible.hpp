#pragma once
// Running off the GIL, interruptibly, with progress callbacks (a part of
// python/softcert_module.cpp).
#include "instance_conversion.hpp"

namespace {

// ---------------------------------------------------------------------------------------------
// Running off the GIL, interruptibly

// Runs work(cancel) in a worker thread while this thread waits with the GIL released, checking
// for signals every 50 ms. On KeyboardInterrupt (or any signal handler's exception) it sets
// `cancel`: a rigorous run given cancellable() options stops after its current validated step
// (support::Cancelled), a curve run (flow::curve_over) returns what it validated; a fast-tier run
// or a check finishes first. Then it raises — unless `interrupted` is given and the interrupt came
// from a signal: then the worker's result (what was validated so far) is returned and
// *interrupted set, and the caller hands it back with the interrupt.
//
// Progress: the worker stores its latest (steps, t) in a Progress; this thread calls the user's
// callback progress(steps, t) with it — on the calling thread, holding the GIL, at most every
// 0.25 s and once more at the end. An exception from the callback is handled as Ctrl-C is, but
// always raised.
struct Progress {
  py::object callback;  // None: no reports
  std::atomic<std::size_t> steps{0};
  std::atomic<double> t{0};
  std::atomic<bool> fresh{false};
  void report(std::size_t n, double at) {
    steps = n;
    t = at;
    fresh = true;
  }
  bool wanted() const { return !callback.is_none(); }
  void deliver() {
    if (!wanted() || !fresh.exchange(false)) return;
    callback(steps.load(), t.load());
  }
};


template <class F>
auto run_interruptible(F&& work, Progress* progress = nullptr, bool* interrupted = nullptr)
    -> decltype(work(std::declval<const std::atomic<bool>&>())) {
  using R = decltype(work(std::declval<const std::atomic<bool>&>()));
  std::atomic<bool> cancel{false};
  std::packaged_task<R()> task([&work, &cancel]() {
    struct FreeCaches {  // MPFR's per-thread caches (constants) would outlive the thread
      ~FreeCaches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }
    } free_caches;
    return work(cancel);
  });
  std::future<R> done = task.get_future();
  std::thread worker(std::move(task));
  std::optional<py::error_already_set> interrupt;
  bool from_signal = false;
  auto last_report = std::chrono::steady_clock::now();
  for (;;) {
    std::future_status status;
    {
      py::gil_scoped_release release;
      status = done.wait_for(std::chrono::milliseconds(50));
    }
    if (status == std::future_status::ready) break;
    if (!interrupt && PyErr_CheckSignals() != 0) {
      interrupt.emplace();  // takes the pending exception
      from_signal = true;
      cancel = true;
      PySys_WriteStderr("softcert: interrupted; a rigorous run stops after its current validated step "
                        "(a fast-tier run or a check finishes first)\n");
    }
    if (!interrupt && progress && progress->wanted() &&
        std::chrono::steady_clock::now() - last_report > std::chrono::milliseconds(250)) {
      last_report = std::chrono::steady_clock::now();
      try {
        progress->deliver();
      } catch (py::error_already_set& e) {
        interrupt.emplace(e);  // the callback's exception, raised once the run has finished
        cancel = true;
      }
    }
  }
  {
    py::gil_scoped_release release;
    worker.join();
  }
  if (interrupt && from_signal && interrupted) {
    *interrupted = true;
    return done.get();  // what was validated before the stop
  }
  if (interrupt) throw *interrupt;
  if (progress) progress->deliver();  // the final state
  return done.get();
}

// Rigorous options whose progress hook also stops the run, between validated steps, once
// `cancel` is set (support::Cancelled, which run_interruptible then replaces by the interrupt).
inline integ::RigorousIntegrateOptions cancellable(integ::RigorousIntegrateOptions o, const std::atomic<bool>& cancel) {
  o.progress = [report = o.progress, &cancel](std::size_t steps, double t) {
    if (cancel.load()) throw softcert::support::Cancelled();
    if (report) report(steps, t);
  };
  return o;
}

}  // namespace
