#include "step.hpp"

namespace verify {

namespace {

std::string component(slong i) { return "component " + std::to_string(i); }

Ball dot(const std::vector<Ball>& v, const Weights& w) {
  Ball s;
  for (const auto& [i, wi] : w) s += v[i] * Ball(wi);
  return s;
}

}  // namespace

std::vector<Ball> LohnerSet::r_balls() const {
  std::vector<Ball> out;
  for (const auto& x : r) out.push_back(x.hull());
  return out;
}

std::vector<Ball> LohnerSet::hull() const {
  std::vector<Ball> out = B.apply(r_balls());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] += c[i];
  return out;
}

bool LohnerSet::contains(const std::vector<Ball>& x, std::string& why) const {
  Matrix inv(B.size());
  if (!B.inverse(inv)) return why = "the set's matrix is not certainly invertible", false;
  std::vector<Ball> d(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) d[i] = x[i] - c[i];
  const std::vector<Ball> rr = inv.apply(d);
  for (std::size_t i = 0; i < rr.size(); ++i)
    if (!r[i].contains(rr[i])) return why = "r_" + std::to_string(i) + " needs " + rr[i].text() + ", has " + r[i].text(), false;
  return true;
}

LohnerSet parse_set(const nlohmann::json& v, slong n) {
  LohnerSet s;
  s.c = parse_vector(v.at("c"));
  s.r = parse_intervals(v.at("r"));
  const nlohmann::json& B = v.at("B");
  if (static_cast<slong>(s.c.size()) != n || static_cast<slong>(s.r.size()) != n || !B.is_array() ||
      static_cast<slong>(B.size()) != n)
    throw std::invalid_argument("set: c, B and r must have the state's dimension");
  s.B = Matrix(n);
  for (slong i = 0; i < n; ++i) {
    const std::vector<Ball> row = parse_vector(B[i]);
    if (static_cast<slong>(row.size()) != n) throw std::invalid_argument("set: B must be square");
    for (slong j = 0; j < n; ++j) arb_set(s.B.at(i, j), row[j].get());
  }
  return s;
}

Step parse_step(const nlohmann::json& v, slong n) {
  Step s;
  s.index = v.at("step").get<slong>();
  s.t0 = parse_number(v.at("t0"));
  s.t1 = parse_number(v.at("t1"));
  s.h = s.t1 - s.t0;
  const std::string name = "step " + std::to_string(s.index);
  if (!s.h.positive()) throw Rejection(name + ": t1 − t0 is not positive");
  if (!arb_equal(s.h.get(), parse_number(v.at("h")).get()))
    throw Rejection(name + ": the recorded step size h = " + parse_number(v.at("h")).text() + " is not t1 − t0 = " + s.h.text());
  s.order = v.at("order").get<slong>();
  s.jac_order = v.at("jacobian_order").get<slong>();
  if (s.order < 1 || s.order > 80 || s.jac_order < 0 || s.jac_order > s.order)
    throw Rejection(name + ": order or jacobian_order out of range");
  s.apriori = parse_intervals(v.at("apriori"));
  s.box = parse_intervals(v.at("box"));
  if (static_cast<slong>(s.apriori.size()) != n || static_cast<slong>(s.box.size()) != n)
    throw std::invalid_argument(name + ": apriori and box must have the state's dimension");
  if (v.contains("set")) s.end = parse_set(v.at("set"), n);
  return s;
}

StepFacts check_step(const Field& f, const LohnerSet& start, const Step& st) {
  const slong n = f.n(), p = st.order, q = st.jac_order;
  const std::string name = "step " + std::to_string(st.index);
  StepFacts out;
  out.h = st.h;
  out.r = start.r_balls();
  // (a) a priori: Z = Σ_{k≤p} x_k([X]) [0,h]^k + x_{p+1}(E) [0,h]^{p+1} ⊂ int E. Then every solution
  // from the set stays in E on [0, h] (Corliss–Rihm), and in Z.
  const Coefficients over = taylor_coefficients(f, start.hull(), p, q);
  std::vector<Ball> E;
  for (const auto& e : st.apriori) E.push_back(e.hull());
  out.remainder = taylor_coefficients(f, E, p + 1, -1).x[p + 1];
  out.coef = over.x;
  for (slong i = 0; i < n; ++i) {
    Range z(out.remainder[i]);
    for (slong k = p; k >= 0; --k) z.horner_step(st.h, over.x[k][i]);
    if (!z.inside(st.apriori[i], true))
      throw Rejection(name + ": (a) a priori inclusion fails at " + component(i) + ": the Taylor range " + z.text() +
                      " is not inside E = " + st.apriori[i].text());
  }
  // (b) Taylor enclosure at s = h, in mean-value form about the centre c:
  //   x(h) ∈ y + (J·B)·[r],  y = Σ_{k≤q} x_k(c) h^k + Σ_{q<k≤p} x_k([X]) h^k + x_{p+1}(E) h^{p+1},
  //   J = Σ_{k≤q} Dx_k([X]) h^k (Lagrange remainder; mean value theorem on the segment [c, x0] ⊂ [X]).
  const Coefficients centre = taylor_coefficients(f, start.c, q, -1);
  std::vector<Ball> hk(p + 2);
  hk[0] = Ball(1);
  for (slong k = 1; k <= p + 1; ++k) hk[k] = hk[k - 1] * st.h;
  out.y.assign(n, Ball());
  Matrix J(n);
  for (slong i = 0; i < n; ++i) {
    out.y[i] = out.remainder[i] * hk[p + 1];
    for (slong k = 0; k <= p; ++k) out.y[i] += (k <= q ? centre.x[k][i] : over.x[k][i]) * hk[k];
    for (slong j = 0; j < n; ++j) {
      Ball s;
      for (slong k = 0; k <= q; ++k) s += over.D[k][i * n + j] * hk[k];
      arb_set(J.at(i, j), s.get());
    }
  }
  out.A = J * start.B;
  std::vector<Ball> direct = out.A.apply(out.r);
  for (slong i = 0; i < n; ++i) direct[i] += out.y[i];
  // (c) the moved set inside the recorded end set: B'⁻¹(y − c') + (B'⁻¹A)·[r] ⊆ [r'] (Lohner).
  if (st.end) {
    Matrix inv(n);
    if (!st.end->B.inverse(inv)) throw Rejection(name + ": (c) the end set's matrix is not certainly invertible");
    const Matrix M = inv * out.A;
    std::vector<Ball> d(n);
    for (slong i = 0; i < n; ++i) d[i] = out.y[i] - st.end->c[i];
    std::vector<Ball> img = inv.apply(d), mr = M.apply(out.r);
    for (slong i = 0; i < n; ++i) {
      img[i] += mr[i];
      if (!st.end->r[i].contains(img[i]))
        throw Rejection(name + ": (c) Lohner inclusion fails at r_" + std::to_string(i) + ": the moved set needs " +
                        img[i].text() + ", the end set has " + st.end->r[i].text());
    }
    const std::vector<Ball> hull = st.end->hull();
    for (slong i = 0; i < n; ++i) {
      Ball both;
      if (!arb_intersection(both.get(), direct[i].get(), hull[i].get(), kPrec))
        throw Rejection(name + ": (c) the end set and the Taylor enclosure are disjoint at " + component(i));
      direct[i] = both;
    }
  }
  // (c) the end box contains the moved set (its Taylor enclosure, met with the end set's hull).
  for (slong i = 0; i < n; ++i)
    if (!st.box[i].contains(direct[i]))
      throw Rejection(name + ": (c) end box inclusion fails at " + component(i) + ": the moved set needs " + direct[i].text() +
                      ", the box is " + st.box[i].text());
  return out;
}

Range over_step(const StepFacts& st, const Weights& w) {
  const slong p = static_cast<slong>(st.coef.size()) - 1;
  Range z(dot(st.remainder, w));
  for (slong k = p; k >= 0; --k) z.horner_step(st.h, dot(st.coef[k], w));
  return z;
}

Range slope_over_step(const StepFacts& st, const Weights& w) {
  const slong p = static_cast<slong>(st.coef.size()) - 1;
  Range z(dot(st.remainder, w));
  for (slong k = p; k >= 1; --k) z.horner_step(st.h, dot(st.coef[k], w));
  return z;
}

Ball at_end(const StepFacts& st, const Weights& w) {
  Ball z = dot(st.y, w);
  const slong n = st.A.size();
  for (slong m = 0; m < n; ++m) {
    Ball row;
    for (const auto& [i, wi] : w) { Ball a; arb_set(a.get(), st.A.at(i, m)); row += a * Ball(wi); }
    z += row * st.r[m];
  }
  return z;
}

}  // namespace verify
