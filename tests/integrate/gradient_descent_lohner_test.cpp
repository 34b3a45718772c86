// Gradient-descent iterates under Lohner's wrapping control (integrate/gradient_descent_lohner.hpp)
// and the closed-form Jacobian it moves the doubleton with (models/logistic_reduced_jacobian.hpp):
//  1. the closed form over a box contains, at sample points of the box, the Jacobian computed
//     independently at 256 bits by the Taylor tape's first-order derivative pass in MPFI;
//  2. the iterates' boxes from a start box of width 2e-7 contain the images of sample points of
//     that box under exact-enough gradient descent (MpReal at 256 bits), so the doubleton's
//     propagation of its r part — where a wrong Jacobian shows — is checked, not only its centre;
//  3. the boxes stay far narrower than plain interval iteration's after a few thousand iterates
//     (the reason for the wrapping control).
// Mutations tried by hand, each caught (the first two by 1 and 2, the last by 2's point start): the γ' terms dropped from the Jacobian; ∂s_i/∂a_j
// with the sign of its off-diagonal part flipped; the Q⁻¹([Fc] − c') term dropped from r'.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "integrate/gradient_descent.hpp"
#include "integrate/gradient_descent_lohner.hpp"
#include "models/logistic_reduced.hpp"
#include "models/logistic_reduced_jacobian.hpp"
#include "numerics/precision.hpp"
#include "support/mp_containment.hpp"
#include "taylor/tape.hpp"

namespace softcert {
namespace {

struct ReducedPoint {  // (a, u) and c, in doubles (exact inputs for every kind)
  std::vector<double> a, u;
  double c = 1;
};

ReducedPoint random_reduced_point(std::mt19937_64& rng, std::size_t T, double a_scale) {
  std::normal_distribution<double> g(0, 1);
  std::uniform_real_distribution<double> cd(0.5, 3);
  ReducedPoint p;
  for (std::size_t i = 0; i < T; ++i) p.a.push_back(a_scale * g(rng)), p.u.push_back(g(rng));
  p.c = cd(rng);
  return p;
}

template <class S>
models::LogisticReduced<S> reduced_model_around(const ReducedPoint& p, double radius) {
  std::vector<S> a, u;
  for (double v : p.a) a.push_back(num::hull_of_bounds<S>(v - radius, v + radius));
  for (double v : p.u) u.push_back(num::hull_of_bounds<S>(v - radius, v + radius));
  return models::LogisticReduced<S>(a, u, S(p.c));
}

// The field's Jacobian at the point y by the tape's derivative pass in MPFI at 256 bits.
std::vector<IntervalMp> tape_reduced_jacobian(const ReducedPoint& p, const std::vector<double>& y) {
  num::PrecisionGuard guard(256);
  const auto model = reduced_model_around<IntervalMp>(p, 0);
  auto field = [&model](const auto& x, auto& dx) { model.rhs(x, dx); };
  std::vector<IntervalMp> x(y.begin(), y.end());
  taylor::Tape<IntervalMp> tape;
  tape.record(field, x, 1);
  tape.solve(true, 1);
  const std::size_t n = y.size();
  std::vector<IntervalMp> J(n * n);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) J[r * n + c] = tape.derivative(r, 1, c);
  return J;
}

TEST(LogisticReducedJacobian, EnclosesTheTapeDerivativeAtPointsOfTheBox) {
  std::mt19937_64 rng(20261205);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::size_t checked = 0;
  for (std::size_t T : {2, 3, 5, 8})
    for (double a_scale : {0.5, 4.0})
      for (double radius : {0.0, 1e-9, 1e-3}) {
        const ReducedPoint p = random_reduced_point(rng, T, a_scale);
        const auto model = reduced_model_around<IntervalD>(p, 0);
        const std::size_t n = 2 * T;
        std::vector<double> centre(p.a);
        centre.insert(centre.end(), p.u.begin(), p.u.end());
        std::vector<IntervalD> box;
        for (double v : centre) box.emplace_back(v - radius, v + radius);
        std::vector<IntervalD> Df;
        models::logistic_reduced_jacobian(model, box, Df);
        ASSERT_EQ(Df.size(), n * n);
        for (int sample = 0; sample < 5; ++sample) {
          std::vector<double> y(centre);
          if (sample > 0)
            for (auto& v : y) v += radius * (sample == 1 ? 1.0 : unit(rng));  // a corner, then interior points
          for (std::size_t i = 0; i < n; ++i) y[i] = std::clamp(y[i], box[i].lower(), box[i].upper());
          const auto J = tape_reduced_jacobian(p, y);
          num::PrecisionGuard guard(256);
          for (std::size_t e = 0; e < n * n; ++e, ++checked) {
            const MpReal ref = num::mid(J[e]);
            EXPECT_TRUE(testing::contains(Df[e], ref))
                << "T " << T << " radius " << radius << " entry (" << e / n << ", " << e % n << "): [" << Df[e].lower()
                << ", " << Df[e].upper() << "] vs " << ref;
          }
        }
        if (radius == 0)  // a point box: the closed form is tight, not merely sound
          for (const auto& v : Df) { EXPECT_LT(num::width(v), 1e-13 * (1 + std::fabs(v.lower()))); }
      }
  EXPECT_GT(checked, 4000u);
}

// Gradient descent from the point y at 256 bits.
std::vector<MpReal> point_iterate(const ReducedPoint& p, const std::vector<double>& y, double lr, std::uint64_t k) {
  num::PrecisionGuard guard(256);
  const models::LogisticReduced<MpReal> model(std::vector<MpReal>(p.a.begin(), p.a.end()),
                                              std::vector<MpReal>(p.u.begin(), p.u.end()), MpReal(p.c));
  std::vector<MpReal> x(y.begin(), y.end()), f;
  const MpReal step(lr);
  for (std::uint64_t i = 0; i < k; ++i) {
    model.rhs(x, f);
    for (std::size_t j = 0; j < x.size(); ++j) x[j] += step * f[j];
  }
  return x;
}

// Φ = Π_k (I + lr Df(x_k)) along the iterates of the box's centre, in double (no guarantee: a
// reference for the width, not for containment).
std::vector<double> linearised_flow_map(const models::LogisticReduced<IntervalD>& model, double lr, std::uint64_t k) {
  std::vector<double> x;
  for (const auto& v : model.initial_state()) x.push_back(num::mid(v));
  const std::size_t n = x.size();
  std::vector<double> Phi(n * n, 0), next(n * n);
  for (std::size_t i = 0; i < n; ++i) Phi[i * n + i] = 1;
  std::vector<IntervalD> xi(n), Df, f;
  for (std::uint64_t step = 0; step < k; ++step) {
    for (std::size_t i = 0; i < n; ++i) xi[i] = IntervalD(x[i]);
    models::logistic_reduced_jacobian(model, xi, Df);
    model.rhs(xi, f);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double sum = Phi[i * n + j];
        for (std::size_t m = 0; m < n; ++m) sum += lr * num::mid(Df[i * n + m]) * Phi[m * n + j];
        next[i * n + j] = sum;
      }
    Phi.swap(next);
    for (std::size_t i = 0; i < n; ++i) x[i] += lr * num::mid(f[i]);
  }
  return Phi;
}

double widest(const std::vector<IntervalD>& x) {
  double w = 0;
  for (const auto& v : x) w = std::max(w, num::width(v));
  return w;
}

TEST(GradientDescentLohner, BoxesContainTheImagesOfPointsOfTheStartBox) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> unit(-1, 1);
  const double lr = 0.1;
  const std::vector<std::uint64_t> at{1, 10, 100, 1000, 2000};
  // radius 0: a point start, as the check's (the rounding errors' shifts are all r holds, so a
  // dropped shift term leaves a thin box the exact iterate is not in).
  for (double radius : {0.0, 1e-7})
  for (std::size_t T : {2, 4}) {
    ReducedPoint p = random_reduced_point(rng, T, 0);
    for (auto& v : p.u) v *= 0.3;  // the notebook's scale: u = V(0)ᵀβ* with V(0) = 0.1·N(0, 1)
    const auto model = reduced_model_around<IntervalD>(p, radius);
    const std::size_t n = 2 * T;
    std::vector<std::vector<IntervalD>> boxes, plain;
    const auto jac = [](const auto& m, const std::vector<IntervalD>& x, std::vector<IntervalD>& Df) {
      models::logistic_reduced_jacobian(m, x, Df);
    };
    integrate::enclose_gradient_descent_lohner<IntervalD>(model, IntervalD(lr), at.back(), jac,
                                                          [&](std::uint64_t k, const std::vector<IntervalD>& x) {
                                                            if (std::find(at.begin(), at.end(), k) != at.end()) boxes.push_back(x);
                                                            return true;
                                                          });
    integrate::enclose_gradient_descent<IntervalD>(model, IntervalD(lr), at.back(), [&](std::uint64_t k, const std::vector<IntervalD>& x) {
      if (std::find(at.begin(), at.end(), k) != at.end()) plain.push_back(x);
      return true;
    });
    ASSERT_EQ(boxes.size(), at.size());
    ASSERT_EQ(plain.size(), at.size());
    for (int sample = 0; sample < (radius == 0 ? 1 : 12); ++sample) {
      std::vector<double> y(p.a);
      y.insert(y.end(), p.u.begin(), p.u.end());
      for (auto& v : y) v += sample == 0 ? 0.0 : radius * (sample < 4 ? (unit(rng) < 0 ? -1.0 : 1.0) : unit(rng));
      for (std::size_t q = 0; q < at.size(); ++q) {
        const auto ref = point_iterate(p, y, lr, at[q]);
        num::PrecisionGuard guard(256);
        for (std::size_t i = 0; i < n; ++i)
          EXPECT_TRUE(testing::contains(boxes[q][i], ref[i]))
              << "T " << T << " sample " << sample << " iterate " << at[q] << " component " << i << ": ["
              << boxes[q][i].lower() << ", " << boxes[q][i].upper() << "] vs " << ref[i];
      }
    }
    // Tight: each component's width is within a factor n of the exact image's extent, 2·radius·
    // Σ_j |Φ_ij| to first order (Φ the product of the map's Jacobians along the centre's iterates,
    // in double). The doubleton's box is Q·r with r carried through |Q⁻¹B| = |R|, so |Q|·|R| stands
    // where |QR| = |Φ| would be exact: a factor bounded in terms of n, not growing with k (measured
    // 1.2–3.7 here), plus the rounding errors. Plain interval iteration wraps at every iterate and is far wider.
    const auto Phi = linearised_flow_map(model, lr, at.back());
    const double rounding = 1e-14 * static_cast<double>(at.back());  // a few ulps of O(1) values per iterate
    for (std::size_t i = 0; i < n; ++i) {
      double extent = 0;
      for (std::size_t j = 0; j < n; ++j) extent += 2 * radius * std::fabs(Phi[i * n + j]);
      EXPECT_LT(num::width(boxes.back()[i]), static_cast<double>(n) * extent + rounding) << "T " << T << " component " << i;
    }
    const double lohner = widest(boxes.back()), interval = widest(plain.back());
    std::printf("radius %g, T = %zu, iterate %llu: widest Lohner %.3g, plain interval %.3g\n", radius, T,
                static_cast<unsigned long long>(at.back()), lohner, interval);
    EXPECT_LT(lohner, interval / 100);
  }
}

}  // namespace
}  // namespace softcert
