#include "gradient_descent.hpp"

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>

#include "decimal.hpp"
#include "exact_certificate.hpp"
#include "field.hpp"
#include "step.hpp"

namespace verify {

namespace {

// f(x) and J = I + lr·Df over the balls x = (a, u): the τ-field g on (a, u, t) and its derivative,
// divided by g_t = dt/dτ = 1 + e^{ū} (which depends on (a, u) only):
//   f = g/g_t,   Df·v = (Dg·v)/g_t − (Dg·v)_t·g/g_t².
struct MapAt {
  std::vector<Ball> f;
  Matrix J{1};
};
MapAt map_at(const Field& F, const std::vector<Ball>& x, const Ball& lr, bool jacobian) {
  const slong m = 2 * F.T;
  std::vector<Poly> xs;
  for (const Ball& b : x) xs.emplace_back(b);
  xs.emplace_back(Ball(0));  // t: the τ-field does not depend on it
  const std::unique_ptr<SeriesField> ev = evaluate(F, xs, 1);
  std::vector<Ball> g(m + 1);
  for (slong i = 0; i <= m; ++i) g[i] = ev->values()[i].coeff(0);
  MapAt out;
  out.f.resize(m);
  for (slong i = 0; i < m; ++i) arb_div(out.f[i].get(), g[i].get(), g[m].get(), kPrec);
  if (!jacobian) return out;
  Ball gt2 = g[m] * g[m];
  out.J = Matrix(m);
  for (slong j = 0; j < m; ++j) {
    std::vector<Poly> v(m + 1);
    v[j] = Poly(Ball(1));
    const std::vector<Poly> dg = ev->derivative(v, 1);
    const Ball dt = dg[m].coeff(0);
    for (slong i = 0; i < m; ++i) {
      Ball a, b;
      arb_div(a.get(), dg[i].coeff(0).get(), g[m].get(), kPrec);
      arb_div(b.get(), (dt * g[i]).get(), gt2.get(), kPrec);
      const Ball df = a - b;
      arb_set(out.J.at(i, j), (lr * df + Ball(i == j ? 1 : 0)).get());
    }
  }
  return out;
}

}  // namespace

FileVerdict check_gradient_descent(const std::vector<nlohmann::json>& lines) {
  const nlohmann::json& head = lines.at(0);
  if (head.value("check", "") != "varre2026.gd.order_preservation" || head.value("model", "") != "logistic_reduced_gd" ||
      head.value("claim", nlohmann::json::object()).value("kind", "") != "gd_order_preservation")
    throw Rejection("header: the check " + head.value("check", std::string("?")) + " has no claim this verifier knows");
  const Field F = field_from_instance(head.at("instance"), "logistic_reduced_tau");
  const slong T = F.T, m = 2 * T;
  const Ball lr = parse_number(head.at("lr"));
  if (!lr.positive()) throw Rejection("header: lr must be positive");
  const nlohmann::json& N_json = head.at("iterations");
  if (!N_json.is_number_unsigned() || N_json.get<std::uint64_t>() < 1) throw Rejection("header: iterations must be ≥ 1");
  const std::uint64_t N = N_json.get<std::uint64_t>();
  if (lines.size() != N + 2)
    throw Rejection("the certificate has " + std::to_string(lines.size() - 1) + " iterates, the header says 0 … " + std::to_string(N));
  const Ball margin = positive_margin(head);
  // The tokens by decreasing u(0): distinct, certainly, or the adjacent gaps decide nothing.
  std::vector<slong> chain(T);
  std::iota(chain.begin(), chain.end(), 0);
  std::sort(chain.begin(), chain.end(), [&](slong i, slong j) { return arb_gt(F.x0[T + i].get(), F.x0[T + j].get()) != 0; });
  for (slong n = 0; n + 1 < T; ++n)
    if (!(F.x0[T + chain[n]] - F.x0[T + chain[n + 1]]).positive())
      throw Rejection("claim: u(0) is not certainly strictly ordered (tokens " + std::to_string(chain[n]) + ", " +
                      std::to_string(chain[n + 1]) + ")");
  auto iterate = [&](std::uint64_t k) {
    const nlohmann::json& line = lines[k + 1];
    if (!line.contains("iterate") || line.at("iterate").get<std::uint64_t>() != k)
      throw Rejection("line " + std::to_string(k + 2) + ": not iterate " + std::to_string(k));
    return parse_set(line.at("set"), m);
  };
  LohnerSet X = iterate(0);
  std::string why;
  const std::vector<Ball> x0(F.x0.begin(), F.x0.begin() + m);
  if (!X.contains(x0, why)) throw Rejection("iterate 0: the set does not contain the instance's initial state: " + why);
  Ball own;  // the verifier's own lower bound of the smallest gap
  arb_pos_inf(own.get());
  for (std::uint64_t k = 0; k < N; ++k) {
    const std::string name = "iterate " + std::to_string(k);
    const MapAt at_c = map_at(F, X.c, lr, false);
    const MapAt over = map_at(F, X.hull(), lr, true);
    LohnerSet next = iterate(k + 1);
    Matrix inv(m);
    if (!next.B.inverse(inv)) throw Rejection(name + ": the next set's matrix is not certainly invertible");
    const Matrix M = inv * (over.J * X.B);
    std::vector<Ball> d(m);
    for (slong i = 0; i < m; ++i) d[i] = X.c[i] + lr * at_c.f[i] - next.c[i];
    std::vector<Ball> img = inv.apply(d);
    const std::vector<Ball> mr = M.apply(X.r_balls());
    for (slong i = 0; i < m; ++i) {
      img[i] += mr[i];
      if (!next.r[i].contains(img[i]))
        throw Rejection(name + ": the image is not inside iterate " + std::to_string(k + 1) + "'s set at r_" + std::to_string(i) +
                        ": it needs " + img[i].text() + ", the set has " + next.r[i].text());
    }
    X = next;
    // the claim on iterate k + 1 ≥ 1
    const std::vector<Ball> h = X.hull();
    for (slong n = 0; n + 1 < T; ++n)
      for (const slong off : {slong(0), T}) {
        const Ball gap = h[off + chain[n]] - h[off + chain[n + 1]];
        if (!gap.positive()) {
          const std::string var = off ? "u" : "a";
          throw Rejection("iterate " + std::to_string(k + 1) + ": (e) claim: the gap " + var + "_" + std::to_string(chain[n]) +
                          " − " + var + "_" + std::to_string(chain[n + 1]) + " = " + gap.text() + " is not positive");
        }
        const Ball low = gap.lower_end();
        if (arb_lt(low.get(), own.get())) own = low;
      }
  }
  return {true, std::to_string(N) + " iterates of lr = " + lr.text(17) + " each inside the next set; the order of u(0) kept in a " +
                    "and u on iterates 1 … " + std::to_string(N) + "; min gap ≥ " + own.text(17) + " (certificate's margin ≥ " +
                    margin.text(17) + ")"};
}

}  // namespace verify
