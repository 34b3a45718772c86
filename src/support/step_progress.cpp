#include "support/step_progress.hpp"

#include <atomic>
#include <mutex>
#include <utility>

namespace softcert::support {

namespace {

std::mutex& sink_mutex() {
  static std::mutex m;
  return m;
}

StepProgressSink& installed_sink() {
  static StepProgressSink sink;
  return sink;
}

std::atomic<std::size_t>& run_counter() {
  static std::atomic<std::size_t> n{0};
  return n;
}

}  // namespace

StepProgressScope::StepProgressScope(StepProgressSink sink) {
  std::lock_guard<std::mutex> lock(sink_mutex());
  previous_ = std::exchange(installed_sink(), std::move(sink));
  run_counter() = 0;
}

StepProgressScope::~StepProgressScope() {
  std::lock_guard<std::mutex> lock(sink_mutex());
  installed_sink() = std::move(previous_);
}

std::function<void(std::size_t, double, const std::vector<double>&)> step_progress_reporter(std::string variable,
                                                                                            double horizon) {
  {
    std::lock_guard<std::mutex> lock(sink_mutex());
    if (!installed_sink()) return {};
  }
  const std::size_t run = ++run_counter();
  return [run, variable = std::move(variable), horizon](std::size_t steps, double at, const std::vector<double>&) {
    std::lock_guard<std::mutex> lock(sink_mutex());
    if (installed_sink()) installed_sink()(StepProgress{run, steps, at, variable, horizon});
  };
}

}  // namespace softcert::support
