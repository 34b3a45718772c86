#pragma once
// The options of the validated steppers (integrate/validated_taylor.hpp), split by who reads them,
// and the per-phase step profile.
#include <cstddef>
#include <ctime>
#include <string>
#include <type_traits>
#include <vector>

#include "integrate/ball_pieces.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// The settings are split by who reads them: every stepper (StepControl), the Lohner stepper
// only (LohnerSettings), the ball stepper only (BallSettings). A stepper type takes its own
// options (LohnerOptions, BallOptions: LohnerStepper / BallStepper, integrate/validated_taylor.hpp); ValidatedOptions
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
  // support/helper_thread.hpp) when the machine has more than one hardware thread; the box's
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

}  // namespace softcert::integrate
