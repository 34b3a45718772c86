#include "attended_column.hpp"

#include <memory>
#include <string>
#include <vector>

#include "attention_at_horizon.hpp"

namespace verify {

namespace {

// ‖(x_0, …)‖ of the balls x: a sum of squares, nonnegative, so its square root is taken on the
// nonnegative part of the sum's ball.
Ball norm(const std::vector<Ball>& x) {
  Ball s, out;
  for (const Ball& v : x) s += v * v;
  arb_sqrtpos(out.get(), s.get(), kPrec);
  return out;
}

}  // namespace

AttendedColumn::AttendedColumn(const Field& f, const nlohmann::json& claim, const std::string& check, const Ball& horizon)
    : f_(f), H_(horizon) {
  const std::string kind = claim.value("kind", "");
  monotone_ = kind == "attended_column_monotone";
  if (!(kind == "attended_column_at_horizon" && check == "varre2026.tied.attended_column_grows") &&
      !(monotone_ && check == "varre2026.tied.attended_column_grows.monotone"))
    throw Rejection("header: the check " + check + " has no claim " + kind + " on this model");
  if (f.model != Model::tied_value_softmax_tau)
    throw Rejection("claim: " + kind + " is stated on the tied_value_softmax_tau model");
  const nlohmann::json& k = claim.at("k");
  if (!k.is_number_integer() || k.get<slong>() < 0 || k.get<slong>() >= f.T)
    throw Rejection("claim: k = " + k.dump() + " is not a token (an integer 0 ≤ k < D = " + std::to_string(f.T) + ")");
  k_ = k.get<slong>();
  kind_ = kind + " (k = " + std::to_string(k_) + ")";
  if (!H_.positive()) throw Rejection("header: the horizon must be positive");
  std::vector<Ball> col;
  for (slong i = 0; i < f.T; ++i) col.push_back(f.x0[i * f.T + k_]);
  norm0_ = norm(col);
  arb_pos_inf(margin_.get());
}

void AttendedColumn::visit(const Step& step, const StepFacts& facts) {
  const slong D = f_.T, A = f_.a_offset();
  const Ball t = over_step(facts, {{f_.time_index(), 1}}).ball();
  const bool at_horizon = !(t - H_).positive() && !(H_ - t).positive();  // t = H may lie in this step
  if (!monotone_ && !at_horizon) return;  // the endpoint claim reads only the steps at t = H
  std::vector<Ball> U, a, z(D), col;
  for (slong i = 0; i < D * D; ++i) U.push_back(over_step(facts, {{i, 1}}).ball());
  for (slong j = 0; j < D; ++j) a.push_back(over_step(facts, {{A + j, 1}}).ball());
  if (monotone_) {  // 2 Σ_i U_ik f_{U,ik} over the step's ranges (f does not depend on t)
    std::vector<Poly> xs;
    for (const Ball& v : U) xs.emplace_back(v);
    for (const Ball& v : a) xs.emplace_back(v);
    xs.emplace_back(Ball(0));
    const std::unique_ptr<SeriesField> ev = evaluate(f_, xs, 1);
    Ball rate;
    for (slong i = 0; i < D; ++i) rate += U[i * D + k_] * ev->values()[i * D + k_].coeff(0);
    rate = rate + rate;
    if (!rate.positive() || !rate.finite())
      throw Rejection("step " + std::to_string(step.index) + ": (e) claim: d/dτ ‖U e_k‖² = " + rate.text() +
                      " is not positive over the step (k = " + std::to_string(k_) + ")");
    const Ball low = rate.lower_end();
    if (arb_lt(low.get(), margin_.get())) margin_ = low;
  }
  if (!at_horizon) return;
  ++at_horizon_;
  for (slong i = 0; i < D; ++i) {
    for (slong j = 0; j < D; ++j) z[i] += U[i * D + j] * a[j];
    col.push_back(U[i * D + k_]);
  }
  const std::vector<Ball> alpha = attention(f_, z);  // pairwise softmax (f_.normalization)
  const std::string at = "step " + std::to_string(step.index) + ": (e) claim: t = H may lie in this step, and there ";
  for (slong j = 0; j < D; ++j) {
    const Ball gap = alpha[k_] - alpha[j];
    if (j != k_ && (!gap.positive() || !gap.finite()))
      throw Rejection(at + "α_k − α_j = " + gap.text() + " is not positive (k = " + std::to_string(k_) + ", j = " +
                      std::to_string(j) + ")");
  }
  if (monotone_) return;
  const Ball m = norm(col) - norm0_;
  if (!m.positive() || !m.finite())
    throw Rejection(at + "the margin ‖U e_k‖ − ‖U e_k(0)‖ = " + m.text() + " is not positive (k = " + std::to_string(k_) + ")");
  const Ball low = m.lower_end();
  if (arb_lt(low.get(), margin_.get())) margin_ = low;
}

}  // namespace verify
