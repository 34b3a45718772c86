#include "certify/oversmoothing.hpp"

#include "certify/interval_bridge.hpp"
#include "numerics/elementary.hpp"
#include "numerics/precision.hpp"

namespace softcert::certify {

std::optional<Rational> cosine_formula(const OversmoothingParams& p, const Rational& alpha) {
  const Rational a = 1 + p.lambda * (1 - alpha), b = p.lambda * alpha;
  const Rational m = (1 + Rational(p.T - 1) * p.rho) / Rational(p.T);
  const Rational num = a * a * p.rho + (2 * a * b + b * b) * m, den = a * a + (2 * a * b + b * b) * m;
  if (den == 0) return std::nullopt;
  return num / den;
}

namespace {
template <class S>
std::vector<std::vector<S>> attention_step(const OversmoothingParams& p, const S& lambda, const S& alpha) {
  // B = I + λ((1−α)I + (α/T)𝟙𝟙ᵀ)
  const std::size_t n = static_cast<std::size_t>(p.T);
  std::vector<std::vector<S>> b(n, std::vector<S>(n));
  const S off = lambda * alpha / S(p.T);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) b[i][j] = off + (i == j ? S(1) + lambda * (S(1) - alpha) : S(0));
  return b;
}
}  // namespace

std::optional<ExactSimulation> simulate_exact(const OversmoothingParams& p) {
  const std::size_t n = static_cast<std::size_t>(p.T);
  RMat g(n, RVec(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) g[i][j] = i == j ? Rational(1) : p.rho;
  const auto b = attention_step<Rational>(p, p.lambda, p.alpha);
  RMat bg(n, RVec(n, Rational(0))), gp(n, RVec(n, Rational(0)));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) bg[i][j] += b[i][k] * g[k][j];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j) gp[i][j] += bg[i][k] * b[j][k];
  ExactSimulation s;
  for (std::size_t i = 0; i < n; ++i) {
    if (gp[i][i] == 0) return std::nullopt;
    for (std::size_t j = i + 1; j < n; ++j) {
      s.cos_sq.push_back(gp[i][j] * gp[i][j] / (gp[i][i] * gp[j][j]));
      s.sign.push_back(gp[i][j] > 0 ? 1 : (gp[i][j] < 0 ? -1 : 0));
    }
  }
  return s;
}

std::optional<std::vector<IntervalMp>> simulate_interval(const OversmoothingParams& p, unsigned bits) {
  num::PrecisionGuard guard(bits);
  const std::size_t n = static_cast<std::size_t>(p.T);
  const IntervalMp rho = enclose(p.rho);
  // X = L, G = L Lᵀ: row i of L is token x_i in R^n (‖x_i‖ = 1, x_i·x_j = ρ up to enclosure).
  std::vector<std::vector<IntervalMp>> l(n, std::vector<IntervalMp>(n, IntervalMp(0)));
  for (std::size_t j = 0; j < n; ++j) {
    IntervalMp d = IntervalMp(1);
    for (std::size_t k = 0; k < j; ++k) d -= num::sqr(l[j][k]);
    if (!num::certainly_positive(d)) return std::nullopt;
    l[j][j] = num::sqrt(d);
    for (std::size_t i = j + 1; i < n; ++i) {
      IntervalMp v = rho;
      for (std::size_t k = 0; k < j; ++k) v -= l[i][k] * l[j][k];
      l[i][j] = v / l[j][j];
    }
  }
  const auto b = attention_step<IntervalMp>(p, enclose(p.lambda), enclose(p.alpha));
  std::vector<std::vector<IntervalMp>> y(n, std::vector<IntervalMp>(n, IntervalMp(0)));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t c = 0; c < n; ++c) y[i][c] += b[i][k] * l[k][c];
  // RMS normalisation y_i ← y_i / sqrt(mean_c y_ic²): cosine-neutral, done as the model does.
  std::vector<IntervalMp> norm(n);
  for (std::size_t i = 0; i < n; ++i) {
    IntervalMp ms(0);
    for (std::size_t c = 0; c < n; ++c) ms += num::sqr(y[i][c]);
    ms /= IntervalMp(static_cast<long>(n));
    if (!num::certainly_positive(ms)) return std::nullopt;
    const IntervalMp rms = num::sqrt(ms);
    IntervalMp nn(0);
    for (std::size_t c = 0; c < n; ++c) {
      y[i][c] /= rms;
      nn += num::sqr(y[i][c]);
    }
    norm[i] = num::sqrt(nn);
  }
  std::vector<IntervalMp> cos;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) {
      IntervalMp dotv(0);
      for (std::size_t c = 0; c < n; ++c) dotv += y[i][c] * y[j][c];
      cos.push_back(dotv / (norm[i] * norm[j]));
    }
  return cos;
}

Rational smoothing_sign_value(const OversmoothingParams& p) { return p.lambda * (2 + p.lambda * (2 - p.alpha)); }

}  // namespace softcert::certify
