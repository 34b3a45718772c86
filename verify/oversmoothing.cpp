// sukenik2026.oversmoothing and .general (docs/theorems/sukenik2026_oversmoothing.md).
//
// sukenik2026.oversmoothing: T unit tokens with
// pairwise cosine ρ, one step y = x + λ A_α x with A_α = (1 − α)I + (α/T)𝟙𝟙ᵀ, then RMS
// normalisation. The claim: dense attention (α) raises the tokens' cosine more than sparse
// attention (α = 0, A = I); "counteracts" claims the opposite.
//
// Recomputed here from its definition, not from softcert's closed form: the tokens' Gram matrix
// G = (1 − ρ)I + ρ𝟙𝟙ᵀ, the step's M = I + λA_α, the outputs' Gram matrix M G Mᵀ, all exact.
// Every output has the same norm and every pair the same inner product (checked, not assumed),
// so the cosine is G'_01 / G'_00; normalising each token by a positive factor leaves it unchanged.
//
// sukenik2026.oversmoothing.general: any tokens X and value–output map W; Y_α = X + A_α X W
// exactly in rationals, the mean pairwise cosine of its rows in Arb balls; the claim is the sign
// of S(Y_α) − S(Y_0) (negated for "counteracts") and the header's margin at most it.
#include <string>
#include <vector>

#include "exact_certificate.hpp"
#include "rational.hpp"
#include "step.hpp"

namespace verify {

namespace {

using QMat = std::vector<QVec>;

QMat product(const QMat& a, const QMat& b) {
  const std::size_t n = a.size();
  QMat c(n, QVec(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      if (a[i][k].sign() == 0) continue;
      for (std::size_t j = 0; j < n; ++j) c[i][j] = c[i][j] + a[i][k] * b[k][j];
    }
  return c;
}

// The pairwise cosine of the tokens after one step with mixing α; throws when the outputs are
// not all of one norm and one inner product, or vanish.
Q cosine_after_step(long T, const Q& rho, const Q& lambda, const Q& alpha) {
  const std::size_t n = static_cast<std::size_t>(T);
  const Q one(1), tq(T);
  QMat g(n, QVec(n)), m(n, QVec(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      g[i][j] = i == j ? one : rho;
      m[i][j] = lambda * (alpha / tq) + (i == j ? one + lambda * (one - alpha) : Q());
    }
  QMat mt = m;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) mt[i][j] = m[j][i];
  const QMat out = product(product(m, g), mt);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (!(out[i][j] == (i == j ? out[0][0] : out[0][1])))
        throw Rejection("the outputs are not exchangeable (G'_" + std::to_string(i) + std::to_string(j) + ")");
  if (out[0][0].sign() <= 0) throw Rejection("an output vanishes (G'_00 = 0)");
  return out[0][1] / out[0][0];
}

// Y = X + A_α X W (rows tokens), exactly.
QMat step_output(const QMat& X, const QMat& W, const Q& alpha) {
  const std::size_t T = X.size(), d = W.size();
  QVec mean(d);
  for (const auto& x : X)
    for (std::size_t k = 0; k < d; ++k) mean[k] = mean[k] + x[k] / Q(static_cast<slong>(T));
  QMat Y = X;
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t k = 0; k < d; ++k)
      for (std::size_t m = 0; m < d; ++m) Y[i][k] = Y[i][k] + ((Q(1) - alpha) * X[i][m] + alpha * mean[m]) * W[m][k];
  return Y;
}

// The mean pairwise cosine of the rows of Y, as a ball; throws when a row is zero.
Ball mean_cosine(const QMat& Y) {
  const std::size_t T = Y.size();
  std::vector<Ball> norm(T);
  for (std::size_t i = 0; i < T; ++i) {
    const Q sq = dot(Y[i], Y[i]);
    if (sq.sign() == 0) throw Rejection("output token " + std::to_string(i + 1) + " vanishes: its cosine is undefined");
    norm[i] = sq.ball();
    arb_sqrt(norm[i].get(), norm[i].get(), kPrec);
  }
  Ball sum;
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = i + 1; j < T; ++j) {
      Ball c = dot(Y[i], Y[j]).ball(), den = norm[i] * norm[j];
      arb_div(c.get(), c.get(), den.get(), kPrec);
      sum += c;
    }
  Ball pairs(static_cast<slong>(T * (T - 1) / 2));
  arb_div(sum.get(), sum.get(), pairs.get(), kPrec);
  return sum;
}

QMat rational_rows(const nlohmann::json& v, std::size_t rows, std::size_t cols, const char* field) {
  if (!v.is_array() || v.size() != rows) throw Rejection(std::string("header: instance.") + field + " has the wrong number of rows");
  QMat out;
  for (const auto& row : v) out.push_back(parse_rational_vector(row, cols));
  return out;
}

}  // namespace

FileVerdict check_oversmoothing_general(const nlohmann::json& head, bool counteracts) {
  const nlohmann::json& inst = head.at("instance");
  const long T = small_integer(inst.at("T"), "T"), d = small_integer(inst.at("d"), "d");
  if (T < 2 || T > 64 || d > 16) throw Rejection("header: instance.T or instance.d out of range");
  const QMat X = rational_rows(inst.at("X"), static_cast<std::size_t>(T), static_cast<std::size_t>(d), "X");
  const QMat W = rational_rows(inst.at("W"), static_cast<std::size_t>(d), static_cast<std::size_t>(d), "W");
  const Q alpha = parse_rational(inst.at("alpha"));
  if (alpha.sign() <= 0 || (alpha - Q(1)).sign() > 0) throw Rejection("header: instance.alpha is not in (0, 1]");
  const Ball dense = mean_cosine(step_output(X, W, alpha)), sparse = mean_cosine(step_output(X, W, Q()));
  const Ball gain = counteracts ? sparse - dense : dense - sparse;
  if (!gain.positive())
    throw Rejection(std::string("the claim: ") + (counteracts ? "S(Y_0) − S(Y_α)" : "S(Y_α) − S(Y_0)") + " = " + gain.text(12) +
                    " is not certainly > 0");
  const Ball margin = positive_margin(head);
  if (!(gain - margin).nonnegative())
    throw Rejection("the margin's lower end " + margin.text(17) + " is above the recomputed gain " + gain.text(17));
  return {true, std::string(counteracts ? "dense attention smooths less than sparse" : "dense attention smooths more than sparse") +
                    ": mean-cosine gain " + gain.text(12) + " (exact Gram matrices, Arb cosines); margin >= " + margin.text(12) + " backed"};
}

FileVerdict check_oversmoothing(const nlohmann::json& head, bool counteracts) {
  const nlohmann::json& inst = head.at("instance");
  const long T = small_integer(inst.at("T"), "T");
  if (T < 2 || T > 64) throw Rejection("header: instance.T is not in [2, 64]");
  const Q rho = parse_rational(inst.at("rho")), alpha = parse_rational(inst.at("alpha")),
          lambda = parse_rational(inst.at("lambda"));
  // Unit tokens with pairwise cosine ρ exist for −1/(T−1) ≤ ρ ≤ 1; ρ < 1 keeps them distinct.
  if (!((Q(1) - rho).sign() > 0 && (rho * Q(T - 1) + Q(1)).sign() > 0))
    throw Rejection("header: instance.rho is not in (−1/(T−1), 1)");
  if (alpha.sign() <= 0 || (alpha - Q(1)).sign() > 0) throw Rejection("header: instance.alpha is not in (0, 1]");
  const Q dense = cosine_after_step(T, rho, lambda, alpha), sparse = cosine_after_step(T, rho, lambda, Q());
  const Q gain = counteracts ? sparse - dense : dense - sparse;
  if (gain.sign() <= 0)
    throw Rejection(std::string("the claim: ") + (counteracts ? "ρ'(0) − ρ'(α)" : "ρ'(α) − ρ'(0)") + " = " +
                    gain.ball().text(12) + " is not > 0");
  const Ball margin = positive_margin(head);
  if (!(gain.ball() - margin).nonnegative())
    throw Rejection("the margin's lower end " + margin.text(17) + " is above the recomputed gain " + gain.ball().text(17));
  return {true, std::string(counteracts ? "dense attention smooths less than sparse" : "dense attention smooths more than sparse") +
                    ": gain " + gain.ball().text(12) + " (exact, from M G M^T); margin >= " + margin.text(12) + " backed"};
}

}  // namespace verify
