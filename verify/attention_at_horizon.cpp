#include "attention_at_horizon.hpp"

#include <string>
#include <vector>

#include "decimal.hpp"

namespace verify {

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

Ball vertex_distance(const std::vector<Ball>& alpha) {
  const slong T = static_cast<slong>(alpha.size());
  std::vector<Ball> mag(T);
  for (slong k = 0; k < T; ++k) arb_abs(mag[k].get(), alpha[k].get());
  Ball out;
  arb_pos_inf(out.get());
  for (slong k = 0; k < T; ++k) {
    Ball dist;
    arb_abs(dist.get(), (alpha[k] - Ball(1)).get());
    for (slong j = 0; j < T; ++j)
      if (j != k) arb_max(dist.get(), dist.get(), mag[j].get(), kPrec);
    arb_min(out.get(), out.get(), dist.get(), kPrec);
  }
  return out;
}

namespace {

// The check each claim kind belongs to: a certificate's claim must be its check's.
const char* check_of(const std::string& kind) {
  if (kind == "polarized_at_horizon") return "varre2026.normalization.polarizes";
  if (kind == "spread_at_horizon") return "varre2026.normalization.spread";
  if (kind == "open_gates_at_horizon") return "varre2026.normalization.open_gates";
  if (kind == "max_attention_at_horizon") return "varre2026.one_hot.finite";
  return "";
}

// The model each claim kind is stated on.
Model model_of(const std::string& kind) {
  return kind == "max_attention_at_horizon" ? Model::logistic_reduced_tau : Model::value_softmax_tau;
}

}  // namespace

AttentionAtHorizon::AttentionAtHorizon(const Field& f, const nlohmann::json& claim, const std::string& check,
                                       const Ball& horizon)
    : f_(f), kind_(claim.value("kind", "")), H_(horizon) {
  if (check.empty() || check != check_of(kind_))
    throw Rejection("header: the check " + check + " has no claim " + kind_ + " on this model");
  if (f.model != model_of(kind_))
    throw Rejection(std::string("claim: ") + kind_ + " is stated on the " +
                    (model_of(kind_) == Model::value_softmax_tau ? "value_softmax_tau" : "logistic_reduced_tau") + " model");
  eps_ = parse_number(claim.at("epsilon"));
  if (!eps_.positive() || !(Ball(1) - eps_).positive()) throw Rejection("claim: epsilon must lie in (0, 1)");
  if (!H_.positive()) throw Rejection("header: the horizon must be positive");
  arb_pos_inf(margin_.get());
  if (kind_ == "open_gates_at_horizon") {
    const slong T = f.T, A = f.a_offset();
    alpha0_ = attention(f, std::vector<Ball>(f.x0.begin() + A, f.x0.begin() + A + T));
    for (slong k = 0; k < T; ++k) {
      Ball u;
      for (slong i = 0; i < f.d; ++i) u += f.x0[i * T + k] * f.beta[i];
      if (u.positive()) open_.push_back(k);
      else if (!(Ball(0) - u).nonnegative())
        throw Rejection("claim: the sign of u_" + std::to_string(k) + "(0) = (V(0)ᵀβ*)_" + std::to_string(k) + " is not certain");
    }
    if (open_.empty()) throw Rejection("claim: no token has a positive value projection u_i(0)");
  }
}

Ball AttentionAtHorizon::margin(const std::vector<Ball>& alpha) const {
  const slong T = f_.T;
  std::vector<Ball> mag(T);
  for (slong k = 0; k < T; ++k) arb_abs(mag[k].get(), alpha[k].get());
  Ball out;
  if (kind_ == "polarized_at_horizon") {  // ε − min_k max(|α_k − 1|, max_{j≠k} |α_j|)
    out = eps_ - vertex_distance(alpha);
  } else if (kind_ == "spread_at_horizon") {  // (1 − ε) − max |α_i| / Σ |α_i|
    Ball top = mag[0], sum;
    for (slong k = 0; k < T; ++k) {
      arb_max(top.get(), top.get(), mag[k].get(), kPrec);
      sum += mag[k];
    }
    Ball share;
    arb_div(share.get(), top.get(), sum.get(), kPrec);  // not finite where Σ|α| may be 0: not positive
    out = Ball(1) - eps_ - share;
  } else if (kind_ == "max_attention_at_horizon") {  // max_k α_k − (1 − ε)
    arb_neg_inf(out.get());
    for (slong k = 0; k < T; ++k) arb_max(out.get(), out.get(), alpha[k].get(), kPrec);
    out = out - (Ball(1) - eps_);
  } else {  // min over the open tokens of α_i(H) − α_i(0)
    arb_pos_inf(out.get());
    for (const slong i : open_) arb_min(out.get(), out.get(), (alpha[i] - alpha0_[i]).get(), kPrec);
  }
  return out;
}

void AttentionAtHorizon::visit(const Step& step, const StepFacts& facts) {
  const Ball t = over_step(facts, {{f_.time_index(), 1}}).ball();
  if ((t - H_).positive() || (H_ - t).positive()) return;  // t = H is certainly not in this step
  ++at_horizon_;
  std::vector<Ball> a;
  for (slong k = 0; k < f_.T; ++k) a.push_back(over_step(facts, {{f_.a_offset() + k, 1}}).ball());
  const Ball m = margin(attention(f_, a));
  if (!m.positive() || !m.finite())
    throw Rejection("step " + std::to_string(step.index) + ": (e) claim: t = H may lie in this step, and there the " + kind_ +
                    " margin " + m.text() + " is not positive");
  const Ball low = m.lower_end();
  if (arb_lt(low.get(), margin_.get())) margin_ = low;
}

}  // namespace verify
