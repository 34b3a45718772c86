// Bench (not a test): where num::log_norm_upper_bound (numerics/log_norm_bound.hpp) spends its
// time on the ball step's matrices (docs/performance.md, "The certificate of μ by an a priori
// Cholesky bound").
// The matrix is the ball step's own: Df of the value-softmax field of INSTANCE over the box
// x(T0) ± W, x(T0) the fast tier's state at T0 (integrate_fast, no guarantee: a realistic matrix,
// not a validated one), by the same first-order tape pass as the ball step's pieces
// (integrate/validated_taylor.hpp, ball_piece). Prints the matrix's figures, then for each phase
// the median CPU milliseconds of REPS calls and what it returned:
//   total        log_norm_upper_bound as a whole
//   perron       detail::perron_root_upper_bound(R) (power iteration + Collatz–Wielandt)
//   lanczos      detail::lanczos_top_estimate(m)
//   eigen_llt    Eigen's LLT of λI − m alone (λ = the proposal + 2⁻³⁰·‖m‖_max·n, the first shift)
//   llt_residual detail::cholesky_residual_bound: Eigen's LLT + the LLᵀ verification
//                (two upward triangular GEMMs; the residual certificate, for comparison)
//   apriori      lambda_max_bound_by_cholesky (numerics/cholesky_lambda_bound.hpp: one plain
//                Cholesky + the a priori error term; the certificate the ball step uses)
// Usage: log_norm_phases INSTANCE T0 W [REPS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <limits>
#include <vector>

#include <Eigen/Dense>

#include "instances/instance.hpp"
#include "integrate/fast_integrate.hpp"
#include "models/value_softmax.hpp"
#include "numerics/cholesky_lambda_bound.hpp"
#include "numerics/kinds.hpp"
#include "numerics/log_norm_bound.hpp"
#include "taylor/tape.hpp"

using namespace softcert;

namespace {

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The median CPU milliseconds of REPS calls after one warm-up call (the machine is shared: the
// median is steadier than the mean).
template <class F>
double median_ms(int reps, F&& f) {
  f();
  std::vector<double> ms(static_cast<std::size_t>(reps));
  for (double& v : ms) {
    const double t0 = cpu_now();
    f();
    v = 1e3 * (cpu_now() - t0);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: log_norm_phases INSTANCE T0 W [REPS]\n");
    return 2;
  }
  instances::Instance inst = instances::load_instance(argv[1]);
  const double w = std::atof(argv[3]);
  const int reps = argc > 4 ? std::atoi(argv[4]) : 20;
  {
    integrate::FastOptions fo;
    fo.escalate = false;
    const integrate::FastReport fr = integrate::integrate_fast(inst, argv[2], fo);
    const integrate::FastDecimals d = integrate::decimals(fr.run);
    inst.V = d.V;
    inst.a = d.a;
  }
  const models::ValueSoftmax<IntervalD> model(inst, false);
  const std::size_t n = model.dimension();
  std::vector<IntervalD> box = model.initial_state();
  for (auto& v : box) v += IntervalD(-w, w);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  taylor::Tape<IntervalD> tape;
  tape.record(field, box, 1);
  tape.solve(true, 1);
  std::vector<IntervalD> df(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) df[i * n + j] = tape.derivative(i, 1, j);

  // the symmetric midpoint and radius, as log_norm_upper_bound forms them (to nearest here: figures only)
  std::vector<double> mid(n * n), rad(n * n);
  double scale = 0, rad_max = 0, trace = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const IntervalD &x = df[i * n + j], &y = df[j * n + i];
      const double lo = 0.5 * (x.lower() + y.lower()), hi = 0.5 * (x.upper() + y.upper());
      mid[i * n + j] = 0.5 * (lo + hi);
      rad[i * n + j] = 0.5 * (hi - lo);
      scale = std::max(scale, std::fabs(mid[i * n + j]));
      rad_max = std::max(rad_max, rad[i * n + j]);
    }
  for (std::size_t i = 0; i < n; ++i) trace += mid[i * n + i];
  Eigen::MatrixXd e = Eigen::Map<const Eigen::MatrixXd>(mid.data(), static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(n));
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(e, Eigen::EigenvaluesOnly).eigenvalues();
  const auto N = ev.size();
  std::printf("n %zu  max|m_ij| %.3e  max r_ij %.3e  tr(m) %.4e  eigenvalues of m: min %.4e, top %.6e %.6e %.6e (double eigensolver)\n", n,
              scale, rad_max, trace, ev(0), ev(N - 3), ev(N - 2), ev(N - 1));

  double mu = 0, rho = 0, proposal = 0, old_bound = 0, new_bound = 0;
  const double t_total = median_ms(reps, [&] { mu = num::log_norm_upper_bound(df, n).mu; });
  const double t_perron = median_ms(reps, [&] { rho = num::detail::perron_root_upper_bound(rad, n); });
  const double t_lanczos = median_ms(reps, [&] { proposal = num::detail::lanczos_top_estimate(mid, n); });
  const double lambda = proposal + 0x1p-30 * (scale + std::numeric_limits<double>::min()) * static_cast<double>(n);
  bool llt_ok = false;
  const double t_llt = median_ms(reps, [&] {
    Eigen::MatrixXd a = -e;
    a.diagonal().array() += lambda;
    llt_ok = Eigen::LLT<Eigen::MatrixXd>(a).info() == Eigen::Success;
  });
  const double t_old = median_ms(reps, [&] { old_bound = num::detail::cholesky_residual_bound(mid, n, lambda); });
  const double t_new = median_ms(reps, [&] { new_bound = num::lambda_max_bound_by_cholesky(mid, n, lambda); });
  std::printf("phase,ms,result\n");
  std::printf("total,%.3f,mu=%.17g\n", t_total, mu);
  std::printf("perron,%.3f,rho=%.6e\n", t_perron, rho);
  std::printf("lanczos,%.3f,proposal=%.17g (top eigenvalue + %.3e)\n", t_lanczos, proposal, proposal - ev(N - 1));
  std::printf("eigen_llt,%.3f,%s at lambda=%.17g (shift above the proposal %.3e)\n", t_llt, llt_ok ? "succeeds" : "fails", lambda,
              lambda - proposal);
  std::printf("llt_residual,%.3f,bound=%.17g (lambda + %.3e)\n", t_old, old_bound, old_bound - lambda);
  std::printf("apriori,%.3f,bound=%.17g (lambda + %.3e)\n", t_new, new_bound, new_bound - lambda);
  return 0;
}
