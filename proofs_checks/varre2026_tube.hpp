#pragma once
// The validated τ-time tube of the reduced logistic flow, walked step by step so that a check
// can examine (and refine) each step while its Taylor record is at hand.
//
// τ-time (dτ = γ dt, γ > 0) has the same orbit as t-time and t is a state component, so
// orderings and the signs of gap derivatives are the same in both times; long t-horizons are
// short in τ. A walk covers t ∈ [0, H] once the enclosure of t at a step's end has lower bound
// ≥ H (t increases along the orbit: dt/dτ = 1 + e^{uᵀs} > 0).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/validated_taylor.hpp"
#include "models/logistic_reduced.hpp"
#include "numerics/traits.hpp"

namespace softcert::varre2026 {

template <class S>
struct TauStep {
  const integrate::StepRecord<S>* record = nullptr;
  std::vector<S> box;    // contains x(τ) for every τ of the step (a, u, t)
  std::vector<S> start;  // contains x at the step's start
  std::vector<S> end;    // contains x at the step's end
  S h;                   // the step length in τ (an enclosure of it)
  std::size_t index = 0;
};

// Guarantee: the enclosure of x_p(τ₀ + s) − x_q(τ₀ + s) for every exact s ∈ `s` ∩ [0, h̄] and
// every solution from the step's initial set. The difference is taken inside the Taylor and
// mean-value forms (coefficient by coefficient, row by row of J·B), not between two component
// enclosures, so the shared errors of x_p and x_q cancel.
template <class S>
S enclose_difference(const integrate::StepRecord<S>& r, std::size_t p, std::size_t q, const S& s) {
  const std::size_t n = r.n, P = r.p;
  S acc = r.remainder[p] - r.remainder[q];
  for (std::size_t k = P + 1; k-- > 0;) acc = acc * s + (r.center[p * (P + 1) + k] - r.center[q * (P + 1) + k]);
  S dev(0);
  for (std::size_t m = 0; m < n; ++m) {
    S row(0);
    for (std::size_t j = 0; j < n; ++j) {
      S a = r.jac[(P * n + p) * n + j] - r.jac[(P * n + q) * n + j];
      for (std::size_t k = P; k-- > 0;) a = a * s + (r.jac[(k * n + p) * n + j] - r.jac[(k * n + q) * n + j]);
      row += a * r.B[j * n + m];
    }
    dev += row * r.r[m];
  }
  return acc + dev;
}

// The Taylor coefficients of the gap x_p − x_q along the step, as enclosures valid for every
// solution from the step's initial set {c + B r}: C_k ∋ x_k,p(x0) − x_k,q(x0) for every x0 in
// the set (mean value form x_k(x0) ∈ x_k(c) + Dx_k([X])·B·r, Dx_0 = I), k = 0..p, plus
// R ∋ x_{p+1},p − x_{p+1},q over the a priori box E (the Lagrange remainder's coefficient).
template <class S>
struct GapSeries {
  std::vector<S> C;
  S R;

  // Guarantee: contains g(s) = x_p(τ₀ + s) − x_q(τ₀ + s) for every s ∈ `s` ∩ [0, h̄].
  S value(const S& s) const {
    S acc = R;
    for (std::size_t k = C.size(); k-- > 0;) acc = acc * s + C[k];
    return acc;
  }
  // Guarantee: contains (g(s) − g(0))/s for every s ∈ `s` ∩ (0, h̄] (the slope from the start).
  S slope(const S& s) const {
    S acc = R;
    for (std::size_t k = C.size(); k-- > 1;) acc = acc * s + C[k];
    return acc;
  }
  // Guarantee: contains g'(s) (the τ-derivative) for every s ∈ `s` ∩ [0, h̄]: the Taylor
  // coefficients of g' are (k+1)·g_{k+1}, and its Lagrange remainder of order p−1 is
  // (p+1)·x_{p+1}(x(ξ))·s^p with x(ξ) ∈ E.
  S derivative(const S& s) const {
    const std::size_t P = C.size() - 1;
    S acc = R * S(static_cast<int>(P + 1));
    for (std::size_t k = P + 1; k-- > 1;) acc = acc * s + C[k] * S(static_cast<int>(k));
    return acc;
  }
};

template <class S>
GapSeries<S> gap_series(const integrate::StepRecord<S>& r, std::size_t p, std::size_t q) {
  const std::size_t n = r.n, P = r.p;
  GapSeries<S> g;
  g.R = r.remainder[p] - r.remainder[q];
  g.C.resize(P + 1);
  for (std::size_t k = 0; k <= P; ++k) {
    S ck = r.center[p * (P + 1) + k] - r.center[q * (P + 1) + k];
    for (std::size_t m = 0; m < n; ++m) {
      S row(0);
      for (std::size_t j = 0; j < n; ++j)
        row += (r.jac[(k * n + p) * n + j] - r.jac[(k * n + q) * n + j]) * r.B[j * n + m];
      ck += row * r.r[m];
    }
    g.C[k] = ck;
  }
  return g;
}

// Guarantee: contains x(τ₀ + s) for every s in the sub-range [s0, s1] of the step (intersected
// with the step's whole box, which also contains it).
template <class S>
std::vector<S> sub_box(const TauStep<S>& st, const S& s_range) {
  std::vector<S> b = st.record->enclose(s_range);
  for (std::size_t i = 0; i < b.size(); ++i) {
    // both contain the true value, so their intersection does (and is never empty)
    const auto lo = num::lower(b[i]) > num::lower(st.box[i]) ? num::lower(b[i]) : num::lower(st.box[i]);
    const auto hi = num::upper(b[i]) < num::upper(st.box[i]) ? num::upper(b[i]) : num::upper(st.box[i]);
    if (hi < lo) throw integrate::ValidationFailure("empty intersection of two enclosures (internal error)");
    b[i] = num::hull_of_bounds<S>(lo, hi);
  }
  return b;
}

struct WalkOutcome {
  bool covered = false;      // every t ∈ [0, H] lies in a visited step
  bool stopped = false;      // the visitor asked to stop
  std::string failure;       // why the walk ended early (validation failure, budget)
  std::size_t steps = 0;
};

// Walks the validated tube of `model` (τ-time, state (a, u, t)) from its initial state until
// t ≥ H is certain, calling visit(step) after each step; visit returns false to stop.
template <class S>
WalkOutcome walk_tau_tube(const models::LogisticReducedTau<S>& model, double H, integrate::ValidatedOptions options,
                          const std::function<bool(const TauStep<S>&)>& visit) {
  auto field = [&model](const auto& x, auto& dx) { model.rhs(x, dx); };
  const std::size_t n = model.dimension(), ti = model.time_index();
  integrate::ValidatedTaylor<S, decltype(field)> integ(field, n, options);
  const std::vector<S> x0 = model.initial_state();
  integrate::LohnerSet<S> set = integrate::LohnerSet<S>::from_box(x0);
  S tau(0);
  const S tau_end(1e12);  // far beyond reach: the walk stops on t ≥ H
  std::vector<S> start = x0;
  WalkOutcome out;
  try {
    for (;;) {
      if (out.steps >= options.max_steps) {
        out.failure = "step budget exhausted before t reached the horizon";
        return out;
      }
      bool reached = false;
      integrate::TubeSegment<S> seg = integ.step(set, tau, tau_end, reached);
      TauStep<S> st;
      st.record = &integ.last_step();
      st.box = std::move(seg.box);
      st.start = start;
      st.end = integ.last_box();
      st.h = seg.t1 - seg.t0;
      st.index = out.steps++;
      const bool go_on = visit(st);
      if (!go_on) {
        out.stopped = true;
        return out;
      }
      if (num::lower(st.end[ti]) >= H) {
        out.covered = true;
        return out;
      }
      start = st.end;
    }
  } catch (const integrate::ValidationFailure& e) {
    out.failure = std::string("validation failed: ") + e.what();
  }
  return out;
}

}  // namespace softcert::varre2026
