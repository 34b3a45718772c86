#pragma once
// A value-softmax problem instance (docs/instances.md, "File format"), held as the exact
// decimal strings of the file so that every scalar kind can parse them its own way
// (num::parse_decimal<S>: rounded once, enclosed, or exact).
//
// parse_instance validates strictly: a missing field, wrong dimensions, a non-number or
// non-finite string, T = 0 or d = 0, an unknown model / loss / normalization, and a singular
// start — a normalization whose denominator Σ_j f(a_j(0)) is 0 (a(0) = 0 under square or abs,
// no positive a_j(0) under relu, Σ a_j(0) = 0 under sum: the weights are 0/0), a zero β*, a
// zero p — all throw std::invalid_argument whose message starts with the field's name (e.g.
// "V[2]: expected 8 entries, got 7").
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::instances {

// formula: the instance's "loss_formula" / "normalization_formula" (docs/formulas.md).
enum class Loss { logistic, logistic_dataset, square, regression, cross_entropy, formula };
enum class Normalization { softmax, square, abs, relu, sum, sigmoid, formula };

const char* to_string(Loss l);
const char* to_string(Normalization n);
Loss parse_loss(const std::string& name);                    // throws invalid_argument("loss: ...")
Normalization parse_normalization(const std::string& name);  // throws invalid_argument("normalization: ...")

using DecimalVector = std::vector<std::string>;
using DecimalMatrix = std::vector<DecimalVector>;  // row-major: a vector of rows

// Models: "value_softmax" (β = V α(a)) and "tied_value_softmax" (z = U a, α = softmax(z),
// β = U α; the file's "U" (d × d, T = d) is held in V; logistic loss and softmax only).
struct Instance {
  std::string model = "value_softmax";
  Loss loss = Loss::logistic;
  Normalization normalization = Normalization::softmax;
  std::size_t T = 0;  // number of tokens (columns of V, entries of a)
  std::size_t d = 0;  // dimension (rows of V)
  DecimalMatrix V;    // d rows of T entries
  DecimalVector a;    // T entries
  DecimalVector beta; // d entries: target β* (logistic, square)
  DecimalMatrix X;    // n rows of d entries (logistic_dataset, regression)
  DecimalVector y;    // n entries (logistic_dataset: labels, regression: targets)
  DecimalVector p;    // d entries: target distribution (cross_entropy), p_k ≥ 0
  std::string provenance;
  std::string id;                     // optional
  std::optional<std::uint64_t> seed;  // optional: the generator seed, if generated
  // optional: how the authors ran this instance (notebook, cell, seed, learning_rate,
  // iterations, horizon); kept as written, see proofs_checks/instances/authors/README.md
  nlohmann::json authors_run;
  // optional, cross_entropy only: logits z with p = softmax(z) exactly as reals (informational)
  DecimalVector p_logits;
  // loss "formula": ℓ(β) = φ(z) with z = ⟨β*, β⟩, or ℓ(β) = Σ_i φ(β_i, β*_i) (variables beta,
  // target); normalization "formula": α_k = f(a_k) / Σ_j f(a_j) (variable x). Text as written.
  std::string loss_formula;
  std::string normalization_formula;

  bool tied() const { return model == "tied_value_softmax"; }

  // Number of data points (rows of X), 0 for losses without a dataset.
  std::size_t n() const { return X.size(); }
};

// The variables of a loss formula (z | beta, target) and of a normalization formula (x).
const std::vector<std::string>& loss_formula_variables();
const std::vector<std::string>& normalization_formula_variables();
enum LossFormulaVariable : std::size_t { kMargin = 0, kBeta = 1, kTarget = 2 };

// Which optional arrays a loss needs.
bool loss_uses_beta(Loss l);     // logistic, square, formula
bool loss_uses_dataset(Loss l);  // logistic_dataset, regression
bool loss_uses_p(Loss l);        // cross_entropy

// Strict parse of a JSON instance (see the header comment).
Instance parse_instance(const nlohmann::json& j);
// Reads and parses a file; unreadable file or invalid JSON → invalid_argument("instance: ...").
Instance load_instance(const std::string& path);
// The JSON form of docs/instances.md (every number a decimal string; T and d integers).
nlohmann::json to_json(const Instance& inst);

}  // namespace softcert::instances
