#pragma once
// The rigorous tier through the kink of |x| and relu (docs/method.md §5c): a score a_k that
// reaches its kink a_k = 0 transversally is followed onto it, and the flow continues with the
// field of the branch pattern that holds there, analytic on its own.
//
// Setting. A τ-time model (the old time t is the state component time_index(), dt/dτ ≥ 1) whose
// field depends on one branch per score k (model.set_branch): positive f = a_k, negative
// f = −a_k (|x| only), zero f = f' = 0. For every branch pattern the field is analytic where
// F = Σ f ≠ 0. On the kink a_k = 0 the three branches' fields agree in every component except
// ȧ_k (f and α_k are 0 on all of them); ȧ_k is P_k = the positive branch's at a_k = 0, −P_k the
// negative's (|x|), 0 the zero branch's (ȧ_k ≡ 0 there, everywhere). ValueSoftmax with |x| or
// relu is such a model; tests/integrate/kink_crossing_test.cpp has a toy one with a closed form.
//
// The argument, per step (validated_taylor.hpp gives each step's segment box and record). The
// steps are runs of the one validated flow (validated_flow.hpp, run_flow) whose observers carry
// the argument: one run per branch pattern, stopped at the first step where an active score may
// reach its kink; one run continuing that window on the same set; one run of the new pattern
// from W over [0, Δ]. The step budget (max_steps) is shared by all of them.
//  - Active scores (branch positive/negative, σ_k = ±1): if σ_k a_k > 0 certainly over the
//    step's segment box, the pattern's field is the true field over the whole step.
//  - Otherwise the step is an enclosure of the pattern's (analytic) solution x_on, which is the
//    true solution until a_k first reaches 0. Transversality: σ_k ȧ_k < 0 certainly over the
//    segment box (the pattern's field over the box), so σ_k a_k is strictly decreasing on the
//    step for x_on, and a point bound decides a whole side: s_lo with σ_k a_k(s_lo) > 0 certainly
//    gives a_k ≠ 0 on [0, s_lo]; s_hi with σ_k a_k(s_hi) < 0 certainly gives a zero in
//    (s_lo, s_hi) (on-branch steps are continued, each certified transversal, until one ends
//    certainly past 0). So a_k reaches 0 at τ* ∈ [τ_lo, τ_hi], and x(τ*) ∈ W, the record's
//    enclosure over the window (∩ the segment boxes), with a_k = 0 exactly.
//    If the step is not certainly transversal: KinkPossible from the last time a_k > 0 is
//    certain (bisected with interval bounds over [0, s], no monotonicity used).
//  - From τ* on, a_k stays at 0, provided the pinning condition holds on the kink: P_k < 0
//    certainly (the positive side's field points into the kink) and, for |x|, −P_k > 0 (so does
//    the negative side's). Then the unique Filippov solution stays on a_k = 0 (docs/method.md
//    §5c: leaving to either side would need ȧ_k of that sign near the kink), and with a_k ≡ 0 it
//    solves the zero branch's field — for relu the other branch's field itself, for |x| the
//    Filippov sliding field (the average of the two sides, whose ȧ_k is 0). The condition is
//    checked on W and on every later segment box; if it may fail, KinkPossible.
//  - The state at τ_hi: x(τ_hi) = Φ_zero(τ_hi − τ*, x(τ*)) with τ_hi − τ* ∈ [0, Δ], Δ = τ_hi − τ_lo,
//    is in the hull of the zero-pattern steps' segment boxes from W over [0, Δ]. The walk
//    restarts from that box at τ_hi (so the Lohner set's correlations are lost at a crossing).
//  - Two scores that may reach 0 in the same step, a score whose initial sign is uncertain,
//    or a window longer than max_window_steps: KinkPossible (never an enclosure through a
//    kink that is not certified).
// The time t = END is bracketed as in validated_time_change.hpp on steps without a crossing,
// and by the window's boxes (coarser) when it falls inside one.
//
// Guarantee of enclose_through_kinks: for every initial state in model.initial_state(), the
// Filippov solution of the kinked field exists and is unique on [0, END], result.x contains
// x(τ(END)) (t component ∋ END), result.alpha contains α(x(τ(END))), and result.kink_arrivals
// lists every score that reaches its kink, with an enclosure of the t at which it does and
// "stays" (relu) or "slides" (|x|); every other score keeps the sign of a_k(0) on [0, END].
// Otherwise it throws KinkPossible (kink_report.hpp, with the certified arrivals before the
// stop) or RigorousFailure; never an unproved result.
#include <algorithm>
#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "integrate/enclosed_value.hpp"
#include "integrate/full_state_orders.hpp"
#include "integrate/kink_report.hpp"
#include "integrate/rigorous_full.hpp"
#include "integrate/validated_flow.hpp"
#include "integrate/validated_taylor.hpp"
#include "integrate/validated_time_change.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

struct KinkCrossingOptions {
  std::size_t max_window_steps = 8;  // on-branch steps allowed to bracket one crossing
  bool check_transversal = true;     // false only in tests (the mutation that must fail one)
  bool swap_branch = false;          // true only in tests: continue with the wrong branch
};

namespace kink_crossing_detail {

// The largest s ∈ [lo, hi] (to bisection accuracy) with pred(s), given pred(lo) and a pred
// that holds on an initial segment of [lo, hi].
template <class B, class Pred>
B last_true(B lo, B hi, const Pred& pred, int iters) {
  for (int i = 0; i < iters; ++i) {
    const B m = (lo + hi) / 2;
    if (pred(m)) lo = m;
    else hi = m;
  }
  return lo;
}

template <class S>
void hull_into(std::vector<S>& acc, const std::vector<S>& box) {
  if (acc.empty()) acc = box;
  else
    for (std::size_t i = 0; i < acc.size(); ++i) acc[i] = num::hull(acc[i], box[i]);
}

}  // namespace kink_crossing_detail

// Guarantee: see the top of this file. `model` is copied; its branches are set here.
template <class S, class Model>
FullStateEnclosure<S> enclose_through_kinks(Model model, const S& t_end, ValidatedOptions options,
                                            KinkCrossingOptions kopt = {}) {
  using B = num::BoundOf<S>;
  using Branch = typename Model::Branch;
  namespace kd = kink_crossing_detail;
  const std::size_t T = model.tokens(), a0 = model.a_offset(), ti = model.time_index(), n = model.dimension();
  const int iters = static_cast<int>(working_bits<S>()) + 8;
  if (options.log_norm_ball) throw std::invalid_argument("kink crossing: needs the Lohner step's records (not log_norm_ball)");
  FullStateEnclosure<S> out;
  out.a_offset = a0;
  out.tau_time = true;
  options.keep_segments = false;
  if (options.on_step)
    options.on_step = [report = options.on_step, ti](std::size_t k, double, const std::vector<double>& x) { report(k, x[ti], x); };
  if (options.jacobian_order == 0) options.jacobian_order = full_state_jacobian_order<S>(true, options.order);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  ValidatedTaylor<S, decltype(field)> vt(field, n, options);
  const BoxField<S> box_field = vt.box_field();

  std::vector<char> pinned(T, 0);
  std::vector<char> coarse(T, 0);  // a_k at END bounded by a crossing window's boxes (not 0)
  std::vector<KinkArrival> arrivals;
  std::vector<S> last_box = model.initial_state();  // contains x at the last certified time
  std::size_t steps = 0;
  auto stop = [&](const std::string& why, const std::vector<S>& box) {
    model.clear_branches();  // the report reads the model's scores only
    const S t_reached = box[ti];
    kink_detail::throw_kink_possible(model, box, t_reached, steps, why, arrivals);
  };
  auto sigma = [&](std::size_t k) { return model.branch(k) == Branch::negative ? -1 : 1; };
  auto active = [&](std::size_t k) { return !pinned[k] && model.branch(k) != Branch::zero; };
  // σ_k a_k certainly > 0 over a box.
  auto away = [&](const S& v, std::size_t k) {
    return sigma(k) > 0 ? num::certainly_positive(v) : num::certainly_negative(v);
  };
  // The ȧ_k of branch b on the kink (a_k := 0) over a box; throws when the field refuses it.
  auto on_kink_rate = [&](const std::vector<S>& box, std::size_t k, Branch b) {
    std::vector<S> y = box, dy(n, S(0));
    y[a0 + k] = S(0);
    const Branch keep = model.branch(k);
    model.set_branch(k, b);
    try {
      model.rhs(y, dy);
    } catch (...) {
      model.set_branch(k, keep);
      throw;
    }
    model.set_branch(k, keep);
    return dy[a0 + k];
  };
  // The pinning condition of score k over a box (top of this file).
  auto pinning_holds = [&](const std::vector<S>& box, std::size_t k) {
    try {
      if (!num::certainly_negative(on_kink_rate(box, k, Branch::positive))) return false;
      if (!model.has_negative_branch()) return true;  // relu: ȧ_k ≡ 0 on the zero branch below
      return num::certainly_positive(on_kink_rate(box, k, Branch::negative));
    } catch (const std::exception&) {
      return false;
    }
  };
  auto pins_hold = [&](const std::vector<S>& box) -> std::string {
    for (std::size_t k = 0; k < T; ++k)
      if (pinned[k] && !pinning_holds(box, k))
        return "a[" + std::to_string(k) + "] is on its kink and the solution may leave it (the pinning condition "
               "P_k < 0 is not certain over the step)";
    return "";
  };
  auto set_pinned_zero = [&](std::vector<S>& box) {
    for (std::size_t k = 0; k < T; ++k)
      if (pinned[k]) box[a0 + k] = S(0);
  };

  // The initial pattern from the signs of a(0).
  {
    const std::vector<S> x0 = model.initial_state();
    for (std::size_t k = 0; k < T; ++k) {
      const S& v = x0[a0 + k];
      if (num::certainly_positive(v)) model.set_branch(k, Branch::positive);
      else if (num::certainly_negative(v)) model.set_branch(k, model.has_negative_branch() ? Branch::negative : Branch::zero);
      else if (num::certainly_nonnegative(v) && num::certainly_nonpositive(v)) {
        model.set_branch(k, Branch::zero);
        pinned[k] = 1;
      } else {
        stop("the sign of a[" + std::to_string(k) + "](0) is not certain", x0);
      }
    }
    for (std::size_t k = 0; k < T; ++k)
      if (pinned[k]) {
        if (!pinning_holds(x0, k)) stop("a[" + std::to_string(k) + "](0) = 0 and the pinning condition is not certain there", x0);
        arrivals.push_back(KinkArrival{k, enclosed_value(S(0)), model.has_negative_branch() ? "slides" : "stays"});
      }
  }

  if (!num::certainly_positive(t_end)) throw std::invalid_argument("END: the horizon must be certainly positive");
  const S tau_cap = t_end + S(1);  // τ ≤ t along the orbit (dt/dτ ≥ 1)
  LohnerSet<S> set = LohnerSet<S>::from_box(last_box);
  S tau(0);
  Crossing<S> hit;
  bool have = false, done = false;
  std::vector<S> dx(n, S(0));
  // The field over a box, or false when it refuses the box.
  auto rate_over = [&](const std::vector<S>& box) {
    try {
      box_field(box, dx);
      return true;
    } catch (const std::exception&) {
      return false;
    }
  };
  // A stop an observer asks for (its reason and the box the report starts from): the observer
  // returns FlowAction::stop and `run` below throws it, after the run's steps are counted.
  std::optional<std::pair<std::string, std::vector<S>>> pending;
  auto hold = [&](std::string why, const std::vector<S>& box) {
    pending.emplace(std::move(why), box);
    return FlowAction::stop;
  };
  // One run of the validated flow (validated_flow.hpp) of the current pattern from `s` at `at`
  // until the integration time reaches `cap` or an observer stops it; `at` becomes the time
  // reached. Returns whether the last step ended on `cap`. The step budget is shared by every
  // run (options.max_steps in all); a step that fails or the exhausted budget stops the whole
  // argument at the last certified box, counted as the hand loop counted it (the step tried).
  auto run = [&](LohnerSet<S>& s, S& at, const S& cap, auto&& observer) {
    FlowControl control;
    control.max_steps = options.max_steps - steps;
    control.budget_message = "step budget exhausted";
    pending.reset();
    const auto curve = run_flow<S>(vt, s, s.box(), at, until_time(cap), control, no_finisher,
                                   std::forward<decltype(observer)>(observer));
    steps += curve.steps();
    if (curve.end() == FlowEnd::budget || curve.end() == FlowEnd::failure) {
      ++steps;
      stop(curve.message(), last_box);
    }
    if (pending) stop(pending->first, pending->second);
    at = curve.t_reached();
    return curve.last_step_reached_end();
  };
  // What the pattern run hands to the window when an active score may reach its kink: the
  // step's record and segment box (copied: the stepper's record is overwritten by the next step).
  struct Approach {
    std::size_t k;
    StepRecord<S> rec;
    std::vector<S> box;
  };
  while (!done) {
    // The steps of the current pattern: each is analysed as it comes; the run stops at the first
    // step on which an active score may reach its kink (→ the window below).
    std::optional<Approach> approach;
    const bool reached = run(set, tau, tau_cap, on_tube_step([&](const TubeStep<S>& st) {
      const std::vector<S>& sbox0 = st.box();
      // (a step that reaches the τ cap may still hold t = END: checked after the step is analysed)
      if (const std::string why = pins_hold(sbox0); !why.empty()) return hold(why, last_box);
      std::vector<std::size_t> maybe;
      for (std::size_t k = 0; k < T; ++k)
        if (active(k) && !away(sbox0[a0 + k], k)) maybe.push_back(k);
      if (maybe.empty()) {  // the pattern's field is the true field over the whole step
        last_box = st.end();
        set_pinned_zero(last_box);
        if (!num::certainly_lt(sbox0[ti], t_end)) {
          const bool increasing = rate_over(sbox0) && num::certainly_positive(dx[ti]);
          std::vector<S> sbox = sbox0;
          done = detail::add_crossing_piece<S>(st.record(), sbox, ti, t_end, increasing, hit, have);
        }
        return done ? FlowAction::complete : FlowAction::proceed;
      }
      if (maybe.size() > 1)
        return hold("a[" + std::to_string(maybe[0]) + "] and a[" + std::to_string(maybe[1]) +
                        "] may reach their kinks in the same step",
                    last_box);
      approach.emplace(Approach{maybe[0], st.record(), sbox0});
      return FlowAction::stop;
    }));
    if (done) break;
    // The run ended on the τ cap with no crossing of END and no kink ahead.
    if (!approach) stop("the τ cap was reached before t = END", last_box);
    const std::size_t k = approach->k;
    const int sg = sigma(k);
    auto past_zero = [&](const S& v) { return sg > 0 ? num::certainly_negative(v) : num::certainly_positive(v); };
    const StepRecord<S>& rec0 = approach->rec;
    const std::vector<S>& seg_box = approach->box;
    const B h0 = num::upper(rec0.h);
    // Transversality over the step: σ ȧ_k < 0 over the segment box.
    auto transversal = [&](const std::vector<S>& box) {
      if (!kopt.check_transversal) return true;
      return rate_over(box) && (sg > 0 ? num::certainly_negative(dx[a0 + k]) : num::certainly_positive(dx[a0 + k]));
    };
    if (!transversal(seg_box)) {
      // The last time a_k ≠ 0 is certain, by bounds over [0, s] (no monotonicity).
      const B s_lo = away(rec0.component(a0 + k, S(0)), k)
                         ? kd::last_true(B(0), h0, [&](const B& s) { return away(rec0.component(a0 + k, num::hull_of_bounds<S>(B(0), s)), k); }, iters)
                         : B(0);
      std::vector<S> at = rec0.enclose(num::hull_of_bounds<S>(s_lo, s_lo));
      for (std::size_t i = 0; i < n; ++i) at[i] = ValidatedTaylor<S, decltype(field)>::intersect(at[i], seg_box[i]);
      set_pinned_zero(at);
      stop("a[" + std::to_string(k) + "] may reach its kink where the sign of its rate is not certain (the crossing is not "
           "certainly transversal)", at);
    }
    // s_lo: σ a_k(s) > 0 at the point s (a_k is monotone on the step).
    auto point = [](const B& s) { return num::hull_of_bounds<S>(s, s); };
    const B s_lo = away(rec0.component(a0 + k, S(0)), k)
                       ? kd::last_true(B(0), h0, [&](const B& s) { return away(rec0.component(a0 + k, point(s)), k); }, iters)
                       : B(0);
    const S tau_lo = rec0.t0 + point(s_lo);
    // The window W: the on-branch record from s_lo to the first point certainly past 0.
    // window_hull: x_on over each window step up to the window's end (for END; x_on is the true
    // solution up to τ*, and the zero pattern's boxes below cover τ* to τ_hi)
    std::vector<S> W, window_hull;
    auto add_to_hull = [&](const StepRecord<S>& r, const std::vector<S>& box, const B& upto) {
      std::vector<S> p = r.enclose(num::hull_of_bounds<S>(B(0), upto));
      for (std::size_t i = 0; i < n; ++i) p[i] = ValidatedTaylor<S, decltype(field)>::intersect(p[i], box[i]);
      kd::hull_into(window_hull, p);
    };
    S tau_hi;
    // One on-branch step of the window (record `rec`, segment box `rec_box`) from s = from: adds
    // its part to W and window_hull; true when a_k is certainly past 0 within it (τ_hi set).
    auto window_step = [&](const StepRecord<S>& rec, const std::vector<S>& rec_box, const B& from) {
      const B hb = num::upper(rec.h);
      if (past_zero(rec.component(a0 + k, point(hb)))) {
        // s_hi: the first point certainly past 0 (bisected from the step's end down)
        B lo = from, hi = hb;
        for (int i = 0; i < iters; ++i) {
          const B m = (lo + hi) / 2;
          if (past_zero(rec.component(a0 + k, point(m)))) hi = m;
          else lo = m;
        }
        std::vector<S> piece = rec.enclose(num::hull_of_bounds<S>(from, hi));
        for (std::size_t i = 0; i < n; ++i) piece[i] = ValidatedTaylor<S, decltype(field)>::intersect(piece[i], rec_box[i]);
        kd::hull_into(W, piece);
        add_to_hull(rec, rec_box, hi);
        tau_hi = rec.t0 + point(hi);
        return true;
      }
      // Not yet certainly past 0 in this step: the window goes on into the next on-branch step.
      std::vector<S> piece = rec.enclose(num::hull_of_bounds<S>(from, hb));
      for (std::size_t i = 0; i < n; ++i) piece[i] = ValidatedTaylor<S, decltype(field)>::intersect(piece[i], rec_box[i]);
      kd::hull_into(W, piece);
      add_to_hull(rec, rec_box, hb);
      return false;
    };
    const std::string not_bracketed = "a[" + std::to_string(k) + "]'s crossing of its kink is not bracketed within " +
                                      std::to_string(kopt.max_window_steps) + " steps";
    if (!window_step(rec0, seg_box, s_lo)) {
      std::size_t w = 0;  // window steps so far, less one
      if (w + 1 >= kopt.max_window_steps) stop(not_bracketed, last_box);
      if (reached) stop("the τ cap was reached inside a crossing window", last_box);
      // The window continues on the same set with the same pattern: a run of the flow that stops
      // at the first step certainly past 0.
      bool past = false;
      run(set, tau, tau_cap, on_tube_step([&](const TubeStep<S>& st) {
        const std::vector<S>& box = st.box();
        if (const std::string why = pins_hold(box); !why.empty()) return hold(why, last_box);
        for (std::size_t j = 0; j < T; ++j)
          if (j != k && active(j) && !away(box[a0 + j], j))
            return hold("a[" + std::to_string(j) + "] may reach its kink inside a[" + std::to_string(k) + "]'s crossing window",
                        last_box);
        if (!transversal(box)) return hold("a[" + std::to_string(k) + "]'s crossing is not certainly transversal over its window", last_box);
        if (window_step(st.record(), box, B(0))) {
          past = true;
          return FlowAction::stop;
        }
        if (++w + 1 >= kopt.max_window_steps) return hold(not_bracketed, last_box);
        return FlowAction::proceed;
      }));
      // (the run ended on the τ cap before a_k was certainly past 0)
      if (!past) stop("the τ cap was reached inside a crossing window", last_box);
    }
    // x(τ*) ∈ W with a_k(τ*) = 0 exactly; from τ* on, the zero branch (pinned).
    set_pinned_zero(window_hull);  // the scores pinned before this window are 0 on all of it
    W[a0 + k] = S(0);
    set_pinned_zero(W);
    const B tlo_b = num::lower(tau_lo), thi_b = num::upper(tau_hi);
    const B delta = num::upper(S(point(thi_b) - point(tlo_b)));
    pinned[k] = 1;
    // (swap_branch, a test's mutation: keep the approach branch's field on the kink)
    if (!kopt.swap_branch) model.set_branch(k, Branch::zero);
    if (!pinning_holds(W, k))
      stop("a[" + std::to_string(k) + "] reaches its kink but the pinning condition is not certain there (it may leave)",
           last_box);
    // x(τ_hi) ∈ Φ_zero([0, Δ], W): the hull of the zero pattern's segment boxes over [0, Δ] (a
    // run of the flow of the new pattern from W for the time Δ).
    std::vector<S> X_hi;
    {
      LohnerSet<S> ws = LohnerSet<S>::from_box(W);
      S s(0);
      run(ws, s, point(delta), on_segment([&](const TubeSegment<S>& sw) {
        if (const std::string why = pins_hold(sw.box); !why.empty()) return hold(why, last_box);
        for (std::size_t j = 0; j < T; ++j)
          if (active(j) && !away(sw.box[a0 + j], j))
            return hold("a[" + std::to_string(j) + "] may reach its kink inside a[" + std::to_string(k) + "]'s crossing window",
                        last_box);
        kd::hull_into(X_hi, sw.box);
        return FlowAction::proceed;
      }));
    }
    set_pinned_zero(X_hi);
    arrivals.push_back(KinkArrival{k, enclosed_value(W[ti]), model.has_negative_branch() ? "slides" : "stays"});
    // x(τ) for τ from the window's first step to τ_hi: on-branch boxes up to τ*, X_hi after; a_k
    // is between 0 and its on-branch values on σ_k's side there.
    if (!num::certainly_lt(window_hull[ti], t_end) || !num::certainly_lt(X_hi[ti], t_end)) {
      kd::hull_into(window_hull, X_hi);
      const S ak = num::hull(window_hull[a0 + k], S(0));
      window_hull[a0 + k] = sg > 0 ? num::hull_of_bounds<S>(B(0), num::upper(ak)) : num::hull_of_bounds<S>(num::lower(ak), B(0));
      kd::hull_into(hit.box, window_hull);
      have = true;
      coarse[k] = 1;
    }
    if (num::certainly_gt(X_hi[ti], t_end)) {
      done = true;
      break;
    }
    last_box = X_hi;
    set = LohnerSet<S>::from_box(X_hi);
    tau = point(thi_b);
  }
  out.steps = steps;
  out.x = hit.box;
  for (std::size_t k = 0; k < T; ++k)
    if (pinned[k] && !coarse[k]) out.x[a0 + k] = S(0);
  out.kink_arrivals = arrivals;
  model.clear_branches();
  try {
    out.alpha = model.attention(out.x);
  } catch (const std::domain_error& e) {
    stop(std::string("alpha at END: ") + e.what(), out.x);
  }
  return out;
}

// The kinked model of an instance (|x| or relu, logistic loss: τ-time) through its kinks.
template <class S>
FullStateEnclosure<S> enclose_kinked_full_state(const instances::Instance& inst, const S& t_end, ValidatedOptions options) {
  return enclose_through_kinks<S>(models::ValueSoftmax<S>(inst, true), t_end, options);
}

}  // namespace softcert::integrate
