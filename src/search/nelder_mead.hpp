#pragma once
// Nelder–Mead simplex minimisation (Nelder & Mead 1965; the Lagarias et al. 1998 variant with
// reflection 1, expansion 2, contraction 1/2, shrink 1/2). Derivative-free and tolerant of
// +inf values (an instance the check refuses, or one outside the kept hypotheses, scores +inf).
// Deterministic: ties are broken by vertex order, no randomness, no clocks.
#include <cstddef>
#include <functional>
#include <limits>
#include <vector>

namespace softcert::search {

struct NelderMeadOptions {
  std::size_t max_evaluations = 120;
  // Initial simplex: x0 and x0 + step_k e_k, step_k = relative_step·|x0_k| or absolute_step
  // when that is larger.
  double relative_step = 0.25;
  double absolute_step = 0.05;
  // Stop as soon as a value below this is seen (a counterexample candidate).
  double stop_below = -std::numeric_limits<double>::infinity();
  // Asked before every evaluation; true ends the run (the search's budget).
  std::function<bool()> should_stop;
};

struct NelderMeadResult {
  std::vector<double> x;  // the best point evaluated
  double f = std::numeric_limits<double>::infinity();
  std::size_t evaluations = 0;
};

NelderMeadResult nelder_mead(const std::function<double(const std::vector<double>&)>& f, const std::vector<double>& x0,
                             const NelderMeadOptions& options);

}  // namespace softcert::search
