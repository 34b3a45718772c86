#pragma once
// The ball step: the ball set {c + [o] + e : ‖We‖₂ ≤ ρ} (flow_sets.hpp) moved by one validated
// step with the logarithmic norm of the field (docs/method.md §2b; the top of
// integrate/validated_taylor.hpp). Included only by integrate/validated_taylor.cpp, where the
// stepper is compiled once per interval kind.
#include "integrate/validated_taylor.hpp"
#include "numerics/outward_interval_d.hpp"
#include "numerics/product_log_norm.hpp"

namespace softcert::integrate {

template <class S>
TubeSegment<S> ValidatedStepper<S>::step_ball(BallSet<S>& set, S& t, const S& t_end, bool& reached) {
  using B = num::BoundOf<S>;
  const std::size_t n = n_, p = opt_.order;
  if (opt_.keep_records) throw std::invalid_argument("step: the ball step keeps no step records (keep_records)");
  if (set.c.size() != n || (!set.offset.empty() && set.offset.size() != n))
    throw std::invalid_argument("step: the set's dimension is not the field's");
  double clk = StepProfile::now();
  auto lap = [&clk](double& into) {
    const double t1 = StepProfile::now();
    into += t1 - clk;
    clk = t1;
  };
  // The norm of this step's sets: ‖W e‖₂, W = diag(w) (BallSettings::ball_weights; w_i = 1 when
  // none are set). Checked: one positive finite power of two per component.
  const std::vector<double>& w = opt_.ball_weights;
  if (!w.empty() && w.size() != n) throw std::invalid_argument("ball_weights: one per state component");
  for (const double wi : w) {
    int e = 0;
    if (!(wi > 0) || !std::isfinite(wi) || std::frexp(wi, &e) != 0.5)
      throw std::invalid_argument("ball_weights: each weight must be a positive power of two");
  }
  if (!set.weights.empty() && set.weights.size() != n) throw std::invalid_argument("step: the set's ball weights differ in dimension");
  auto weight = [&w](std::size_t i) { return w.empty() ? 1.0 : w[i]; };
  // ‖W(x0 − c)‖₂ ≤ rho0 for every x0 in the set: its ball (a radius in the set's own weights v:
  // ‖W e‖₂ ≤ max_i (w_i/v_i)·‖V e‖₂) plus the W-norm of the magnitudes of its offset [o] (when
  // the set still carries one, e.g. the first step from a box).
  IntervalD rho0(set.ball);
  if (set.ball > 0 && (!w.empty() || !set.weights.empty())) {
    double ratio = 0;  // max_i w_i / v_i, rounded upward
    for (std::size_t i = 0; i < n; ++i)
      ratio = std::max(ratio, (IntervalD(weight(i)) / IntervalD(set.weights.empty() ? 1.0 : set.weights[i])).upper());
    rho0 = IntervalD(set.ball) * IntervalD(ratio);
  }
  if (!set.offset.empty()) {
    IntervalD sq(0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const IntervalD m = num::outward_interval_d(set.offset[i]);
      const IntervalD mag = IntervalD(std::max(std::fabs(m.lower()), std::fabs(m.upper()))) * IntervalD(weight(i));
      sq += mag * mag;
    }
    rho0 += num::sqrt(sq);
  }
  const std::vector<S> X = set.box();
  require_centre_in_box(set.c, X);
  // The centre's series and the box's are independent: with a helper thread (BallSettings::
  // piece_threads) the box's runs there meanwhile (its own tape; the same numbers). A failure is
  // reported as one thread would: the centre's first.
  // The helper runs only on a core the CPU cap has free for this step (support/cpu_cap.hpp).
  std::optional<support::CpuSlot> box_core = use_piece_helper() ? support::CpuSlot::try_extra() : std::nullopt;
  support::HelperThread* box_helper = box_core ? piece_helper_.get() : nullptr;
  if (box_helper) {
    box_helper->start([&] {
      tx_.record(f_, X, p);
      tx_.solve(false);
    });
    try {
      tc_.record(f_, set.c, p);
      tc_.solve(false);
    } catch (...) {
      try {
        box_helper->wait();  // the job reads this frame's X: it must end before the frame does
      } catch (...) {
      }
      throw;
    }
    lap(prof_.centre);
    box_helper->wait();
    box_core.reset();  // the pieces below take a core again if one is free
  } else {
    tc_.record(f_, set.c, p);
    tc_.solve(false);
    lap(prof_.centre);
    tx_.record(f_, X, p);
    tx_.solve(false);
  }
  box_in_double_ = false;
  lap(prof_.box_record);
  bool last = false;
  const S hS = validated_step_size(set.c, t, t_end, last);
  rec_ = StepRecord<S>{};  // no record of this step: last_step() must not describe an earlier one
  // This step's record: the box's series and the remainder over E (box_series_record.hpp).
  series_rec_.n = n;
  series_rec_.p = p;
  series_rec_.t0 = t;
  series_rec_.h = hS;
  series_rec_.box_coeff.resize(n * (p + 1));
  series_rec_.remainder.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k <= p; ++k) series_rec_.box_coeff[i * (p + 1) + k] = tx_.coefficient(i, k);
    series_rec_.remainder[i] = te_.coefficient(i, p + 1);
  }
  const B hbar = num::upper(hS);
  lap(prof_.apriori);
  // The growth factor over [0, h], piece by piece (integrate/ball_pieces.hpp): [0, h] is cut at
  // doubles 0 < c_1 < … < c_{m−1} ≤ lower(h), each cut shared by the piece it ends and the one it
  // starts, into S_i = [c_{i−1}, c_i] (the last ends at h, anywhere in hS). Each piece has a box
  // E_i ∋ x(s) for s ∈ S_i and every solution from the set (the Taylor polynomial over the set's
  // box in centred form, plus the remainder x_{p+1}(E)·S_i^{p+1}, intersected with E). On S_i
  // both solutions stay in the convex E_i, so ‖e‖ grows at most by e^{μ_i ℓ_i} with μ_i bounding
  // the logarithmic norm of Df over E_i and ℓ_i = c_i − c_{i−1}; the factor is e^{Σ μ_i ℓ_i}, and
  // ball_growth_exponent encloses that exponent for the exact lengths of this one partition.
  // Df over a piece: the order-1 coefficient is f itself, so the x0-derivatives of the order-1
  // tape recorded over E_i enclose ∂f_i/∂x_j at every point of E_i. Smaller pieces have narrower
  // boxes, so Df and μ_i are enclosed more tightly (at m times the cost).
  const IntervalD hd = num::outward_interval_d(hS);
  const std::vector<double> cuts = ball_piece_cuts(hd.lower(), opt_.ball_pieces ? opt_.ball_pieces : ball_rule_.next);
  const std::size_t m = cuts.size() + 1;
  std::vector<double> mu(m);
  std::vector<num::LogNormBound> bounds(m);
  std::vector<std::exception_ptr> failed(m);
  std::vector<double> t_df(m, 0.0), t_mu(m, 0.0);
  // Piece `piece` on the calling thread, with its own tape and Df buffer; an exception is kept
  // for the piece, so that the step fails as the pieces one after the other would: with the
  // first failing piece's error.
  auto run_piece = [&](std::size_t piece, taylor::Tape<S>& tj, std::vector<IntervalD>& Df) {
    try {
      ball_piece(piece, cuts, hbar, tj, Df, bounds[piece], t_df[piece], t_mu[piece]);
    } catch (...) {
      failed[piece] = std::current_exception();
    }
  };
  // With more than one piece and a second hardware thread, the odd pieces run on the helper
  // thread (support/helper_thread.hpp) while this thread does the even ones. Each piece reads
  // only what the step computed before (tx_, te_, E_, cuts) and writes its own slots, and the
  // helper runs in this thread's rounding mode: the bounds are the same doubles either way, and
  // they are combined below in the pieces' order (tests: BallStepPieceThreads.*).
  std::optional<support::CpuSlot> helper_core = m > 1 && use_piece_helper() ? support::CpuSlot::try_extra() : std::nullopt;
  support::HelperThread* helper = helper_core ? piece_helper_.get() : nullptr;
  const bool two_threads = helper != nullptr;
  if (two_threads) {
    helper->start([&] {
      for (std::size_t piece = 1; piece < m; piece += 2) run_piece(piece, tj2_, ball_df2_);
    });
  }
  for (std::size_t piece = 0; piece < m; piece += two_threads ? 2 : 1) run_piece(piece, tj_, ball_df_);
  if (two_threads) helper->wait();
  for (std::size_t piece = 0; piece < m; ++piece) {
    if (failed[piece]) std::rethrow_exception(failed[piece]);
    mu[piece] = bounds[piece].mu;
    // μ_i ≥ λ_max(sym A) for every A in Df, or +inf (numerics/log_norm_bound.hpp: never NaN, and
    // +inf when anything overflowed). A bound that is not finite fails the step: it bounds no
    // growth (and a NaN would compare as if it were small).
    if (!std::isfinite(mu[piece])) throw support::ValidationFailure("ball step: no finite bound of the logarithmic norm of the field's Jacobian over the a priori box");
    if (!two_threads || piece % 2 == 0) {  // this thread's CPU (the helper's: helper_cpu_seconds())
      prof_.derivative += t_df[piece];
      prof_.log_norm += t_mu[piece];
    }
  }
  clk = StepProfile::now();
  const IntervalD exponent = ball_growth_exponent(mu, cuts, hd);
  ball_rule_.observe(static_cast<unsigned>(m), hd.upper(), rho0.upper(), bounds);
  // e^{Σ μ_i ℓ_i}, rounded upward.
  const IntervalD growth = num::exp(exponent);
  const IntervalD rho1 = IntervalD(growth.upper()) * rho0;
  // The centre's solution at h, its new midpoint, and the distance between them.
  std::vector<S> yc(n);
  {
    const S hp1 = num::pow_int(hS, static_cast<unsigned>(p + 1));
    for (std::size_t i = 0; i < n; ++i) {
      S acc = tc_.coefficient(i, p);
      for (std::size_t k = p; k-- > 0;) acc = acc * hS + tc_.coefficient(i, k);
      yc[i] = acc + te_.coefficient(i, p + 1) * hp1;
    }
  }
  BallSet<S> next;
  next.c.resize(n);
  next.weights = w;
  IntervalD sq(0.0);
  for (std::size_t i = 0; i < n; ++i) {
    next.c[i] = num::mid_scalar(yc[i]);
    const IntervalD dci = num::outward_interval_d(yc[i] - next.c[i]);
    const IntervalD mag = IntervalD(std::max(std::fabs(dci.lower()), std::fabs(dci.upper()))) * IntervalD(weight(i));
    sq += mag * mag;
  }
  next.ball = (rho1 + num::sqrt(sq)).upper();
  if (!std::isfinite(next.ball)) throw support::ValidationFailure("ball step: the radius is not finite");
  TubeSegment<S> seg;
  seg.t0 = t;
  seg.box = E_;
  t = last ? t_end : S(t + hS);
  seg.t1 = t;
  final_.resize(n);
  // x_i(h) ∈ y_c,i ± ρ1/w_i (|w_i (x_i − x_i(h; c))| ≤ ‖W(x − x(h; c))‖₂), and in E.
  for (std::size_t i = 0; i < n; ++i) {
    const double rad = (rho1 / IntervalD(weight(i))).upper();
    final_[i] = intersect(yc[i] + num::hull_of_bounds<S>(B(-rad), B(rad)), E_[i]);
  }
  seg.end = final_;
  set = std::move(next);
  reached = last;
  lap(prof_.rest);
  count_step(seg, t);
  return seg;
}

// One piece of the ball step (step_ball): its box E_i, Df over E_i and the bound μ_i. Reads the
// step's tx_ (the box's series), te_ (the remainder coefficient over E) and E_; writes only its
// arguments, so pieces can run on two threads with a tape and a Df buffer each.
template <class S>
void ValidatedStepper<S>::ball_piece(std::size_t piece, const std::vector<double>& cuts, const num::BoundOf<S>& hbar, taylor::Tape<S>& tj,
                                     std::vector<IntervalD>& Df, num::LogNormBound& bound, double& t_df, double& t_mu) const {
  const std::size_t n = n_, p = opt_.order, m = cuts.size() + 1;
  const double t0 = StepProfile::now();
  std::vector<S> Ei(n);
  if (m == 1) {
    Ei = E_;
  } else {
    // S_i = [c_{i−1}, c_i] (exact doubles; the last piece ends at h̄ ≥ every h in hS)
    const S sa(piece == 0 ? 0.0 : cuts[piece - 1]);
    const S sb = piece + 1 == m ? S(hbar) : S(cuts[piece]);
    const S Si = num::hull(sa, sb), smid = num::mid_scalar(Si);
    const S Sp1 = num::pow_int(Si, static_cast<unsigned>(p + 1));
    // P(S_i) ⊂ P(s_mid) + P'(S_i)·(S_i − s_mid) (mean value form in time), P over the box [X], in
    // the tape's arithmetic (taylor/fast_arith.hpp: the same enclosures as S's operators, with
    // the rounding mode set once for the loop instead of around every operation).
    using FA = taylor::FastArith<S>;
    using Af = typename FA::type;
    std::vector<S> Pi(n);
    {
      [[maybe_unused]] const typename FA::Guard guard;
      const Af si = FA::to(Si), sm = FA::to(smid), ds = FA::to(Si) - FA::to(smid), sp1 = FA::to(Sp1);
      for (std::size_t i = 0; i < n; ++i) {
        const Af cp = FA::to(tx_.coefficient(i, p));
        Af val = cp, der = cp * Af(static_cast<double>(p));
        for (std::size_t k = p; k-- > 0;) {
          const Af ck = FA::to(tx_.coefficient(i, k));
          val = val * sm + ck;
          if (k > 0) der = der * si + ck * Af(static_cast<double>(k));
        }
        Pi[i] = FA::from(val + der * ds + FA::to(te_.coefficient(i, p + 1)) * sp1);
      }
    }
    for (std::size_t i = 0; i < n; ++i) Ei[i] = intersect(Pi[i], E_[i]);
  }
  // The box the closed forms read: E_i rounded outward to doubles (a superset of E_i).
  std::vector<IntervalD> Ed;
  if (box_jacobian_factors_ || box_jacobian_) {
    Ed.resize(n);
    for (std::size_t i = 0; i < n; ++i) Ed[i] = num::outward_interval_d(Ei[i]);
  }
  // The large factorisations take a core the CPU cap has free (the same bits on one thread or two).
  const num::PairRunner both = [](const std::function<void()>& a, const std::function<void()>& b) { support::run_both(a, b); };
  const std::vector<double>& w = opt_.ball_weights;
  // Df over E_i as a product L Rᵀ of thin factors, when the model has one
  // (set_box_jacobian_factors): μ_i from the factors (numerics/product_log_norm.hpp), never
  // forming Df. In the norm ‖W e‖₂ the bound is taken for W·L·(W⁻¹R)ᵀ, rows scaled by w_i and
  // 1/w_i (powers of two: exact, but in interval arithmetic so that an overflow or underflow can
  // only widen).
  if (box_jacobian_factors_) {
    std::vector<IntervalD> left, right;
    std::size_t k = 0;
    bool ok = box_jacobian_factors_(Ed, left, right, k) && k > 0 && left.size() == n * k && right.size() == n * k;
    for (std::size_t e = 0; ok && e < n * k; ++e)
      ok = std::isfinite(left[e].lower()) && std::isfinite(left[e].upper()) && std::isfinite(right[e].lower()) &&
           std::isfinite(right[e].upper());
    if (ok) {
      if (!w.empty())
        for (std::size_t i = 0; i < n; ++i)
          if (w[i] != 1.0)
            for (std::size_t p = 0; p < k; ++p) {
              left[i * k + p] = left[i * k + p] * IntervalD(w[i]);
              right[i * k + p] = right[i * k + p] / IntervalD(w[i]);
            }
      const double t1 = StepProfile::now();
      t_df += t1 - t0;
      bound = num::log_norm_upper_bound_of_product(left, right, n, k, both);
      t_mu += StepProfile::now() - t1;
      return;
    }
  }
  // Df over E_i: from the closed form when one is set (set_box_jacobian: an enclosure of
  // ∂f_i/∂x_j over E_i rounded outward, a superset of E_i), else — or if it declines or is not
  // finite — from the tape: the order-1 coefficient is f itself, so the x0-derivatives of the
  // order-1 tape recorded over E_i enclose ∂f_i/∂x_j at every point of E_i.
  Df.resize(n * n);  // n² intervals: reused (a fresh buffer faults in every page)
  bool closed_form = false;
  if (box_jacobian_) {
    closed_form = box_jacobian_(Ed, Df) && Df.size() == n * n;
    for (std::size_t k = 0; closed_form && k < n * n; ++k)
      closed_form = std::isfinite(Df[k].lower()) && std::isfinite(Df[k].upper());
  }
  if (!closed_form) {
    Df.resize(n * n);
    tj.record(f_, Ei, 1);
    tj.solve(true, 1);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) Df[i * n + j] = num::outward_interval_d(tj.derivative(i, 1, j));
  }
  // In the norm ‖W e‖₂ the error e = x − x(·; c) obeys d(We)/ds = W A W⁻¹ (We): the bound is
  // taken for W·Df·W⁻¹, entry (i, j) scaled by w_i/w_j (powers of two: exact, but in interval
  // arithmetic so that an overflow or underflow can only widen).
  if (!w.empty())
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (w[i] != w[j]) Df[i * n + j] = Df[i * n + j] * (IntervalD(w[i]) / IntervalD(w[j]));
  const double t1 = StepProfile::now();
  t_df += t1 - t0;
  // μ_i ≥ λ_max(sym A) for every A in Df, or +inf (numerics/log_norm_bound.hpp)
  bound = num::log_norm_upper_bound(Df, n, both);
  t_mu += StepProfile::now() - t1;
}

}  // namespace softcert::integrate
