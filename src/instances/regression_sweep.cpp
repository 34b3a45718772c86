// The regression sweep's file format and generator (instances/regression_sweep.hpp).
#include "instances/regression_sweep.hpp"

#include <cmath>
#include <stdexcept>

#include "instances/generator.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/singular_values.hpp"

namespace softcert::instances {

namespace {

using Matrix = std::vector<std::vector<double>>;

// x·y rounded to double before any further use (no FMA contraction; see the header).
double product_without_fma(double x, double y) {
  volatile double p = x * y;
  return p;
}

// The r × m Q factor (r ≥ m) of the Householder QR of A (r × m), columns signed so that R has a
// positive diagonal. A zero column (probability 0) leaves its reflector the identity.
Matrix haar_q(Matrix A, std::size_t m) {
  const auto mul = product_without_fma;
  const std::size_t r = A.size();
  std::vector<std::vector<double>> v(m, std::vector<double>(r, 0.0));
  std::vector<double> v_norm2(m, 0.0), sign(m, 1.0);
  for (std::size_t k = 0; k < m; ++k) {
    double norm2 = 0;
    for (std::size_t i = k; i < r; ++i) norm2 += mul(A[i][k], A[i][k]);
    if (norm2 == 0) continue;
    const double norm = std::sqrt(norm2);
    const double alpha = A[k][k] >= 0 ? -norm : norm;  // R_kk; x_0 − α has no cancellation
    sign[k] = alpha > 0 ? 1.0 : -1.0;
    for (std::size_t i = k; i < r; ++i) v[k][i] = A[i][k];
    v[k][k] = A[k][k] - alpha;
    for (std::size_t i = k; i < r; ++i) v_norm2[k] += mul(v[k][i], v[k][i]);
    for (std::size_t j = k; j < m; ++j) {  // A ← (I − 2vvᵀ/‖v‖²) A on columns k..m−1
      double s = 0;
      for (std::size_t i = k; i < r; ++i) s += mul(v[k][i], A[i][j]);
      const double f = (s + s) / v_norm2[k];
      for (std::size_t i = k; i < r; ++i) A[i][j] -= mul(f, v[k][i]);
    }
  }
  Matrix Q(r, std::vector<double>(m, 0.0));
  for (std::size_t j = 0; j < m; ++j) Q[j][j] = 1.0;
  for (std::size_t kk = m; kk-- > 0;) {  // Q = H_0 H_1 … H_{m−1} E
    if (v_norm2[kk] == 0) continue;
    for (std::size_t j = 0; j < m; ++j) {
      double s = 0;
      for (std::size_t i = kk; i < r; ++i) s += mul(v[kk][i], Q[i][j]);
      const double f = (s + s) / v_norm2[kk];
      for (std::size_t i = kk; i < r; ++i) Q[i][j] -= mul(f, v[kk][i]);
    }
  }
  for (std::size_t j = 0; j < m; ++j)
    if (sign[j] < 0)
      for (std::size_t i = 0; i < r; ++i) Q[i][j] = -Q[i][j];
  return Q;
}

// numpy.linspace(1, 1/κ, m): step = (stop − start)/(m − 1), s_i = i·step + start, last = stop.
std::vector<double> linspace_singular_values(double kappa, std::size_t m) {
  const double stop = 1.0 / kappa;
  std::vector<double> s(m, 1.0);
  if (m == 1) return s;
  const double step = (stop - 1.0) / static_cast<double>(m - 1);
  for (std::size_t i = 0; i < m; ++i) s[i] = product_without_fma(static_cast<double>(i), step) + 1.0;
  s[m - 1] = stop;
  return s;
}

// cond(X) = σ_max/σ_min over its min(n, d) singular values, in double (a label guard only).
double condition_number(const DecimalMatrix& X) {
  const std::size_t rows = X.size(), cols = X.front().size();
  std::vector<double> m;
  for (const auto& row : X)
    for (const auto& x : row) m.push_back(num::parse_decimal<double>(x));
  const std::vector<double> s = num::singular_values(m, rows, cols);
  return s.front() / s.back();
}

bool same_decimal_values(const DecimalVector& x, const DecimalVector& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i] && num::parse_decimal<Rational>(x[i]) != num::parse_decimal<Rational>(y[i])) return false;
  return true;
}

}  // namespace

RegressionSweep read_regression_sweep(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("members") || !j["members"].is_array() || j["members"].size() < 2)
    throw std::invalid_argument("members: a sweep needs an array of at least 2 regression instances");
  if (!j.contains("kappa") || !j["kappa"].is_array() || j["kappa"].size() != j["members"].size())
    throw std::invalid_argument("kappa: expected one label per member");
  RegressionSweep s;
  std::vector<Rational> kappa;
  for (std::size_t i = 0; i < j["kappa"].size(); ++i) {
    const auto& k = j["kappa"][i];
    const std::string where = "kappa[" + std::to_string(i) + "]";
    if (!k.is_string() || !num::is_decimal_syntax(k.get<std::string>()))
      throw std::invalid_argument(where + ": labels are decimal strings");
    kappa.push_back(num::parse_decimal<Rational>(k.get<std::string>()));
    if (kappa.back() < 1) throw std::invalid_argument(where + ": a condition number is >= 1");
    if (i > 0 && !(kappa[i] > kappa[i - 1])) throw std::invalid_argument(where + ": kappa must increase strictly along the sweep");
    s.kappa.push_back(k.get<std::string>());
  }
  for (std::size_t i = 0; i < j["members"].size(); ++i) {
    const std::string where = "members[" + std::to_string(i) + "]";
    Instance m;
    try {
      m = parse_instance(j["members"][i]);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(where + "." + e.what());
    }
    if (m.tied() || m.loss != Loss::regression || m.normalization != Normalization::softmax)
      throw std::invalid_argument(where + ".loss: a member needs model \"value_softmax\", loss \"regression\" and softmax");
    if (i > 0) {
      const Instance& f = s.members[0];
      auto refuse = [&](const std::string& field) {
        throw std::invalid_argument(where + "." + field + ": must equal members[0]." + field +
                                    " (members share V(0), a(0) and y and differ only in X)");
      };
      if (m.T != f.T) refuse("T");
      if (m.d != f.d) refuse("d");
      if (m.n() != f.n()) refuse("X");  // the row count of X is n, shared through y
      for (std::size_t r = 0; r < m.d; ++r)
        if (!same_decimal_values(m.V[r], f.V[r])) refuse("V[" + std::to_string(r) + "]");
      if (!same_decimal_values(m.a, f.a)) refuse("a");
      if (!same_decimal_values(m.y, f.y)) refuse("y");
    }
    const double cond = condition_number(m.X), label = kappa[i].convert_to<double>();
    if (!(std::abs(cond - label) <= 1e-9 * label))
      throw std::invalid_argument("kappa[" + std::to_string(i) + "]: " + where + ".X has condition number " +
                                  num::decimal_nearest(cond, 12) + ", not " + s.kappa[i]);
    s.members.push_back(std::move(m));
  }
  return s;
}

nlohmann::json generate_regression_sweep(std::uint64_t seed, std::size_t d, std::size_t n,
                                         const std::vector<double>& kappas, const std::string& generator) {
  const auto mul = product_without_fma;
  const std::size_t m = std::min(n, d);
  NormalSource rng(seed);
  auto draw = [&](std::size_t rows, std::size_t cols, double scale) {
    Matrix M(rows, std::vector<double>(cols));
    for (auto& row : M)
      for (auto& x : row) x = mul(scale, rng.normal());
    return M;
  };
  const Matrix W = draw(d, d, 1e-5);
  const Matrix a = draw(1, d, 1e-3);
  const Matrix U = haar_q(draw(n, m, 1.0), m);
  const Matrix V = haar_q(draw(d, m, 1.0), m);
  const Matrix y = draw(1, n, 1.0);

  Instance base;
  base.loss = Loss::regression;
  base.normalization = Normalization::softmax;
  base.T = d;
  base.d = d;
  base.seed = seed;
  for (const auto& row : W) {
    base.V.emplace_back();
    for (double x : row) base.V.back().push_back(num::decimal_round_trip(x));
  }
  for (double x : a[0]) base.a.push_back(num::decimal_round_trip(x));
  for (double x : y[0]) base.y.push_back(num::decimal_round_trip(x));
  const std::string how =
      " generator, seed " + std::to_string(seed) +
      ": the authors' construction (notebook cell 10) with softcert's RNG: W = 1e-5*N(0,1) (d x d), a = 1e-3*N(0,1), "
      "X = U diag(linspace(1, 1/kappa, m)) V^T with U, V the sign-fixed Householder Q factors of Gaussian n x m and "
      "d x m matrices, y = N(0,1)^n; d = " + std::to_string(d) + ", n = " + std::to_string(n) +
      "; shortest round-trip decimals";

  nlohmann::json sweep;
  sweep["model"] = "value_softmax_sweep";
  sweep["provenance"] = generator + how;
  sweep["kappa"] = nlohmann::json::array();
  sweep["members"] = nlohmann::json::array();
  for (double kappa : kappas) {
    const std::vector<double> s = linspace_singular_values(kappa, m);
    Instance mem = base;
    mem.X.assign(n, std::vector<std::string>(d));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < d; ++j) {
        double x = 0;
        for (std::size_t k = 0; k < m; ++k) x += mul(mul(U[i][k], s[k]), V[j][k]);
        mem.X[i][j] = num::decimal_round_trip(x);
      }
    mem.id = generator + "@" + std::to_string(seed) + "/kappa=" + num::decimal_round_trip(kappa);
    mem.provenance = generator + how + ", kappa = " + num::decimal_round_trip(kappa);
    sweep["kappa"].push_back(num::decimal_round_trip(kappa));
    sweep["members"].push_back(to_json(mem));
  }
  return sweep;
}

}  // namespace softcert::instances
