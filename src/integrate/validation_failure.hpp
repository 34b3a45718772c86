#pragma once
// The rigorous tier's refusal: a step (or a query on a step) could not be validated. Never
// caught and turned into a result: a caller either reports it or stops.
#include <stdexcept>

namespace softcert::integrate {

class ValidationFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A rigorous run that could not reach what it was asked for (the horizon, a crossing, a tail):
// the engine's verdict policy turns it into `inconclusive` with its message as the reason
// (engine/verdict_policy.hpp); checks let it propagate.
class RigorousFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace softcert::integrate
