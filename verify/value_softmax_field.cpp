#include "value_softmax_field.hpp"

#include <stdexcept>
#include <string>

#include "decimal.hpp"

namespace verify {

Field value_softmax_field(const nlohmann::json& inst) {
  require_field(inst, "model", "value_softmax");
  require_field(inst, "loss", "logistic");
  Field f;
  f.model = Model::value_softmax_tau;
  const std::string norm = inst.value("normalization", std::string("softmax"));
  if (norm == "softmax") f.normalization = Normalization::softmax;
  else if (norm == "square") f.normalization = Normalization::square;
  else if (norm == "sum") f.normalization = Normalization::sum;
  else if (norm == "sigmoid") f.normalization = Normalization::sigmoid;
  else throw std::invalid_argument("instance: normalization \"" + norm + "\" is not softmax, square, sum or sigmoid");
  const std::vector<Ball> a = parse_vector(inst.at("a"));
  f.beta = parse_vector(inst.at("beta"));
  const nlohmann::json& V = inst.at("V");  // row i: coordinate i of β*; column k: token k
  f.T = static_cast<slong>(a.size());
  f.d = static_cast<slong>(f.beta.size());
  if (f.T < 1 || f.d < 1 || !V.is_array() || static_cast<slong>(V.size()) != f.d)
    throw std::invalid_argument("instance: V must have one row per entry of beta");
  for (slong i = 0; i < f.d; ++i) {
    const std::vector<Ball> row = parse_vector(V[i]);
    if (static_cast<slong>(row.size()) != f.T) throw std::invalid_argument("instance: each row of V must have T entries");
    f.x0.insert(f.x0.end(), row.begin(), row.end());
    f.c += f.beta[i] * f.beta[i];
  }
  f.x0.insert(f.x0.end(), a.begin(), a.end());
  f.x0.push_back(Ball(0));
  return f;
}

namespace {

// The field on series, with what Df needs: α, w, z = f''/F (normalized), u and e^m.
class ValueSoftmaxSeries : public SeriesField {
 public:
  ValueSoftmaxSeries(const Field& F, const std::vector<Poly>& x, slong len) : F_(F) {
    const slong T = F.T, d = F.d, A = F.a_offset();
    alpha_.resize(T);
    w_.resize(T);
    z_.resize(T);
    switch (F.normalization) {
      case Normalization::softmax:
        for (slong k = 0; k < T; ++k) {
          Poly sum(Ball(1));
          for (slong j = 0; j < T; ++j)
            if (j != k) sum = add(sum, exp_series(sub(x[A + j], x[A + k]), len));
          alpha_[k] = inv_series(sum, len);
          w_[k] = z_[k] = alpha_[k];
        }
        break;
      case Normalization::sigmoid:
        for (slong k = 0; k < T; ++k) {
          alpha_[k] = inv_series(add(Poly(Ball(1)), exp_series(sub(Poly(), x[A + k]), len)), len);
          w_[k] = mul(alpha_[k], sub(Poly(Ball(1)), alpha_[k]), len);
        }
        break;
      case Normalization::square:
      case Normalization::sum: {
        const bool square = F.normalization == Normalization::square;
        Poly total;
        for (slong k = 0; k < T; ++k) total = add(total, square ? mul(x[A + k], x[A + k], len) : x[A + k]);
        const Poly inv = inv_series(total, len);  // not finite where F may be 0: every inclusion then fails
        for (slong k = 0; k < T; ++k) {
          alpha_[k] = mul(square ? mul(x[A + k], x[A + k], len) : x[A + k], inv, len);
          w_[k] = square ? scale(mul(x[A + k], inv, len), Ball(2)) : inv;
          z_[k] = square ? scale(inv, Ball(2)) : Poly();
        }
        break;
      }
    }
    u_.resize(T);
    for (slong k = 0; k < T; ++k)
      for (slong i = 0; i < d; ++i) u_[k] = add(u_[k], scale(x[i * T + k], F.beta[i]));
    for (slong k = 0; k < T; ++k) m_ = add(m_, mul(alpha_[k], u_[k], len));
    e_ = exp_series(m_, len);
    f_.resize(F.n());
    for (slong i = 0; i < d; ++i)
      for (slong k = 0; k < T; ++k) f_[i * T + k] = scale(alpha_[k], F.beta[i]);
    for (slong k = 0; k < T; ++k) f_[A + k] = mul(w_[k], sigmoid() ? u_[k] : sub(u_[k], m_), len);
    f_[F.time_index()] = add(Poly(Ball(1)), e_);
  }
  const std::vector<Poly>& values() const override { return f_; }

  // Df(x)·v for v = (vV, va, vt): with wa = wᵀva and du = vVᵀβ*,
  //   dα_k = w_k va_k − α_k wa (normalized; f''/F = z: dw_k = z_k va_k − w_k wa), or w_k va_k
  //   (sigmoid; dw_k = w_k (1 − 2α_k) va_k); dm = dαᵀu + αᵀdu;
  //   dV'_ik = β*_i dα_k,  da'_k = dw_k (u_k − m) + w_k (du_k − dm)  (sigmoid: dw_k u_k + w_k du_k),
  //   dt' = e^m dm; nothing depends on t.
  std::vector<Poly> derivative(const std::vector<Poly>& v, slong len) const override {
    const slong T = F_.T, d = F_.d, A = F_.a_offset();
    Poly wa;
    if (!sigmoid())
      for (slong k = 0; k < T; ++k) wa = add(wa, mul(w_[k], v[A + k], len));
    std::vector<Poly> dalpha(T), du(T), dw(T);
    Poly dm;
    for (slong k = 0; k < T; ++k) {
      for (slong i = 0; i < d; ++i) du[k] = add(du[k], scale(v[i * T + k], F_.beta[i]));
      const Poly wv = mul(w_[k], v[A + k], len);
      if (sigmoid()) {
        dalpha[k] = wv;
        dw[k] = mul(sub(Poly(Ball(1)), scale(alpha_[k], Ball(2))), wv, len);
      } else {
        dalpha[k] = sub(wv, mul(alpha_[k], wa, len));
        dw[k] = sub(mul(z_[k], v[A + k], len), mul(w_[k], wa, len));
      }
      dm = add(dm, add(mul(dalpha[k], u_[k], len), mul(alpha_[k], du[k], len)));
    }
    std::vector<Poly> out(F_.n());
    for (slong i = 0; i < d; ++i)
      for (slong k = 0; k < T; ++k) out[i * T + k] = scale(dalpha[k], F_.beta[i]);
    for (slong k = 0; k < T; ++k)
      out[A + k] = sigmoid() ? add(mul(dw[k], u_[k], len), mul(w_[k], du[k], len))
                             : add(mul(dw[k], sub(u_[k], m_), len), mul(w_[k], sub(du[k], dm), len));
    out[F_.time_index()] = mul(e_, dm, len);
    return out;
  }

 private:
  bool sigmoid() const { return F_.normalization == Normalization::sigmoid; }
  const Field& F_;
  std::vector<Poly> f_, alpha_, w_, z_, u_;
  Poly m_, e_;
};

}  // namespace

std::unique_ptr<SeriesField> evaluate_value_softmax(const Field& f, const std::vector<Poly>& x, slong len) {
  return std::make_unique<ValueSoftmaxSeries>(f, x, len);
}

}  // namespace verify
