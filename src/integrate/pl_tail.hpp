#pragma once
// The square- and regression-loss value-softmax flows near their equilibria: a
// Polyak–Łojasiewicz (PL) tail that bounds the whole rest of the trajectory, for every horizon
// at once, by one ball.
//
// Lemma (PL tail; docs/method.md §5b). L(x) = ½‖g‖², g = β − β*, β = V α(a), x = (V, a), and
// ẋ = −∇L (the t-time ValueSoftmax field for loss "square"). ∇_V L = g αᵀ, so
//     ‖∇L‖² ≥ ‖∇_V L‖²_F = ‖g‖² ‖α‖² = 2 ‖α(a)‖² L.
// Let K be a compact box, the field C¹ on a neighbourhood of K, x(s) = x0 with the closed ball
// B̄ = x0 + B̄(R) ⊆ K, μ > 0 with ‖α(a)‖² ≥ μ on B̄, and R ≥ ‖g(x0)‖/√μ = √(2 L(x0)/μ). Then the
// solution exists on [s, ∞) and ‖x(t) − x0‖₂ ≤ R for every t ≥ s. Proof: while x stays in B̄
// and L > 0,
//     d√L/dt = −‖∇L‖²/(2√L) ≤ −‖∇L‖ √(2μL)/(2√L) = −√(μ/2) ‖ẋ‖,
// so ‖x(t) − x0‖ ≤ ∫_s^t ‖ẋ‖ ≤ √(2/μ)(√L(x0) − √L(x(t))) ≤ R. If L(x(t1)) = 0 at some t1 while
// in B̄, x(t1) is a global minimum of L ≥ 0, so ∇L = 0 there: an equilibrium, and by uniqueness
// x ≡ x(t1) from then on. Otherwise let t* be the first time x leaves B̄ (or the end of the
// maximal solution). Before t* the path is in the compact B̄ ⊆ K, so the solution extends past
// t*, and at t* the inequality is strict (√L(x(t*)) > 0): ‖x(t*) − x0‖ < R, so x stays in B̄ a
// little longer — a contradiction. Hence t* = ∞. Since x0 ∈ [X] (the box of the Lohner set at
// s), every x(END), END ≥ s, lies within distance R of a point of [X] (numerics/box_ball.hpp)
// and in [X] + [−R, R]ⁿ, independently of END. (μ is needed on the balls only; pl_ball takes
// the larger of two lower bounds of ‖α‖² there: over their box K, and from the centres by the
// mean value theorem, pl_detail::mu_lower_on_ball.)
//
// μ: every normalization α = f(a)/Σ f(a_j) (softmax, x², sum, |x|, relu) has Σα = 1 where it is
// defined, so ‖α‖² ≥ (Σα)²/T = 1/T (Cauchy–Schwarz); in addition, and for sigmoid only, the
// interval enclosure of Σ α_k² over K, and for every normalization its mean value bound from
// [X] (mu_lower_on_ball), bound ‖α‖² below. Where the normalization is singular or
// kinked, K is refused: Σ a_k² (x²) and Σ a_k (sum) must be certainly nonzero on K, every score
// of |x| / relu must have a certain sign on K and relu needs one certainly positive score.
//
// ‖g(x0)‖ over the Lohner set {c + B r : r ∈ [r]} at s: by the mean value theorem on the convex
// box H = hull([X], c) ∋ c, x0, g(x0) ∈ g(c) + (J_g(H)·B)·[r] with
//     ∂g_i/∂V_ij = α_j,  ∂g_i/∂a_k = w_k (V_ik − β_i) (f/F kinds, w_k = f'(a_k)/F),
//     ∂g_i/∂a_k = w_k V_ik (sigmoid, w_k = σ_k(1 − σ_k)),
// and also g(x0) ∈ g([X]); |g_i(x0)| is bounded by the smaller magnitude of the two. The
// product J·B is formed first, so directions of the set along which β does not change (the
// equilibrium manifold β = β* the flow converges to) do not inflate the bound.
//
// Regression loss (docs/method.md §5b). L(x) = ‖y − Xβ‖², its β-gradient g = Gβ − c with
// G = 2XᵀX, c = 2Xᵀy, and L* = min_β L (attained at β̂ with Gβ̂ = c when G is nonsingular).
// With λ > 0 certified below λ_min(G) (numerics/eigenvalue_lower_bound.hpp):
//     L − L* = ½ (β − β̂)ᵀ G (β − β̂),   ‖g‖² = (β − β̂)ᵀ G² (β − β̂) ≥ 2λ (L − L*),
// so ‖∇L‖² ≥ ‖∇_V L‖²_F = ‖g‖² ‖α‖² ≥ 2λμ (L − L*) on B̄. The proof above with L − L* for L
// (L ≥ L* everywhere, and L = L* only at global minima of L, which are equilibria) gives
// ‖x(t) − x0‖ ≤ √(2/(λμ)) √(L(x0) − L*) ≤ ‖g(x0)‖/(λ√μ) =: R, using
// L − L* = ½ gᵀG⁻¹g ≤ ‖g‖²/(2λ). Square loss is the case G = I, λ = 1. g's Jacobian is
// G·∂β/∂x, so the mean value bound above uses (G·(J_β(H)·B))·[r].
#include <algorithm>
#include <cstddef>
#include <functional>
#include <optional>
#include <type_traits>
#include <stdexcept>
#include <vector>

#include "integrate/closed_form_jacobian.hpp"
#include "integrate/kink_report.hpp"
#include "integrate/rigorous_full.hpp"
#include "integrate/validated_flow.hpp"
#include "models/value_softmax.hpp"
#include "numerics/box_ball.hpp"
#include "numerics/eigenvalue_lower_bound.hpp"
#include "numerics/outward_interval_d.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {

// Guarantee (when valid): for every x0 in the Lohner set the tail was computed from, the exact
// solution of the model's flow from x0 exists for all later times and stays in the Euclidean ball
// x0 + B̄(radius) ⊆ box; ‖α(a)‖² ≥ lower(mu) on every such ball. radius is an upper bound (a thin interval
// holding it); from = [X] ∋ x0, box = [X] + [−radius, radius]ⁿ, rounded outward. So every later
// state lies in the set ball() (numerics/box_ball.hpp), and in box. Not valid: nothing is claimed.
template <class S>
struct PlBall {
  bool valid = false;
  std::vector<S> from;
  std::vector<S> box;
  S radius{0};
  S mu{0};
  S lambda{1};  // regression: a lower bound of λ_min(2XᵀX) (certified); square loss: 1
  S g_norm{0};  // upper(g_norm) ≥ ‖g(x0)‖₂ for every x0 of the set (square: √(2 L(x0)))

  num::BoxBall<S> ball() const { return {from, radius}; }
};

// The losses the PL tail covers (t-time value-softmax flow).
inline bool has_pl_tail(instances::Loss loss) {
  return loss == instances::Loss::square || loss == instances::Loss::regression;
}

namespace pl_detail {

template <class S>
bool sums_to_one(instances::Normalization n) {
  return n != instances::Normalization::sigmoid;
}

// Checks that the normalization is defined and C¹ on a neighbourhood of the box a (see the top
// of this file). Returns false when it cannot be shown.
template <class S>
bool normalization_regular(const models::ValueSoftmax<S>& model, const std::vector<S>& a) {
  using N = instances::Normalization;
  const N norm = model.normalization();
  switch (norm) {
    case N::formula: return model.formula_normalization_regular(a);
    case N::softmax:
    case N::sigmoid: return true;
    case N::square: {
      S F(0);
      for (const auto& v : a) F = F + num::sqr(v);
      return num::certainly_positive(F);
    }
    case N::sum: {
      S F(0);
      for (const auto& v : a) F = F + v;
      return num::certainly_positive(F) || num::certainly_negative(F);
    }
    case N::abs:
    case N::relu: {
      bool some_positive = false;
      for (const auto& v : a) {
        if (num::certainly_positive(v)) some_positive = true;
        else if (!num::certainly_negative(v)) return false;
      }
      return norm == N::abs || some_positive;
    }
  }
  return false;
}

// A lower bound of ‖α(a)‖² over the box a (0 when none is known); `margin` < 1 scales the
// interval part only (for a guess that leaves room, see pl_ball), never the 1/T bound.
template <class S>
num::BoundOf<S> mu_lower(const models::ValueSoftmax<S>& model, const std::vector<S>& a, double margin = 1) {
  std::vector<S> alpha, w;
  model.normalize(a, alpha, w);
  S q(0);
  for (const auto& v : alpha) q = q + num::sqr(v);
  num::BoundOf<S> mu = num::lower(q) * num::BoundOf<S>(margin);
  if (!(mu > 0) || !(num::magnitude(q) < 1e300)) mu = 0;
  if (sums_to_one<S>(model.normalization())) {
    const auto inv_T = num::lower(S(1) / S(static_cast<int>(a.size())));
    if (inv_T > mu) mu = inv_T;
  }
  return mu;
}

// A lower bound of ‖α(a)‖² over every a within Euclidean distance R of a point of the box a0
// (0 when none is known), given a box K ⊇ a0 + [−R, R]^T on which the normalization is C¹ (pl_ball
// checks it first). Why: for such a and a point a0' of a0 the segment [a0', a] lies in K, so by the
// mean value theorem ‖α(a)‖² ≥ ‖α(a0')‖² − G·R with G ≥ sup_K ‖∇‖α‖²‖₂, where
// ∂‖α‖²/∂a_k = 2 w_k (α_k − ‖α‖²) for the f/F kinds (∂α_j/∂a_k = w_k (δ_jk − α_j), w_k = f'(a_k)/F;
// softmax: w = α) and 2 α_k w_k for sigmoid (w_k = σ_k(1 − σ_k)). Over a wide K the box's own
// enclosure (mu_lower) loses the concentration of α that the thin a0 still shows; this keeps it.
template <class S>
num::BoundOf<S> mu_lower_on_ball(const models::ValueSoftmax<S>& model, const std::vector<S>& a0, const std::vector<S>& K,
                                 const S& R) {
  using B = num::BoundOf<S>;
  std::vector<S> alpha, w;
  model.normalize(a0, alpha, w);
  S q0(0);
  for (const auto& v : alpha) q0 = q0 + num::sqr(v);
  model.normalize(K, alpha, w);
  S qK(0);
  for (const auto& v : alpha) qK = qK + num::sqr(v);
  const bool sig = model.normalization() == instances::Normalization::sigmoid;
  S grad_sq(0);
  for (std::size_t k = 0; k < alpha.size(); ++k)
    grad_sq = grad_sq + num::sqr(S(S(2) * w[k] * (sig ? alpha[k] : S(alpha[k] - qK))));
  const S G = num::sqrt(grad_sq);
  const B mu = num::lower(S(q0 - G * num::hull_of_bounds<S>(B(0), num::upper(R))));
  if (!(mu > 0) || !(num::magnitude(G) < 1e300)) return 0;
  return mu;
}

// The ball with its centre box and radius rounded outward to doubles (a superset of the set):
// what PlTailOptions::decided sees.
template <class S>
num::BoxBall<IntervalD> outward_doubles(const num::BoxBall<S>& ball) {
  num::BoxBall<IntervalD> out;
  out.centre.reserve(ball.centre.size());
  for (const auto& x : ball.centre) out.centre.push_back(num::outward_interval_d(x));
  out.radius = num::outward_interval_d(ball.radius);
  return out;
}

}  // namespace pl_detail

// The λ of the model's PL inequality (a property of the model, not of the state): 1 for square
// loss; for regression a double certified below λ_min(2XᵀX) (numerics/eigenvalue_lower_bound.hpp),
// or 0 when none was certified (then no ball exists).
template <class S>
double pl_lambda(const models::ValueSoftmax<S>& model) {
  if (model.loss() != instances::Loss::regression) return 1.0;
  return num::min_eigenvalue_lower_bound(model.gram2(), model.dim());
}

namespace pl_detail {
// pl_ball (below) of a doubleton set; `identity_B`: its B is the identity (a ball set's box),
// which the products with B skip.
template <class S>
PlBall<S> pl_ball_of(const models::ValueSoftmax<S>& model, const DoubletonSet<S>& set, double lambda, bool identity_B) {
  using B = num::BoundOf<S>;
  const bool lohner_form = !identity_B;  // B·(…) formed in full
  if (model.tau_time()) throw std::invalid_argument("model: the PL tail needs the t-time flow");
  if (!has_pl_tail(model.loss())) throw std::invalid_argument("loss: the PL tail needs \"square\" or \"regression\"");
  const std::size_t T = model.tokens(), d = model.dim(), n = model.dimension();
  PlBall<S> out;
  const bool regression = model.loss() == instances::Loss::regression;
  if (!(lambda > 0)) return out;
  const std::vector<S> X = set.box();
  std::vector<S> H(n);
  for (std::size_t i = 0; i < n; ++i) H[i] = num::hull(X[i], set.c[i]);
  auto a_of = [&](const std::vector<S>& x) {
    return std::vector<S>(x.begin() + static_cast<std::ptrdiff_t>(d * T), x.begin() + static_cast<std::ptrdiff_t>(d * T + T));
  };
  auto beta_of = [&](const std::vector<S>& x, std::vector<S>& alpha, std::vector<S>& w) {
    model.normalize(a_of(x), alpha, w);
    std::vector<S> b(d, S(0));
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = 0; j < T; ++j) b[i] = b[i] + x[i * T + j] * alpha[j];
    return b;
  };
  // g = β − β* (square) or G β − c (regression)
  auto g_of_beta = [&](const std::vector<S>& b) {
    std::vector<S> g(d, S(0));
    for (std::size_t i = 0; i < d; ++i) {
      if (!regression) {
        g[i] = b[i] - model.beta()[i];
        continue;
      }
      S acc = S(0) - model.xty2()[i];
      for (std::size_t k = 0; k < d; ++k) acc = acc + model.gram2()[i * d + k] * b[k];
      g[i] = acc;
    }
    return g;
  };
  try {
    if (!pl_detail::normalization_regular(model, a_of(H))) return out;
    std::vector<S> alpha, w, alpha_c, w_c;
    const std::vector<S> g_box = g_of_beta(beta_of(X, alpha, w));
    const std::vector<S> g_c = g_of_beta(beta_of(set.c, alpha_c, w_c));
    // β over H (for ∂β/∂a) and α, w over H.
    const std::vector<S> betaH = beta_of(H, alpha, w);
    const bool sig = model.normalization() == instances::Normalization::sigmoid;
    // J = ∂β/∂x over H (d × n), then JB = J·B (d × n); for regression JB ← G·JB (∂g/∂x = G ∂β/∂x);
    // then g_mv = g(c) + JB·[r].
    // A ball set enters as a box (B = I): then JB = J, whose row i is zero outside row i of V
    // and a, and G·J has one nonzero term per V column — the same sums as the dense loops
    // below without their exact zero terms (x + 0·y = x exactly in interval arithmetic), so the
    // same numbers at O(d·n + d²·T) operations instead of O(d·n·T + d²·n). This runs after every
    // ball step, and each IntervalD operation switches the rounding mode twice, so the dense
    // loops would dominate the regression check (docs/performance.md, "The PL ball of a ball set").
    std::vector<S> JB(d * n, S(0));
    for (std::size_t i = 0; i < d; ++i) {
      std::vector<S> Ji(n, S(0));
      for (std::size_t j = 0; j < T; ++j) Ji[i * T + j] = alpha[j];
      for (std::size_t k = 0; k < T; ++k) Ji[d * T + k] = sig ? w[k] * H[i * T + k] : w[k] * (H[i * T + k] - betaH[i]);
      if (!lohner_form) {
        for (std::size_t j = 0; j < T; ++j) JB[i * n + i * T + j] = Ji[i * T + j];
        for (std::size_t k = 0; k < T; ++k) JB[i * n + d * T + k] = Ji[d * T + k];
        continue;
      }
      // J_i is zero outside row i of V and a.
      for (std::size_t m = 0; m < n; ++m) {
        S acc(0);
        for (std::size_t l = i * T; l < i * T + T; ++l) acc = acc + Ji[l] * set.B[l * n + m];
        for (std::size_t l = d * T; l < d * T + T; ++l) acc = acc + Ji[l] * set.B[l * n + m];
        JB[i * n + m] = acc;
      }
    }
    if (regression) {
      std::vector<S> GJB(d * n, S(0));
      for (std::size_t i = 0; i < d; ++i) {
        if (!lohner_form) {
          for (std::size_t k = 0; k < d; ++k)
            for (std::size_t j = 0; j < T; ++j) GJB[i * n + k * T + j] = model.gram2()[i * d + k] * JB[k * n + k * T + j];
          for (std::size_t m = d * T; m < n; ++m) {
            S acc(0);
            for (std::size_t k = 0; k < d; ++k) acc = acc + model.gram2()[i * d + k] * JB[k * n + m];
            GJB[i * n + m] = acc;
          }
          continue;
        }
        for (std::size_t k = 0; k < d; ++k) {
          const S& gik = model.gram2()[i * d + k];
          for (std::size_t m = 0; m < n; ++m) GJB[i * n + m] = GJB[i * n + m] + gik * JB[k * n + m];
        }
      }
      JB = std::move(GJB);
    }
    S gsq(0);
    for (std::size_t i = 0; i < d; ++i) {
      S gi = g_c[i];
      for (std::size_t m = 0; m < n; ++m) gi = gi + JB[i * n + m] * set.r[m];
      const B mag = std::min(num::magnitude(gi), num::magnitude(g_box[i]));
      if (!(mag < B(1e300))) return out;
      gsq = gsq + num::sqr(num::hull_of_bounds<S>(B(0), mag));
    }
    const S gnorm = num::sqrt(gsq);
    // μ: a guess from [X], verified on K = [X] + [−R, R]ⁿ; a failed verification retries with
    // the smaller μ found on K.
    // The guess keeps a 1 % margin (K is wider than [X], so ‖α‖² can be a little smaller
    // there); it costs 0.5 % of R. Only the verified inequality mu_K ≥ mu below matters.
    // One trial of μ: R from it, K = [X] + [−R, R]ⁿ, and the verification that ‖α‖² ≥ μ on every
    // ball x0 + B̄(R), x0 ∈ [X] (the lemma's set) — by the larger of two lower bounds there: over
    // their box K, and the mean value bound from the centres. Fills `out` when it holds; `found`
    // gets the bound it found; false with stop = true when no μ can work (K singular or kinked).
    bool stop = false;
    auto trial = [&](B mu, B& found) {
      const S R = gnorm / (S(lambda) * num::sqrt(num::hull_of_bounds<S>(mu, mu)));
      B r_hi = num::upper(R);
      if (!(r_hi < B(1e300))) {
        stop = true;
        return false;
      }
      if (r_hi < 0) r_hi = 0;
      const S ball = num::hull_of_bounds<S>(-r_hi, r_hi);
      std::vector<S> K = X;
      for (auto& k : K) k = k + ball;
      const std::vector<S> aK = a_of(K);
      if (!pl_detail::normalization_regular(model, aK)) {
        stop = true;
        return false;
      }
      found = pl_detail::mu_lower(model, aK);
      const B on_ball = pl_detail::mu_lower_on_ball(model, a_of(X), aK, num::hull_of_bounds<S>(r_hi, r_hi));
      if (on_ball > found) found = on_ball;
      if (!(found >= mu)) return false;
      out.valid = true;
      out.from = X;
      out.box = std::move(K);
      out.radius = num::hull_of_bounds<S>(r_hi, r_hi);
      out.mu = num::hull_of_bounds<S>(mu, mu);
      out.lambda = S(lambda);
      out.g_norm = gnorm;
      return true;
    };
    // The guess from [X], then 0.99 × what each failed trial found (a larger R, verified on its
    // own K) — a decreasing sequence — and last, for the normalizations with Σα = 1, μ = 1/T,
    // which every K verifies (mu_lower never returns less): a ball exists whenever K is regular.
    B mu = pl_detail::mu_lower(model, a_of(X), 0.99);
    for (int attempt = 0; attempt < 8 && mu > 0 && !stop; ++attempt) {
      B found(0);
      if (trial(mu, found)) return out;
      mu = found * B(0.99);
    }
    if (!stop && pl_detail::sums_to_one<S>(model.normalization())) {
      B found(0);
      if (trial(num::lower(S(1) / S(static_cast<int>(T))), found)) return out;
    }
  } catch (const std::domain_error&) {
    return PlBall<S>{};  // a kinked score on a box
  } catch (const std::runtime_error&) {
    return PlBall<S>{};  // the interval arithmetic refused (e.g. a division by an interval ∋ 0)
  }
  return out;
}

}  // namespace pl_detail

// The PL ball of every solution through the doubleton set `set` (a state of `model`, t-time,
// loss "square" or "regression"), with lambda = pl_lambda(model) (computed once per run by
// enclose_with_pl_tail; the two-argument form computes it). Guarantee: see PlBall, provided
// 0 < lambda ≤ λ_min of the loss's β-Hessian (2XᵀX for regression, I for square loss), which
// pl_lambda certifies; a larger lambda voids it. Throws
// std::invalid_argument for another loss or τ-time; never throws for a singular or kinked box,
// or a regression design whose G is not certified positive definite (returns valid = false).
template <class S>
PlBall<S> pl_ball(const models::ValueSoftmax<S>& model, const DoubletonSet<S>& set, double lambda) {
  return pl_detail::pl_ball_of(model, set, lambda, false);
}
// A ball set (the ball step, flow_sets.hpp) enters as the doubleton set of its box.
template <class S>
PlBall<S> pl_ball(const models::ValueSoftmax<S>& model, const BallSet<S>& set, double lambda) {
  return pl_detail::pl_ball_of(model, DoubletonSet<S>::from_box(set.box()), lambda, true);
}

template <class S, class Set>
PlBall<S> pl_ball(const models::ValueSoftmax<S>& model, const Set& set) {
  return pl_ball(model, set, pl_lambda(model));
}

struct PlTailOptions {
  // Stop stepping when 2·radius ≤ relative · (largest width of [X]) — the tail then widens the
  // validated box by at most this fraction — or when the candidate's largest width ≤ width
  // (0: not used), or after `plateau` steps without the candidate improving by 0.1 % provided
  // the best ball has 2·radius ≤ the width of its box (R has reached its floor), or as soon as
  // `decided` holds on a ball (its centre box and radius rounded outward to doubles; x(END) lies
  // within Euclidean distance R of a point of the centre box): the caller's test that what it
  // asks of x(END) is settled on that set (e.g. an entropy certainly below a threshold). Only
  // when to stop: every valid ball contains x(END), whichever rule stops the run.
  double relative = 1e-2;
  double width = 0;
  std::size_t plateau = 10;
  std::function<bool(const num::BoxBall<IntervalD>& ball)> decided;
};

template <class S>
struct PlTail {
  bool used = false;
  S from{0};        // s: the time of the Lohner set the ball was computed from
  S radius{0};      // R of that ball
  S mu{0};          // the μ used (‖α‖² ≥ μ on the final box)
  S lambda{1};      // the λ used (regression: λ ≤ λ_min(2XᵀX); square: 1)
  std::size_t steps = 0;  // validated steps up to s
};

// The state of the square- or regression-loss t-time flow at t = END: validated steps from 0 until the PL ball
// at the current time s is small (PlTailOptions), then x(END) ∈ box of that ball; if END comes
// first, the last validated box. Guarantee: for every initial state in model.initial_state()
// the exact solution exists on [0, END] and result.x[i] ∋ x_i(END), result.alpha ∋ α(x(END));
// when the tail ended the run, result.tail_ball (its centre box and radius) contains x(END) too;
// `tail` says whether the ball was used, from which s, with which R and μ. A step that cannot be
// validated throws RigorousFailure (KinkPossible for |x| / relu: integrate/kink_report.hpp).
// One run of run_flow (validated_flow.hpp) with the PL ball as its finisher; either stepper.
template <class S>
FullStateEnclosure<S> enclose_with_pl_tail(const models::ValueSoftmax<S>& model, const S& t_end, ValidatedOptions options,
                                           const PlTailOptions& tail_options = {}, PlTail<S>* tail = nullptr) {
  using B = num::BoundOf<S>;
  if (model.tau_time()) throw std::invalid_argument("model: the PL tail needs the t-time flow");
  if (!has_pl_tail(model.loss())) throw std::invalid_argument("loss: the PL tail needs \"square\" or \"regression\"");
  if (!num::certainly_positive(t_end)) throw std::invalid_argument("END: must be certainly positive");
  FullStateEnclosure<S> out;
  out.a_offset = model.a_offset();
  PlTail<S> info;
  options.keep_segments = false;
  if (options.jacobian_order == 0) options.jacobian_order = full_state_jacobian_order<S>(false, options.order);
  auto field = [&model](const auto& y, auto& dy) { model.rhs(y, dy); };
  const double lambda = pl_lambda(model);  // the same for every ball of this run
  auto max_width = [](const std::vector<S>& v) {
    B m(0);
    for (const auto& x : v) m = std::max<B>(m, num::width(x));
    return m;
  };
  return with_stepper<S>(options, field, model.dimension(), [&](auto& stepper) {
    use_closed_form_jacobian(stepper, model);  // the ball step's Df (closed_form_jacobian.hpp)
    // The finisher (validated_flow.hpp): after every validated step that did not reach END, the
    // PL ball of the set at the step's end s; every valid ball encloses x(END) (END > s).
    B best_width(0);
    bool have_best = false, best_settled = false;
    std::size_t since_better = 0;
    PlBall<S> chosen;
    std::optional<num::BoxBall<S>> ended_by;  // the ball that ended the run, if one did
    auto pl_finisher = [&](const auto& st) -> std::optional<TailEnd<S>> {
      const PlBall<S> ball = pl_ball(model, st.set, lambda);
      if (!ball.valid) return std::nullopt;
      const B wK = max_width(ball.box), wX = max_width(st.box);
      bool stop = num::upper(ball.radius) * 2 <= B(tail_options.relative) * wX;
      if (tail_options.width > 0 && wK <= B(tail_options.width)) stop = true;
      if (tail_options.decided && tail_options.decided(pl_detail::outward_doubles(ball.ball()))) {
        // this ball itself ends the run (it need not be the narrowest seen)
        ended_by = ball.ball();
        info.used = true;
        info.radius = ball.radius;
        info.mu = ball.mu;
        info.lambda = ball.lambda;
        info.from = st.t;
        info.steps = st.steps;
        return TailEnd<S>{ball.box, st.t, st.steps};
      }
      // Keep the narrowest ball seen. The plateau rule needs the best ball's R to have come down
      // to the box's own width (a flow crawling past a saddle keeps R nearly constant for a
      // while: do not stop there).
      const bool better = !have_best || wK < best_width;
      if (!have_best || wK < best_width * B(0.999)) since_better = 0;
      else if (++since_better >= tail_options.plateau && best_settled) stop = true;
      if (better) {
        have_best = true;
        best_width = wK;
        best_settled = num::upper(ball.radius) * 2 <= wX;
        chosen = ball;
        info.from = st.t;
        info.steps = st.steps;
      }
      if (!stop) return std::nullopt;
      ended_by = chosen.ball();
      info.used = true;
      info.radius = chosen.radius;
      info.mu = chosen.mu;
      info.lambda = chosen.lambda;
      return TailEnd<S>{chosen.box, info.from, info.steps};
    };
    auto set = start_set(stepper, model.initial_state());
    FlowControl control;
    control.max_steps = options.max_steps;
    const auto curve =
        run_flow<S>(stepper, set, model.initial_state(), S(0), until_time(t_end), control, pl_finisher);
    // A run that stopped: KinkPossible for |x| / relu, else RigorousFailure.
    if (!curve.completed()) rethrow_stopped(model, curve.last_box(), curve.t_reached(), curve.steps(), curve.message());
    out.x = curve.end_box();
    out.steps = curve.steps();
    if (info.used) out.tail_ball = ended_by;
    try {
      out.alpha = model.attention(out.x);
    } catch (const support::ValidationFailure& e) {
      rethrow_stopped(model, curve.last_box(), curve.t_reached(), curve.steps(), e.what());
    } catch (const std::domain_error& e) {
      rethrow_stopped(model, curve.last_box(), curve.t_reached(), curve.steps(), e.what());
    }
    if (tail) *tail = info;
    return out;
  });
}

}  // namespace softcert::integrate
