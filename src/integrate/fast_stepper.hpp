#pragma once
// The fast (non-rigorous) tier's stepping machinery: one controlled stepper chosen at run time
// (Odeint's dopri5, Fehlberg 7(8), Bulirsch–Stoer, or a high-order Taylor method on the
// taylor::Tape) on a scalar kind K (double or MpReal), and the operations built on it: advance
// to an exact time, land a τ-time run on an exact t, locate sign / monotonicity changes of a gap.
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
#include "numerics/elementary.hpp"
#include "numerics/kinds.hpp"
#include "taylor/tape.hpp"
#include "numerics/quote.hpp"

namespace softcert::integrate {

enum class Stepper { automatic, dopri5, rkf78, bs, taylor };

inline const char* to_string(Stepper s) {
  switch (s) {
    case Stepper::automatic: return "auto";
    case Stepper::dopri5: return "dopri5";
    case Stepper::rkf78: return "rkf78";
    case Stepper::bs: return "bs";
    case Stepper::taylor: return "taylor";
  }
  return "?";
}

// Throws invalid_argument("stepper: ...") for an unknown name.
inline Stepper parse_stepper(const std::string& name) {
  for (Stepper s : {Stepper::automatic, Stepper::dopri5, Stepper::rkf78, Stepper::bs, Stepper::taylor})
    if (name == to_string(s)) return s;
  throw std::invalid_argument("stepper: unknown stepper " + num::quoted(name) + " (dopri5, rkf78, bs, taylor, auto)");
}

// auto: dopri5 at double precision (cheap steps, order 5 is enough for 1e-14), the Taylor
// stepper above: its order rises with the requested accuracy, so it takes a few long steps
// where Bulirsch–Stoer takes many short ones and rejects most of its attempts near the
// rounding level (docs/performance.md, "What limits each figure" §1).
inline Stepper resolve_stepper(Stepper s, unsigned precision_bits) {
  if (s != Stepper::automatic) return s;
  return precision_bits <= 64 ? Stepper::dopri5 : Stepper::taylor;
}

// Absolute = relative tolerance for p bits: 2^{−(p−m)} with a margin m = max(6, p/8) bits
// above the rounding level (7e-15 at 53 bits, 2e-34 at 128, 4e-68 at 256). Closer to the
// rounding level the steppers' error estimates turn noisy and Bulirsch–Stoer rejects most steps.
inline double default_tolerance_log2(unsigned precision_bits) {
  const double p = precision_bits;
  return -(p - std::max(6.0, p / 8));
}

namespace ode = boost::numeric::odeint;

// A Taylor method of order p on the taylor::Tape (not validated: no remainder bound). Each
// step records the field once at the current point (the reduced model: T + 1 exponentials)
// and computes the solution's Taylor coefficients to order p by the recurrences, O(nodes·p²)
// multiply-adds; Bulirsch–Stoer instead evaluates the field ~50 times per step attempt, and at
// 30 digits it rejects more attempts than it accepts.
// Step (Jorba–Zou): h = min_{k ∈ {p−1, p}} (tol·max(1, ‖x‖∞)/‖x_k‖∞)^{1/k}, so the last
// terms kept are at the tolerance; never rejected. Order p = ⌈−ln(tol)/2⌉ clamped to [8, 200]
// minimises p² / h ∝ p² tol^{−1/p}, the cost per unit time.
template <class K>
class TaylorStepper {
 public:
  explicit TaylorStepper(const K& tol) : tol_(tol) {
    using std::log;
    const double lt = -num::to_double(K(num::log(tol)));
    order_ = static_cast<std::size_t>(std::clamp(std::ceil(lt / 2), 8.0, 200.0));
  }
  std::size_t order() const { return order_; }

  // Odeint's try_step contract, always successful: advances (x, t) by h ≤ dt (h < dt when the
  // coefficients ask for a shorter step) and sets dt to the step the coefficients suggest.
  ode::controlled_step_result try_step(const FastField<K>& sys, std::vector<K>& x, K& t, K& dt);

 private:
  K tol_;
  std::size_t order_ = 20;
  taylor::Tape<K> tape_;
};

template <class K>
class ControlledStepper {
 public:
  using State = std::vector<K>;
  using Dopri5 = ode::controlled_runge_kutta<ode::runge_kutta_dopri5<State, K, State, K>>;
  using Rkf78 = ode::controlled_runge_kutta<ode::runge_kutta_fehlberg78<State, K, State, K>>;
  using BS = ode::bulirsch_stoer<State, K>;
  using Taylor = TaylorStepper<K>;

  // The stepper is built in place: Boost's bulirsch_stoer leaves m_dt_last unset until its first
  // step, and copying it into the variant would read it (GCC -Wmaybe-uninitialized).
  ControlledStepper(Stepper kind, const K& tol) : kind_(kind) {
    using Checker = ode::default_error_checker<K, ode::range_algebra, ode::default_operations>;
    switch (kind) {
      case Stepper::dopri5: stepper_.template emplace<Dopri5>(Checker(tol, tol)); return;
      case Stepper::rkf78: stepper_.template emplace<Rkf78>(Checker(tol, tol)); return;
      case Stepper::bs: stepper_.template emplace<BS>(tol, tol); return;
      case Stepper::taylor: stepper_.template emplace<Taylor>(tol); return;
      case Stepper::automatic: break;
    }
    throw std::invalid_argument("stepper: resolve 'auto' before constructing");
  }

  Stepper kind() const { return kind_; }

  // One attempt from (x, t) with step dt; on success x, t advance and dt is the suggestion for
  // the next step; on failure dt is reduced. Call reset() whenever x is changed from outside.
  bool try_step(const FastField<K>& sys, State& x, K& t, K& dt);

  void reset() {
    std::visit([](auto& s) {
      if constexpr (requires { s.reset(); }) s.reset();
    }, stepper_);
  }

 private:
  Stepper kind_;
  std::variant<Dopri5, Rkf78, BS, Taylor> stepper_;
};

// Counts accepted / rejected steps; `limit` (0: none) caps their sum, so that a run stuck
// in chattering (e.g. |x| normalization sliding along a kink) ends with an error, not a hang.
struct StepCount {
  std::size_t accepted = 0, rejected = 0;
  std::size_t limit = 0;
};

// One accepted step from (x, t); dt is the trial step, updated. Throws if the step size
// collapses (the problem is too stiff or the tolerance below the precision).
template <class K>
void accepted_step(ControlledStepper<K>& st, const FastField<K>& sys, std::vector<K>& x, K& t, K& dt, StepCount& count);

// Integrates from (x, t) to exactly t1 ≥ t. dt is the trial step on entry and the suggested
// next step on exit. `observer(x, t)` (if any) is called after every accepted step.
template <class K, class Observer>
void advance_to(ControlledStepper<K>& st, const FastField<K>& sys, std::vector<K>& x, K& t, const K& t1, K& dt, StepCount& count,
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

template <class K>
void advance_to(ControlledStepper<K>& st, const FastField<K>& sys, std::vector<K>& x, K& t, const K& t1, K& dt, StepCount& count) {
  advance_to(st, sys, x, t, t1, dt, count, [](const std::vector<K>&, const K&) {});
}

// ----- compiled once per kind, in integrate/fast_stepper.cpp -------------------------------
// Out of the classes (not inline), so that the explicit instantiations below keep every other
// translation unit from compiling the four steppers again.
template <class K>
ode::controlled_step_result TaylorStepper<K>::try_step(const FastField<K>& sys, std::vector<K>& x, K& t, K& dt) {
  tape_.record(sys.on_tape(), x, order_);
  tape_.solve(false);
  const std::size_t n = x.size(), p = order_;
  using std::abs;
  K scale(1);
  for (const auto& v : x)
    if (abs(v) > scale) scale = abs(v);
  const K target = tol_ * scale;
  K h_est(-1);
  for (std::size_t k : {p - 1, p}) {
    K m(0);
    for (std::size_t i = 0; i < n; ++i) {
      const K c = abs(tape_.coefficient(i, k));
      if (c > m) m = c;
    }
    if (m > 0) {
      const K hk = num::exp(K(num::log(K(target / m)) / K(static_cast<int>(k))));
      if (h_est < 0 || hk < h_est) h_est = hk;
    }
  }
  const bool free_step = h_est < 0;  // every coefficient 0: the solution is a polynomial
  const K h = (free_step || dt < h_est) ? dt : h_est;
  for (std::size_t i = 0; i < n; ++i) {
    K acc = tape_.coefficient(i, p);
    for (std::size_t k = p; k-- > 0;) acc = acc * h + tape_.coefficient(i, k);
    x[i] = acc;
  }
  t += h;
  dt = free_step ? K(2 * dt) : h_est;
  return ode::success;
}

template <class K>
bool ControlledStepper<K>::try_step(const FastField<K>& sys, State& x, K& t, K& dt) {
  // std::cref: Odeint takes the system by value; the field is not copied per attempt.
  return std::visit([&](auto& s) {
    if constexpr (std::is_same_v<std::decay_t<decltype(s)>, Taylor>) return s.try_step(sys, x, t, dt) == ode::success;
    else return s.try_step(std::cref(sys), x, t, dt) == ode::success;
  }, stepper_);
}

template <class K>
void accepted_step(ControlledStepper<K>& st, const FastField<K>& sys, std::vector<K>& x, K& t, K& dt, StepCount& count) {
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

extern template class TaylorStepper<double>;
extern template class TaylorStepper<MpReal>;
extern template class ControlledStepper<double>;
extern template class ControlledStepper<MpReal>;
extern template void accepted_step<double>(ControlledStepper<double>&, const FastField<double>&, std::vector<double>&,
                                           double&, double&, StepCount&);
extern template void accepted_step<MpReal>(ControlledStepper<MpReal>&, const FastField<MpReal>&, std::vector<MpReal>&,
                                           MpReal&, MpReal&, StepCount&);

}  // namespace softcert::integrate
