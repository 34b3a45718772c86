#pragma once
// The rigorous tier through the kink of |x| and relu (docs/method.md §5c): a score a_k that
// reaches its kink a_k = 0 transversally is followed onto it, and the flow continues with the
// field of the branch pattern that holds there, analytic on its own.
//
// Setting. A model integrated in t (square loss) or in τ (logistic loss: the old time t is the
// state component time_index(), dt/dτ ≥ 1; kink_crossing_detail::carries_time says which) whose
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
//    checked on W and on every later segment box (on a pattern step where the whole box is too
//    coarse, on 8 pieces of it: pins_hold_on_step); if it may fail, KinkPossible.
//  - The state at τ_hi: x(τ_hi) = Φ_zero(τ_hi − τ*, x(τ*)) with τ_hi − τ* ∈ [0, Δ], Δ = τ_hi − τ_lo,
//    is in the hull of the zero-pattern steps' segment boxes from W over [0, Δ]. The walk
//    restarts from that box at τ_hi (so the Lohner set's correlations are lost at a crossing).
//  - Two scores that may reach 0 in the same step, a score whose initial sign is uncertain,
//    or a window longer than max_window_steps: KinkPossible (never an enclosure through a
//    kink that is not certified). Under square loss the field, P_k included, tends to 0 with
//    the loss, so the pinning condition stops being certain once P_k is below the enclosures'
//    resolution (or changes sign): the run stops there with KinkPossible "may leave it".
// The times t = END: τ-time, bracketed as in validated_time_change.hpp on steps without a
// crossing; t-time, each pattern run's steps end on them exactly (until_times). A time inside a
// crossing's approach step before s_lo is located on that step's record (x_on is the true
// solution there); one later in a window takes the window's boxes (coarser: a_k between 0 and its
// on-branch values). In t-time a window that holds the last time may step past it (to 2·END + 1).
//
// Guarantee of enclose_through_kinks: for every initial state in model.initial_state(), the
// Filippov solution of the kinked field exists and is unique on [0, END], result.x contains
// x(END) (τ-time: x(τ(END)), t component ∋ END), result.alpha contains α(x(END)), and result.kink_arrivals
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
  bool check_pinning = true;         // false only in tests (the mutation that must fail one)
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

// Whether the model integrates in τ with the old time t as a state component: ValueSoftmax
// says so (tau_time()); a model with time_index() and no tau_time() (the tests' τ-time toy)
// does; any other model is integrated in t.
template <class Model>
bool carries_time(const Model& model) {
  if constexpr (requires { model.tau_time(); }) return model.tau_time();
  else if constexpr (requires { model.time_index(); }) return true;
  else return false;
}

template <class S>
void hull_into(std::vector<S>& acc, const std::vector<S>& box) {
  if (acc.empty()) acc = box;
  else
    for (std::size_t i = 0; i < acc.size(); ++i) acc[i] = num::hull(acc[i], box[i]);
}

}  // namespace kink_crossing_detail

// Guarantee: see the top of this file, for every time of `times` (certainly > 0 and certainly
// increasing): element j is the enclosure for END = times[j], its `steps` the validated steps
// taken when it was complete, its kink_arrivals the arrivals certified by then (an arrival whose
// crossing window holds times[j] is listed). `model` is copied; its branches are set here.
template <class S, class Model>
std::vector<FullStateEnclosure<S>> enclose_through_kinks_at(Model model, const std::vector<S>& times, ValidatedOptions options,
                                                            KinkCrossingOptions kopt = {}) {
  using B = num::BoundOf<S>;
  using Branch = typename Model::Branch;
  namespace kd = kink_crossing_detail;
  const bool tau_time = kd::carries_time(model);
  const std::size_t T = model.tokens(), a0 = model.a_offset(), n = model.dimension();
  const std::size_t ti = tau_time ? detail::time_index_of(model) : 0;  // (τ-time only)
  const std::size_t m = times.size();
  std::vector<FullStateEnclosure<S>> result;
  if (m == 0) return result;
  if (!num::certainly_positive(times.front())) throw std::invalid_argument("END: the horizon must be certainly positive");
  for (std::size_t j = 1; j < m; ++j)
    if (!num::certainly_lt(times[j - 1], times[j])) throw std::invalid_argument("times: must be strictly increasing");
  const int iters = static_cast<int>(working_bits<S>()) + 8;
  if (options.log_norm_ball) throw std::invalid_argument("kink crossing: needs the Lohner step's records (not log_norm_ball)");
  options.keep_segments = false;
  if (tau_time && options.on_step)
    options.on_step = [report = options.on_step, ti](std::size_t k, double, const std::vector<double>& x) { report(k, x[ti], x); };
  if (options.jacobian_order == 0) options.jacobian_order = full_state_jacobian_order<S>(tau_time, options.order);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  ValidatedTaylor<S, decltype(field)> vt(field, n, options);
  const BoxField<S> box_field = vt.box_field();
  auto point = [](const B& s) { return num::hull_of_bounds<S>(s, s); };

  std::vector<char> pinned(T, 0);
  std::vector<KinkArrival> arrivals;
  std::vector<S> last_box = model.initial_state();  // contains x at the last certified time
  S last_t(0);                                       // (t-time) that time; τ-time reads it from the box
  std::size_t steps = 0;
  // Per time of `times`: the enclosure so far (τ-time: hulled over the steps that may hold the
  // crossing t = times[j]), whether it is complete, the scores whose a_k there is bounded by a
  // crossing window's boxes (σ_k: not set to 0; 0 for the others), the pinned scores and the
  // arrivals when it was complete.
  std::vector<Crossing<S>> hits(m);
  std::vector<char> have(m, 0);
  std::vector<std::vector<char>> coarse(m, std::vector<char>(T, 0)), pinned_at(m);
  std::vector<std::size_t> hit_steps(m, 0), arrivals_at(m, 0);
  std::size_t next = 0;  // times before `next` are complete
  auto complete = [&](std::size_t j, std::size_t at_steps) {
    hit_steps[j] = at_steps;
    pinned_at[j] = pinned;
    arrivals_at[j] = arrivals.size();
    next = j + 1;
  };
  // `at`: the integration time of `box` (t-time: the t the report states; τ-time: unused).
  auto stop = [&](const std::string& why, const std::vector<S>& box, const S& at) {
    model.clear_branches();  // the report reads the model's scores only
    const S t_reached = tau_time ? box[ti] : at;
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
    if (!kopt.check_pinning) return true;
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
  // pins_hold over one step: on its segment box, else on each of 8 pieces of [0, h̄] (the step's
  // record over the piece ∩ the segment box, which together contain x(s) for every s of the
  // step): the polynomial over a whole long step overestimates by its higher terms, and under
  // square loss P_k is small once the flow settles.
  auto pins_hold_on_step = [&](const TubeStep<S>& st) -> std::string {
    std::string why = pins_hold(st.box());
    if (why.empty()) return why;
    const B hb = num::upper(st.record().h);
    constexpr int pieces = 8;
    B lo(0);
    for (int i = 1; i <= pieces; ++i) {
      const B hi = i == pieces ? hb : B(hb * B(i)) / B(pieces);  // consecutive pieces share `hi`: they cover [0, h̄]
      std::vector<S> box = st.record().enclose(num::hull_of_bounds<S>(lo, hi));
      for (std::size_t c = 0; c < n; ++c) box[c] = ValidatedTaylor<S, decltype(field)>::intersect(box[c], st.box()[c]);
      if (std::string w = pins_hold(box); !w.empty()) return w;
      lo = hi;
    }
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
        stop("the sign of a[" + std::to_string(k) + "](0) is not certain", x0, S(0));
      }
    }
    for (std::size_t k = 0; k < T; ++k)
      if (pinned[k]) {
        if (!pinning_holds(x0, k)) stop("a[" + std::to_string(k) + "](0) = 0 and the pinning condition is not certain there", x0, S(0));
        arrivals.push_back(KinkArrival{k, enclosed_value(S(0)), model.has_negative_branch() ? "slides" : "stays"});
      }
  }

  // The runs' ends: τ-time, the τ cap (τ ≤ t along the orbit, dt/dτ ≥ 1); t-time, the pattern
  // runs stop on each remaining time exactly (until_times) and a crossing window that holds the
  // last time may step past it, up to window_cap.
  const S tau_cap = times.back() + S(1);
  const S window_cap = S(S(2) * times.back()) + S(1);
  DoubletonSet<S> set = DoubletonSet<S>::from_box(last_box);
  S tau(0);
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
  // A stop an observer asks for (its reason, the box the report starts from and its time): the
  // observer returns FlowAction::stop and `run` below throws it, after the run's steps are counted.
  struct Pending {
    std::string why;
    std::vector<S> box;
    S at;
  };
  std::optional<Pending> pending;
  auto hold = [&](std::string why, const std::vector<S>& box, const S& at) {
    pending.emplace(Pending{std::move(why), box, at});
    return FlowAction::stop;
  };
  // What a run hands back: whether its last step ended on the rule's end, the times it reached
  // exactly (t-time, until_times) and the step count before it.
  struct RunEnd {
    bool reached = false;
    std::vector<Crossing<S>> crossings;
    std::size_t steps_before = 0;
  };
  // One run of the validated flow (validated_flow.hpp) of the current pattern from `s` at `at`
  // under the stop `rule` or until an observer stops it; `at` becomes the time reached. The step
  // budget is shared by every run (options.max_steps in all); a step that fails or the exhausted
  // budget stops the whole argument at the last certified box, counted as the hand loop counted
  // it (the step tried).
  auto run = [&](DoubletonSet<S>& s, S& at, const auto& rule, auto&& observer) {
    FlowControl control;
    control.max_steps = options.max_steps - steps;
    control.budget_message = "step budget exhausted";
    pending.reset();
    const std::size_t before = steps;
    const auto curve = run_flow<S>(vt, s, s.box(), at, rule, control, no_finisher, std::forward<decltype(observer)>(observer));
    steps += curve.steps();
    if (curve.end() == FlowEnd::budget || curve.end() == FlowEnd::failure) {
      ++steps;
      stop(curve.message(), last_box, last_t);
    }
    if (pending) stop(pending->why, pending->box, pending->at);
    at = curve.t_reached();
    return RunEnd{curve.last_step_reached_end(), curve.crossings(), before};
  };
  // What the pattern run hands to the window when an active score may reach its kink: the
  // step's record and segment box (copied: the stepper's record is overwritten by the next step).
  struct Approach {
    std::size_t k;
    StepRecord<S> rec;
    std::vector<S> box;
  };
  for (;;) {
    // The steps of the current pattern: each is analysed as it comes; the run stops at the first
    // step on which an active score may reach its kink (→ the window below).
    std::optional<Approach> approach;
    auto pattern = on_tube_step([&](const TubeStep<S>& st) {
      const std::vector<S>& sbox0 = st.box();
      if (const std::string why = pins_hold_on_step(st); !why.empty()) return hold(why, last_box, last_t);
      std::vector<std::size_t> maybe;
      for (std::size_t k = 0; k < T; ++k)
        if (active(k) && !away(sbox0[a0 + k], k)) maybe.push_back(k);
      if (maybe.empty()) {  // the pattern's field is the true field over the whole step
        last_box = st.end();
        set_pinned_zero(last_box);
        last_t = S(st.t0() + st.h());
        if (tau_time) {  // the crossings t = times[j] inside this step (t-time: run_flow's until_times)
          std::optional<bool> increasing;
          for (std::size_t j = next; j < m; ++j) {
            if (num::certainly_lt(sbox0[ti], times[j])) break;
            if (!increasing) increasing = rate_over(sbox0) && num::certainly_positive(dx[ti]);
            std::vector<S> sbox = sbox0;
            bool hv = have[j] != 0;
            const bool done_j = detail::add_crossing_piece<S>(st.record(), sbox, ti, times[j], *increasing, hits[j], hv);
            have[j] = hv ? 1 : 0;
            if (done_j) complete(j, steps + st.index() + 1);
          }
          if (next >= m) return FlowAction::complete;
        }
        return FlowAction::proceed;
      }
      if (maybe.size() > 1)
        return hold("a[" + std::to_string(maybe[0]) + "] and a[" + std::to_string(maybe[1]) +
                        "] may reach their kinks in the same step",
                    last_box, last_t);
      approach.emplace(Approach{maybe[0], st.record(), sbox0});
      return FlowAction::stop;
    });
    const RunEnd re = tau_time ? run(set, tau, until_time(tau_cap), pattern)
                               : run(set, tau, until_times(std::vector<S>(times.begin() + static_cast<std::ptrdiff_t>(next), times.end())), pattern);
    // t-time: the times this run ended a kink-free step on exactly (its set is the true solution's;
    // in τ-time the rule's one "crossing" is the τ cap, not a time of `times`)
    if (!tau_time)
      for (const Crossing<S>& c : re.crossings) {
        hits[next].box = c.box;
        set_pinned_zero(hits[next].box);
        have[next] = 1;
        complete(next, re.steps_before + c.steps);
      }
    if (next >= m) break;
    // The run ended on the τ cap with no crossing of END and no kink ahead.
    if (!approach) stop(tau_time ? "the τ cap was reached before t = END" : "the run ended before the last time", last_box, last_t);
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
      std::vector<S> at = rec0.enclose(point(s_lo));
      for (std::size_t i = 0; i < n; ++i) at[i] = ValidatedTaylor<S, decltype(field)>::intersect(at[i], seg_box[i]);
      set_pinned_zero(at);
      stop("a[" + std::to_string(k) + "] may reach its kink where the sign of its rate is not certain (the crossing is not "
           "certainly transversal)", at, S(rec0.t0 + point(s_lo)));
    }
    // s_lo: σ a_k(s) > 0 at the point s (a_k is monotone on the step).
    const B s_lo = away(rec0.component(a0 + k, S(0)), k)
                       ? kd::last_true(B(0), h0, [&](const B& s) { return away(rec0.component(a0 + k, point(s)), k); }, iters)
                       : B(0);
    const S tau_lo = rec0.t0 + point(s_lo);
    // The times reached inside the approach step before s_lo: there x_on is the true solution
    // (a_k ≠ 0 on [0, s_lo]), so they are located on the step's record as on any step — in
    // t-time at s = t_j − t0 ∈ [0, s_lo]; in τ-time where t certainly increases over the step
    // and certainly exceeds t_j at s_lo, by the bracket of add_crossing_piece within [0, s_lo].
    // The others in the window take the window's hull below.
    while (next < m) {
      const std::size_t j = next;
      std::vector<S> piece;
      if (!tau_time) {
        if (!(num::upper(times[j]) <= num::lower(tau_lo))) break;
        piece = rec0.enclose(S(times[j] - rec0.t0));
      } else {
        auto t_at = [&](const B& s) { return rec0.component(ti, point(s)); };
        if (!num::certainly_gt(t_at(s_lo), times[j])) break;
        if (!rate_over(seg_box) || !num::certainly_positive(dx[ti])) break;
        const B lo_s = num::certainly_lt(t_at(B(0)), times[j])
                           ? kd::last_true(B(0), s_lo, [&](const B& s) { return num::certainly_lt(t_at(s), times[j]); }, iters)
                           : B(0);
        B lo = lo_s, hi = s_lo;  // the first point certainly after t_j
        for (int i = 0; i < iters; ++i) {
          const B mid = (lo + hi) / 2;
          if (num::certainly_gt(t_at(mid), times[j])) hi = mid;
          else lo = mid;
        }
        piece = rec0.enclose(num::hull_of_bounds<S>(lo_s, hi));
      }
      for (std::size_t i = 0; i < n; ++i) piece[i] = ValidatedTaylor<S, decltype(field)>::intersect(piece[i], seg_box[i]);
      kd::hull_into(hits[j].box, piece);
      set_pinned_zero(hits[j].box);
      have[j] = 1;
      complete(j, steps);
    }
    // The window W: the on-branch record from s_lo to the first point certainly past 0.
    // window_hull: x_on over each window step up to the window's end (for the times in the
    // window; x_on is the true solution up to τ*, and the zero pattern's boxes below cover τ* to τ_hi)
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
          const B mid = (lo + hi) / 2;
          if (past_zero(rec.component(a0 + k, point(mid)))) hi = mid;
          else lo = mid;
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
      if (w + 1 >= kopt.max_window_steps) stop(not_bracketed, last_box, last_t);
      if (tau_time && re.reached) stop("the τ cap was reached inside a crossing window", last_box, last_t);
      // The window continues on the same set with the same pattern: a run of the flow that stops
      // at the first step certainly past 0.
      bool past = false;
      auto window_obs = on_tube_step([&](const TubeStep<S>& st) {
        const std::vector<S>& box = st.box();
        if (const std::string why = pins_hold(box); !why.empty()) return hold(why, last_box, last_t);
        for (std::size_t j = 0; j < T; ++j)
          if (j != k && active(j) && !away(box[a0 + j], j))
            return hold("a[" + std::to_string(j) + "] may reach its kink inside a[" + std::to_string(k) + "]'s crossing window",
                        last_box, last_t);
        if (!transversal(box))
          return hold("a[" + std::to_string(k) + "]'s crossing is not certainly transversal over its window", last_box, last_t);
        if (window_step(st.record(), box, B(0))) {
          past = true;
          return FlowAction::stop;
        }
        if (++w + 1 >= kopt.max_window_steps) return hold(not_bracketed, last_box, last_t);
        return FlowAction::proceed;
      });
      run(set, tau, until_time(tau_time ? tau_cap : window_cap), window_obs);
      // (the run ended on its cap before a_k was certainly past 0)
      if (!past) stop(tau_time ? "the τ cap was reached inside a crossing window" : "a crossing window reached its cap",
                      last_box, last_t);
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
           last_box, last_t);
    // x(τ_hi) ∈ Φ_zero([0, Δ], W): the hull of the zero pattern's segment boxes over [0, Δ] (a
    // run of the flow of the new pattern from W for the time Δ).
    std::vector<S> X_hi;
    {
      DoubletonSet<S> ws = DoubletonSet<S>::from_box(W);
      S s(0);
      run(ws, s, until_time(point(delta)), on_segment([&](const TubeSegment<S>& sw) {
            if (const std::string why = pins_hold(sw.box); !why.empty()) return hold(why, last_box, last_t);
            for (std::size_t j = 0; j < T; ++j)
              if (active(j) && !away(sw.box[a0 + j], j))
                return hold("a[" + std::to_string(j) + "] may reach its kink inside a[" + std::to_string(k) + "]'s crossing window",
                            last_box, last_t);
            kd::hull_into(X_hi, sw.box);
            return FlowAction::proceed;
          }));
    }
    set_pinned_zero(X_hi);
    arrivals.push_back(KinkArrival{k, enclosed_value(tau_time ? W[ti] : num::hull(tau_lo, tau_hi)),
                                   model.has_negative_branch() ? "slides" : "stays"});
    // x(τ) for τ from the window's first step to τ_hi: on-branch boxes up to τ*, X_hi after; a_k
    // is between 0 and its on-branch values on σ_k's side there. The times in that range take
    // this hull (coarser than a step's): τ-time, those whose crossing may lie in it (and are
    // complete once X_hi's t is certainly past them); t-time, those ≤ τ_hi (a time that
    // straddles τ_hi stops the run: it is neither inside the window nor certainly after it).
    std::vector<S> cover = window_hull;
    kd::hull_into(cover, X_hi);
    {
      const S ak = num::hull(cover[a0 + k], S(0));
      cover[a0 + k] = sg > 0 ? num::hull_of_bounds<S>(B(0), num::upper(ak)) : num::hull_of_bounds<S>(num::lower(ak), B(0));
    }
    for (std::size_t j = next; j < m; ++j) {
      if (tau_time) {
        if (num::certainly_lt(window_hull[ti], times[j]) && num::certainly_lt(X_hi[ti], times[j])) break;
      } else {
        if (num::certainly_gt(times[j], point(thi_b))) break;
        if (num::upper(times[j]) > thi_b) stop("the time " + num::lower_decimal(times[j], 17) + " straddles the end of a crossing window", last_box, last_t);
      }
      kd::hull_into(hits[j].box, cover);
      have[j] = 1;
      coarse[j][k] = static_cast<char>(sg);
      if (!tau_time || num::certainly_gt(X_hi[ti], times[j])) complete(j, steps);
    }
    if (next >= m) break;
    last_box = X_hi;
    last_t = point(thi_b);
    set = DoubletonSet<S>::from_box(X_hi);
    tau = point(thi_b);
  }
  model.clear_branches();
  for (std::size_t j = 0; j < m; ++j) {
    FullStateEnclosure<S> e;
    e.a_offset = a0;
    e.tau_time = tau_time;
    e.steps = hit_steps[j];
    e.x = hits[j].box;
    for (std::size_t k = 0; k < T; ++k)
      if (pinned_at[j][k] && !coarse[j][k]) e.x[a0 + k] = S(0);
    e.kink_arrivals.assign(arrivals.begin(), arrivals.begin() + static_cast<std::ptrdiff_t>(arrivals_at[j]));
    // α at times[j]: a score bounded by a window's boxes lies between 0 and its side σ_k (with
    // a_k = 0 included), where f is that side's branch (σ_k a_k, which is |a_k| and relu(a_k)
    // there); every other score by its (certain, or exactly 0) sign.
    for (std::size_t k = 0; k < T; ++k)
      if (coarse[j][k]) model.set_branch(k, coarse[j][k] > 0 ? Branch::positive : Branch::negative);
    try {
      e.alpha = model.attention(e.x);
    } catch (const std::domain_error& ex) {
      stop(std::string("alpha at END: ") + ex.what(), e.x, times[j]);
    }
    model.clear_branches();
    result.push_back(std::move(e));
  }
  return result;
}

// The one-time form (guarantee: enclose_through_kinks_at's for END = t_end).
template <class S, class Model>
FullStateEnclosure<S> enclose_through_kinks(Model model, const S& t_end, ValidatedOptions options, KinkCrossingOptions kopt = {}) {
  return enclose_through_kinks_at<S>(std::move(model), std::vector<S>{t_end}, std::move(options), kopt).front();
}

// A value-softmax model with |x| or relu (logistic loss: τ-time; other losses: t-time) through
// its kinks, at every time of `times` (rigorous_full.hpp routes kinked models here).
template <class S>
std::vector<FullStateEnclosure<S>> enclose_kinked_states_at(const models::ValueSoftmax<S>& model, const std::vector<S>& times,
                                                            ValidatedOptions options) {
  return enclose_through_kinks_at<S>(model, times, std::move(options));
}

}  // namespace softcert::integrate
