#pragma once
// Progress of the validated runs under way, for a person waiting on a long check (the tied
// model at D = 50 runs for hours, the regression claim for minutes, one instance each: the
// suite's per-record progress says nothing until the end). `softcert check` installs a sink
// for the duration of its run (StepProgressScope); every run whose stepper options come from
// integrate::validated_options reports each validated step to it (step_progress_reporter),
// under its own run number (a check may make several runs, in parallel threads).
//
// No role in any guarantee: the values are doubles read from midpoints, for display only. With
// no sink installed nothing is reported and a run is unchanged.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace softcert::support {

struct StepProgress {
  std::size_t run = 0;    // 1, 2, … in the order the runs were planned since the sink was installed
  std::size_t steps = 0;  // validated steps of this run so far
  double at = 0;          // the run's time reached (midpoint), in `variable`
  std::string variable;   // "t", or "τ" where a run reports its integration variable τ
  double horizon = 0;     // the run's END in t (its plan's horizon)
};

using StepProgressSink = std::function<void(const StepProgress&)>;

// Installs `sink` process-wide until destroyed (then the previous sink, if any, is back). The
// sink is called from whichever thread steps, one call at a time (under a mutex).
class StepProgressScope {
 public:
  explicit StepProgressScope(StepProgressSink sink);
  ~StepProgressScope();
  StepProgressScope(const StepProgressScope&) = delete;
  StepProgressScope& operator=(const StepProgressScope&) = delete;

 private:
  StepProgressSink previous_;
};

// An on_step (ValidatedOptions) that reports to the sink installed when a step is taken, under
// a new run number: `variable` names what on_step's second argument is ("t"; "τ" for a run in
// τ-time whose caller does not convert it to t). Empty when no sink is installed now.
std::function<void(std::size_t, double, const std::vector<double>&)> step_progress_reporter(std::string variable,
                                                                                            double horizon);

}  // namespace softcert::support
