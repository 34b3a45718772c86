#pragma once
// The quantities people plot, derived from a state: the entropy of the weights α/Σα (σ(a) for
// the softmax normalization; softmax(U a) for the tied model), the largest weight and the token
// that carries it, the loss, and the gaps between scores. One implementation for the rigorous
// results (`softcert integrate --json`, the Python module's `derived`, `softcert reproduce`'s
// certified endpoints) and, at points, for the fast tier.
//
// Tokens are numbered from 0 (as everywhere in softcert).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "integrate/rigorous_integrate.hpp"
#include "numerics/kinds.hpp"

namespace softcert::integrate {

// Guarantee (rigorous results, derive_enclosures): every enclosure below contains the quantity's
// value at every state whose weights lie in the result's `softmax` enclosures and whose scores lie
// in its `a` enclosures — so, by the result's own guarantee, the value of the exact flow at t.
// Each is computed in interval arithmetic at the result's precision (IntervalD at 53 bits, MPFI
// above) from the result's binary enclosures (no decimal text in between), and is written
// rounded outward (to_json).
struct DerivedEnclosures {
  // H(α/Σα) = −Σ_k p_k log p_k (natural log). Absent when Σα is not certainly positive or some
  // weight is not certainly ≥ 0 (signed weights of the sum normalization); entropy_note says why.
  std::optional<EnclosedValue> entropy;
  std::string entropy_note;
  std::optional<EnclosedValue> max_weight;  // max_k α_k/Σα; absent when Σα may be ≤ 0
  // The token k with α_k certainly above every other weight (0-based); absent when not certain.
  std::optional<std::size_t> argmax;
  EnclosedValue loss;                    // the result's loss enclosure, repeated for completeness
  std::optional<EnclosedValue> score_gap;  // largest minus second-largest score (T ≥ 2)
  std::vector<EnclosedValue> gaps_to_max;  // max_k a_k − a_j for every token j
};

// Guarantee: see the struct. Throws std::invalid_argument if the result has no weights.
DerivedEnclosures derive_enclosures(const RigorousIntegrateResult& result);

// The same computation for code that holds interval vectors (the checks: proofs_checks/ compare
// entropies of α/Σα on their own enclosures). Guarantee: as above, for every state with scores in
// `a` and weights in `alpha`; `a` may be empty (no gaps then). The current MPFR precision is used
// for IntervalMp (call inside the caller's PrecisionGuard).
DerivedEnclosures derive_enclosures(const std::vector<IntervalD>& a, const std::vector<IntervalD>& alpha,
                                    const IntervalD& loss);
DerivedEnclosures derive_enclosures(const std::vector<IntervalMp>& a, const std::vector<IntervalMp>& alpha,
                                    const IntervalMp& loss);

// Point values of the same quantities from a state in doubles (the fast tier): computed in
// double, no guarantee. Fields as above with lower == upper and width 0.
DerivedEnclosures derive_points(const std::vector<double>& a, const std::vector<double>& weights, double loss);

// {"entropy": [lo, hi] | null, "entropy_note"?, "max_weight": [lo, hi] | null, "argmax": k | null,
//  "score_gap": [lo, hi] | null, "gaps_to_max": [[lo, hi], ...]} (decimal strings).
nlohmann::json to_json(const DerivedEnclosures& d);

}  // namespace softcert::integrate
