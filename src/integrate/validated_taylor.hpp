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
#include "integrate/box_series_record.hpp"
#include "integrate/cpu_cap.hpp"
#include "integrate/helper_thread.hpp"
#include "integrate/lohner_linalg.hpp"
#include "integrate/step_record.hpp"
#include "integrate/validation_failure.hpp"
#include "integrate/tube.hpp"
#include "numerics/elementary.hpp"
#include "numerics/log_norm_bound.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "taylor/tape.hpp"

namespace softcert::integrate {

// The settings are split by who reads them: every stepper (StepControl), the Lohner stepper
// only (LohnerSettings), the ball stepper only (BallSettings). A stepper type takes its own
// options (LohnerOptions, BallOptions: LohnerStepper / BallStepper below); ValidatedOptions
// holds all of them plus the choice `log_norm_ball`, for callers whose parameters choose the
// stepper at run time (`--set ball`): with_stepper (integrate/validated_flow.hpp) turns it
// into the stepper type at one dispatch point.
struct StepControl {
  unsigned order = 20;             // Taylor order p
  double tolerance = 0;            // local error target per step; 0: 2^−(precision bits)
  double h_max = 0;                // 0: unlimited
  double h_min = 1e-300;           // a step below it fails
  std::size_t max_steps = 1000000;
  bool keep_segments = true;       // store the tube segments (ValidatedTaylor::integrate)
  double fixed_step = 0;           // > 0: try this step (halved on a priori failure) instead of step control
  // Called after every validated step with the steps this stepper has validated, the
  // integration variable reached (t, or τ in τ-time) and the midpoints of the state's
  // enclosure, as doubles. For progress reports only: no role in any guarantee.
  std::function<void(std::size_t steps, double s, const std::vector<double>& x_mid)> on_step;
};

// The Lohner step's own settings (no role in the ball step).
struct LohnerSettings {
  bool lohner = true;              // false: plain interval vectors (no wrapping control)
  bool keep_records = false;       // also store each step's record (Tube::step queries; (p+1)·n² intervals a step)
  // Interval matrix products of the step (A = J·B, Q⁻¹A, QᵀQ, and J(s)·B of the tube segment)
  // in midpoint–radius form over floating-point GEMM, and the QR factorisation by Eigen's
  // blocked Householder (IntervalD only; lohner_linalg.hpp). false: inf–sup products and plain
  // Householder loops (a comparison path for the benches). Same guarantee; widths equal up to
  // rounding (docs/method.md §2).
  bool midrad_products = true;
  // Order q of the x0-derivatives (the variational equations) used for the mean value form;
  // 0 or ≥ order: q = p (all of them). With q < p the coefficients q < k ≤ p enter as their
  // enclosures over the box [X] instead (docs/method.md §2, "Lower derivative order"): the
  // derivative pass costs ~(q/p)² of the full one; the price is width (docs/performance.md,
  // "Scale to the papers' sizes").
  unsigned jacobian_order = 0;
};

// The ball step's own settings (top of this file; docs/method.md §2b).
struct BallSettings {
  // The ball step's pieces: [0, h] is cut into this many pieces, each with its own box and
  // bound μ_i (docs/method.md §2b); more pieces enclose Df more tightly at that many times the
  // cost of Df and μ (docs/performance.md, "The ball step's pieces, chosen per step"). 0: chosen
  // per step by BallPieceRule (integrate/ball_pieces.hpp) from the last step's bounds.
  unsigned ball_pieces = 1;
  // With more than one piece: their boxes, Df and μ on two threads (this one and a helper,
  // integrate/helper_thread.hpp) when the machine has more than one hardware thread; the box's
  // series also runs there beside the centre's, with any number of pieces. The same
  // numbers either way (each piece is computed by the same code from the same inputs, and the
  // results are combined in the pieces' order); only the wall time changes. IntervalD only (an
  // MPFI kind's precision is per thread).
  bool piece_threads = true;
  // The ball's norm ‖W e‖₂, W = diag(ball_weights): empty for the Euclidean norm, else one
  // positive power of two per component (exact scalings). A component that drives nothing but
  // grows fast — the old time t carried in τ-time, whose rate 1 + e^m grows like t — makes a large
  // row of Df and with it a large μ in the Euclidean norm; a small weight scales that row down
  // (μ of W·Df·W⁻¹) at the price of a wider enclosure of that component alone (|e_i| ≤ ρ/w_i).
  // Any positive weights give a valid step; rigorous_full.hpp chooses them for τ-time runs.
  std::vector<double> ball_weights;
};

struct LohnerOptions : StepControl, LohnerSettings {};
struct BallOptions : StepControl, BallSettings {};

struct ValidatedOptions : StepControl, LohnerSettings, BallSettings {
  // The ball step (top of this file; docs/method.md §2b) instead of the Lohner step: the set is
  // a Euclidean ball around a point, carried by the logarithmic norm of the field over the a
  // priori box. Much cheaper per step at large n; as tight only while the flow does not expand
  // much (the width grows like exp(∫ μ dt)). Read only by with_stepper (validated_flow.hpp),
  // which builds a BallStepper for it: the LohnerSettings then have no role, and what needs
  // step records does not compile with it.
  bool log_norm_ball = false;

  LohnerOptions lohner_options() const { return LohnerOptions{{static_cast<const StepControl&>(*this)}, {static_cast<const LohnerSettings&>(*this)}}; }
  BallOptions ball_options() const { return BallOptions{{static_cast<const StepControl&>(*this)}, {static_cast<const BallSettings&>(*this)}}; }
  // The options of the core (ValidatedStepper) for a stepper type's own options.
  static ValidatedOptions of(const LohnerOptions& o) {
    ValidatedOptions v;
    static_cast<StepControl&>(v) = o;
    static_cast<LohnerSettings&>(v) = o;
    return v;
  }
  static ValidatedOptions of(const BallOptions& o) {
    ValidatedOptions v;
    static_cast<StepControl&>(v) = o;
    static_cast<BallSettings&>(v) = o;
    v.log_norm_ball = true;
    return v;
  }
};

// Where a step's time goes: thread CPU seconds accumulated over every step() call, per phase
// (bench/rigorous_scale.cpp reports them; no role in any guarantee).
struct StepProfile {
  double centre = 0;      // tape recorded at the centre c and its coefficients (no derivatives)
  double box_record = 0;  // tape recorded over the box [X]
  double derivative = 0;  // coefficients over [X] with their x0-derivatives (variational equations)
  double apriori = 0;     // a priori enclosure E and the remainder coefficients (incl. retries)
  double assemble = 0;    // the step record (copy of Dx_k) and J = Σ_k Dx_k h^k, y_c
  double products = 0;    // interval matrix products and matrix–vector products (A = J·B, Q⁻¹A, …)
  double qr = 0;          // Householder QR of mid(A) and the enclosure of Q⁻¹ (its QᵀQ product included)
  double rest = 0;        // tube segment, boxes, intersections
  double log_norm = 0;    // the ball step's certificate of μ (numerics/log_norm_bound.hpp)
  std::size_t steps = 0;
  std::size_t apriori_tapes = 0;  // tapes recorded over a trial a priori box E (find_apriori)
  std::size_t trial_steps = 0;    // trial step sizes tried (validated_step_size), accepted ones included
  // What set the step sizes (bench/regression_step_rule.cpp): a priori failures (each halves h),
  // shrinks by the remainder test, and the last step's Jorba–Zou estimate and first trial.
  std::size_t apriori_failures = 0, remainder_shrinks = 0;
  double last_estimate = 0, last_trial = 0;
  double total() const { return centre + box_record + derivative + apriori + assemble + products + qr + rest + log_norm; }
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
  }
};

// Bits of the kind's arithmetic (53 for IntervalD, the thread precision for IntervalMp).
template <class S>
unsigned working_bits() {
  if constexpr (std::is_same_v<num::BoundOf<S>, double>) return 53;
  else return num::precision_bits();
}

// The set {c + B r + e : r ∈ [r], ‖W e‖₂ ≤ ball}: c thin, B a point matrix (thin entries), [r] an
// interval vector, ball ≥ 0 a radius in the norm of the weights W = diag(weights) (empty: W = I,
// the Euclidean norm; else positive powers of two, BallSettings::ball_weights). The Lohner step
// takes and makes sets with ball = 0; the ball step (BallStepper) takes any and makes sets with B
// and r empty (the ball around c alone).
template <class S>
struct LohnerSet {
  std::vector<S> c, B, r;
  double ball = 0;
  std::vector<double> weights;

  // Guarantee: the set contains every point of `box`.
  static LohnerSet from_box(const std::vector<S>& box) {
    LohnerSet s;
    const std::size_t n = box.size();
    s.B.assign(n * n, S(0));
    for (std::size_t i = 0; i < n; ++i) {
      s.c.push_back(num::mid_scalar(box[i]));
      s.B[i * n + i] = S(1);
      s.r.push_back(box[i] - s.c[i]);
    }
    return s;
  }
  // Guarantee: a box containing the set.
  // (In the fast arithmetic: the same bounds as IntervalD's operators without a rounding-mode
  // switch per operation, which would be a sizeable part of a step: docs/performance.md, "Scale
  // to the papers' sizes".)
  std::vector<S> box() const {
    using Bd = num::BoundOf<S>;
    std::vector<S> x = B.empty() ? std::vector<S>(c.size(), S(0)) : lohner::fast_mat_vec(B, r, c.size());
    for (std::size_t i = 0; i < c.size(); ++i) x[i] += c[i];
    if (ball > 0)  // each coordinate of e lies in [−ball/w_i, ball/w_i] (|w_i e_i| ≤ ‖W e‖₂)
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double rad = weights.empty() ? ball : (IntervalD(ball) / IntervalD(weights[i])).upper();
        x[i] += num::hull_of_bounds<S>(Bd(-rad), Bd(rad));
      }
    return x;
  }
};

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
    const auto both = [](const std::function<void()>& a, const std::function<void()>& b) { run_both(a, b); };
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
    if (hi < lo) throw ValidationFailure("intersection of two enclosures is empty (internal error)");
    return num::hull_of_bounds<S>(lo, hi);
  }

 protected:
  std::size_t steps_ = 0;  // steps of the last integrate() (ValidatedTaylor)

  // Guarantee of both steps: on return, every solution that started in `set` at time t (on
  // entry) is in `set` at time t (on exit), which is t + h ≤ t_end (exactly t_end when
  // `reached`); the returned segment box contains it for all times in between. Throws
  // ValidationFailure when no step can be validated.
  // The Taylor–Lohner step (steps 1–5 at the top of this file); last_record() then describes it.
  TubeSegment<S> step_lohner(LohnerSet<S>& set, S& t, const S& t_end, bool& reached);
  // The ball step (top of this file); it leaves no record.
  TubeSegment<S> step_ball(LohnerSet<S>& set, S& t, const S& t_end, bool& reached);
  // The record of the last Lohner step (read only through LohnerStepper::last_step()).
  const StepRecord<S>& last_record() const { return rec_; }
  // Throws taylor::MemoryLimit, before anything of that size is allocated, when the n × n
  // interval matrices a Lohner step holds at once do not fit the memory cap: the set's B, J, A =
  // J·B, the next B, Q⁻¹'s Qᵀ and Q⁻¹A (step_lohner), and the record's q + 1 derivative layers
  // (each an MPFI entry's limbs counted too). A lower bound of what the step needs: the tape's own
  // arrays are refused by the tape (taylor/memory_cap.hpp). Called when a Lohner stepper is built,
  // not by LohnerSet::from_box, which the ball step uses too at sizes where it keeps no n × n matrix.
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
  S validated_step_size(const LohnerSet<S>& set, const S& t, const S& t_end, bool& last);
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
        throw ValidationFailure("step: the set's centre is not certainly inside its box (component " + std::to_string(i) + ")");
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

  // [lower, upper] of x rounded outward to doubles (a superset of x).
  static IntervalD to_double_outward(const S& x) {
    if constexpr (std::is_same_v<S, IntervalD>) {
      return x;
    } else {
      const auto* v = x.backend().data();
      return IntervalD(mpfr_get_d(&v->left, MPFR_RNDD), mpfr_get_d(&v->right, MPFR_RNDU));
    }
  }
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

  void fill_record(const LohnerSet<S>& set, const S& t, const S& h);

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
  LazyHelperThread piece_helper_;       // BallSettings::piece_threads
  taylor::Tape<IntervalD> txd_;  // the derivative pass in IntervalD (set_double_jacobian_field)
  DoubleField double_field_;
  BoxJacobian box_jacobian_;  // the ball step's Df over a box, when set (set_box_jacobian)
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
struct LohnerStep {
  static constexpr bool has_records = true;
  using Options = LohnerOptions;
};
struct BallStep {
  static constexpr bool has_records = false;
  using Options = BallOptions;
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
    LohnerSet<S> set = LohnerSet<S>::from_box(box);
    return integrate(set, t0, t_end);
  }
  SolutionCurve<S, has_records> integrate(LohnerSet<S>& set, const S& t0, const S& t_end);

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
  TubeSegment<S> step(LohnerSet<S>& set, S& t, const S& t_end, bool& reached) {
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

// ----- ValidatedStepper: the step ---------------------------------------------------------
// Out of the class (not inline), so that the explicit instantiations at the end of this file
// keep every other translation unit from compiling them again.
template <class S>
TubeSegment<S> ValidatedStepper<S>::step_lohner(LohnerSet<S>& set, S& t, const S& t_end, bool& reached) {
  if (set.ball != 0 || set.B.size() != n_ * n_) throw std::invalid_argument("step: the Lohner step needs a Lohner set (B n × n, no ball)");
  using B = num::BoundOf<S>;
  const std::size_t n = n_, p = opt_.order;
  double clk = StepProfile::now();
  auto lap = [&clk](double& into) {
    const double t1 = StepProfile::now();
    into += t1 - clk;
    clk = t1;
  };
  const std::vector<S> X = set.box();
  require_centre_in_box(set.c, X);
  // 2. centre coefficients (independent of h: they also choose h) and the box coefficients
  //    with their x0-derivatives.
  tc_.record(f_, set.c, p);
  tc_.solve(false);
  lap(prof_.centre);
  // With the Jacobian from the double field and q = p, the double tape's coefficients over
  // [X] rounded outward (a superset of [X]) also serve step 1's polynomial P: any enclosure of
  // x_k over the box does. The stepper's own box tape, an MPFI series at MPFI precisions, is
  // then not needed at all (docs/performance.md, "What limits each figure" §3). With q < p its
  // coefficients k > q enter the record: kept.
  jacobian_in_double_ = false;
  box_in_double_ = false;
  if (double_field_ && jacobian_order() == p) {
    jacobian_in_double_ = double_jacobian(X);
    box_in_double_ = jacobian_in_double_ && double_box_coefficients_finite();
    if (box_in_double_) box_ = X;
  }
  if (!box_in_double_) {
    tx_.record(f_, X, p);
    lap(prof_.box_record);
    if (double_field_ && jacobian_order() < p) jacobian_in_double_ = double_jacobian(X);
    if (jacobian_in_double_) tx_.solve(false);
    else tx_.solve(true, jacobian_order());
  }
  lap(prof_.derivative);
  bool last = false;
  const S hS = validated_step_size(set, t, t_end, last);
  const B hbar = num::upper(hS);
  lap(prof_.apriori);
  fill_record(set, t, hS);
  // 4. y_c and A
  const std::size_t q = jacobian_order();
  std::vector<S> yc(n), J(n * n);
  {
    using FA = taylor::FastArith<S>;
    using Af = typename FA::type;
    const Af h_f = FA::to(hS);
    [[maybe_unused]] const typename FA::Guard guard;
    Af hp1(1);
    for (std::size_t k = 0; k <= p; ++k) hp1 = hp1 * h_f;
    for (std::size_t i = 0; i < n; ++i) {
      Af acc = FA::to(rec_.center[i * (p + 1) + p]);
      for (std::size_t k = p; k-- > 0;) acc = acc * h_f + FA::to(rec_.center[i * (p + 1) + k]);
      yc[i] = FA::from(acc + FA::to(rec_.remainder[i]) * hp1);
      for (std::size_t j = 0; j < n; ++j) {  // Dx_k = 0 for k > q (fill_record)
        Af a = FA::to(rec_.jac[(q * n + i) * n + j]);
        for (std::size_t k = q; k-- > 0;) a = a * h_f + FA::to(rec_.jac[(k * n + i) * n + j]);
        J[i * n + j] = FA::from(a);
      }
    }
  }
  lap(prof_.assemble);
  std::vector<S> A;
  lohner::product(J, set.B, A, n, opt_.midrad_products);
  std::vector<S> direct = lohner::fast_mat_vec(A, set.r, n);  // y_c + A r: the direct enclosure
  for (std::size_t i = 0; i < n; ++i) direct[i] += yc[i];
  lap(prof_.products);
  LohnerSet<S> next;
  if (opt_.lohner) {
    next.c.resize(n);
    for (std::size_t i = 0; i < n; ++i) next.c[i] = num::mid_scalar(yc[i]);
    next.B = lohner::orthogonal_from(A, set.r, n, opt_.midrad_products);
    const lohner::NearInverse<S> Qinv = lohner::near_inverse_of_orthogonal(next.B, n, opt_.midrad_products);
    lap(prof_.qr);
    std::vector<S> QA;
    lohner::product(Qinv, A, QA, n, opt_.midrad_products);
    next.r = lohner::fast_mat_vec(QA, set.r, n);
    std::vector<S> dc(n);
    for (std::size_t i = 0; i < n; ++i) dc[i] = yc[i] - next.c[i];
    const std::vector<S> qdc = lohner::fast_mat_vec(Qinv.enclosure(), dc, n);
    for (std::size_t i = 0; i < n; ++i) next.r[i] += qdc[i];
    lap(prof_.products);
  } else {
    next = LohnerSet<S>::from_box(direct);
  }
  // 5. the segment over [0, h̄]
  TubeSegment<S> seg;
  seg.t0 = t;
  seg.box = rec_.enclose_wrapped(num::hull_of_bounds<S>(B(0), hbar));  // O(q·n²): step_record.hpp
  for (std::size_t i = 0; i < n; ++i) seg.box[i] = intersect(seg.box[i], E_[i]);
  t = last ? t_end : S(t + hS);
  seg.t1 = t;
  final_ = direct;
  const std::vector<S> lb = next.box();
  for (std::size_t i = 0; i < n; ++i) final_[i] = intersect(final_[i], lb[i]);
  seg.end = final_;
  if (opt_.keep_records) seg.record = std::make_shared<const StepRecord<S>>(rec_);
  set = std::move(next);
  reached = last;
  lap(prof_.rest);
  count_step(seg, t);
  return seg;
}

// The ball step (top of this file; docs/method.md §2b).
template <class S>
TubeSegment<S> ValidatedStepper<S>::step_ball(LohnerSet<S>& set, S& t, const S& t_end, bool& reached) {
  using B = num::BoundOf<S>;
  const std::size_t n = n_, p = opt_.order;
  if (opt_.keep_records) throw std::invalid_argument("step: the ball step keeps no step records (keep_records)");
  if (set.c.size() != n) throw std::invalid_argument("step: the set's dimension is not the field's");
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
  // ‖W e‖₂ ≤ max_i (w_i/v_i)·‖V e‖₂) plus the W-norm of the magnitudes of the box of B·[r] (when
  // the set still has a Lohner part, e.g. the first step from a box).
  IntervalD rho0(set.ball);
  if (set.ball > 0 && (!w.empty() || !set.weights.empty())) {
    double ratio = 0;  // max_i w_i / v_i, rounded upward
    for (std::size_t i = 0; i < n; ++i)
      ratio = std::max(ratio, (IntervalD(weight(i)) / IntervalD(set.weights.empty() ? 1.0 : set.weights[i])).upper());
    rho0 = IntervalD(set.ball) * IntervalD(ratio);
  }
  if (!set.B.empty()) {
    const std::vector<S> Br = lohner::fast_mat_vec(set.B, set.r, n);
    IntervalD sq(0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const IntervalD m = to_double_outward(Br[i]);
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
  // The helper runs only on a core the CPU cap has free for this step (integrate/cpu_cap.hpp).
  std::optional<CpuSlot> box_core = use_piece_helper() ? CpuSlot::try_extra() : std::nullopt;
  HelperThread* box_helper = box_core ? piece_helper_.get() : nullptr;
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
  const S hS = validated_step_size(set, t, t_end, last);
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
  const IntervalD hd = to_double_outward(hS);
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
  // thread (integrate/helper_thread.hpp) while this thread does the even ones. Each piece reads
  // only what the step computed before (tx_, te_, E_, cuts) and writes its own slots, and the
  // helper runs in this thread's rounding mode: the bounds are the same doubles either way, and
  // they are combined below in the pieces' order (tests: BallStepPieceThreads.*).
  std::optional<CpuSlot> helper_core = m > 1 && use_piece_helper() ? CpuSlot::try_extra() : std::nullopt;
  HelperThread* helper = helper_core ? piece_helper_.get() : nullptr;
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
    if (!std::isfinite(mu[piece])) throw ValidationFailure("ball step: no finite bound of the logarithmic norm of the field's Jacobian over the a priori box");
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
  LohnerSet<S> next;
  next.c.resize(n);
  next.weights = w;
  IntervalD sq(0.0);
  for (std::size_t i = 0; i < n; ++i) {
    next.c[i] = num::mid_scalar(yc[i]);
    const IntervalD dci = to_double_outward(yc[i] - next.c[i]);
    const IntervalD mag = IntervalD(std::max(std::fabs(dci.lower()), std::fabs(dci.upper()))) * IntervalD(weight(i));
    sq += mag * mag;
  }
  next.ball = (rho1 + num::sqrt(sq)).upper();
  if (!std::isfinite(next.ball)) throw ValidationFailure("ball step: the radius is not finite");
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
  Df.resize(n * n);  // n² intervals: reused (a fresh buffer faults in every page)
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
  // Df over E_i: from the closed form when one is set (set_box_jacobian: an enclosure of
  // ∂f_i/∂x_j over E_i rounded outward, a superset of E_i), else — or if it declines or is not
  // finite — from the tape: the order-1 coefficient is f itself, so the x0-derivatives of the
  // order-1 tape recorded over E_i enclose ∂f_i/∂x_j at every point of E_i.
  bool closed_form = false;
  if (box_jacobian_) {
    std::vector<IntervalD> Ed(n);
    for (std::size_t i = 0; i < n; ++i) Ed[i] = to_double_outward(Ei[i]);
    closed_form = box_jacobian_(Ed, Df) && Df.size() == n * n;
    for (std::size_t k = 0; closed_form && k < n * n; ++k)
      closed_form = std::isfinite(Df[k].lower()) && std::isfinite(Df[k].upper());
  }
  if (!closed_form) {
    Df.resize(n * n);
    tj.record(f_, Ei, 1);
    tj.solve(true, 1);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) Df[i * n + j] = to_double_outward(tj.derivative(i, 1, j));
  }
  // In the norm ‖W e‖₂ the error e = x − x(·; c) obeys d(We)/ds = W A W⁻¹ (We): the bound is
  // taken for W·Df·W⁻¹, entry (i, j) scaled by w_i/w_j (powers of two: exact, but in interval
  // arithmetic so that an overflow or underflow can only widen).
  const std::vector<double>& w = opt_.ball_weights;
  if (!w.empty())
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        if (w[i] != w[j]) Df[i * n + j] = Df[i * n + j] * (IntervalD(w[i]) / IntervalD(w[j]));
  const double t1 = StepProfile::now();
  t_df += t1 - t0;
  // μ_i ≥ λ_max(sym A) for every A in Df, or +inf (numerics/log_norm_bound.hpp).
  bound = num::log_norm_upper_bound(Df, n);
  t_mu += StepProfile::now() - t1;
}

template <class S>
S ValidatedStepper<S>::validated_step_size(const LohnerSet<S>& set, const S& t, const S& t_end, bool& last) {
  const std::size_t p = opt_.order;
  // The coefficient estimate is only a first guess: on the paper instance in τ-time it is
  // 2–4× too long for the a priori enclosure and the remainder test, and starting from it costs
  // many failed find_apriori iterations a step. Start instead from the fraction of the estimate
  // that the previous step could validate, allowed to grow by 10% per step. Only the trial step
  // depends on it; every accepted step is validated the same way.
  const double h_estimate = choose_step(set.c);
  double h = opt_.fixed_step > 0 ? opt_.fixed_step : h_estimate * h_ratio_;
  prof_.last_estimate = h_estimate;
  prof_.last_trial = h;
  const S remaining = t_end - t;
  if (!num::certainly_positive(remaining)) throw ValidationFailure("step: end time not after the current time");
  const double rem_lo = num::to_double(num::hull_of_bounds<S>(num::lower(remaining), num::lower(remaining)));
  last = false;
  int retries = 0;
  S hS;
  for (int attempt = 0;; ++attempt) {
    if (attempt > 60 || h < opt_.h_min) throw ValidationFailure("step: a priori enclosure not found (step size below h_min)");
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
    const double target = tolerance() * xnorm(set.c);
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
  for (std::size_t i = 0; i < n; ++i) Xd[i] = to_double_outward(X[i]);
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
void ValidatedStepper<S>::fill_record(const LohnerSet<S>& set, const S& t, const S& h) {
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
