// Bench (not a test): the certificate of λ_max(m) (numerics/cholesky_lambda_bound.hpp) at the ball
// step's sizes, its factorisation taken three ways in one run, side by side:
//   row_by_row   the unblocked Cholesky–Banachiewicz form (blocking {n, n}), one thread
//   blocked_1    the certificate's blocking (cholesky_blocking(n)), one thread
//   blocked_2    the same, its halves on two threads (the same bits as blocked_1, checked here)
// For each: wall seconds (median of REPS), and the bound λ + e(L) it certifies. The matrix is a
// random symmetric one with entries of size 1/√n and λ a tenth above its Gershgorin bound: what
// the factorisation costs does not depend on the values once it runs to completion.
// Usage: cholesky_certificate N [REPS]   (docs/performance.md, "The certificate of μ by an a priori Cholesky bound")
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <thread>
#include <vector>

#include "numerics/cholesky_lambda_bound.hpp"

using namespace softcert;

namespace {

double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

template <class F>
double median_seconds(int reps, F&& f) {
  std::vector<double> s(static_cast<std::size_t>(reps));
  for (double& v : s) {
    const double t0 = wall_now();
    f();
    v = wall_now() - t0;
  }
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: cholesky_certificate N [REPS]\n");
    return 2;
  }
  const std::size_t n = static_cast<std::size_t>(std::atol(argv[1]));
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  if (n < 2) {
    std::fprintf(stderr, "cholesky_certificate: N must be at least 2\n");
    return 2;
  }
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double s = 1.0 / std::sqrt(static_cast<double>(n));
  std::vector<double> m(n * n);
  double gersh = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) m[i * n + j] = m[j * n + i] = s * u(gen);
  for (std::size_t i = 0; i < n; ++i) {
    double r = 0;
    for (std::size_t j = 0; j < n; ++j) r += std::fabs(m[i * n + j]);
    gersh = std::max(gersh, r);
  }
  const double lambda = 1.1 * gersh;
  const num::PairRunner two = [](const std::function<void()>& a, const std::function<void()>& b) {
    std::thread t(b);
    a();
    t.join();
  };
  const num::detail::CholeskyBlocking blocked = num::detail::cholesky_blocking(n), one_block{n, n};
  std::vector<double> L1(n * n), L2(n * n), L0(n * n);
  auto bound = [&](const std::vector<double>& L) {
    return lambda + num::detail::cholesky_error_term(n, num::detail::frobenius_sq_upper(L.data(), n));
  };
  bool ok0 = false, ok1 = false, ok2 = false;
  const double t0 = median_seconds(reps, [&] { ok0 = num::detail::shifted_cholesky(m.data(), n, lambda, L0.data(), {}, one_block); });
  const double t1 = median_seconds(reps, [&] { ok1 = num::detail::shifted_cholesky(m.data(), n, lambda, L1.data(), {}, blocked); });
  const double t2 = median_seconds(reps, [&] { ok2 = num::detail::shifted_cholesky(m.data(), n, lambda, L2.data(), two, blocked); });
  bool same = ok1 && ok2;
  for (std::size_t i = 0; same && i < n; ++i) same = std::memcmp(&L1[i * n], &L2[i * n], (i + 1) * sizeof(double)) == 0;
  std::printf("n %zu  blocking {%zu, %zu}  lambda %.17g\n", n, blocked.outer, blocked.inner, lambda);
  std::printf("%-12s %10s %8s  %s\n", "form", "wall s", "ratio", "certified bound of lambda_max");
  std::printf("%-12s %10.3f %8.2f  %s %.17g\n", "row_by_row", t0, 1.0, ok0 ? "" : "(broke down)", ok0 ? bound(L0) : 0.0);
  std::printf("%-12s %10.3f %8.2f  %s %.17g\n", "blocked_1", t1, t0 / t1, ok1 ? "" : "(broke down)", ok1 ? bound(L1) : 0.0);
  std::printf("%-12s %10.3f %8.2f  %s %.17g\n", "blocked_2", t2, t0 / t2, ok2 ? "" : "(broke down)", ok2 ? bound(L2) : 0.0);
  std::printf("blocked_2 has blocked_1's bits: %s\n", same ? "yes" : "NO");
  return ok0 && ok1 && ok2 && same ? 0 : 1;
}
