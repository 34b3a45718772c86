#include "support/cpu_cap.hpp"

#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace softcert::support {

namespace {

struct State {
  std::mutex m;
  unsigned cap = 0;   // 0: no cap
  unsigned used = 0;  // slots out
  unsigned generation = 0;  // which cap (a new one at every change)
};

State& state() {
  static State s;
  return s;
}

unsigned& next_generation() {  // under State::m
  static unsigned g = 0;
  return g;
}

}  // namespace

CpuCap::CpuCap(unsigned cores) {
  if (cores == 0) throw std::invalid_argument("cpu cap: at least one core");
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.m);
  previous_ = s.cap;
  previous_used_ = s.used;
  previous_generation_ = s.generation;
  s.cap = cores;
  s.used = 0;
  s.generation = ++next_generation();
}

CpuCap::~CpuCap() {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.m);
  s.cap = previous_;
  s.used = previous_used_;
  s.generation = previous_generation_;
}

CpuSlot CpuSlot::worker() {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.m);
  ++s.used;
  return CpuSlot(s.generation);
}

std::optional<CpuSlot> CpuSlot::try_extra() {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.m);
  if (s.cap != 0 && s.used >= s.cap) return std::nullopt;
  ++s.used;
  return CpuSlot(s.generation);
}

CpuSlot::~CpuSlot() {
  if (!held_) return;
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.m);
  if (generation_ == s.generation && s.used > 0) --s.used;
}

void run_both(const std::function<void()>& a, const std::function<void()>& b) {
  std::optional<CpuSlot> core = CpuSlot::try_extra();
  if (!core) {
    a();
    b();
    return;
  }
  std::exception_ptr failed;
  std::thread helper([&] {
    try {
      b();
    } catch (...) {
      failed = std::current_exception();
    }
  });
  try {
    a();
  } catch (...) {
    helper.join();
    throw;
  }
  helper.join();
  if (failed) std::rethrow_exception(failed);
}

unsigned cpu_cap() {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.m);
  return s.cap;
}

unsigned cpu_slots_in_use() {
  State& s = state();
  const std::lock_guard<std::mutex> lock(s.m);
  return s.used;
}

}  // namespace softcert::support
