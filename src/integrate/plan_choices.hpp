#pragma once
// The choices a plan of one integration makes (integrate/run_plan.hpp), as types: a request
// carries them as optionals (empty: the plan's to choose), a plan and a result as values. Text
// exists only at the edges (integrate/run_knobs.hpp reads it, to_string writes it).

namespace softcert::integrate {

enum class PlanTier { fast, rigorous };
enum class PlanForm { reduced_logistic, full_state };  // the 2T-dimensional logistic form, or (V, a) / (U, a)
enum class PlanTime { t, tau };
enum class PlanStepper { lohner, ball };
enum class PlanTail { none, pl };  // pl: integrate/pl_tail.hpp (square and regression loss, t-time)

// Whether a run may end with a tail lemma: automatic, where one applies (the plan decides); off,
// validated steps all the way (asked, or the caller reads every step up to END).
enum class TailPolicy { automatic, off };

// The words of the edges (CLI options, suite and check params, Python arguments, JSON results).
inline const char* to_string(PlanForm f) { return f == PlanForm::reduced_logistic ? "reduced" : "full"; }
inline const char* to_string(PlanTime t) { return t == PlanTime::tau ? "tau" : "t"; }
inline const char* to_string(PlanStepper s) { return s == PlanStepper::ball ? "ball" : "lohner"; }
inline const char* to_string(PlanTail t) { return t == PlanTail::pl ? "pl" : "none"; }
inline const char* to_string(TailPolicy t) { return t == TailPolicy::off ? "off" : "auto"; }

}  // namespace softcert::integrate
