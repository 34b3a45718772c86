#pragma once
// One validated step of a certificate and its re-check (docs/certificates.md): the a priori
// inclusion, the Taylor enclosure with its remainder, and the inclusion of the moved set in the
// recorded end set and end box. A failed inclusion throws Rejection naming the step and the
// inclusion; nothing is ever widened or retried here.
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arb_types.hpp"
#include "decimal.hpp"
#include "field.hpp"
#include "range.hpp"

namespace verify {

struct Rejection : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The Lohner set {c + B r : r ∈ [r]} (c a point, B a point matrix).
struct LohnerSet {
  std::vector<Ball> c;
  Matrix B{1};
  std::vector<Interval> r;
  std::vector<Ball> r_balls() const;
  std::vector<Ball> hull() const;        // c + B·[r] ⊇ the set
  bool contains(const std::vector<Ball>& x, std::string& why) const;  // every point of x in the set
};
LohnerSet parse_set(const nlohmann::json& v, slong n);

struct Step {
  slong index = 0;
  Ball t0, t1, h;  // h = t1 − t0
  slong order = 0, jac_order = 0;
  std::vector<Interval> apriori, box;
  std::optional<LohnerSet> end;  // the set at t1 (absent on the last step: its end is the box)
};
Step parse_step(const nlohmann::json& v, slong n);

// What a checked step knows, for the claim: for every solution from the start set and every
// s ∈ [0, h], x(s) = Σ_{k≤p} x_k(x(0)) s^k + R s^{p+1} with x_k(x(0)) ∈ coef[k], R ∈ remainder,
// and x(h) ∈ y + A·r for some r ∈ [r] (A ⊇ the mean-value matrices).
struct StepFacts {
  std::vector<std::vector<Ball>> coef;
  std::vector<Ball> remainder, y, r;
  Matrix A{1};
  Ball h;
};

// Re-checks `step` from the set `start`; throws Rejection when an inclusion fails.
StepFacts check_step(const Field& f, const LohnerSet& start, const Step& step);

// Enclosures of the linear functional w·x (w sparse: index → weight) over the step:
// over s ∈ [0, h] (Horner with s ∈ [0, h]), of (w·x(s) − w·x(0))/s over s ∈ (0, h], and at s = h.
using Weights = std::vector<std::pair<slong, slong>>;
Range over_step(const StepFacts& st, const Weights& w);
Range slope_over_step(const StepFacts& st, const Weights& w);
Ball at_end(const StepFacts& st, const Weights& w);

}  // namespace verify
