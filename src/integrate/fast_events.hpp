#pragma once
// Where does a gap g = x_i − x_j change sign, and where does it change monotonicity (g' = 0)?
//
// Detection: after every accepted step [s₀, s₁] the state is interpolated by the cubic
// Hermite polynomial through (x₀, f₀), (x₁, f₁) (a dense output of order 3 for every stepper)
// and g and g' (g' from the vector field at the interpolated state) are sampled at
// `samples_per_step` interior points; a sign change between neighbouring samples is a bracket.
// Refinement: Illinois (modified regula falsi) on the bracket where every evaluation
// re-integrates exactly from (s₀, x₀) with the controlled stepper, so the located time is as
// accurate as the stepper (not the interpolant). If the exact values at the bracket ends do
// not differ in sign (two roots closer than the sampling), the interpolant's bisection root is
// reported with refined = false.
// Not a guarantee: roots closer together than a step / sampling interval can be missed (the
// rigorous tier certifies; this is for exploration and for seeding it).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "integrate/fast_run.hpp"
#include "integrate/hermite.hpp"

namespace softcert::integrate {

struct GapSpec {
  std::size_t i = 0, j = 1;  // state indices: g = x_i − x_j
};

enum class GapEventKind { sign_change, monotonicity_change };

template <class K>
struct GapEvent {
  GapEventKind kind;
  K t;              // the time t of the event (read from the state for τ-time models)
  K s;              // the integration variable (t, or τ for τ-time models)
  int direction;    // +1: the quantity goes from negative to positive, −1 the other way
  bool refined;     // located by exact re-integration (see above)
};

namespace detail {

template <class K>
int sign_of(const K& v) { return v > K(0) ? 1 : (v < K(0) ? -1 : 0); }

}  // namespace detail

// Integrates `model` to the horizon t_end (in t; τ-time models until their t passes t_end) and
// returns every located event of the gap, in time order.
template <class K, class Model>
std::vector<GapEvent<K>> locate_gap_events(const Model& model, const K& t_end, GapSpec gap, Stepper kind, const K& tol,
                                           std::size_t samples_per_step = 8) {
  using std::abs;
  const auto sys = odeint_system(model);
  const bool tau_form = models::carries_time(model);
  const std::size_t ti = time_index_of(model);
  ControlledStepper<K> st(kind, tol);
  ControlledStepper<K> polish(kind, tol);
  StepCount count;
  std::vector<GapEvent<K>> events;

  std::vector<K> x = model.initial_state(), f, x0, f0, xs, fs;
  K s(0), dt = K(1) / K(64);
  model.rhs(x, f);
  auto time_of = [&](const std::vector<K>& y, const K& sv) { return tau_form ? y[ti] : sv; };
  // φ for both kinds of event, on a state y with derivative fy.
  auto phi = [&](GapEventKind k, const std::vector<K>& y, const std::vector<K>& fy) {
    return k == GapEventKind::sign_change ? K(y[gap.i] - y[gap.j]) : K(fy[gap.i] - fy[gap.j]);
  };
  // Exact value of φ at s_target: re-integrate from (s0, x0).
  auto exact = [&](GapEventKind k, const K& s0, const std::vector<K>& xs0, const K& s_target, std::vector<K>& y, K& tv) {
    y = xs0;
    K sv = s0, h = s_target - s0;
    polish.reset();
    if (s_target > s0) advance_to(polish, sys, y, sv, s_target, h, count);
    std::vector<K> fy;
    model.rhs(y, fy);
    tv = time_of(y, sv);
    return phi(k, y, fy);
  };

  while (time_of(x, s) < t_end) {
    x0 = x;
    f0 = f;
    const K s0 = s;
    if (!tau_form && !(dt < t_end - s)) dt = t_end - s;
    accepted_step(st, sys, x, s, dt, count);
    model.rhs(x, f);
    const K h = s - s0;
    for (GapEventKind k : {GapEventKind::sign_change, GapEventKind::monotonicity_change}) {
      K prev_theta(0);
      K prev = phi(k, x0, f0);
      for (std::size_t m = 1; m <= samples_per_step; ++m) {
        const K theta = K(static_cast<int>(m)) / K(static_cast<int>(samples_per_step));
        K cur;
        if (m == samples_per_step) {
          cur = phi(k, x, f);
        } else {
          hermite_interpolate(x0, f0, x, f, h, theta, xs);
          model.rhs(xs, fs);
          cur = phi(k, xs, fs);
        }
        const int sp = detail::sign_of(prev), sc = detail::sign_of(cur);
        if (sp != 0 && sc != 0 && sp != sc) {
          // Bracket [s0 + prev_theta h, s0 + theta h].
          K a = s0 + prev_theta * h, b = s0 + theta * h;
          std::vector<K> y;
          K ta, tb, tv;
          K fa = exact(k, s0, x0, a, y, ta), fb = exact(k, s0, x0, b, y, tb);
          GapEvent<K> ev{k, K(0), K(0), sc > 0 ? 1 : -1, true};
          if (detail::sign_of(fa) * detail::sign_of(fb) < 0) {
            int side = 0;
            for (int it = 0; it < 100; ++it) {
              const K c = (a * fb - b * fa) / (fb - fa);
              const K fc = exact(k, s0, x0, c, y, tv);
              ev.s = c;
              ev.t = tv;
              if (detail::sign_of(fc) == 0 || !(abs(b - a) > abs(c) * tol * K(1e-3))) break;
              if (detail::sign_of(fc) == detail::sign_of(fb)) {
                b = c; fb = fc;
                if (side == 1) fa = fa / K(2);
                side = 1;
              } else {
                a = c; fa = fc;
                if (side == -1) fb = fb / K(2);
                side = -1;
              }
              if (!(abs(b - a) > abs(c) * tol * K(1e-3))) break;
            }
          } else {
            // Bisection on the interpolant only.
            K lo = prev_theta, hi = theta;
            for (int it = 0; it < 200; ++it) {
              const K mid = (lo + hi) / K(2);
              hermite_interpolate(x0, f0, x, f, h, mid, xs);
              model.rhs(xs, fs);
              if (detail::sign_of(phi(k, xs, fs)) == sp) lo = mid; else hi = mid;
            }
            ev.s = s0 + lo * h;
            hermite_interpolate(x0, f0, x, f, h, lo, xs);
            ev.t = tau_form ? xs[ti] : ev.s;
            ev.refined = false;
          }
          if (ev.t < t_end || ev.t == t_end) events.push_back(ev);
        }
        prev = cur;
        prev_theta = theta;
      }
    }
  }
  // Both kinds were collected step by step; put them in time order.
  std::stable_sort(events.begin(), events.end(), [](const GapEvent<K>& p, const GapEvent<K>& q) { return p.t < q.t; });
  return events;
}

}  // namespace softcert::integrate
