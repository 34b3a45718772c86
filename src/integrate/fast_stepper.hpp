#pragma once
// The fast (non-rigorous) tier's stepping machinery over Boost.Odeint: one controlled
// stepper chosen at run time (dopri5, Fehlberg 7(8), Bulirsch–Stoer) on a scalar kind K
// (double or MpReal), and the operations built on it: advance to an exact time, land a τ-time
// run on an exact t, locate sign / monotonicity changes of a gap.
//
// No guarantee: results are as accurate as the tolerance and precision allow, which the
// fast tier measures by running twice (p and 2p bits) and reporting digits of agreement.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "integrate/odeint_mpreal.hpp"  // before odeint: extract_value_type for MpReal
#include <boost/numeric/odeint.hpp>

#include "integrate/odeint_system.hpp"

namespace softcert::integrate {

enum class Stepper { automatic, dopri5, rkf78, bs };

inline const char* to_string(Stepper s) {
  switch (s) {
    case Stepper::automatic: return "auto";
    case Stepper::dopri5: return "dopri5";
    case Stepper::rkf78: return "rkf78";
    case Stepper::bs: return "bs";
  }
  return "?";
}

// Throws invalid_argument("stepper: ...") for an unknown name.
inline Stepper parse_stepper(const std::string& name) {
  for (Stepper s : {Stepper::automatic, Stepper::dopri5, Stepper::rkf78, Stepper::bs})
    if (name == to_string(s)) return s;
  throw std::invalid_argument("stepper: unknown stepper \"" + name + "\" (dopri5, rkf78, bs, auto)");
}

// auto: dopri5 at double precision (cheap steps, order 5 is enough for 1e-14), Bulirsch–Stoer
// above (its order rises with the requested accuracy, which a fixed-order method cannot do).
inline Stepper resolve_stepper(Stepper s, unsigned precision_bits) {
  if (s != Stepper::automatic) return s;
  return precision_bits <= 64 ? Stepper::dopri5 : Stepper::bs;
}

// Absolute = relative tolerance for p bits: 2^{−(p−m)} with a margin m = max(6, p/8) bits
// above the rounding level (7e-15 at 53 bits, 2e-34 at 128, 4e-68 at 256). Closer to the
// rounding level the steppers' error estimates turn noisy and Bulirsch–Stoer rejects most steps.
inline double default_tolerance_log2(unsigned precision_bits) {
  const double p = precision_bits;
  return -(p - std::max(6.0, p / 8));
}

namespace ode = boost::numeric::odeint;

template <class K>
class ControlledStepper {
 public:
  using State = std::vector<K>;
  using Dopri5 = ode::controlled_runge_kutta<ode::runge_kutta_dopri5<State, K, State, K>>;
  using Rkf78 = ode::controlled_runge_kutta<ode::runge_kutta_fehlberg78<State, K, State, K>>;
  using BS = ode::bulirsch_stoer<State, K>;

  // The stepper is built in place: Boost's bulirsch_stoer leaves m_dt_last unset until its first
  // step, and copying it into the variant would read it (GCC -Wmaybe-uninitialized).
  ControlledStepper(Stepper kind, const K& tol) : kind_(kind) {
    using Checker = ode::default_error_checker<K, ode::range_algebra, ode::default_operations>;
    switch (kind) {
      case Stepper::dopri5: stepper_.template emplace<Dopri5>(Checker(tol, tol)); return;
      case Stepper::rkf78: stepper_.template emplace<Rkf78>(Checker(tol, tol)); return;
      case Stepper::bs: stepper_.template emplace<BS>(tol, tol); return;
      case Stepper::automatic: break;
    }
    throw std::invalid_argument("stepper: resolve 'auto' before constructing");
  }

  Stepper kind() const { return kind_; }

  // One attempt from (x, t) with step dt; on success x, t advance and dt is the suggestion for
  // the next step; on failure dt is reduced. Call reset() whenever x is changed from outside.
  template <class System>
  bool try_step(System sys, State& x, K& t, K& dt) {
    return std::visit([&](auto& s) { return s.try_step(sys, x, t, dt) == ode::success; }, stepper_);
  }

  void reset() {
    std::visit([](auto& s) {
      if constexpr (requires { s.reset(); }) s.reset();
    }, stepper_);
  }

 private:
  Stepper kind_;
  std::variant<Dopri5, Rkf78, BS> stepper_;
};

// Counts accepted / rejected steps; `limit` (0: none) caps their sum, so that a run stuck
// in chattering (e.g. |x| normalization sliding along a kink) ends with an error, not a hang.
struct StepCount {
  std::size_t accepted = 0, rejected = 0;
  std::size_t limit = 0;
};

// One accepted step from (x, t); dt is the trial step, updated. Throws if the step size
// collapses (the problem is too stiff or the tolerance below the precision).
template <class K, class System>
void accepted_step(ControlledStepper<K>& st, System sys, std::vector<K>& x, K& t, K& dt, StepCount& count) {
  for (int tries = 0; tries < 500; ++tries) {
    if (count.limit != 0 && count.accepted + count.rejected >= count.limit)
      throw std::runtime_error("fast tier: step budget exhausted (" + std::to_string(count.limit) + " steps)");
    if (st.try_step(sys, x, t, dt)) {
      ++count.accepted;
      return;
    }
    ++count.rejected;
  }
  throw std::runtime_error("fast tier: step size control failed (500 rejected steps in a row)");
}

// Integrates from (x, t) to exactly t1 ≥ t. dt is the trial step on entry and the suggested
// next step on exit. `observer(x, t)` (if any) is called after every accepted step.
template <class K, class System, class Observer>
void advance_to(ControlledStepper<K>& st, System sys, std::vector<K>& x, K& t, const K& t1, K& dt, StepCount& count,
                Observer observer) {
  while (t < t1) {
    const K remaining = t1 - t;
    const bool last = !(dt < remaining);
    K trial = last ? remaining : dt;
    accepted_step(st, sys, x, t, trial, count);
    if (last) {
      // The full remaining step was accepted (not shrunk by a rejection): land exactly on t1
      // instead of t + (t1 − t), which may differ from t1 in the last bit.
      if (!(t1 - t > remaining * K(1e-9))) t = t1;
      if (dt < trial) dt = trial;  // keep the larger of the old and the suggested step
    } else {
      dt = trial;
    }
    observer(x, t);
  }
}

template <class K, class System>
void advance_to(ControlledStepper<K>& st, System sys, std::vector<K>& x, K& t, const K& t1, K& dt, StepCount& count) {
  advance_to(st, sys, x, t, t1, dt, count, [](const std::vector<K>&, const K&) {});
}

}  // namespace softcert::integrate
