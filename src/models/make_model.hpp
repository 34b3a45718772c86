#pragma once
// One entry point from an instance to a model at scalar kind S.
//
//   Form::full         ValueSoftmax<S> (V, a): every loss and normalization;
//                      TiedValueSoftmax<S> (U, a) for model "tied_value_softmax" (no other form)
//   Form::full_tau     ValueSoftmax<S> in τ-time (V, a, t): logistic loss, any normalization
//   Form::reduced      logistic + softmax → LogisticReduced<S> (a, u);
//                      square + softmax with V(0) = β* w₀ᵀ → RankOneSquare<S> (a, u)
//   Form::reduced_tau  logistic + softmax → LogisticReducedTau<S> (a, u, t)
//
// The rigorous tier can ask directly: LogisticReduced<IntervalD>::from_instance(inst) (or
// make_model<IntervalMp>(inst, Form::reduced) and std::get<LogisticReduced<IntervalMp>>).
// Interval parameters enclose the instance's decimal values; for IntervalMp / MpReal the
// precision in force (num::PrecisionGuard) when the model is made is the one used.
// An instance that does not fit the form throws std::invalid_argument naming the field.
#include <stdexcept>
#include <string>
#include <variant>

#include "instances/instance.hpp"
#include "models/logistic_reduced.hpp"
#include "models/rank_one_square.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"
#include "numerics/quote.hpp"

namespace softcert::models {

enum class Form { full, full_tau, reduced, reduced_tau };

inline const char* to_string(Form f) {
  switch (f) {
    case Form::full: return "full";
    case Form::full_tau: return "full_tau";
    case Form::reduced: return "reduced";
    case Form::reduced_tau: return "reduced_tau";
  }
  return "?";
}

// Throws invalid_argument("form: ...") for an unknown name.
inline Form parse_form(const std::string& name) {
  for (Form f : {Form::full, Form::full_tau, Form::reduced, Form::reduced_tau})
    if (name == to_string(f)) return f;
  throw std::invalid_argument("form: unknown form " + num::quoted(name) + " (full, full_tau, reduced, reduced_tau)");
}

template <class S>
using AnyModel = std::variant<ValueSoftmax<S>, LogisticReduced<S>, LogisticReducedTau<S>, RankOneSquare<S>,
                              TiedValueSoftmax<S>>;

template <class S>
AnyModel<S> make_model(const instances::Instance& inst, Form form) {
  if (inst.tied()) {
    if (form != Form::full)
      throw std::invalid_argument(std::string("form: the tied model has the full form only, not \"") + to_string(form) + "\"");
    return TiedValueSoftmax<S>(inst);
  }
  switch (form) {
    case Form::full: return ValueSoftmax<S>(inst, false);
    case Form::full_tau: return ValueSoftmax<S>(inst, true);
    case Form::reduced:
      if (inst.loss == instances::Loss::square) return RankOneSquare<S>::from_instance(inst);
      return LogisticReduced<S>::from_instance(inst);
    case Form::reduced_tau: return LogisticReducedTau<S>::from_instance(inst);
  }
  throw std::invalid_argument("form: unknown");
}

// True when the model carries t as a state component (τ-time forms).
template <class M> bool carries_time(const M&) { return false; }
template <class S> bool carries_time(const LogisticReducedTau<S>&) { return true; }
template <class S> bool carries_time(const ValueSoftmax<S>& m) { return m.tau_time(); }

}  // namespace softcert::models
