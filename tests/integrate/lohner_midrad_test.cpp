// The midpoint–radius interval matrix product of the Lohner step (integrate/lohner_linalg.hpp,
// Rump 1999) must enclose every exact product of point matrices. Checked against exact sums of
// products (MPFR at 1024 bits: products of doubles need 106 bits, and the sums here span far
// fewer than 1024 − 106 bits of exponent), on matrices where every product rounds, for every
// sign pattern, thin and wide intervals and sizes that take Eigen's small (lazy) and blocked
// GEMM paths. The data are checked to be sensitive to the rounding direction: a round-to-nearest
// evaluation of the same products falls below the exact value on some entry and above it on
// another, so an upper bound computed in the wrong direction (or in the default mode) fails
// these tests (verified by flipping FE_UPWARD in lohner_linalg.cpp: see docs/performance.md).
#include <gtest/gtest.h>

#include <mpfr.h>

#include <cfenv>
#include <cmath>
#include <limits>
#include <vector>

#include "instances/generator.hpp"
#include "support/cpu_cap.hpp"
#include "integrate/lohner_linalg.hpp"
#include "numerics/kinds.hpp"

namespace {

using softcert::IntervalD;
namespace lohner = softcert::integrate::lohner;

struct Mp {
  mpfr_t v;
  Mp() { mpfr_init2(v, 1024); }
  ~Mp() { mpfr_clear(v); }
  Mp(const Mp&) = delete;
  Mp& operator=(const Mp&) = delete;
};

// Exact (Σ_k A_ik B_kj) for point matrices, compared with a double: sign of exact − x.
int compare_exact(const std::vector<double>& A, const std::vector<double>& B, std::size_t n, std::size_t i,
                  std::size_t j, double x) {
  Mp acc, t;
  mpfr_set_zero(acc.v, 1);
  for (std::size_t k = 0; k < n; ++k) {
    mpfr_set_d(t.v, A[i * n + k], MPFR_RNDN);
    mpfr_mul_d(t.v, t.v, B[k * n + j], MPFR_RNDN);  // exact
    mpfr_add(acc.v, acc.v, t.v, MPFR_RNDN);         // exact at 1024 bits
  }
  return mpfr_cmp_d(acc.v, x);
}

// Entries with mixed signs, exponents over ±2^12 and 53 significant bits, so products round.
double entry(softcert::instances::NormalSource& g) {
  const double e = std::floor(g.normal() * 4);
  return std::ldexp(g.normal() * (1 + 1e-9 * g.normal()), static_cast<int>(std::fmax(-12, std::fmin(12, e))));
}

std::vector<double> point_matrix(softcert::instances::NormalSource& g, std::size_t n) {
  std::vector<double> M(n * n);
  for (auto& v : M) v = entry(g);
  return M;
}

std::vector<IntervalD> thin(const std::vector<double>& M) {
  std::vector<IntervalD> out;
  for (double v : M) out.emplace_back(v, v);
  return out;
}

TEST(MidradMatMul, GemmUpBoundsEveryExactEntryFromAbove) {
  softcert::instances::NormalSource g(5);
  for (std::size_t n : {3, 5, 17, 64, 101}) {
    const auto A = point_matrix(g, n), B = point_matrix(g, n);
    std::vector<double> C(n * n), nearest(n * n, 0.0);
    lohner::detail::gemm_up(A.data(), B.data(), C.data(), n, n, n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k)
        for (std::size_t j = 0; j < n; ++j) nearest[i * n + j] += A[i * n + k] * B[k * n + j];  // default mode
    int below = 0, above = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        ASSERT_LE(compare_exact(A, B, n, i, j, C[i * n + j]), 0) << "n=" << n << " entry " << i << "," << j;
        const int c = compare_exact(A, B, n, i, j, nearest[i * n + j]);
        below += c > 0;
        above += c < 0;
      }
    // The data are sensitive to the rounding direction (round-to-nearest misses both ways).
    EXPECT_GT(below, 0) << n;
    EXPECT_GT(above, 0) << n;
  }
}

TEST(MidradMatMul, ThinTimesThinEnclosesTheExactProduct) {
  softcert::instances::NormalSource g(11);
  for (std::size_t n : {2, 7, 24, 90}) {
    const auto A = point_matrix(g, n), B = point_matrix(g, n);
    std::vector<IntervalD> C;
    lohner::midrad_mat_mul(thin(A), thin(B), C, n);
    std::vector<IntervalD> ref;
    lohner::fast_mat_mul(thin(A), thin(B), ref, n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const IntervalD& c = C[i * n + j];
        ASSERT_GE(compare_exact(A, B, n, i, j, c.lower()), 0) << n << " " << i << "," << j;  // lower ≤ exact
        ASSERT_LE(compare_exact(A, B, n, i, j, c.upper()), 0) << n << " " << i << "," << j;  // upper ≥ exact
        ASSERT_LT(c.lower(), c.upper());  // every entry here rounds: a thin result would be wrong somewhere
        // As tight as the inf–sup product, up to the order of summation (a few ulps of the sum
        // of magnitudes).
        double mag = 0;
        for (std::size_t k = 0; k < n; ++k) mag += std::fabs(A[i * n + k] * B[k * n + j]);
        EXPECT_LE(c.upper() - c.lower(), (ref[i * n + j].upper() - ref[i * n + j].lower()) + 8 * n * 1.2e-16 * mag);
      }
  }
}

// Wide operands: every product of point matrices drawn from the intervals (vertices and interior
// points, every sign pattern, intervals containing 0) lies in the result; with a thin right
// factor the result is the inf–sup one up to rounding, and with two wide factors its radius is
// at most 1.5× the inf–sup radius (Rump's bound) plus rounding.
TEST(MidradMatMul, WideIntervalsEncloseEveryPointProduct) {
  softcert::instances::NormalSource g(23);
  for (std::size_t n : {4, 19, 48}) {
    for (int shape = 0; shape < 3; ++shape) {  // 0: wide × thin, 1: thin × wide, 2: wide × wide
      std::vector<IntervalD> A(n * n), B(n * n);
      auto make = [&](bool wide) {
        const double m = entry(g);
        if (!wide) return IntervalD(m, m);
        const int kind = static_cast<int>(std::fabs(g.normal()) * 3) % 3;
        const double r = kind == 0 ? std::fabs(m) * 1e-10 : kind == 1 ? std::fabs(m) * 0.3 : std::fabs(m) * 2;  // kind 2 contains 0
        return IntervalD(m - r, m + r);
      };
      for (auto& v : A) v = make(shape != 1);
      for (auto& v : B) v = make(shape != 0);
      std::vector<IntervalD> C, ref;
      lohner::midrad_mat_mul(A, B, C, n);
      lohner::fast_mat_mul(A, B, ref, n);
      for (int sample = 0; sample < 6; ++sample) {
        std::vector<double> a(n * n), b(n * n);
        auto pick = [&](const IntervalD& x) {
          const double u = g.normal();
          if (sample < 2) return u < 0 ? x.lower() : x.upper();  // vertices
          const double t = 0.5 + 0.5 * std::tanh(u);
          return std::fmin(x.upper(), std::fmax(x.lower(), x.lower() + t * (x.upper() - x.lower())));
        };
        for (std::size_t m = 0; m < n * n; ++m) {
          a[m] = pick(A[m]);
          b[m] = pick(B[m]);
        }
        for (std::size_t i = 0; i < n; ++i)
          for (std::size_t j = 0; j < n; ++j) {
            ASSERT_GE(compare_exact(a, b, n, i, j, C[i * n + j].lower()), 0) << n << " shape " << shape;
            ASSERT_LE(compare_exact(a, b, n, i, j, C[i * n + j].upper()), 0) << n << " shape " << shape;
          }
      }
      for (std::size_t m = 0; m < n * n; ++m) {
        const double w = C[m].upper() - C[m].lower(), wr = ref[m].upper() - ref[m].lower();
        double mag = 0;
        for (std::size_t k = 0; k < n; ++k)
          mag += std::fmax(std::fabs(A[(m / n) * n + k].lower()), std::fabs(A[(m / n) * n + k].upper())) *
                 std::fmax(std::fabs(B[k * n + m % n].lower()), std::fabs(B[k * n + m % n].upper()));
        const double slack = 8 * n * 1.2e-16 * mag;
        if (shape == 2) EXPECT_LE(w, 1.5 * wr + slack) << n;
        else EXPECT_LE(w, wr + slack) << n << " shape " << shape;
      }
    }
  }
}

TEST(MidradMatMul, NonFiniteEndPointsFallBackToTheInfSupProduct) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<IntervalD> A = {IntervalD(0.0, inf), IntervalD(1.0), IntervalD(2.0), IntervalD(-1.0, 1.0)};
  const std::vector<IntervalD> B = {IntervalD(1.0, 2.0), IntervalD(0.5), IntervalD(3.0), IntervalD(1.0)};
  std::vector<IntervalD> C, ref;
  lohner::midrad_mat_mul(A, B, C, 2);
  lohner::fast_mat_mul(A, B, ref, 2);
  for (std::size_t m = 0; m < 4; ++m) {
    EXPECT_EQ(C[m].lower(), ref[m].lower());
    EXPECT_EQ(C[m].upper(), ref[m].upper());
  }
}

TEST(MidradMatMul, LeavesTheRoundingModeAsItFoundIt) {
  softcert::instances::NormalSource g(3);
  const std::size_t n = 30;
  const auto A = thin(point_matrix(g, n)), B = thin(point_matrix(g, n));
  std::vector<IntervalD> C;
  lohner::midrad_mat_mul(A, B, C, n);
  EXPECT_EQ(std::fegetround(), FE_TONEAREST);
}

// At n ≥ 192 midrad_mat_mul runs its GEMMs as two jobs (the radius products in halves of rows)
// on a second thread when a core is free: every sampled point product still lies in the result,
// and the bits are those of a run under a cap of one core (everything on this thread).
TEST(MidradMatMul, TwoThreadJobsEncloseAndMatchOneThread) {
  softcert::instances::NormalSource g(29);
  const std::size_t n = 200;
  for (int shape = 0; shape < 2; ++shape) {  // 0: wide × thin (J·B), 1: wide × wide
    std::vector<IntervalD> A(n * n), B(n * n);
    for (auto& v : A) {
      const double m = entry(g);
      v = IntervalD(m - std::fabs(m) * 1e-3, m + std::fabs(m) * 1e-3);
    }
    for (auto& v : B) {
      const double m = entry(g), r = shape ? std::fabs(m) * 1e-3 : 0.0;
      v = IntervalD(m - r, m + r);
    }
    std::vector<IntervalD> C, C1;
    lohner::midrad_mat_mul(A, B, C, n);
    {
      const softcert::support::CpuCap cap(1);
      const auto slot = softcert::support::CpuSlot::worker();
      lohner::midrad_mat_mul(A, B, C1, n);
    }
    for (std::size_t m = 0; m < n * n; ++m) {
      ASSERT_EQ(C1[m].lower(), C[m].lower());
      ASSERT_EQ(C1[m].upper(), C[m].upper());
    }
    std::vector<double> a(n * n), b(n * n);
    for (std::size_t m = 0; m < n * n; ++m) {
      a[m] = g.normal() < 0 ? A[m].lower() : A[m].upper();
      b[m] = g.normal() < 0 ? B[m].lower() : B[m].upper();
    }
    for (std::size_t e = 0; e < n * n; e += 11) {
      ASSERT_GE(compare_exact(a, b, n, e / n, e % n, C[e].lower()), 0) << shape << " entry " << e;
      ASSERT_LE(compare_exact(a, b, n, e / n, e % n, C[e].upper()), 0) << shape << " entry " << e;
    }
  }
}

// midrad_mat_mul_near (the product by Q⁻¹ ∈ Qᵀ + [−δ, δ]): every product Ã·B̃ with Ã within δ
// of M and B̃ ∈ B lies in the result — sampled at the vertices M ± δ, where dropping the δ term
// (Ar ≡ δ) would miss — and the result is as tight as midrad_mat_mul on the same enclosure. The
// largest size (≥ 192) takes the path that runs half of the GEMMs on a second thread, whose
// rounding mode must be set there: the same bits as one thread (checked by a run under a cap of
// one core, which keeps it on this thread).
TEST(MidradMatMulNear, EnclosesEveryProductWithinDeltaOfTheMidpoint) {
  softcert::instances::NormalSource g(31);
  for (std::size_t n : {5, 48, 200}) {
    const auto M = point_matrix(g, n);
    std::vector<IntervalD> B(n * n);
    for (auto& v : B) {
      const double m = entry(g);
      v = IntervalD(m - std::fabs(m) * 1e-6, m + std::fabs(m) * 1e-6);
    }
    double mmax = 0;
    for (double v : M) mmax = std::fmax(mmax, std::fabs(v));
    const double delta = 1e-4 * mmax;
    std::vector<IntervalD> C, ref, Menc(n * n);
    lohner::midrad_mat_mul_near(M, delta, B, C, n);
    for (std::size_t m = 0; m < n * n; ++m) Menc[m] = IntervalD(M[m]) + IntervalD(-delta, delta);  // outward
    lohner::midrad_mat_mul(Menc, B, ref, n);
    const std::size_t stride = n > 64 ? 13 : 1;  // exact sums at n = 200: a sample of entries
    for (int sample = 0; sample < 3; ++sample) {
      std::vector<double> a(n * n), b(n * n);
      for (std::size_t m = 0; m < n * n; ++m) {
        const double u = g.normal(), w = g.normal();
        a[m] = u < 0 ? Menc[m].lower() : Menc[m].upper();  // a vertex within δ of M
        b[m] = w < 0 ? B[m].lower() : B[m].upper();
      }
      for (std::size_t e = 0; e < n * n; e += stride) {
        const std::size_t i = e / n, j = e % n;
        ASSERT_GE(compare_exact(a, b, n, i, j, C[e].lower()), 0) << n << " " << i << "," << j;
        ASSERT_LE(compare_exact(a, b, n, i, j, C[e].upper()), 0) << n << " " << i << "," << j;
      }
    }
    for (std::size_t m = 0; m < n * n; ++m) {
      const double w = C[m].upper() - C[m].lower(), wr = ref[m].upper() - ref[m].lower();
      EXPECT_LE(w, wr * (1 + 1e-9)) << n;
      EXPECT_GE(w, wr * (1 - 1e-9)) << n;
    }
    // one core: the same bits (the second thread is not used)
    std::vector<IntervalD> C1;
    {
      const softcert::support::CpuCap cap(1);
      const auto slot = softcert::support::CpuSlot::worker();
      lohner::midrad_mat_mul_near(M, delta, B, C1, n);
    }
    for (std::size_t m = 0; m < n * n; ++m) {
      ASSERT_EQ(C1[m].lower(), C[m].lower());
      ASSERT_EQ(C1[m].upper(), C[m].upper());
    }
  }
}

// Exact ‖I − QᵀQ‖∞ (MPFR), compared with orthogonality_defect's bound.
double exact_defect_ratio(const std::vector<double>& Q, std::size_t n, double eta) {
  Mp best, row, acc, t;
  mpfr_set_zero(best.v, 1);
  for (std::size_t i = 0; i < n; ++i) {
    mpfr_set_zero(row.v, 1);
    for (std::size_t j = 0; j < n; ++j) {
      mpfr_set_si(acc.v, i == j ? -1 : 0, MPFR_RNDN);
      for (std::size_t k = 0; k < n; ++k) {
        mpfr_set_d(t.v, Q[k * n + i], MPFR_RNDN);
        mpfr_mul_d(t.v, t.v, Q[k * n + j], MPFR_RNDN);
        mpfr_add(acc.v, acc.v, t.v, MPFR_RNDN);
      }
      mpfr_abs(acc.v, acc.v, MPFR_RNDN);
      mpfr_add(row.v, row.v, acc.v, MPFR_RNDN);
    }
    if (mpfr_cmp(row.v, best.v) > 0) mpfr_set(best.v, row.v, MPFR_RNDN);
  }
  EXPECT_LE(mpfr_cmp_d(best.v, eta), 0) << "the bound is below the exact defect";
  return eta / mpfr_get_d(best.v, MPFR_RNDU);
}

// orthogonality_defect: an upper bound on the exact ‖I − QᵀQ‖∞ (MPFR), within a few times of
// it, for a Householder Q (defect ~ n·1e-16, where round-to-nearest evaluations of QᵀQ cancel to
// exact zeros) and for the same Q perturbed (defect ~1e-9, with entries of both signs off the
// diagonal: the upper triangle is read from the lower one's bounds).
TEST(OrthogonalityDefect, BoundsTheExactDefectFromAbove) {
  softcert::instances::NormalSource g(41);
  for (std::size_t n : {6, 40, 200}) {
    const auto A = thin(point_matrix(g, n));
    std::vector<IntervalD> r(n, IntervalD(-1.0, 1.0));
    const auto Qi = lohner::orthogonal_from(A, r, n, true);
    std::vector<double> Q(n * n);
    for (std::size_t m = 0; m < n * n; ++m) Q[m] = Qi[m].lower();
    for (int perturbed = 0; perturbed < 2; ++perturbed) {
      if (perturbed)
        for (auto& v : Q) v += 1e-11 * g.normal();
      const double eta = lohner::orthogonality_defect(Q, n);
      const double ratio = exact_defect_ratio(Q, n, eta);
      EXPECT_GE(ratio, 1.0) << n << " perturbed " << perturbed;
      EXPECT_LE(ratio, perturbed ? 1.01 : 64.0) << n << " perturbed " << perturbed;
    }
  }
  std::vector<double> bad{1.0, std::numeric_limits<double>::quiet_NaN(), 0.0, 1.0};
  EXPECT_TRUE(std::isinf(lohner::orthogonality_defect(bad, 2)));
  EXPECT_THROW(lohner::orthogonality_defect(bad, 3), std::invalid_argument);
}

// The enclosure of Q⁻¹ (Qᵀ + [−δ, δ]) by the half-work defect equals, up to rounding, the one from
// the full interval product QᵀQ (the path of other kinds), and both contain Q⁻¹: Q·(Qᵀ + [−δ, δ])
// contains I (checked in interval arithmetic).
TEST(OrthogonalityDefect, NearInverseContainsTheInverse) {
  softcert::instances::NormalSource g(43);
  const std::size_t n = 30;
  const auto A = thin(point_matrix(g, n));
  std::vector<IntervalD> r(n, IntervalD(-1.0, 1.0));
  auto Q = lohner::orthogonal_from(A, r, n, true);
  for (auto& v : Q) {
    const double x = v.lower() + 1e-12 * g.normal();
    v = IntervalD(x, x);
  }
  const auto fast = lohner::near_inverse_of_orthogonal(Q, n, true);
  const auto slow = lohner::near_inverse_of_orthogonal(Q, n, false);
  EXPECT_GT(fast.delta, 0.0);
  EXPECT_LE(fast.delta, slow.delta * 1.001);
  EXPECT_GE(fast.delta, slow.delta * 0.5);
  std::vector<IntervalD> QX;
  lohner::fast_mat_mul(Q, fast.enclosure(), QX, n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const double want = i == j ? 1.0 : 0.0;
      EXPECT_LE(QX[i * n + j].lower(), want);
      EXPECT_GE(QX[i * n + j].upper(), want);
    }
}

}  // namespace
