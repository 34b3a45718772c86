#pragma once
// The regression sweep of Varre, Rofin, Flammarion (2026) (docs/theorems/varre2026_regression.md):
// its file format and its generator.
//
// A sweep is {"model": "value_softmax_sweep", "kappa": [κ_0, …], "members": [regression
// instances]}: the members share V(0) (the notebook's W), a(0) and y and differ only in X; κ
// strictly increases along the list and is cond(X) of its member (checked in double, relative
// 1e-9, as a guard against a mislabelled sweep — it is not part of any proof).
//
// Generator [code, tml-epfl/softmax visualizations/toy_experiments.ipynb, cell 10]: the authors'
// construction with softcert's RNG (instances::NormalSource: SplitMix64 + MPFR Box–Muller, the
// same doubles on every platform). Draw order: W (d × d, row by row) = 1e-5·z; a (d) = 1e-3·z;
// G_U (n × m, row by row, m = min(n, d)); G_V (d × m); y (n) = z. U, V = the Q factors of the
// Householder QR of G_U, G_V, each column's sign flipped so that R's diagonal is positive (then Q
// is Haar-distributed, as the singular vectors of a Gaussian matrix are; Mezzadri 2007).
// s = linspace(1, 1/κ, m) computed as numpy does (s_i = i·step + 1, step = (1/κ − 1)/(m − 1),
// s_{m−1} = 1/κ). X_ij = Σ_k (U_ik s_k) V_jk, summed over k in order. Only IEEE +, −, ×, ÷, √
// (correctly rounded), products through a volatile store so that no compiler fuses them into an
// FMA, fixed loop orders and no library linear algebra: the doubles are the same on every
// IEEE-754 platform. Numbers are written as the shortest decimal that reads back as the computed
// double; the instance is that decimal (the rigorous tier encloses it exactly, the fast tier
// reads it back to the generator's double).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "instances/instance.hpp"

namespace softcert::instances {

struct RegressionSweep {
  std::vector<std::string> kappa;  // the labels as written in the file
  std::vector<Instance> members;
};

// Parses and validates a sweep (see above); std::invalid_argument naming the field otherwise.
RegressionSweep read_regression_sweep(const nlohmann::json& j);

// The sweep of `seed` (d × d W, n × d X, one member per κ of `kappas`), as JSON; `generator`
// names the generator in ids and provenance ("<generator>@<seed>/kappa=<κ>").
nlohmann::json generate_regression_sweep(std::uint64_t seed, std::size_t d, std::size_t n,
                                         const std::vector<double>& kappas, const std::string& generator);

}  // namespace softcert::instances
