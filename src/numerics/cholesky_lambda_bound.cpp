#include "numerics/cholesky_lambda_bound.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "numerics/round_upward.hpp"

namespace softcert::num {

namespace {

constexpr double kEps = 0x1p-52;     // bounds |δ| in fl(x ∘ y) = (x ∘ y)(1 + δ) in every rounding mode
constexpr double kEta = 0x1p-1074;   // bounds the absolute error of a product or quotient that underflows

// The factor's buffer, reused from call to call on each thread (a fresh n × n buffer faults in
// its pages on every call). Only storage: every entry read in a call was written in that call.
// Aligned as Eigen's own matrices are: a vectorised dot product peels its first unaligned
// elements, so its summation order (not its error bound) depends on the address modulo the
// packet size; aligned storage makes the bits the same on every thread.
using FactorStorage = std::vector<double, Eigen::aligned_allocator<double>>;
FactorStorage& factor_scratch() {
  thread_local FactorStorage L;
  return L;
}

using ConstVec = Eigen::Map<const Eigen::VectorXd>;

}  // namespace

namespace detail {

// (γ_{n+3} + (n + 1)η)·frobenius_sq + 5n²η with every operation rounded upward; see the header
// and docs/method.md §2b for why this covers ‖ΔH‖₂.
double cholesky_error_term(std::size_t n, double frobenius_sq) {
  const double inf = std::numeric_limits<double>::infinity();
  if (!(frobenius_sq >= 0 && frobenius_sq < inf)) return inf;  // NaN fails both comparisons
  if (n > (std::size_t{1} << 40)) return inf;                   // (k·ε < 1 needs n < 2⁵²; far beyond memory)
  const double term = upward([&] {
    const double nn = static_cast<double>(n);     // exact (n < 2⁵³)
    const double k_eps = (nn + 3) * kEps;         // exact: an integer < 2⁵³ times a power of two
    const double one_minus = -(k_eps - 1.0);      // ≤ 1 − kε (kε − 1 rounded up, negated exactly)
    const double gamma = k_eps / one_minus;       // ≥ γ_{n+3}
    const double coefficient = gamma + (nn + 1) * kEta;
    return coefficient * frobenius_sq + 5.0 * nn * nn * kEta;
  });
  return std::isfinite(term) ? term : inf;
}

// m_ii − λ rounded up is ≥ the exact difference; negation is exact in every mode (so it may
// run outside the scope).
double shifted_diagonal(double m_ii, double lambda) {
  return -upward([&] { return m_ii - lambda; });
}

CholeskyBlocking cholesky_blocking(std::size_t n) {
  // Below ~10³ the factorisation takes milliseconds and one block keeps the plain row-by-row
  // form; above, the trailing updates run as GEMMs (Eigen's kernels, packed and vectorised).
  constexpr std::size_t kBlockedFrom = 1024;
  if (n < kBlockedFrom) return {n, n};
  return {256, 32};
}

namespace {

using RowMajorMap = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;
using ConstRowMajorMap =
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;

Eigen::Index idx(std::size_t v) { return static_cast<Eigen::Index>(v); }

// The products' factors: the columns [p0, p1) of L's rows [from, n), copied row-major into a
// contiguous buffer (stride p1 − p0). A GEMM then packs its operands from consecutive memory
// instead of one row of L (n doubles apart, a page each at n ~ 10⁴) per row; the values, and so
// the GEMMs' bits, are the same.
struct Factors {
  std::vector<double> P;
  std::size_t from = 0, width = 0;
  void take(const double* L, std::size_t n, std::size_t from_row, std::size_t p0, std::size_t p1) {
    from = from_row;
    width = p1 - p0;
    P.resize((n - from_row) * width);
    for (std::size_t i = from_row; i < n; ++i) std::copy(L + i * n + p0, L + i * n + p1, P.data() + (i - from_row) * width);
  }
  ConstRowMajorMap rows(std::size_t r0, std::size_t r1) const {
    return ConstRowMajorMap(P.data() + (r0 - from) * width, idx(r1 - r0), idx(width), Eigen::OuterStride<>(idx(width)));
  }
};

// L[i, j] −= Σ_p F[i, p]·F[j, p] for the rows i ∈ [r0, r1) and the columns j ∈ [q0, q1) with
// j ≤ i, F the factors' columns (left of q0 in L: the products read only columns not written).
// The columns left of r0 in place by one GEMM; those in [r0, r1) (the rows' own diagonal block)
// through a small product of their own, of which only j ≤ i is subtracted. Each entry thus loses
// one computed sum of its products: one more subtraction in its tree (docs/method.md §2b).
void subtract_products(double* L, std::size_t n, std::size_t r0, std::size_t r1, std::size_t q0, std::size_t q1,
                       const Factors& F) {
  const ConstRowMajorMap rows = F.rows(r0, r1);
  const std::size_t rect_end = std::min(q1, r0);
  if (rect_end > q0)
    RowMajorMap(L + r0 * n + q0, idx(r1 - r0), idx(rect_end - q0), Eigen::OuterStride<>(idx(n))).noalias() -=
        rows * F.rows(q0, rect_end).transpose();
  const std::size_t tri0 = std::max(q0, r0), tri1 = std::min(q1, r1);
  if (tri1 > tri0) {
    const Eigen::MatrixXd sums = rows * F.rows(tri0, tri1).transpose();
    for (std::size_t i = r0; i < r1; ++i)
      for (std::size_t j = tri0; j < std::min(tri1, i + 1); ++j) L[i * n + j] -= sums(idx(i - r0), idx(j - tri0));
  }
}

// Row i's entries in the columns [c0, j_end): L_ij = (L_ij − Σ_{c0≤k<j} L_ik L_jk) / L_jj, where
// L_ij holds H_ij less the products of the columns left of c0. One dot product and one division
// each; no reciprocal.
void solve_row(double* L, std::size_t n, std::size_t i, std::size_t c0, std::size_t j_end) {
  double* Li = L + i * n;
  for (std::size_t j = c0; j < j_end; ++j) {
    const double* Lj = L + j * n;
    const double t = ConstVec(Li + c0, idx(j - c0)).dot(ConstVec(Lj + c0, idx(j - c0)));
    Li[j] = (Li[j] - t) / Lj[j];
  }
}

// The jobs 0 … count − 1 in two fixed halves (even and odd indices), the second through `both`
// when given. A job's numbers depend only on its index, never on the thread that runs it; each
// half runs in the caller's rounding mode.
void run_jobs(std::size_t count, const PairRunner& both, const std::function<void(std::size_t)>& job) {
  if (count == 0) return;
  if (!both || count == 1) {
    for (std::size_t k = 0; k < count; ++k) job(k);
    return;
  }
  const int mode = std::fegetround();
  both([&] { for (std::size_t k = 0; k < count; k += 2) job(k); },
       [&] {
         std::fesetround(mode);
         for (std::size_t k = 1; k < count; k += 2) job(k);
       });
}

}  // namespace

// The factorisation, right-looking in blocks of columns, in whatever rounding mode the caller
// runs (the error bound holds in each). For each block of `outer` columns [k0, k1), in panels of
// `inner` columns [c0, c1):
//   rows i ∈ [c0, c1), in order:  L_ij = (L_ij − Σ_{c0≤k<j} L_ik L_jk) / L_jj for j ∈ [c0, i);
//                                 s = L_ii − Σ_{c0≤k<i} L_ik²;  stop unless s > 0;  L_ii = fl(√s)
//   rows i ≥ c1 (independent):    the same for j ∈ [c0, c1)
//   the panel's later columns:    L_ij −= Σ_{c0≤k<c1} L_ik L_jk for i ≥ c1, j ∈ [c1, k1), j ≤ i
// and then the trailing matrix: L_ij −= Σ_{k0≤k<k1} L_ik L_jk for i, j ≥ k1, j ≤ i, by row blocks.
// L starts as H's lower triangle. So each L_ij is H_ij less a sum of its products L_ik L_jk,
// k < j, evaluated as one tree of roundings (dot products, GEMM partial sums, subtractions),
// then one division or square root: docs/method.md §2b derives |LLᵀ − H| ≤ γ_{n+3}|L||Lᵀ| +
// (underflow) for every such tree. With one block ({n, n}) this is the row-by-row
// Cholesky–Banachiewicz form, operation for operation.
bool shifted_cholesky(const double* m, std::size_t n, double lambda, double* L, const PairRunner& both,
                      CholeskyBlocking blocking) {
  if (blocking.outer == 0) blocking = cholesky_blocking(n);
  const std::size_t outer = std::max<std::size_t>(1, std::min(blocking.outer, n));
  const std::size_t inner = std::max<std::size_t>(1, std::min(blocking.inner, outer));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j) L[i * n + j] = -m[i * n + j];  // H_ij = −m_ij exactly
    L[i * n + i] = shifted_diagonal(m[i * n + i], lambda);             // kept until the pivot overwrites it
  }
  // The buffer is reused from call to call on each thread; the jobs read the caller's through
  // this reference (a thread_local named inside a job would be the job thread's own).
  thread_local Factors factors;
  Factors& F = factors;
  for (std::size_t k0 = 0; k0 < n; k0 += outer) {
    const std::size_t k1 = std::min(n, k0 + outer);
    for (std::size_t c0 = k0; c0 < k1; c0 += inner) {
      const std::size_t c1 = std::min(k1, c0 + inner);
      for (std::size_t i = c0; i < c1; ++i) {
        solve_row(L, n, i, c0, i);
        double* Li = L + i * n;
        const double t = ConstVec(Li + c0, idx(i - c0)).dot(ConstVec(Li + c0, idx(i - c0)));
        const double s = Li[i] - t;
        if (!(s > 0)) return false;  // breakdown, or NaN (a non-finite entry always reaches its row's pivot)
        Li[i] = std::sqrt(s);
      }
      const std::size_t below = n - c1, half = (below + 1) / 2;
      run_jobs(below > 0 ? 2 : 0, both, [&](std::size_t h) {
        const std::size_t from = c1 + (h == 0 ? 0 : half), to = h == 0 ? c1 + half : n;
        for (std::size_t i = from; i < to; ++i) solve_row(L, n, i, c0, c1);
      });
      if (c1 < k1) {
        F.take(L, n, c1, c0, c1);
        run_jobs((n - c1 + outer - 1) / outer, both, [&](std::size_t b) {
          const std::size_t r0 = c1 + b * outer;
          subtract_products(L, n, r0, std::min(n, r0 + outer), c1, k1, F);
        });
      }
    }
    if (k1 == n) break;
    F.take(L, n, k1, k0, k1);
    run_jobs((n - k1 + outer - 1) / outer, both, [&](std::size_t b) {
      const std::size_t r0 = k1 + b * outer, r1 = std::min(n, r0 + outer);
      subtract_products(L, n, r0, r1, k1, r1, F);
    });
  }
  return true;
}

// Every term is ≥ 0, so each rounded-up product and partial sum is ≥ the exact one.
double frobenius_sq_upper(const double* L, std::size_t n) {
  return upward([&] {
    double f = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const ConstVec row(L + i * n, static_cast<Eigen::Index>(i + 1));
      f += row.dot(row);
    }
    return f;
  });
}

}  // namespace detail

double lambda_max_bound_by_cholesky(const std::vector<double>& m, std::size_t n, double lambda, const PairRunner& both) {
  const double inf = std::numeric_limits<double>::infinity();
  if (n == 0 || m.size() != n * n || !std::isfinite(lambda)) return inf;
  FactorStorage& L = factor_scratch();
  L.resize(n * n);
  if (!detail::shifted_cholesky(m.data(), n, lambda, L.data(), both)) return inf;
  const double term = detail::cholesky_error_term(n, detail::frobenius_sq_upper(L.data(), n));  // +inf unless finite
  if (!std::isfinite(term)) return inf;
  const double bound = upward([&] { return lambda + term; });
  return std::isfinite(bound) ? bound : inf;
}

}  // namespace softcert::num
