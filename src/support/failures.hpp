#pragma once
// The typed failures a run may end in, thrown by the layers that meet them (integrate/, taylor/)
// and read by type, never by message, in the engine's verdict policy (engine/verdict_policy.hpp).
#include <stdexcept>

namespace softcert::support {

// The rigorous tier's refusal: a step (or a query on a step) could not be validated. Never
// caught and turned into a result: a caller either reports it or stops.
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

// A refusal for memory: what a run would need exceeds the cap. A std::domain_error, so that a
// validated step that meets it fails like any step that cannot be validated; the engine reports
// one met anywhere else in a check as `inconclusive` with this message (the bytes it needed).
class MemoryLimit : public std::domain_error {
 public:
  using std::domain_error::domain_error;
};

// A run stopped because its caller asked it to (Ctrl-C in Python): thrown from a progress hook
// between validated steps, so that nothing half-computed is reported; never a verdict.
// Not a std::runtime_error, so that no handler meant for arithmetic refusals catches it.
class Cancelled : public std::exception {
 public:
  const char* what() const noexcept override { return "interrupted"; }
};

}  // namespace softcert::support
