#pragma once
// One experiment of the authors' notebook run the two ways softcert shows side by side
// (docs/reviewers.md, "The notebook figures"):
//   - the authors' gradient descent at their learning rate and iteration count, run by
//     softcert in double from the authors' exact initial doubles (integrate/gradient_descent.hpp);
//   - the gradient flow it discretises, at t = k·lr for the same iterations k, by the fast tier
//     (integrate/fast_samples.hpp) twice — tolerance 1e-11 and a reference at 1e-13 — with the
//     digits on which the two agree (no rigorous guarantee: "confirmed" at best).
// Instances come from proofs_checks/instances/authors/ (built into the binary).
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instances/instance.hpp"

namespace softcert::reproduce {

// The authors' instance proofs_checks/instances/authors/<stem>.json and how they ran it.
struct AuthorsInstance {
  std::string stem;
  nlohmann::json json;
  instances::Instance instance;
  double learning_rate = 0;
  std::uint64_t iterations = 0;
  std::string cell;  // notebook cell that runs it
};
// Throws ExperimentFailure when the binary carries no such instance.
AuthorsInstance authors_instance(const std::string& stem);
std::vector<std::string> authors_instance_stems();

// What the figures show, for one state.
struct Observed {
  std::vector<double> alpha;  // the normalized attention α (softmax(U a) for the tied model)
  std::vector<double> a;      // the scores
  std::vector<double> u;      // u = Vᵀβ* (value-softmax model with β*), else empty
  double loss = 0;            // the model's loss (the notebook's, without its 1e-10 / 1e-15 guards)
  double entropy = 0;         // −Σ p_i log p_i, p = α/Σα (sigmoid too); NaN when some p_i < 0 (sum normalization)
  double max_weight = 0;      // max_i α_i / Σα
  double attended_column_norm = 0;  // tied model: ‖U e_k‖, k = argmax α; else 0
  // Euclidean norms of the loss gradient at this state, w.r.t. the value matrix (V, W or U) and
  // w.r.t. a: the notebook's "Gradient Norms" panel (it records the gradient just before the
  // step that leads to the recorded state; here it is the gradient at the state itself).
  double grad_values_norm = 0, grad_a_norm = 0;
};

struct NotebookSample {
  std::uint64_t iteration = 0;
  double t = 0;  // iteration · learning rate
  Observed gd, flow;
  double distance_alpha = 0;  // max_i |α_GD − α_flow|
  double distance_state = 0;  // max over all state components |x_GD − x_flow|
};

struct NotebookRun {
  AuthorsInstance authors;
  std::vector<NotebookSample> samples;  // iteration 0, log-spaced iterations, the last iteration
  double flow_digits = 0;               // digits on which the flow and its reference agree (α and a)
  std::size_t flow_steps = 0;
  bool flow_ok = true;                  // false when the fast tier gave up (flow_note says why)
  std::string flow_note;
};

// Runs the authors' GD and the flow on `points` log-spaced iterations in [1, iterations]
// (plus 0 and the last) and, with `linear`, `points` evenly spaced ones too (for figures on a
// linear t axis: log-spaced points alone leave visible corners there). Throws
// ExperimentFailure for a failed GD run (non-finite values).
NotebookRun run_notebook(const AuthorsInstance& authors, std::size_t points, bool linear = false);

}  // namespace softcert::reproduce
