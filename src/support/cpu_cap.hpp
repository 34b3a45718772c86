#pragma once
// How many cores the process's check work may use at once. `softcert suite|check --jobs J`
// (given explicitly) caps it at J: the runner's J workers each hold a core (CpuSlot::worker),
// and the threads a check starts inside one instance — the regression sweep's members
// (proofs_checks/varre2026_polarization.hpp), the ball step's piece helper
// (integrate/validated_taylor.hpp), the Lohner step's GEMM jobs (integrate/lohner_linalg.cpp) and
// derivative-pass halves (taylor/tape.hpp, through run_both below) — take a core only while one
// is free (CpuSlot::try_extra),
// else that work runs on the caller's own thread. A worker that has no more instances gives its
// core back, so the last long instance of a run can use it.
//
// No role in any guarantee, nor in any result: every such parallel loop computes exactly what
// one thread would and combines the results in a fixed order (tests BallStepPieceThreads.*,
// CpuCap.*), so the bits do not depend on the cap. Without a CpuCap (the Python module,
// `softcert integrate`, a run without --jobs) there is no cap: try_extra always succeeds.
#include <functional>
#include <optional>

namespace softcert::support {

// While it lives, at most `cores` (≥ 1) slots are out at once (CpuSlot::worker may exceed it
// only if a caller sizes its pool beyond the cap). A second cap replaces the first until it
// ends; then the first, with its slots, is back.
class CpuCap {
 public:
  explicit CpuCap(unsigned cores);
  ~CpuCap();
  CpuCap(const CpuCap&) = delete;
  CpuCap& operator=(const CpuCap&) = delete;

 private:
  unsigned previous_ = 0, previous_used_ = 0, previous_generation_ = 0;
};

// One core, held until destroyed (move-only).
class CpuSlot {
 public:
  // A worker's core: always granted (the caller's pool is within the cap).
  static CpuSlot worker();
  // A core for an extra thread: granted only while the cap has one free (always without a cap).
  static std::optional<CpuSlot> try_extra();
  CpuSlot(CpuSlot&& other) noexcept : held_(other.held_), generation_(other.generation_) { other.held_ = false; }
  CpuSlot& operator=(CpuSlot&&) = delete;
  CpuSlot(const CpuSlot&) = delete;
  ~CpuSlot();

 private:
  explicit CpuSlot(unsigned generation) : generation_(generation) {}
  bool held_ = true;
  unsigned generation_;  // the cap it was taken under: given back to that one only
};

// Runs a() and b(), which must not write the same data, and returns when both have ended: b() on
// a thread of its own while the cap has a core free (CpuSlot::try_extra), else after a() on this
// thread. b()'s thread is created here and starts in this thread's rounding mode (a new thread
// inherits its creator's floating-point environment: POSIX pthread_create, glibc); a job that
// needs a mode sets it itself all the same, so that it never depends on its caller's. If either throws, the exception is rethrown after both have ended (a()'s first). No role
// in any result: callers give jobs whose numbers do not depend on the thread that runs them.
void run_both(const std::function<void()>& a, const std::function<void()>& b);

// The current cap (0: none) and the slots out, for tests and reports.
unsigned cpu_cap();
unsigned cpu_slots_in_use();

}  // namespace softcert::support
