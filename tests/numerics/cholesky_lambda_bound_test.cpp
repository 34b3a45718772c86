// The a priori Cholesky certificate of λ_max (numerics/cholesky_lambda_bound.hpp) and the
// log-norm bound built on it (numerics/log_norm_bound.hpp), against references in MPFR:
//  - each of the three rounded parts keeps its direction against exact values (the diagonal of
//    H rounded down, ‖L‖_F² and the error term rounded up, λ + term rounded up), on data where
//    round-to-nearest errs the other way (asserted);
//  - the floating-point factor's actual error LLᵀ − H lies within the a priori bound, entrywise
//    and in exact arithmetic (the inequality docs/method.md §2b derives), row by row and blocked
//    (uneven blockings in every rounding mode, and n = 1100 with the certificate's own blocking);
//  - the blocked factor's halves on two threads, in either order, give one thread's bits;
//  - matrices that are NOT positive definite (rank-deficient Gram matrices rounded to doubles,
//    indefinite at 2200 bits) whose floating-point factorisation nevertheless completes: the
//    bound must stay above λ_max, which it does only through the error term (λ itself is
//    below λ_max there) — also when called in each directed rounding mode;
//  - μ of interval matrices against λ_max of members at ≥ 256 bits: random, nearly singular,
//    huge and tiny scales, subnormal entries, n = 1, 2, 420.
//  - the other two rounded parts of μ (LogNormBoundParts): [M]'s midpoint, radius and
//    Gershgorin's bound, and the Perron bound of ρ(R), against exact values.
// Mutations checked: the error term dropped (bound = λ) fails
// IndefiniteMatricesWhoseFactorisationCompletes; each `upward` scope replaced by plain
// evaluation fails the matching test (the four of cholesky_lambda_bound.cpp, and those of
// symmetric_part_bounds and perron_root_upper_bound, which no test caught before).
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "numerics/cholesky_lambda_bound.hpp"
#include "numerics/kinds.hpp"
#include "numerics/log_norm_bound.hpp"

namespace softcert {
namespace {

// A full 53-bit significand in [0.5, 1) times 2^e, random sign: products and sums round.
double chol_random_double(std::mt19937_64& gen, int e_lo, int e_hi) {
  const double significand = static_cast<double>(gen() >> 11) * 0x1p-53 + 0.5;
  const int e = e_lo + static_cast<int>(gen() % static_cast<std::uint64_t>(e_hi - e_lo + 1));
  return std::ldexp((gen() & 1) ? -significand : significand, e);
}

// An n × n matrix of MPFR numbers (row-major), freed on scope exit.
struct CholMpMatrix {
  std::size_t n;
  std::vector<mpfr_t> a;
  CholMpMatrix(std::size_t n_, mpfr_prec_t bits) : n(n_), a(n_ * n_) {
    for (auto& x : a) mpfr_init2(x, bits);
  }
  ~CholMpMatrix() {
    for (auto& x : a) mpfr_clear(x);
  }
  CholMpMatrix(const CholMpMatrix&) = delete;
  CholMpMatrix& operator=(const CholMpMatrix&) = delete;
  mpfr_ptr operator()(std::size_t i, std::size_t j) { return a[i * n + j]; }
};

// Whether s ≥ λ_max(sym A), sym(A) = (A + Aᵀ)/2 for the row-major doubles A: whether
// s'·I − sym(A) is positive definite for s' = s + |s|·2⁻¹⁰⁰⁰ + 2⁻¹¹⁰⁰ (the slack turns a
// semidefinite matrix — s exactly λ_max — into a definite one; it is far below any rounding
// error of a double computation), decided by a Cholesky factorisation at `bits` bits (true iff
// every pivot is > 0). At 2200 bits the entries are exact for exponents within ±1000; at 256 bits
// the factorisation's relative error (~n·2⁻²⁵⁶) is far below every margin these tests look at.
bool chol_shift_is_positive_definite(const std::vector<double>& A, std::size_t n, double s, mpfr_prec_t bits) {
  CholMpMatrix c(n, bits);
  mpfr_t t, u;
  mpfr_inits2(bits, t, u, static_cast<mpfr_ptr>(nullptr));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      mpfr_set_d(t, A[i * n + j], MPFR_RNDN);
      mpfr_add_d(t, t, A[j * n + i], MPFR_RNDN);
      mpfr_div_2ui(t, t, 1, MPFR_RNDN);
      if (i == j) {
        mpfr_set_d(u, std::fabs(s), MPFR_RNDN);
        mpfr_mul_2si(u, u, -1000, MPFR_RNDN);
        mpfr_add_d(u, u, s, MPFR_RNDN);
        mpfr_set_ui_2exp(c(i, j), 1, -1100, MPFR_RNDN);
        mpfr_add(u, u, c(i, j), MPFR_RNDN);
        mpfr_sub(c(i, j), u, t, MPFR_RNDN);
      } else {
        mpfr_neg(c(i, j), t, MPFR_RNDN);
      }
    }
  bool pd = true;
  for (std::size_t j = 0; j < n && pd; ++j) {
    for (std::size_t k = 0; k < j; ++k) {  // c_jj −= c_jk²
      mpfr_sqr(t, c(j, k), MPFR_RNDN);
      mpfr_sub(c(j, j), c(j, j), t, MPFR_RNDN);
    }
    if (mpfr_sgn(c(j, j)) <= 0) {
      pd = false;
      break;
    }
    mpfr_sqrt(c(j, j), c(j, j), MPFR_RNDN);
    for (std::size_t i = j + 1; i < n; ++i) {
      for (std::size_t k = 0; k < j; ++k) {
        mpfr_mul(t, c(i, k), c(j, k), MPFR_RNDN);
        mpfr_sub(c(i, j), c(i, j), t, MPFR_RNDN);
      }
      mpfr_div(c(i, j), c(i, j), c(j, j), MPFR_RNDN);
    }
  }
  mpfr_clears(t, u, static_cast<mpfr_ptr>(nullptr));
  return pd;
}

// Symmetric m (both triangles) from its lower triangle.
void chol_mirror(std::vector<double>& m, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) m[j * n + i] = m[i * n + j];
}

// G = fl(B Bᵀ) for B n × r with random full-significand entries (rank ≤ r in exact arithmetic;
// the rounded double matrix is a perturbation of that of size ~ε‖G‖).
std::vector<double> chol_rounded_gram(std::mt19937_64& gen, std::size_t n, std::size_t r) {
  std::vector<double> B(n * r), G(n * n);
  for (double& v : B) v = chol_random_double(gen, -1, 1);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < r; ++k) s += B[i * r + k] * B[j * r + k];
      G[i * n + j] = s;
    }
  chol_mirror(G, n);
  return G;
}

// |(LLᵀ)_ij − H_ij| ≤ γ_{n+3}·Σ_{k≤j}|L_ik L_jk| + 4nη + 2ηL_jj exactly (MPFR at 2400 bits), the
// inequality of docs/method.md §2b before it is summed into a norm, at the given entries (j ≤ i)
// of a factor L of H (H_ij = −m_ij, H_ii = shifted_diagonal(m_ii, λ)).
void chol_expect_within_a_priori_bound(const std::vector<double>& m, std::size_t n, double lambda, const std::vector<double>& L,
                                       const std::vector<std::pair<std::size_t, std::size_t>>& entries, const char* what) {
  const double eps = 0x1p-52, eta = 0x1p-1074;
  mpfr_t exact, t, bound;
  mpfr_inits2(2400, exact, t, bound, static_cast<mpfr_ptr>(nullptr));
  for (const auto& [i, j] : entries) {
    const double h = i == j ? num::detail::shifted_diagonal(m[i * n + i], lambda) : -m[i * n + j];
    mpfr_set_d(exact, -h, MPFR_RNDN);
    mpfr_set_zero(bound, 1);
    for (std::size_t k = 0; k <= j; ++k) {
      mpfr_set_d(t, L[i * n + k], MPFR_RNDN);
      mpfr_mul_d(t, t, L[j * n + k], MPFR_RNDN);
      mpfr_add(exact, exact, t, MPFR_RNDN);
      mpfr_abs(t, t, MPFR_RNDN);
      mpfr_add(bound, bound, t, MPFR_RNDN);
    }
    const double k3 = static_cast<double>(n + 3) * eps;
    mpfr_mul_d(bound, bound, k3 / (1 - k3), MPFR_RNDN);  // (γ_{n+3} to double precision: the slack is orders larger)
    mpfr_add_d(bound, bound, 4.0 * static_cast<double>(n) * eta + 2.0 * eta * L[j * n + j], MPFR_RNDN);
    mpfr_abs(exact, exact, MPFR_RNDN);
    ASSERT_LE(mpfr_cmp(exact, bound), 0) << what << ": n " << n << " entry " << i << "," << j;
  }
  mpfr_clears(exact, t, bound, static_cast<mpfr_ptr>(nullptr));
}

std::vector<std::pair<std::size_t, std::size_t>> chol_lower_entries(std::size_t n) {
  std::vector<std::pair<std::size_t, std::size_t>> e;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) e.emplace_back(i, j);
  return e;
}

// A symmetric n × n matrix with entries of [2⁻³, 1) in magnitude, and a shift λ ≥ its norm.
std::vector<double> chol_random_symmetric(std::mt19937_64& gen, std::size_t n) {
  std::vector<double> m(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) m[i * n + j] = chol_random_double(gen, -3, 0);
  chol_mirror(m, n);
  return m;
}

TEST(CholeskyLambdaBound, DiagonalIsRoundedDownAndTheFactorErrorIsWithinTheAPrioriBound) {
  // H_ii = −fl↑(m_ii − λ) must be ≤ λ − m_ii exactly; and the factor's error within the a
  // priori bound entrywise.
  std::mt19937_64 gen(2026);
  int nearest_above = 0;
  for (std::size_t n : {1u, 2u, 5u, 17u, 40u}) {
    for (int rep = 0; rep < 3; ++rep) {
      const std::vector<double> m = chol_random_symmetric(gen, n);
      const double lambda = static_cast<double>(n) + chol_random_double(gen, -2, -1) + 0.5;  // ≥ ‖m‖ (Gershgorin)
      std::vector<double> L(n * n, 0.0);
      ASSERT_TRUE(num::detail::shifted_cholesky(m.data(), n, lambda, L.data())) << n;
      mpfr_t h;
      mpfr_init2(h, 2400);
      for (std::size_t i = 0; i < n; ++i) {
        const double hii = num::detail::shifted_diagonal(m[i * n + i], lambda);
        mpfr_set_d(h, lambda, MPFR_RNDN);
        mpfr_sub_d(h, h, m[i * n + i], MPFR_RNDN);  // exact λ − m_ii
        ASSERT_GE(mpfr_cmp_d(h, hii), 0) << "diagonal of H above λ − m_ii at " << i;
        volatile double mii = m[i * n + i];
        const double nearest = lambda - mii;  // this test runs to nearest
        nearest_above += mpfr_cmp_d(h, nearest) < 0;
      }
      mpfr_clear(h);
      chol_expect_within_a_priori_bound(m, n, lambda, L, chol_lower_entries(n), "row by row");
    }
  }
  EXPECT_GT(nearest_above, 0) << "the data do not tell the diagonal's rounding direction apart";
}

// The blocked factorisation (GEMM trailing updates, panels solved by dot products) is within the
// same a priori bound: each entry is H_ij less one tree of its products, whatever the blocks.
// Blockings that cut the matrix in uneven pieces, in every rounding mode; a factor of n = 1100
// with the default blocking (the one the certificate uses from n = 1024), sampled.
TEST(CholeskyLambdaBound, BlockedFactorsAreWithinTheAPrioriBound) {
  std::mt19937_64 gen(41);
  for (std::size_t n : {23u, 64u, 97u}) {
    const std::vector<double> m = chol_random_symmetric(gen, n);
    const double lambda = static_cast<double>(n) + 0.5;
    for (const num::detail::CholeskyBlocking b : {num::detail::CholeskyBlocking{8, 3}, {16, 16}, {40, 7}, {1, 1}})
      for (const int mode : {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
        std::vector<double> L(n * n, 0.0);
        const int saved = std::fegetround();
        std::fesetround(mode);
        const bool ok = num::detail::shifted_cholesky(m.data(), n, lambda, L.data(), {}, b);  // an opaque call
        std::fesetround(saved);
        ASSERT_TRUE(ok) << n;
        chol_expect_within_a_priori_bound(m, n, lambda, L, chol_lower_entries(n), "blocked");
        if (HasFatalFailure()) return;
      }
  }
  const std::size_t n = 1100;
  ASSERT_GT(num::detail::cholesky_blocking(n).outer, 1u);
  ASSERT_LT(num::detail::cholesky_blocking(n).outer, n) << "n = 1100 no longer takes the blocked form";
  const std::vector<double> m = chol_random_symmetric(gen, n);
  std::vector<double> L(n * n, 0.0);
  ASSERT_TRUE(num::detail::shifted_cholesky(m.data(), n, static_cast<double>(n), L.data()));
  std::vector<std::pair<std::size_t, std::size_t>> entries{{0, 0}, {n - 1, n - 1}, {n - 1, 0}, {1099, 1024}, {700, 255}, {700, 256}};
  for (int k = 0; k < 300; ++k) {
    const std::size_t i = gen() % n;
    entries.emplace_back(i, gen() % (i + 1));
  }
  chol_expect_within_a_priori_bound(m, n, static_cast<double>(n), L, entries, "n = 1100");
}

// The halves of a blocked factorisation on two threads (in either order) give the bits of one
// thread: the jobs are fixed by n and the blocking, never by who runs them.
TEST(CholeskyLambdaBound, BlockedFactorOnTwoThreadsIsOneThreadsBits) {
  std::mt19937_64 gen(43);
  const std::size_t n = 301;
  const std::vector<double> m = chol_random_symmetric(gen, n);
  const num::detail::CholeskyBlocking b{64, 16};
  std::vector<double> one(n * n, 0.0), two(n * n, 0.0), reversed(n * n, 0.0);
  ASSERT_TRUE(num::detail::shifted_cholesky(m.data(), n, static_cast<double>(n), one.data(), {}, b));
  int second_thread_jobs = 0;
  const num::PairRunner threads = [&](const std::function<void()>& x, const std::function<void()>& y) {
    std::thread t([&] {
      y();
    });
    x();
    t.join();
    ++second_thread_jobs;
  };
  const num::PairRunner backwards = [](const std::function<void()>& x, const std::function<void()>& y) {
    y();
    x();
  };
  ASSERT_TRUE(num::detail::shifted_cholesky(m.data(), n, static_cast<double>(n), two.data(), threads, b));
  ASSERT_TRUE(num::detail::shifted_cholesky(m.data(), n, static_cast<double>(n), reversed.data(), backwards, b));
  EXPECT_GT(second_thread_jobs, 10);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      ASSERT_EQ(std::memcmp(&one[i * n + j], &two[i * n + j], sizeof(double)), 0) << i << "," << j;
      ASSERT_EQ(std::memcmp(&one[i * n + j], &reversed[i * n + j], sizeof(double)), 0) << i << "," << j;
    }
  // The strictly upper triangle is not written.
  std::vector<double> marked(n * n, 7.0);
  ASSERT_TRUE(num::detail::shifted_cholesky(m.data(), n, static_cast<double>(n), marked.data(), threads, b));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) ASSERT_EQ(marked[i * n + j], 7.0) << i << "," << j;
}

TEST(CholeskyLambdaBound, FrobeniusIsRoundedUpward) {
  // Σ_{j ≤ i} L_ij² ≤ frobenius_sq_upper(L) exactly (MPFR at 2400 bits: sums of squares of
  // doubles with exponents in ±40 are exact); a sum to nearest falls below in some cases.
  std::mt19937_64 gen(17);
  int nearest_below = 0;
  for (std::size_t n : {1u, 2u, 3u, 8u, 31u}) {
    for (int rep = 0; rep < 20; ++rep) {
      std::vector<double> L(n * n, 0.0);
      double nearest = 0;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) L[i * n + j] = chol_random_double(gen, -20, 20);
      mpfr_t exact, t;
      mpfr_inits2(2400, exact, t, static_cast<mpfr_ptr>(nullptr));
      mpfr_set_zero(exact, 1);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) {
          mpfr_set_d(t, L[i * n + j], MPFR_RNDN);
          mpfr_sqr(t, t, MPFR_RNDN);
          mpfr_add(exact, exact, t, MPFR_RNDN);
          nearest += L[i * n + j] * L[i * n + j];
        }
      const double f = num::detail::frobenius_sq_upper(L.data(), n);
      ASSERT_LE(mpfr_cmp_d(exact, f), 0) << "n " << n;
      nearest_below += mpfr_cmp_d(exact, nearest) > 0;
      mpfr_clears(exact, t, static_cast<mpfr_ptr>(nullptr));
    }
  }
  EXPECT_GT(nearest_below, 0) << "the data do not tell the rounding direction apart";
}

// (γ_{n+3} + (n + 1)η)·F + 5n²η, exact in MPFR (γ_{n+3} = kε/(1 − kε) is rational: the quotient
// is taken at 2400 bits rounding down, so the reference is ≤ the exact value), ≤ the term.
void chol_exact_term_lower(mpfr_t out, std::size_t n, double f) {
  mpfr_t g, t;
  mpfr_inits2(2400, g, t, static_cast<mpfr_ptr>(nullptr));
  const double nn = static_cast<double>(n);
  mpfr_set_d(g, nn + 3, MPFR_RNDN);
  mpfr_mul_2si(g, g, -52, MPFR_RNDN);  // kε, exact
  mpfr_ui_sub(t, 1, g, MPFR_RNDN);     // 1 − kε, exact at 2400 bits
  mpfr_div(g, g, t, MPFR_RNDD);        // γ rounded down
  mpfr_set_d(t, nn + 1, MPFR_RNDN);
  mpfr_mul_2si(t, t, -1074, MPFR_RNDN);
  mpfr_add(g, g, t, MPFR_RNDD);
  mpfr_mul_d(g, g, f, MPFR_RNDD);
  mpfr_set_d(t, 5 * nn * nn, MPFR_RNDN);
  mpfr_mul_2si(t, t, -1074, MPFR_RNDN);
  mpfr_add(out, g, t, MPFR_RNDD);
  mpfr_clears(g, t, static_cast<mpfr_ptr>(nullptr));
}

TEST(CholeskyLambdaBound, ErrorTermIsRoundedUpward) {
  std::mt19937_64 gen(29);
  const double eps = 0x1p-52;
  int nearest_below = 0;
  mpfr_t exact;
  mpfr_init2(exact, 2400);
  for (std::size_t n : {1u, 2u, 3u, 7u, 100u, 420u, 12345u, 1u << 20}) {
    for (int rep = 0; rep < 40; ++rep) {
      const double f = std::fabs(chol_random_double(gen, rep < 5 ? -1074 : -60, rep < 5 ? -1000 : 60));
      const double term = num::detail::cholesky_error_term(n, f);
      chol_exact_term_lower(exact, n, f);
      ASSERT_LE(mpfr_cmp_d(exact, term), 0) << "n " << n << " F " << f;
      const double k = static_cast<double>(n + 3) * eps;
      const double nearest = (k / (1 - k) + static_cast<double>(n + 1) * 0x1p-1074) * f + 5.0 * static_cast<double>(n) * static_cast<double>(n) * 0x1p-1074;
      nearest_below += mpfr_cmp_d(exact, nearest) > 0;
    }
  }
  mpfr_clear(exact);
  EXPECT_GT(nearest_below, 0) << "the data do not tell the rounding direction apart";
  // not finite in → +inf out; F = 0 still leaves the underflow term
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(num::detail::cholesky_error_term(5, inf), inf);
  EXPECT_EQ(num::detail::cholesky_error_term(5, std::numeric_limits<double>::quiet_NaN()), inf);
  EXPECT_EQ(num::detail::cholesky_error_term(5, 1e308 * 10), inf);
  EXPECT_GT(num::detail::cholesky_error_term(5, 0.0), 0.0);
}

// The public bound is λ + term rounded upward, with the term of the factor it computed.
TEST(CholeskyLambdaBound, BoundIsLambdaPlusTheTermRoundedUpward) {
  std::mt19937_64 gen(31);
  int nearest_below = 0;
  mpfr_t exact;
  mpfr_init2(exact, 2400);
  for (int rep = 0; rep < 40; ++rep) {
    const std::size_t n = 2 + static_cast<std::size_t>(rep % 7);
    std::vector<double> m(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j) m[i * n + j] = chol_random_double(gen, -8, -4);
    chol_mirror(m, n);
    const double lambda = 1.0 + chol_random_double(gen, -3, -2) + 0.25;  // > 1 > n/16 ≥ ‖m‖₂
    std::vector<double> L(n * n, 0.0);
    ASSERT_TRUE(num::detail::shifted_cholesky(m.data(), n, lambda, L.data()));
    const double term = num::detail::cholesky_error_term(n, num::detail::frobenius_sq_upper(L.data(), n));
    const double bound = num::lambda_max_bound_by_cholesky(m, n, lambda);
    mpfr_set_d(exact, lambda, MPFR_RNDN);
    mpfr_add_d(exact, exact, term, MPFR_RNDN);  // exact at 2400 bits
    ASSERT_LE(mpfr_cmp_d(exact, bound), 0) << rep;
    volatile double t = term;
    nearest_below += mpfr_cmp_d(exact, lambda + t) > 0;
  }
  mpfr_clear(exact);
  EXPECT_GT(nearest_below, 0) << "the data do not tell the rounding direction apart";
}

// Rank-deficient Gram matrices rounded to doubles: G = fl(BBᵀ), B n × (n − 1). About half are
// indefinite as double matrices (decided at 2200 bits), and for some of those the floating-point
// factorisation still completes. With m = −G and λ = 0 the certificate factors exactly G
// (H_ii = −fl↑(−G_ii − 0) = G_ii), so the true λ_max(m) = −λ_min(G) is > λ = 0: a bound without
// the error term would be λ itself, below λ_max. The bound must be ≥ λ_max (bound·I − m positive
// definite at 2200 bits).
TEST(CholeskyLambdaBound, IndefiniteMatricesWhoseFactorisationCompletes) {
  std::mt19937_64 gen(5);
  int cases = 0, directed_finite = 0;
  for (int rep = 0; rep < 400 && cases < 12; ++rep) {
    const std::size_t n = 2 + static_cast<std::size_t>(rep % 11), r = n - 1 - static_cast<std::size_t>(rep % 3 == 2 && n > 3);
    std::vector<double> G = chol_rounded_gram(gen, n, r), m(n * n);
    for (std::size_t k = 0; k < n * n; ++k) m[k] = -G[k];
    std::vector<double> L(n * n, 0.0);
    if (!num::detail::shifted_cholesky(m.data(), n, 0.0, L.data())) continue;
    if (chol_shift_is_positive_definite(m, n, 0.0, 2200)) continue;  // G ⪰ 0 (or numerically so): not the case wanted
    ++cases;
    const double bound = num::lambda_max_bound_by_cholesky(m, n, 0.0);
    ASSERT_TRUE(std::isfinite(bound)) << rep;
    EXPECT_GT(bound, 0.0) << rep;
    EXPECT_TRUE(chol_shift_is_positive_definite(m, n, bound, 2200)) << "bound below λ_max, n " << n << " rep " << rep;
    EXPECT_LT(bound, 1e-12 * static_cast<double>(n * n)) << "not vacuous";
    // The factorisation runs in the caller's rounding mode: the bound must hold in each (where a
    // directed mode makes the factorisation break down, the bound is +inf, which holds too).
    for (const int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
      const int saved = std::fegetround();
      std::fesetround(mode);
      const double b = num::lambda_max_bound_by_cholesky(m, n, 0.0);  // an opaque call: not moved across the mode switches
      std::fesetround(saved);
      EXPECT_FALSE(std::isnan(b));
      if (!std::isfinite(b)) continue;
      ++directed_finite;
      EXPECT_TRUE(chol_shift_is_positive_definite(m, n, b, 2200)) << "mode " << mode << " rep " << rep;
    }
  }
  EXPECT_GE(cases, 12) << "too few indefinite matrices whose floating-point factorisation completes";
  EXPECT_GT(directed_finite, 6) << "the directed modes' factorisations never completed";
}

// μ of an interval matrix against members at ≥ 256 bits: the bound must be ≥ λ_max(sym A) for
// the lower and upper end matrices, the midpoint and random vertices.
void chol_expect_mu_covers_members(const std::vector<double>& mid, const std::vector<double>& rad, std::size_t n, std::uint64_t seed,
                                   const char* what) {
  std::vector<IntervalD> a(n * n);
  for (std::size_t k = 0; k < n * n; ++k) a[k] = rad[k] == 0 ? IntervalD(mid[k]) : IntervalD(mid[k] - rad[k], mid[k] + rad[k]);
  const num::LogNormBound r = num::log_norm_upper_bound(a, n);
  ASSERT_FALSE(std::isnan(r.mu)) << what;
  ASSERT_TRUE(std::isfinite(r.mu)) << what;
  const mpfr_prec_t bits = n > 60 ? 256 : 2200;
  std::mt19937_64 gen(seed);
  const int members = n > 60 ? 2 : 6;
  for (int s = 0; s < members; ++s) {
    std::vector<double> member(n * n);
    for (std::size_t k = 0; k < n * n; ++k) {
      const double lo = a[k].lower(), hi = a[k].upper();
      member[k] = s == 0 ? lo : s == 1 ? hi : s == 2 ? mid[k] : ((gen() & 1) ? hi : lo);
    }
    EXPECT_TRUE(chol_shift_is_positive_definite(member, n, r.mu, bits)) << what << ": μ = " << r.mu << " below λ_max of member " << s;
  }
}

TEST(LogNormBoundAt256Bits, RandomAndAdversarialIntervalMatricesAreCovered) {
  std::mt19937_64 gen(420);
  // n = 1 and 2
  chol_expect_mu_covers_members({-0.5}, {2.5}, 1, 1, "n = 1");
  chol_expect_mu_covers_members({0.3, -1.7, 2.2, 0.1}, {1e-3, 0.0, 2e-3, 1e-9}, 2, 2, "n = 2");
  for (std::size_t n : {3u, 9u, 30u}) {
    for (const int e : {0, 900, -900, -1060}) {  // scales 1, 2⁹⁰⁰, 2⁻⁹⁰⁰, subnormal (2⁻¹⁰⁶⁰)
      std::vector<double> mid(n * n), rad(n * n);
      for (std::size_t k = 0; k < n * n; ++k) {
        mid[k] = std::ldexp(chol_random_double(gen, -2, 2), e);
        rad[k] = std::fabs(std::ldexp(chol_random_double(gen, -12, -10), e));
      }
      chol_expect_mu_covers_members(mid, rad, n, n + static_cast<std::uint64_t>(e + 2000), "random");
    }
    // nearly singular: mid = −fl(BBᵀ) with B n × (n − 1), λ_max(mid) ≈ 0 (thin, and with a radius)
    std::vector<double> G = chol_rounded_gram(gen, n, n - 1), mid(n * n), zero(n * n, 0.0), tiny(n * n, 1e-15);
    for (std::size_t k = 0; k < n * n; ++k) mid[k] = -G[k];
    chol_expect_mu_covers_members(mid, zero, n, n + 7, "nearly singular, thin");
    chol_expect_mu_covers_members(mid, tiny, n, n + 8, "nearly singular, radius 1e-15");
  }
}

// The ball step's size: n = 420, a Hessian-like midpoint (negative semidefinite of rank 60 plus
// three small positive directions, as the regression flow's Df near polarisation) and radii
// ~10⁻⁶ relative; the members at 256 bits.
TEST(LogNormBoundAt256Bits, BallStepSizeMatrixIsCovered) {
  const std::size_t n = 420, r = 60;
  std::mt19937_64 gen(4200);
  std::normal_distribution<double> z;
  std::vector<double> B(n * r), U(n * 3), mid(n * n), rad(n * n);
  for (double& v : B) v = 0.1 * z(gen);
  for (double& v : U) v = 0.05 * z(gen);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) {
      double s = 0, p = 0;
      for (std::size_t k = 0; k < r; ++k) s += B[i * r + k] * B[j * r + k];
      for (std::size_t k = 0; k < 3; ++k) p += U[i * 3 + k] * U[j * 3 + k] * 0.01 * static_cast<double>(k + 1);
      mid[i * n + j] = mid[j * n + i] = p - s;
      rad[i * n + j] = rad[j * n + i] = 1e-6 * std::fabs(mid[i * n + j]) + 1e-12;
    }
  chol_expect_mu_covers_members(mid, rad, n, 421, "n = 420");
}

// [M] = ([A] + [A]ᵀ)/2's midpoint and radius and Gershgorin's bound (the first part of μ,
// num::detail::symmetric_part_bounds) against exact values: m ± R ⊇ [M] entrywise and the bound
// ≥ the exact Gershgorin bound, on endpoints with full significands whose sums round (a
// round-to-nearest evaluation of the same formulas falls short somewhere: asserted). Fails
// with the function's `upward` scope removed (checked by mutation, 2026-12-03).
TEST(LogNormBoundParts, SymmetricPartEnclosesTheExactMidpointRadiusAndGershgorin) {
  std::mt19937_64 gen(77);
  int nearest_short = 0;
  mpfr_t lo, hi, t, u, row, g;
  mpfr_inits2(2400, lo, hi, t, u, row, g, static_cast<mpfr_ptr>(nullptr));
  for (std::size_t n : {1u, 2u, 7u, 13u, 40u}) {
    std::vector<IntervalD> a(n * n);
    for (auto& x : a) {
      const double c = chol_random_double(gen, -3, 3), w = std::fabs(chol_random_double(gen, -30, -5));
      const double l = c - w, h = c + w;  // any doubles with l ≤ h
      x = IntervalD(std::min(l, h), std::max(l, h));
    }
    std::vector<double> mid, rad;
    const double gersh = num::detail::symmetric_part_bounds(a, n, mid, rad);
    ASSERT_TRUE(std::isfinite(gersh));
    mpfr_set_inf(g, -1);
    for (std::size_t i = 0; i < n; ++i) {
      mpfr_set_zero(row, 1);
      for (std::size_t j = 0; j < n; ++j) {
        const IntervalD &x = a[i * n + j], &y = a[j * n + i];
        mpfr_set_d(lo, x.lower(), MPFR_RNDN);
        mpfr_add_d(lo, lo, y.lower(), MPFR_RNDN);
        mpfr_div_2ui(lo, lo, 1, MPFR_RNDN);  // exact inf [M]_ij
        mpfr_set_d(hi, x.upper(), MPFR_RNDN);
        mpfr_add_d(hi, hi, y.upper(), MPFR_RNDN);
        mpfr_div_2ui(hi, hi, 1, MPFR_RNDN);  // exact sup [M]_ij
        const double c = mid[i * n + j], r = rad[i * n + j];
        mpfr_set_d(t, c, MPFR_RNDN);
        mpfr_sub_d(t, t, r, MPFR_RNDN);  // exact m − R
        ASSERT_LE(mpfr_cmp(t, lo), 0) << "m − R above inf [M] at " << i << "," << j;
        mpfr_set_d(t, c, MPFR_RNDN);
        mpfr_add_d(t, t, r, MPFR_RNDN);  // exact m + R
        ASSERT_GE(mpfr_cmp(t, hi), 0) << "m + R below sup [M] at " << i << "," << j;
        // the same formulas to nearest (this test runs to nearest): does the radius fall short?
        volatile double xu = x.upper(), yu = y.upper(), xl = x.lower(), yl = y.lower();
        const double hn = (xu + yu) * 0.5, nln = (-xl + -yl) * 0.5, cn = 0.5 * hn - 0.5 * nln;
        const double rn = std::max(hn - cn, nln + cn);
        mpfr_set_d(u, cn, MPFR_RNDN);
        mpfr_add_d(u, u, rn, MPFR_RNDN);
        mpfr_set_d(t, cn, MPFR_RNDN);
        mpfr_sub_d(t, t, rn, MPFR_RNDN);
        nearest_short += mpfr_cmp(u, hi) < 0 || mpfr_cmp(t, lo) > 0;
        if (i == j) {
          mpfr_add(row, row, hi, MPFR_RNDN);
        } else {
          mpfr_abs(lo, lo, MPFR_RNDN);
          mpfr_abs(hi, hi, MPFR_RNDN);
          mpfr_max(t, lo, hi, MPFR_RNDN);
          mpfr_add(row, row, t, MPFR_RNDN);
        }
      }
      mpfr_max(g, g, row, MPFR_RNDN);
    }
    ASSERT_LE(mpfr_cmp_d(g, gersh), 0) << "Gershgorin's bound below the exact one, n " << n;
  }
  mpfr_clears(lo, hi, t, u, row, g, static_cast<mpfr_ptr>(nullptr));
  EXPECT_GT(nearest_short, 0) << "the data do not tell the rounding direction apart";
}

// ρ(R) ≤ the Collatz–Wielandt bound max_i (Rv)_i / v_i rounded upward
// (num::detail::perron_root_upper_bound). For R = [c] (n = 1) every v gives exactly c, so the
// bound's only slack is its rounding: (c·v)/v to nearest falls below c for some c (asserted),
// rounded upward never. Fails with the bound's `upward` scope removed (checked by mutation).
TEST(LogNormBoundParts, PerronBoundIsRoundedUpward) {
  std::mt19937_64 gen(99);
  int nearest_short = 0;
  const double v = 1.0 + 1e-3;  // the power iteration's vector for n = 1: w/top + 10⁻³ with w = top
  for (int rep = 0; rep < 20000; ++rep) {
    const double c = std::fabs(chol_random_double(gen, -8, 8));
    const double rho = num::detail::perron_root_upper_bound({c}, 1);
    ASSERT_GE(rho, c) << c;
    volatile double vv = v;
    nearest_short += (c * vv) / vv < c;
  }
  EXPECT_GT(nearest_short, 0) << "the data do not tell the rounding direction apart";
}

}  // namespace
}  // namespace softcert
