#pragma once
// A way to run two jobs, possibly on two threads, handed down from the layers that own threads
// (support::run_both) to the arithmetic below them.
#include <functional>

namespace softcert::num {

// Runs its two jobs and returns when both have ended, possibly on two threads (e.g.
// support::run_both, from the layers above). Empty: one after the other. The jobs never write
// the same data and their numbers do not depend on the thread that runs them; a job that needs
// a rounding mode sets it itself.
using PairRunner = std::function<void(const std::function<void()>&, const std::function<void()>&)>;

// Runs a then b through both, or one after the other when both is empty.
inline void run_pair(const PairRunner& both, const std::function<void()>& a, const std::function<void()>& b) {
  if (both) {
    both(a, b);
  } else {
    a();
    b();
  }
}

}  // namespace softcert::num
