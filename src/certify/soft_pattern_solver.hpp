#pragma once
// Proposals for the minimal cost of a SOFT attention pattern (our reading of Súkeník et al. 2026;
// docs/theorems/sukenik2026_soft_attention.md). Nothing returned here is trusted:
// soft_pattern_cost.hpp certifies both sides in interval arithmetic.
//
//   min ‖W‖  s.t.  g_t(W) = log Σ_{s≠a_t} exp(−x_tᵀ W (x_{a_t} − x_s)) ≤ −θ   (t = 1..T)
//
// with θ = log((1−ε)/ε): query x_t attends causally to keys x_0..x_t and puts softmax mass
// ≥ 1 − ε on a_t (a_t = 0 for the sink, a_t = t for the diagonal). Each g_t is convex in W,
// so for ‖·‖ = Frobenius the problem is a smooth convex program, solved by a log-barrier method
// with Newton steps in the d² entries of W. The nuclear norm is reached by iterative
// reweighting, ‖W‖_* = min_{S≻0} ½(tr WᵀS⁻¹W + tr S) with S = (WWᵀ + δ²I)^{1/2}, each weighted
// problem solved by the same barrier method. The barrier's multipliers λ_t and the softmax
// weights p_ts at the centre give the dual proposal u_ts = λ_t p_ts.
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "certify/margin_nuclear.hpp"

namespace softcert::certify {

enum class CostNorm { nuclear, frobenius };
const char* to_string(CostNorm n);

// The key a_t query t must attend to. trigger_period = 0: the pattern itself (sink: 0; diagonal:
// t). trigger_period = k > 0, the bigram-backcopy task [ours, docs/theorems/sukenik2026_soft_attention.md]:
// a query t ≥ 2 with t divisible by k is a trigger and attends to its previous token (a_t = t − 1,
// whose value it copies); every other query is dormant and attends as the pattern says.
std::size_t soft_target(Pattern p, std::size_t t, std::size_t trigger_period = 0);
// The keys other than a_t that query t sees, in increasing order (the index set of u[t−1]).
std::vector<std::size_t> soft_others(Pattern p, std::size_t t, std::size_t trigger_period = 0);

struct SoftProposal {
  bool ok = false;                         // a strictly feasible W was found
  std::vector<Eigen::MatrixXd> iterates;   // feasible candidates (the last is the best found)
  std::vector<std::vector<std::vector<double>>> duals;  // per iterate: u[t−1][k], k over soft_others
  std::string note;
};

// x: (T+1) × d embeddings (rows x_0..x_T; only the first T+1 rows are read). Starting points:
// c·I (diagonal) and c·v x_0ᵀ with v = x_0 or v = Σ_t x_t (sink), scaled until strictly
// feasible; with triggers (trigger_period > 0), a damped Newton descent on the smooth maximum of
// the constraints from W = 0 first. When none is feasible, ok = false and the note says so.
SoftProposal propose_soft_pattern(const Eigen::MatrixXd& x, std::size_t T, Pattern p, double theta, CostNorm norm,
                                  std::size_t trigger_period = 0);

}  // namespace softcert::certify
