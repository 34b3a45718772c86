#pragma once
// `softcert integrate --tier rigorous` for every model the fast tier integrates: the full
// value-softmax model (any loss; softmax, x², sum or sigmoid normalization) and the tied model,
// enclosed by the validated Taylor–Lohner integrator on the FULL state (integrate/rigorous_full.hpp).
// The logistic + softmax value-softmax instance keeps its 2T-dimensional reduced form
// (rigorous_integrate.hpp), which the CLI picks first because it is far cheaper.
//
// Guarantee: every [lower, upper] pair of the result encloses the exact value of that quantity
// of the exact solution at t = END from the instance's exact decimal data — a and α(a) (the
// normalized attention; softmax(U a) for the tied model), V (U for the tied model), u = Vᵀβ*
// when the instance has β*, and the model's loss. If a step cannot be validated — blow-up,
// a singular normalization (Σ f(a_j) not certainly nonzero), or an |x| / relu score whose sign
// is not certain over a step and whose crossing is not certified (integrate/kink_crossing.hpp
// follows the certified ones, without a tail; the PL tail stops at a kink) — it throws
// RigorousFailure naming the reason; it never returns an unproved result.
// Square loss (options.tail automatic): once the flow has settled the run stops stepping and
// encloses the state at END by the PL ball of integrate/pl_tail.hpp (valid for every END ≥ s);
// result.tail says so, from which s, with which R and μ. The guarantee above is unchanged.
#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/rigorous_integrate.hpp"

namespace softcert::integrate {

// Options: precision_bits (≤ 53: IntervalD; more: MPFI), order (0: from the precision),
// max_steps, tail (automatic | off), tail_width, set (empty | lohner | ball), ball_pieces,
// time_variable (empty | t | τ). What an empty choice means, and which combinations are refused
// with std::invalid_argument (the ball step for |x| or relu in τ-time, τ-time without logistic
// loss), is integrate/run_plan.hpp's: τ-time for logistic-loss instances, value-softmax and tied
// (dτ = γ dt keeps long horizons short), t-time otherwise; the ball step from 200 states on. The
// result says what was used.
RigorousIntegrateResult rigorous_integrate_model(const instances::Instance& inst, const std::string& t_end,
                                                 const RigorousIntegrateOptions& options = {});

// The full state at several times in ONE validated pass (integrate/rigorous_full.hpp,
// enclose_model_states_at): element k has the guarantee above for END = times[k]. `times` are
// decimal strings, > 0 and strictly increasing (else std::invalid_argument). Validated steps all
// the way (no PL tail) with the Lohner set; options.tail, tail_width, set are not used.
std::vector<RigorousIntegrateResult> rigorous_integrate_model_at(const instances::Instance& inst,
                                                                 const std::vector<std::string>& times,
                                                                 const RigorousIntegrateOptions& options = {});

// The form the plan chooses (integrate/run_plan.hpp): rigorous_integrate (the reduced logistic
// form) where it applies, else rigorous_integrate_model. The entry point of `softcert integrate
// --tier rigorous` and of the Python module. Guarantee: the chosen function's.
RigorousIntegrateResult rigorous_integrate_planned(const instances::Instance& inst, const std::string& t_end,
                                                   const RigorousIntegrateOptions& options = {});

// True when rigorous_integrate (the reduced logistic form) applies to the instance.
bool reduced_logistic_applies(const instances::Instance& inst);

}  // namespace softcert::integrate
