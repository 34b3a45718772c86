#pragma once
// The validated Taylor–Lohner integrator (the rigorous tier), generic over the interval kinds
// IntervalD and IntervalMp. The argument for every guarantee below is in docs/method.md.
//
// One step from the Lohner set X = {c + B r : r ∈ [r]} at time t, step h (thin, or an
// interval for the last step onto a non-representable end time), h̄ = upper(h):
//  1. A priori enclosure (high-order Picard–Lindelöf, Corliss–Rihm): find a box E with
//     Z := Σ_{k≤p} x_k([X])·[0, h̄]^k + x_{p+1}(E)·[0, h̄]^{p+1} ⊂ int E (inflate and retry,
//     halve h on failure). Then every solution from X exists on [0, h̄] and stays in Z ⊂ E
//     (docs/method.md: a first exit time from E would contradict Taylor's theorem). The
//     first-order test [X] + [0, h̄]·f(E) ⊂ int E limits h·L < 1 for the interval Lipschitz
//     constant L of f and failed on the paper instance at h ≈ 0.04; the high-order one does not.
//  2. Taylor coefficients x_k(c), k ≤ p, at the centre (thin) and their x0-derivatives
//     Dx_k([X]) over the box (variational equations, taylor::Tape with derivatives). With a
//     Jacobian field set (set_double_jacobian_field: over IntervalD, possibly by a cheaper
//     formula for the same field; for MPFI kinds in doubles) the derivatives are
//     enclosed in IntervalD over [X] rounded outward to doubles: still enclosures of the exact
//     Dx_k over a superset of [X], so step 4 stays valid; their ~1e-16 relative width only
//     enters the set through A·[r], i.e. scaled by the set's own width. With q = p the same
//     IntervalD pass's coefficients x_k over that box are step 1's x_k([X]) (an enclosure over
//     a superset of [X]: Z only grows by their rounding), and the box tape in S is skipped.
//  3. Remainder: x(h) − Σ_{k≤p} x_k(x0) h^k = x_{p+1}(x(ξ)) h^{p+1} ∈ x_{p+1}(E)·h^{p+1}
//     (Lagrange form per component, x(ξ) ∈ E).
//  4. Lohner: with J = Σ_k Dx_k([X]) h^k and A = J·B, the mean value theorem gives
//     φ_h(x) ∈ y_c + A·[r] with y_c = Σ_k x_k(c) h^k + x_{p+1}(E) h^{p+1}. The new set is
//     c' = mid(y_c), B' = Q (QR of mid(A), columns pivoted), [r'] = (Q⁻¹A)[r] + Q⁻¹(y_c − c'),
//     with Q⁻¹ enclosed rigorously (lohner_linalg.hpp).
//  5. Tube segment: the same expansion evaluated over s ∈ [0, h̄] (polynomial in the interval
//     s, remainder x_{p+1}(E)·[0, h̄^{p+1}]), intersected with E.
// The ball step (BallStepper; docs/method.md §2b) replaces 2 and 4 for the
// set {c + e : ‖We‖₂ ≤ ρ} (W = diag(w), w_i powers of two: BallSettings::ball_weights; W = I by
// default): steps 1 and 3 as above over the set's box, then the centre's solution
// y_c = Σ_{k≤p} x_k(c) h^k + x_{p+1}(E) h^{p+1}, and for every other solution
// ‖W(x(h) − x(h; c))‖₂ ≤ e^{μh}·ρ, where μ bounds the logarithmic 2-norm of W·Df·W⁻¹ over E
// (numerics/log_norm_bound.hpp): E is convex and holds both solutions on [0, h], so the
// segment between them stays where Df is enclosed. The new set is c' = mid(y_c),
// ρ' = e^{μh}ρ + ‖W(y_c − c')‖₂ (optionally with the step cut into pieces, each with its own box
// and μ: BallSettings::ball_pieces). Its record (BoxSeriesRecord) is the box's series. No x0-derivatives of the coefficients and no Lohner
// products or QR: a step costs the coefficient passes, Df over E (one first-order derivative
// pass, or a closed form of the same field's Jacobian: set_box_jacobian) and the certificate of μ.
// Step size: h = min_{k ∈ {p−1, p}} (tol·max(1, ‖c‖∞) / ‖x_k(c)‖∞)^{1/k}, truncated to a dyadic
// so that t + h is exact.
#include <algorithm>
#include <cstdio>
#include <cmath>
#include <ctime>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "integrate/ball_pieces.hpp"
#include "integrate/validated_options.hpp"
#include "integrate/box_series_record.hpp"
#include "integrate/flow_sets.hpp"
#include "support/cpu_cap.hpp"
#include "support/helper_thread.hpp"
#include "integrate/lohner_linalg.hpp"
#include "integrate/step_record.hpp"
#include "support/failures.hpp"
#include "integrate/tube.hpp"
#include "numerics/elementary.hpp"
#include "numerics/log_norm_bound.hpp"
#include "numerics/outward_interval_d.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "taylor/tape.hpp"

namespace softcert::integrate {

// The options (StepControl, LohnerSettings, BallSettings, ValidatedOptions) and StepProfile:
// integrate/validated_options.hpp. The two steps, compiled once per interval kind in
// integrate/validated_taylor.cpp: integrate/lohner_step.hpp and integrate/ball_step.hpp.

// The shared core of both steppers for a vector field given as a recorder on Taylor variables
// (the field's type erased: this class is compiled once per interval kind, in
// integrate/validated_taylor.cpp): the a priori enclosure and the step size (steps 1 and 3),
// the Lohner step and the ball step. Build a LohnerStepper<S, Field> or a BallStepper<S, Field>
// (below), which choose the step at compile time and keep the field's own type; the one loop
// that takes their steps is integrate/validated_flow.hpp.
template <class S>
class ValidatedStepper {
 public:
  using TapeField = std::function<void(const std::vector<taylor::Var<S>>&, std::vector<taylor::Var<S>>&)>;
  ValidatedStepper(TapeField field, std::size_t dimension, ValidatedOptions options)
      : f_(std::move(field)), n_(dimension), opt_(options) {
    // The derivative passes in two halves, the second on a core the CPU cap has free (the same
    // numbers on one thread or two: taylor/tape.hpp, set_block_runner): the Lohner step's, and
    // the ball step's first-order pass for Df over E (tj_; with pieces on two threads the
    // helper holds the free core, and each piece's pass runs on its own thread).
    const auto both = [](const std::function<void()>& a, const std::function<void()>& b) { support::run_both(a, b); };
    tx_.set_block_runner(both);
    txd_.set_block_runner(both);
    tj_.set_block_runner(both);
    tj2_.set_block_runner(both);
  }

  // The same vector field evaluated over intervals of doubles, with parameters that enclose the
  // same exact values (e.g. the model built at IntervalD from the same decimal instance), by any
  // formula for it: only the x0-derivatives of the Taylor coefficients are taken from it, and
  // any enclosure of those exact derivatives over the box serves the mean value form (step 4).
  using DoubleField = std::function<void(const std::vector<taylor::Var<IntervalD>>&, std::vector<taylor::Var<IntervalD>>&)>;
  // Compute the Lohner Jacobian (the x0-derivative pass, O(nodes·p²·n) multiply-adds, most of a
  // step's cost) with this field instead of the stepper's own. For S = IntervalMp: in IntervalD
  // instead of MPFI, where that pass would be most of a step (docs/performance.md, table 4's
  // kernels). For S = IntervalD: a cheaper formula with fewer tape nodes (the
  // reduced logistic form's O(T) softmax at large T, integrate/rigorous_integrate.cpp). The
  // coefficients themselves and the remainder still come from the stepper's field. If this pass
  // overflows or fails, that step falls back to the stepper's field.
  void set_double_jacobian_field(DoubleField f) { double_field_ = std::move(f); }

  // Df over a box by another formula for the same field (a closed form:
  // integrate/closed_form_jacobian.hpp), used by the ball step's pieces instead of the tape's
  // first-order derivative pass over the piece's box. Contract: box_jacobian(box, Df) returns
  // true only with Df of n² entries (row-major) such that Df[i·n + j] ∋ ∂f_i/∂x_j(y) for every
  // y in box (the piece's box E_i rounded outward to doubles), f the stepper's exact field;
  // false, or an entry that is not finite, makes that piece use the tape (the step's guarantee
  // is the same either way: §2b needs only an enclosure of Df over E_i). It is called from two
  // threads at once (BallSettings::piece_threads) with different buffers, and must return the
  // same doubles on either: reentrant, no state of its own, any rounding mode on entry.
  using BoxJacobian = std::function<bool(const std::vector<IntervalD>& box, std::vector<IntervalD>& Df)>;
  void set_box_jacobian(BoxJacobian f) { box_jacobian_ = std::move(f); }
  bool has_box_jacobian() const { return static_cast<bool>(box_jacobian_); }
  // Df over a box as a product of two thin factors (a closed form: integrate/
  // closed_form_jacobian.hpp), tried before box_jacobian; the ball step's μ then comes from
  // numerics/product_log_norm.hpp without Df's n² entries. Contract: box_jacobian_factors(box,
  // left, right, k) returns true only with k > 0 and left, right of n × k entries (row-major) such
  // that for every y in box there are real L ∈ left, R ∈ right with Df(y) = L Rᵀ, f the stepper's
  // exact field; false, or an entry that is not finite, leaves that piece to box_jacobian or the
  // tape. The same threading and reentrancy as box_jacobian.
  using BoxJacobianFactors =
      std::function<bool(const std::vector<IntervalD>& box, std::vector<IntervalD>& left, std::vector<IntervalD>& right, std::size_t& k)>;
  void set_box_jacobian_factors(BoxJacobianFactors f) { box_jacobian_factors_ = std::move(f); }

  const ValidatedOptions& options() const { return opt_; }
  // CPU time per phase, accumulated over every step so far.
  const StepProfile& profile() const { return prof_; }
  const BallPieceRule& ball_rule() const { return ball_rule_; }  // the ball step's pieces (ball_pieces = 0)
  // Thread CPU seconds the ball step's work took on the helper thread (BallSettings::
  // piece_threads: the box's series and the odd pieces); profile() counts this thread's only.
  double helper_cpu_seconds() const { return piece_helper_.cpu_seconds(); }

  std::size_t steps_taken() const { return steps_; }
  // The tightest enclosure of the state after the last step (direct ∩ Lohner box).
  const std::vector<S>& last_box() const { return final_; }

  static S intersect(const S& a, const S& b) {
    const auto lo = num::lower(a) > num::lower(b) ? num::lower(a) : num::lower(b);
    const auto hi = num::upper(a) < num::upper(b) ? num::upper(a) : num::upper(b);
    if (hi < lo) throw support::ValidationFailure("intersection of two enclosures is empty (internal error)");
    return num::hull_of_bounds<S>(lo, hi);
  }

 protected:
  std::size_t steps_ = 0;  // steps of the last integrate() (ValidatedTaylor)

  // Guarantee of both steps: on return, every solution that started in `set` at time t (on
  // entry) is in `set` at time t (on exit), which is t + h ≤ t_end (exactly t_end when
  // `reached`); the returned segment box contains it for all times in between. Throws
  // ValidationFailure when no step can be validated.
  // The Taylor–Lohner step (steps 1–5 at the top of this file); last_record() then describes it.
  TubeSegment<S> step_lohner(DoubletonSet<S>& set, S& t, const S& t_end, bool& reached);
  // The ball step (top of this file); it leaves no record.
  TubeSegment<S> step_ball(BallSet<S>& set, S& t, const S& t_end, bool& reached);
  // The record of the last Lohner step (read only through LohnerStepper::last_step()).
  const StepRecord<S>& last_record() const { return rec_; }
  // Throws support::MemoryLimit, before anything of that size is allocated, when the n × n
  // interval matrices a Lohner step holds at once do not fit the memory cap: the set's B, J, A =
  // J·B, the next B, Q⁻¹'s Qᵀ and Q⁻¹A (step_lohner), and the record's q + 1 derivative layers
  // (each an MPFI entry's limbs counted too). A lower bound of what the step needs: the tape's own
  // arrays are refused by the tape (taylor/memory_cap.hpp). Called when a Lohner stepper is built,
  // not by DoubletonSet::from_box.
  void require_lohner_memory() const {
    std::size_t bytes_each = sizeof(S);
    if constexpr (!std::is_same_v<num::BoundOf<S>, double>) bytes_each += 2 * ((working_bits<S>() + 63) / 64) * 8;
    taylor::require_lohner_memory(n_, 6 + jacobian_order() + 1, bytes_each);
  }
  // The box series of the last ball step (read only through BallStepper::crossing_record()).
  const BoxSeriesRecord<S>& last_series_record() const { return series_rec_; }

 private:
  // The derivative order q (ValidatedOptions::jacobian_order).
  std::size_t jacobian_order() const {
    const std::size_t p = opt_.order, q = opt_.jacobian_order;
    return q == 0 || q >= p ? p : q;
  }

  double tolerance() const {
    return opt_.tolerance > 0 ? opt_.tolerance : std::ldexp(1.0, -static_cast<int>(working_bits<S>()));
  }

  static double xnorm(const std::vector<S>& c) {
    double m = 1;
    for (const auto& v : c) m = std::max(m, std::fabs(num::to_double(v)));
    return m;
  }
  // max_i |x_{p+1}(E)_i|·h̄^{p+1} (as a double; only steers the step size).
  double remainder_magnitude(const num::BoundOf<S>& hbar) const {
    const std::size_t p = opt_.order;
    double m = 0;
    for (std::size_t i = 0; i < n_; ++i) {
      const S c = te_.coefficient(i, p + 1);
      m = std::max(m, num::to_double(num::hull_of_bounds<S>(num::magnitude(c), num::magnitude(c))));
    }
    return m * std::pow(num::to_double(num::hull_of_bounds<S>(hbar, hbar)), static_cast<double>(p + 1));
  }

  // Steps 1 and 3 with the step size control (shared by both steps): after tc_ (the centre) and
  // tx_ (the box) are solved, finds h and E (E_, te_); returns h (an interval only for the last
  // step onto t_end, `last`).
  S validated_step_size(const std::vector<S>& c, const S& t, const S& t_end, bool& last);
  // Counts a validated step and reports it to options().on_step (progress only).
  void count_step(const TubeSegment<S>& seg, const S& t) {
    ++prof_.steps;
    if (!opt_.on_step) return;
    std::vector<double> mid(seg.end.size());
    for (std::size_t i = 0; i < mid.size(); ++i) mid[i] = num::to_double(seg.end[i]);
    opt_.on_step(prof_.steps, num::to_double(t), mid);
  }

  // Both steps expand around the centre c over the set's box [X]: the mean value form (Lohner,
  // step 4) needs the segment from c to every x0 of the set inside [X], the ball step needs the
  // centre's solution to be one of those the a priori box E holds (its remainder x_{p+1}(E) and
  // the segment between two solutions), and E is validated for solutions from [X] only. Every
  // set these steps make has c ∈ [X] ([r] ∋ 0 so B·[r] ∋ 0, and the ball is around c), but a
  // caller's set need not: checked, certainly (c_i ⊂ [X]_i), else the step fails.
  static void require_centre_in_box(const std::vector<S>& c, const std::vector<S>& X) {
    if (c.size() != X.size()) throw std::invalid_argument("step: the set's centre and box differ in dimension");
    for (std::size_t i = 0; i < c.size(); ++i)
      if (!num::subset(c[i], X[i]))
        throw support::ValidationFailure("step: the set's centre is not certainly inside its box (component " + std::to_string(i) + ")");
  }

  // Jorba–Zou: the last two coefficients of the centre series set h.
  double choose_step(const std::vector<S>& c) const {
    const double tol = tolerance() * xnorm(c);
    const std::size_t p = opt_.order;
    double h = opt_.h_max > 0 ? opt_.h_max : 1e300;
    for (std::size_t k : {p - 1, p}) {
      double m = 0;
      for (std::size_t i = 0; i < n_; ++i) m = std::max(m, num::to_double(num::hull_of_bounds<S>(num::magnitude(tc_.coefficient(i, k)), num::magnitude(tc_.coefficient(i, k)))));
      if (m > 0) h = std::min(h, std::pow(tol / m, 1.0 / static_cast<double>(k)));
    }
    return h;
  }

  // Truncates h to a multiple of 2^−q with t_end < 2^(bits − q − 1), so that every time
  // t + h stays exactly representable (thin).
  double quantize(double h, const S& t_end) const {
    const double te = num::to_double(t_end);
    int e = 0;
    std::frexp(std::max(te, 1.0), &e);
    const int q = std::min<int>(static_cast<int>(std::min(working_bits<S>(), 1000u)) - e - 2, 1000);
    const double hq = std::ldexp(std::floor(std::ldexp(h, q)), -q);
    return hq > 0 ? hq : h;
  }

  // Step 1: E with Z = Σ_{k≤p} x_k([X]) H^k + x_{p+1}(E) H^{p+1} ⊂ int E, H = [0, h̄]
  // (x_k([X]) from tx_). On success E_ holds Z and te_ holds the coefficients on the box E ⊇ Z
  // (still a valid box for the remainder: every x(ξ) lies in Z ⊂ E).
  bool find_apriori(const num::BoundOf<S>& hbar);

  // The same interval in S (exact: a double fits in any MPFR precision ≥ 53).
  static S from_double(const IntervalD& x) {
    using B = num::BoundOf<S>;
    return num::hull_of_bounds<S>(B(x.lower()), B(x.upper()));
  }
  // Step 2's derivative pass in IntervalD over [X] rounded outward (txd_). False when it cannot
  // be used (an operation failed or a derivative is not finite): the caller falls back to S.
  bool double_jacobian(const std::vector<S>& X);
  // After double_jacobian: every coefficient x_k over the box in txd_ is finite.
  bool double_box_coefficients_finite() const {
    for (std::size_t i = 0; i < n_; ++i)
      for (std::size_t k = 0; k <= opt_.order; ++k) {
        const IntervalD v = txd_.coefficient(i, k);
        if (!std::isfinite(v.lower()) || !std::isfinite(v.upper())) return false;
      }
    return true;
  }

  void fill_record(const DoubletonSet<S>& set, const S& t, const S& h);

  // One piece of the ball step (definition below step_ball).
  void ball_piece(std::size_t piece, const std::vector<double>& cuts, const num::BoundOf<S>& hbar, taylor::Tape<S>& tj,
                  std::vector<IntervalD>& Df, num::LogNormBound& bound, double& t_df, double& t_mu) const;
  // Whether the ball step's pieces run on two threads (BallSettings::piece_threads).
  bool use_piece_helper() const {
    if constexpr (!std::is_same_v<S, IntervalD>) return false;
    else return opt_.piece_threads && std::thread::hardware_concurrency() > 1;
  }

  TapeField f_;
  std::size_t n_;
  ValidatedOptions opt_;
  taylor::Tape<S> tc_, te_, tx_, tj_;  // tj_: Df over E (the ball step)
  std::vector<IntervalD> ball_df_;      // the ball step's Df over E, n × n
  taylor::Tape<S> tj2_;                 // the same two for the pieces on the helper thread
  std::vector<IntervalD> ball_df2_;
  support::LazyHelperThread piece_helper_;       // BallSettings::piece_threads
  taylor::Tape<IntervalD> txd_;  // the derivative pass in IntervalD (set_double_jacobian_field)
  DoubleField double_field_;
  BoxJacobian box_jacobian_;  // the ball step's Df over a box, when set (set_box_jacobian)
  BoxJacobianFactors box_jacobian_factors_;  // the same as two thin factors (set_box_jacobian_factors)
  bool jacobian_in_double_ = false;
  bool box_in_double_ = false;  // this Lohner step's x_k([X]), k ≥ 1, are txd_'s (tx_ not recorded)
  std::vector<S> box_;          // then [X]
  std::vector<S> E_, final_;
  std::vector<S> E_tested_;  // the box E the a priori test passed on (E_ is then its tighter Z)
  StepRecord<S> rec_;
  BoxSeriesRecord<S> series_rec_;  // the ball step's record (the box's series)
  double h_ratio_ = 1.0;  // accepted / estimated step of the last step, grown by 10% (step())
  StepProfile prof_;      // CPU time per phase (profile())
  BallPieceRule ball_rule_;  // the ball step's pieces when ValidatedOptions::ball_pieces = 0
};

// The two steppers as types: which step (Lohner or ball) is fixed by the type, and so is
// whether a step leaves a record (StepRecord, step_record.hpp) to ask about the solutions inside
// the step. `has_records` is that compile-time trait: what needs records (TubeStep observers,
// the τ-time crossing bracketing, SolutionCurve::step queries) is constrained on it in
// integrate/validated_flow.hpp, so combining it with a BallStepper does not compile.
// The set each step moves (flow_sets.hpp) is fixed by the type too.
struct LohnerStep {
  static constexpr bool has_records = true;
  using Options = LohnerOptions;
  template <class S>
  using Set = DoubletonSet<S>;
};
struct BallStep {
  static constexpr bool has_records = false;
  using Options = BallOptions;
  template <class S>
  using Set = BallSet<S>;
};

template <class S, bool Records>
class SolutionCurve;

namespace detail {
struct FlowStepAccess;  // run_flow's access to the step (validated_flow.hpp)
}

// A stepper for ẋ = field(x): field(x, dxdt) is a template over the scalar (it is recorded on
// taylor::Var<S>; called on std::vector<S> too when it can be, for box_field()). Kind is
// LohnerStep or BallStep; use the names LohnerStepper / BallStepper below. Both share the core
// (ValidatedStepper<S>): the a priori enclosure and the step size are one implementation.
template <class S, class Field, class Kind>
class TypedStepper : public ValidatedStepper<S> {
 public:
  static constexpr bool has_records = Kind::has_records;
  using Options = typename Kind::Options;
  using Set = typename Kind::template Set<S>;  // the set this stepper's step moves

  TypedStepper(Field field, std::size_t dimension, const Options& options = {})
      : ValidatedStepper<S>(typename ValidatedStepper<S>::TapeField(field), dimension, ValidatedOptions::of(options)),
        f_(std::move(field)) {
    if constexpr (has_records) this->require_lohner_memory();  // before any Lohner set of size n² exists
  }
  // From the combined options of a caller that chose this stepper type (with_stepper,
  // integrate/validated_flow.hpp); refuses options that ask for the other step.
  TypedStepper(Field field, std::size_t dimension, const ValidatedOptions& options)
      : TypedStepper(std::move(field), dimension, checked(options)) {}

  // The record of the last step (the Lohner stepper only: a ball step has none).
  const StepRecord<S>& last_step() const
    requires has_records
  {
    return this->last_record();
  }
  // What the τ-time crossing reads of the last step (validated_flow.hpp, until_component): the
  // Lohner step's record, or the ball step's box series (box_series_record.hpp). Both have
  // t0, h, component(i, s) and enclose(s) with the same guarantee (for every solution from the
  // step's set).
  const auto& crossing_record() const {
    if constexpr (has_records) return this->last_record();
    else return this->last_series_record();
  }

  // Guarantee: the returned curve contains every solution starting in `box` at t0, on
  // [t0, t_end] (integrate/solution_curve.hpp). A thin adapter over run_flow
  // (integrate/validated_flow.hpp) with the stop rule "t = t_end"; throws as the step does.
  SolutionCurve<S, has_records> integrate(const std::vector<S>& box, const S& t0, const S& t_end) {
    Set set = Set::from_box(box);
    return integrate(set, t0, t_end);
  }
  SolutionCurve<S, has_records> integrate(Set& set, const S& t0, const S& t_end);

  // The field over boxes of S (TubeStep::derivative), or an empty function when Field cannot be
  // called on std::vector<S> (it then only evaluates on Taylor variables).
  BoxField<S> box_field() const {
    if constexpr (std::is_invocable_v<const Field&, const std::vector<S>&, std::vector<S>&>)
      return [f = f_](const std::vector<S>& x, std::vector<S>& dx) { f(x, dx); };
    else
      return {};
  }

 private:
  friend struct detail::FlowStepAccess;
  // One validated step (guarantee: ValidatedStepper::step_lohner / step_ball). Private: the one
  // loop over steps is integrate/validated_flow.hpp (run_flow, through detail::FlowStepAccess).
  TubeSegment<S> step(Set& set, S& t, const S& t_end, bool& reached) {
    if constexpr (has_records) return this->step_lohner(set, t, t_end, reached);
    else return this->step_ball(set, t, t_end, reached);
  }
  static Options checked(const ValidatedOptions& o) {
    if (o.log_norm_ball != !has_records)
      throw std::invalid_argument(has_records ? "log_norm_ball: the Lohner stepper was asked for the ball step (use with_stepper)"
                                              : "log_norm_ball: the ball stepper was asked for the Lohner step (use with_stepper)");
    if constexpr (has_records) return o.lohner_options();
    else return o.ball_options();
  }

  Field f_;
};

template <class S, class Field>
using LohnerStepper = TypedStepper<S, Field, LohnerStep>;
template <class S, class Field>
using BallStepper = TypedStepper<S, Field, BallStep>;
// The name most callers know: the Lohner stepper.
template <class S, class Field>
using ValidatedTaylor = LohnerStepper<S, Field>;

template <class S>
S ValidatedStepper<S>::validated_step_size(const std::vector<S>& c, const S& t, const S& t_end, bool& last) {
  const std::size_t p = opt_.order;
  // The coefficient estimate is only a first guess: on the paper instance in τ-time it is
  // 2–4× too long for the a priori enclosure and the remainder test, and starting from it costs
  // many failed find_apriori iterations a step. Start instead from the fraction of the estimate
  // that the previous step could validate, allowed to grow by 10% per step. Only the trial step
  // depends on it; every accepted step is validated the same way.
  const double h_estimate = choose_step(c);
  double h = opt_.fixed_step > 0 ? opt_.fixed_step : h_estimate * h_ratio_;
  prof_.last_estimate = h_estimate;
  prof_.last_trial = h;
  const S remaining = t_end - t;
  if (!num::certainly_positive(remaining)) throw support::ValidationFailure("step: end time not after the current time");
  const double rem_lo = num::to_double(num::hull_of_bounds<S>(num::lower(remaining), num::lower(remaining)));
  last = false;
  int retries = 0;
  S hS;
  for (int attempt = 0;; ++attempt) {
    if (attempt > 60 || h < opt_.h_min) throw support::ValidationFailure("step: a priori enclosure not found (step size below h_min)");
    if (h >= rem_lo) {
      last = true;
      hS = remaining;
    } else {
      last = false;
      hS = S(quantize(h, t_end));
    }
    // 1 and 3: the a priori box E and, on it, the remainder coefficient x_{p+1}(E) (te_).
    ++prof_.trial_steps;
    if (!find_apriori(num::upper(hS))) {
      ++prof_.apriori_failures;
      h = (last ? rem_lo : h) * 0.5;
      continue;
    }
    // The remainder bound x_{p+1}(E)·h^{p+1} can exceed the estimate from the centre
    // coefficients by far (E is wide, and interval coefficients on it overestimate): shrink
    // h until it is within 16× the tolerance (a few retries at most), unless h is fixed.
    const double rem = remainder_magnitude(num::upper(hS));
    const double target = tolerance() * xnorm(c);
    if (opt_.fixed_step > 0 || rem <= 16 * target || retries >= 4) break;
    ++retries;
    ++prof_.remainder_shrinks;
    h = (last ? rem_lo : h) * std::min(0.9, 0.9 * std::pow(target / rem, 1.0 / static_cast<double>(p + 1)));
  }
  if (opt_.fixed_step <= 0 && !last) h_ratio_ = std::clamp(1.1 * h / h_estimate, 1.0 / 64, 1.0);
  return hS;
}

template <class S>
bool ValidatedStepper<S>::find_apriori(const num::BoundOf<S>& hbar) {
  using B = num::BoundOf<S>;
  const std::size_t p = opt_.order;
  const S H = num::hull_of_bounds<S>(B(0), hbar);
  const S Hp1 = num::pow_int(H, static_cast<unsigned>(p + 1));
  std::vector<S> P(n_), Z(n_);
  // x_0([X]) = [X] itself (box_ in S, not rounded to doubles).
  auto box_coefficient = [this](std::size_t i, std::size_t k) {
    if (!box_in_double_) return tx_.coefficient(i, k);
    return k == 0 ? box_[i] : from_double(txd_.coefficient(i, k));
  };
  for (std::size_t i = 0; i < n_; ++i) {
    S acc = box_coefficient(i, p);
    for (std::size_t k = p; k-- > 0;) acc = acc * H + box_coefficient(i, k);
    P[i] = acc;
  }
  E_ = P;
  const B tiny = std::ldexp(1.0, 8 - static_cast<int>(std::min(working_bits<S>(), 1000u)));
  for (int iter = 0; iter < 6; ++iter) {
    for (std::size_t i = 0; i < n_; ++i) {  // inflate
      const B d = num::width(E_[i]) * B(0.1) + tiny * (B(1) + num::magnitude(E_[i]));
      E_[i] = num::hull_of_bounds<S>(num::lower(E_[i]) - d, num::upper(E_[i]) + d);
    }
    try {
      ++prof_.apriori_tapes;
      te_.record(f_, E_, p + 1);
      te_.solve(false);
    } catch (const std::exception&) {
      return false;  // e.g. a division by an interval containing 0: box too large
    }
    bool inside = true;
    for (std::size_t i = 0; i < n_; ++i) {
      Z[i] = P[i] + te_.coefficient(i, p + 1) * Hp1;
      if (!num::interior_subset(Z[i], E_[i])) inside = false;
    }
    if (inside) {
      E_tested_ = E_;
      E_ = Z;
      return true;
    }
    for (std::size_t i = 0; i < n_; ++i) E_[i] = num::hull(E_[i], Z[i]);
  }
  return false;
}

template <class S>
bool ValidatedStepper<S>::double_jacobian(const std::vector<S>& X) {
  const std::size_t n = n_, p = opt_.order;
  std::vector<IntervalD> Xd(n);
  for (std::size_t i = 0; i < n; ++i) Xd[i] = num::outward_interval_d(X[i]);
  try {
    txd_.record(double_field_, Xd, p);
    txd_.solve(true, jacobian_order());
  } catch (const std::exception&) {
    return false;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k <= jacobian_order(); ++k)
      for (std::size_t j = 0; j < n; ++j) {
        const IntervalD dv = txd_.derivative(i, k, j);
        if (!std::isfinite(dv.lower()) || !std::isfinite(dv.upper())) return false;
      }
  return true;
}

template <class S>
void ValidatedStepper<S>::fill_record(const DoubletonSet<S>& set, const S& t, const S& h) {
  const std::size_t n = n_, p = opt_.order;
  rec_.n = n;
  rec_.p = p;
  rec_.t0 = t;
  rec_.h = h;
  rec_.apriori = E_;
  rec_.apriori_tested = E_tested_;
  rec_.B = set.B;
  rec_.r = set.r;
  rec_.c = set.c;
  rec_.center.resize(n * (p + 1));
  rec_.remainder.resize(n);
  const std::size_t q = jacobian_order();
  rec_.jac.resize((q + 1) * n * n);  // Dx_k for k ≤ q only (StepRecord::jac)
  // With q < p: for k > q the record holds x_k([X]) (coefficients over the box) and Dx_k = 0,
  // so "x_k(x0) ∈ center_k + jac_k·B·r" (StepRecord) still holds for every x0 in the set.
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k <= p; ++k) rec_.center[i * (p + 1) + k] = k <= q ? tc_.coefficient(i, k) : tx_.coefficient(i, k);
    rec_.remainder[i] = te_.coefficient(i, p + 1);
    for (std::size_t k = 0; k <= q; ++k)
      for (std::size_t j = 0; j < n; ++j)
        rec_.jac[(k * n + i) * n + j] = jacobian_in_double_ ? from_double(txd_.derivative(i, k, j)) : tx_.derivative(i, k, j);
  }
  rec_.jac_order = q;
}

// Compiled once, in integrate/validated_taylor.cpp.
extern template class ValidatedStepper<IntervalD>;
extern template class ValidatedStepper<IntervalMp>;

}  // namespace softcert::integrate

// The loop over the steppers' steps (and TypedStepper::integrate): after the classes above.
#include "integrate/validated_flow.hpp"
