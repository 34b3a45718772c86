#pragma once
// Runs fn(0) … fn(n−1) on up to `jobs` threads. Each call writes only its own slot of the
// caller's results, so the results do not depend on `jobs` or on the order of completion.
// fn must not throw (catch inside and record the failure in the slot).
// Each thread holds a core of the CPU cap while it works (support/cpu_cap.hpp): under
// `reproduce --jobs J` the runs' own extra threads (the Lohner step's GEMM jobs and derivative
// halves, the ball step's helper) use only the cores these threads leave free.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

#include "support/cpu_cap.hpp"

namespace softcert::reproduce {

template <class Fn>
void parallel_for(std::size_t n, unsigned jobs, Fn&& fn) {
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    const support::CpuSlot core = support::CpuSlot::worker();
    for (std::size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) fn(i);
  };
  const std::size_t threads = std::min<std::size_t>(std::max(jobs, 1u), std::max<std::size_t>(n, 1));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& th : pool) th.join();
}

}  // namespace softcert::reproduce
