#include "statistics/loglog_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "support/random_source.hpp"

namespace softcert::statistics {
namespace {
// Slope and intercept of the least-squares line through (log x_i, log y_i), i ∈ idx.
bool slope(const std::vector<double>& lx, const std::vector<double>& ly, const std::vector<std::size_t>& idx,
           double& k, double& c) {
  double mx = 0, my = 0;
  for (auto i : idx) { mx += lx[i]; my += ly[i]; }
  mx /= static_cast<double>(idx.size());
  my /= static_cast<double>(idx.size());
  double sxx = 0, sxy = 0;
  for (auto i : idx) { sxx += (lx[i] - mx) * (lx[i] - mx); sxy += (lx[i] - mx) * (ly[i] - my); }
  if (!(sxx > 1e-300)) return false;
  k = sxy / sxx;
  c = my - k * mx;
  return true;
}
}  // namespace

ExponentFit fit_exponent(const std::vector<double>& x, const std::vector<double>& y, std::uint64_t seed, int resamples,
                         double level) {
  if (x.size() != y.size() || x.size() < 2) throw std::invalid_argument("fit_exponent: need ≥ 2 points");
  std::vector<double> lx, ly;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!(x[i] > 0) || !(y[i] > 0)) throw std::invalid_argument("fit_exponent: data must be positive");
    lx.push_back(std::log(x[i]));
    ly.push_back(std::log(y[i]));
  }
  std::vector<std::size_t> all(x.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  ExponentFit f;
  f.level = level;
  if (!slope(lx, ly, all, f.exponent, f.log_constant)) throw std::invalid_argument("fit_exponent: x values all equal");
  support::RandomSource rng(seed, 0xb007);
  std::vector<double> ks;
  for (int b = 0; b < resamples; ++b) {
    std::vector<std::size_t> idx(x.size());
    for (auto& i : idx) i = static_cast<std::size_t>(rng.word() % x.size());
    double k, c;
    if (slope(lx, ly, idx, k, c)) ks.push_back(k);  // degenerate resamples (one x) are skipped
  }
  f.resamples = static_cast<int>(ks.size());
  if (ks.empty()) {
    f.ci_low = f.ci_high = f.exponent;
    return f;
  }
  std::sort(ks.begin(), ks.end());
  const double alpha = (1 - level) / 2;
  auto at = [&](double q) { return ks[std::min(ks.size() - 1, static_cast<std::size_t>(q * static_cast<double>(ks.size())))]; };
  f.ci_low = at(alpha);
  f.ci_high = at(1 - alpha);
  return f;
}

}  // namespace softcert::statistics
