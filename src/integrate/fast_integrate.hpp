#pragma once
// The fast tier's entry point: integrate an instance to a horizon at a chosen precision,
// optionally again at twice the precision, and report the state (doubles at 53 bits, MPFR above)
// together with how many digits the two runs agree on. No guarantee (verdict tier "confirmed" at best).
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instances/instance.hpp"
#include "integrate/fast_stepper.hpp"
#include "integrate/plan_choices.hpp"
#include "numerics/kinds.hpp"
#include "models/make_model.hpp"

namespace softcert::integrate {

struct FastOptions {
  models::Form form = models::Form::full;  // full or reduced; the time mode adds τ
  // Empty: τ-time when the loss is logistic, the form has a τ version and END ≥ 100.
  std::optional<PlanTime> time;
  Stepper stepper = Stepper::automatic;
  unsigned precision_bits = 53;            // 53: double; more: MPFR at that precision
  std::optional<double> tolerance;         // absolute = relative; default 2^{−(p − max(6, p/8))}
  bool escalate = true;                    // run again at 2p bits, tolerance 2⁻¹⁶·tol, and compare
  std::size_t max_steps = 0;               // per run, accepted + rejected; 0: no limit (exceeded: runtime_error)
};

// The observed state of one run in a number type K: the scores a, u = Vᵀβ* (empty when the
// instance has no β*; Uᵀβ* for the tied model), the normalization's weights α, the loss, V (U for
// the tied model; full forms only) and τ (τ-time forms only).
template <class K>
struct FastValues {
  std::vector<K> a, u, alpha;
  K loss{};
  std::vector<std::vector<K>> V;
  std::optional<K> tau;
};

// One run: its facts and its state, typed (decimal text only where it is written out: decimals()).
struct FastState {
  unsigned precision_bits = 0;
  std::string stepper, form;
  double tolerance = 0;
  std::size_t steps = 0, rejected_steps = 0;
  double seconds = 0;
  std::string t;  // the time as requested (the run lands on it exactly), echoed as given
  // The state as doubles: at 53 bits the run's numbers themselves (the run is in double); above,
  // each of them rounded to the nearest double.
  FastValues<double> values;
  // Above 53 bits: the run's numbers themselves, MPFR at precision_bits (each MpReal carries its
  // precision, so they survive the run's PrecisionGuard). Empty at 53 bits.
  std::optional<FastValues<MpReal>> mp;
};

// The state as decimal text, the fast tier's one writer of it (`integrate --json`, the CLI's
// listing, the Python module's `decimals`): num::to_decimal of each number — 17 significant
// digits at 53 bits, enough to read back the same MPFR number above; tau empty in t-time.
struct FastDecimals {
  std::vector<std::string> a, u, alpha;
  std::string loss, tau;
  std::vector<std::vector<std::string>> V;
};
FastDecimals decimals(const FastState& s);

struct FastReport {
  FastState run;
  std::optional<FastState> reference;  // the 2p-bit run
  // Digits on which run and reference agree: min over components of
  // −log10(|x − x_ref| / max(|x_ref|, 1e-30)) on the two runs' numbers (at the reference's
  // precision), capped at the run's precision; per field too.
  std::optional<double> digits;
  nlohmann::json digits_by_field = nlohmann::json::object();
};

// A run whose state stopped being finite (inf or nan): valid input whose values are too large
// for the precision (exp overflows in floating point), not bad input.
struct FastOverflow : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws std::invalid_argument (field named) for a bad END, precision or form/instance mismatch,
// FastOverflow when a run (or its reference) overflows.
FastReport integrate_fast(const instances::Instance& inst, const std::string& t_end, const FastOptions& options);

// The state at every time of `times` (decimal strings, > 0, strictly increasing; else
// std::invalid_argument naming times[k]) in ONE t-time run that lands exactly on each time
// (no per-time rerun, no interpolation), and with options.escalate one reference pass at 2p bits
// compared time by time. Element k is the report for times[k]; its steps and seconds are
// cumulative from t = 0. τ-time is refused (time, form: the pass lands on t, not τ). No guarantee.
std::vector<FastReport> integrate_fast_at(const instances::Instance& inst, const std::vector<std::string>& times,
                                          const FastOptions& options);

// The `integrate --json` object for the fast tier (decimal strings; docs/fast_tier.md) plus
// digits_of_agreement, steps, seconds and the reference run's facts.
nlohmann::json to_json(const FastReport& report);

// The form actually integrated for these options and END: integrate::plan_run's choice of the
// time variable (run_plan.hpp), τ added to the asked form.
models::Form resolve_form(const instances::Instance& inst, const FastOptions& options, double t_end);

}  // namespace softcert::integrate
