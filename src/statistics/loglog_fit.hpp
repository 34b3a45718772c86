#pragma once
// Least-squares exponent of y ≈ C x^k on log-log axes, with a percentile bootstrap confidence
// interval (resampling (x, y) pairs; deterministic from the seed). Statistics, not a
// certificate: the inputs are certified costs, the fit describes them.
#include <cstdint>
#include <vector>

namespace softcert::statistics {

struct ExponentFit {
  double exponent = 0, log_constant = 0;
  double ci_low = 0, ci_high = 0;  // percentile interval at `level`
  int resamples = 0;
  double level = 0.95;
};

// Throws std::invalid_argument with fewer than two distinct x or non-positive data.
ExponentFit fit_exponent(const std::vector<double>& x, const std::vector<double>& y, std::uint64_t seed,
                         int resamples = 2000, double level = 0.95);

}  // namespace softcert::statistics
