#include "field.hpp"

#include <stdexcept>
#include <string>

#include "decimal.hpp"

namespace verify {

Field field_from_instance(const nlohmann::json& inst) {
  auto need = [&](const char* key, const char* value) {
    if (!inst.contains(key) || inst[key] != value)
      throw std::invalid_argument(std::string("instance: \"") + key + "\" must be \"" + value + "\"");
  };
  need("model", "value_softmax");
  need("loss", "logistic");
  need("normalization", "softmax");
  Field f;
  const std::vector<Ball> a = parse_vector(inst.at("a")), beta = parse_vector(inst.at("beta"));
  const nlohmann::json& V = inst.at("V");  // row i: coordinate i of β*; column j: token j
  f.T = static_cast<slong>(a.size());
  if (f.T < 1 || !V.is_array() || V.size() != beta.size()) throw std::invalid_argument("instance: V must have one row per entry of beta");
  std::vector<Ball> u(f.T);
  for (std::size_t i = 0; i < beta.size(); ++i) {
    const std::vector<Ball> row = parse_vector(V[i]);
    if (static_cast<slong>(row.size()) != f.T) throw std::invalid_argument("instance: each row of V must have T entries");
    for (slong j = 0; j < f.T; ++j) u[j] += row[j] * beta[i];
    f.c += beta[i] * beta[i];
  }
  f.x0 = a;
  f.x0.insert(f.x0.end(), u.begin(), u.end());
  f.x0.push_back(Ball(0));
  return f;
}

namespace {

// The field on series of length len; also s, w = s∘(u − ū) and e^{ū}, which Df needs.
struct Evaluated {
  std::vector<Poly> f, s, w;
  Poly e;
};

Evaluated evaluate(const Field& F, const std::vector<Poly>& x, slong len) {
  const slong T = F.T;
  Evaluated out;
  out.s.resize(T);
  for (slong i = 0; i < T; ++i) {
    Poly sum(Ball(1));
    for (slong j = 0; j < T; ++j)
      if (j != i) sum = add(sum, exp_series(sub(x[j], x[i]), len));
    out.s[i] = inv_series(sum, len);
  }
  Poly ubar;
  for (slong i = 0; i < T; ++i) ubar = add(ubar, mul(out.s[i], x[T + i], len));
  out.e = exp_series(ubar, len);
  out.f.resize(F.n());
  out.w.resize(T);
  for (slong i = 0; i < T; ++i) {
    out.w[i] = mul(out.s[i], sub(x[T + i], ubar), len);
    out.f[i] = out.w[i];
    out.f[T + i] = scale(out.s[i], F.c);
  }
  out.f[2 * T] = add(Poly(Ball(1)), out.e);
  return out;
}

// Df(x)·v for one column v = (va, vu, vt), from the partial derivatives of the field:
//   ∂a'/∂a = diag(w) − w sᵀ − s wᵀ,  ∂a'/∂u = diag(s) − s sᵀ,  ∂u'/∂a = c (diag(s) − s sᵀ),
//   ∂u'/∂u = 0,  ∂t'/∂a = e^{ū} wᵀ,  ∂t'/∂u = e^{ū} sᵀ,  and nothing depends on t.
std::vector<Poly> jacobian_times(const Field& F, const Evaluated& ev, const std::vector<Poly>& v, slong len) {
  const slong T = F.T;
  Poly sa, wa, su;  // sᵀva, wᵀva, sᵀvu
  for (slong k = 0; k < T; ++k) {
    sa = add(sa, mul(ev.s[k], v[k], len));
    wa = add(wa, mul(ev.w[k], v[k], len));
    su = add(su, mul(ev.s[k], v[T + k], len));
  }
  std::vector<Poly> out(F.n());
  const Poly shift = add(su, wa);
  for (slong i = 0; i < T; ++i) {
    const Poly da = sub(v[i], sa);
    out[i] = add(mul(ev.w[i], da, len), mul(ev.s[i], sub(v[T + i], shift), len));
    out[T + i] = scale(mul(ev.s[i], da, len), F.c);
  }
  out[2 * T] = mul(ev.e, add(wa, su), len);
  return out;
}

}  // namespace

Coefficients taylor_coefficients(const Field& F, const std::vector<Ball>& x0, slong order, slong jac_order) {
  const slong n = F.n();
  std::vector<Poly> x;
  for (const Ball& b : x0) x.emplace_back(b);
  // V as n columns of n series; V(0) = I
  std::vector<std::vector<Poly>> V(jac_order >= 0 ? n : 0, std::vector<Poly>(n));
  for (slong j = 0; j < static_cast<slong>(V.size()); ++j) V[j][j] = Poly(Ball(1));
  for (slong len = 1; len <= order; ++len) {
    const Evaluated ev = evaluate(F, x, len);
    if (len <= jac_order)
      for (slong j = 0; j < n; ++j) {
        const std::vector<Poly> g = jacobian_times(F, ev, V[j], len);
        for (slong i = 0; i < n; ++i) V[j][i] = integral_from(Ball(i == j ? 1 : 0), g[i]);
      }
    for (slong i = 0; i < n; ++i) x[i] = integral_from(x0[i], ev.f[i]);
  }
  Coefficients out;
  out.x.assign(order + 1, std::vector<Ball>(n));
  for (slong k = 0; k <= order; ++k)
    for (slong i = 0; i < n; ++i) out.x[k][i] = x[i].coeff(k);
  if (jac_order >= 0) {
    out.D.assign(jac_order + 1, std::vector<Ball>(n * n));
    for (slong k = 0; k <= jac_order; ++k)
      for (slong i = 0; i < n; ++i)
        for (slong j = 0; j < n; ++j) out.D[k][i * n + j] = V[j][i].coeff(k);
  }
  return out;
}

}  // namespace verify
