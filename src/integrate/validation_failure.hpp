#pragma once
// The rigorous tier's refusal: a step (or a query on a step) could not be validated. Never
// caught and turned into a result: a caller either reports it or stops.
#include <stdexcept>

namespace softcert::integrate {

class ValidationFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace softcert::integrate
