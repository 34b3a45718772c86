#include "polarization.hpp"

#include <string>
#include <vector>

#include "decimal.hpp"

namespace verify {

namespace {

// α(a) over the balls a, by the normalization's formula (pairwise softmax; σ for sigmoid).
std::vector<Ball> attention(const Field& f, const std::vector<Ball>& a) {
  const slong T = f.T;
  std::vector<Ball> alpha(T);
  Ball total;
  if (f.normalization == Normalization::square || f.normalization == Normalization::sum)
    for (const Ball& x : a) total += f.normalization == Normalization::square ? x * x : x;
  for (slong k = 0; k < T; ++k) {
    Ball& out = alpha[k];
    switch (f.normalization) {
      case Normalization::softmax: {
        Ball sum(1);
        for (slong j = 0; j < T; ++j) {
          if (j == k) continue;
          Ball e;
          arb_exp(e.get(), (a[j] - a[k]).get(), kPrec);
          sum += e;
        }
        arb_inv(out.get(), sum.get(), kPrec);
        break;
      }
      case Normalization::sigmoid: {
        Ball e;
        arb_neg(e.get(), a[k].get());
        arb_exp(e.get(), e.get(), kPrec);
        arb_inv(out.get(), (Ball(1) + e).get(), kPrec);
        break;
      }
      case Normalization::square: arb_div(out.get(), (a[k] * a[k]).get(), total.get(), kPrec); break;
      case Normalization::sum: arb_div(out.get(), a[k].get(), total.get(), kPrec); break;
    }
  }
  return alpha;
}

}  // namespace

PolarizedAtHorizon::PolarizedAtHorizon(const Field& f, const nlohmann::json& claim, const Ball& horizon) : f_(f), H_(horizon) {
  if (f.model != Model::value_softmax_tau) throw Rejection("claim: polarized_at_horizon needs the value_softmax_tau model");
  if (claim.value("kind", "") != "polarized_at_horizon") throw Rejection("claim: not polarized_at_horizon");
  eps_ = parse_number(claim.at("epsilon"));
  if (!eps_.positive() || !(Ball(1) - eps_).positive()) throw Rejection("claim: epsilon must lie in (0, 1)");
  if (!H_.positive()) throw Rejection("header: the horizon must be positive");
  arb_pos_inf(margin_.get());
}

void PolarizedAtHorizon::visit(const Step& step, const StepFacts& facts) {
  const Ball t = over_step(facts, {{f_.time_index(), 1}}).ball();
  if ((t - H_).positive() || (H_ - t).positive()) return;  // t = H is certainly not in this step
  ++at_horizon_;
  std::vector<Ball> a;
  for (slong k = 0; k < f_.T; ++k) a.push_back(over_step(facts, {{f_.a_offset() + k, 1}}).ball());
  const std::vector<Ball> alpha = attention(f_, a);
  Ball best;
  arb_neg_inf(best.get());
  for (slong k = 0; k < f_.T; ++k) {  // ε − max(|α_k − 1|, max_{j≠k} |α_j|)
    Ball dist;
    arb_abs(dist.get(), (alpha[k] - Ball(1)).get());
    for (slong j = 0; j < f_.T; ++j) {
      if (j == k) continue;
      Ball aj;
      arb_abs(aj.get(), alpha[j].get());
      arb_max(dist.get(), dist.get(), aj.get(), kPrec);
    }
    arb_max(best.get(), best.get(), (eps_ - dist).get(), kPrec);
  }
  if (!best.positive())
    throw Rejection("step " + std::to_string(step.index) + ": (e) claim: t = H may lie in this step, and there ε − dist(α, vertices) = " +
                    best.text() + " is not positive");
  Ball low;  // best's lower end, exactly
  arf_t l;
  arf_init(l);
  arb_get_lbound_arf(l, best.get(), kPrec);
  arb_set_arf(low.get(), l);
  arf_clear(l);
  if (arb_lt(low.get(), margin_.get())) margin_ = low;
}

}  // namespace verify
