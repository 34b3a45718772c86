#include "claim.hpp"

#include <algorithm>

namespace verify {

OrderPreservation::OrderPreservation(const Field& f, const nlohmann::json& claim) : T_(f.T) {
  if (claim.value("kind", "") != "order_preservation") throw Rejection("claim: not order_preservation");
  for (const auto& p : claim.at("pairs")) {
    const slong i = p.at(0).get<slong>(), j = p.at(1).get<slong>();
    if (i < 0 || j < 0 || i >= T_ || j >= T_ || i == j) throw Rejection("claim: pair out of range");
    pairs_.emplace_back(i, j);
  }
  // every pair the instance orders must be claimed: a certificate may not drop a pair
  for (slong i = 0; i < T_; ++i)
    for (slong j = 0; j < T_; ++j) {
      if (i == j) continue;
      const Ball d = f.x0[T_ + i] - f.x0[T_ + j];
      if (!d.positive() && !(f.x0[T_ + j] - f.x0[T_ + i]).positive())
        throw Rejection("claim: u_" + std::to_string(i) + "(0) and u_" + std::to_string(j) + "(0) are not certainly distinct");
      if (d.positive() && std::find(pairs_.begin(), pairs_.end(), std::make_pair(i, j)) == pairs_.end())
        throw Rejection("claim: the instance orders u_" + std::to_string(i) + "(0) > u_" + std::to_string(j) +
                        "(0), but the claim omits that pair");
    }
  for (const auto& [i, j] : pairs_) a_start_.push_back(f.x0[i] - f.x0[j]);
  arb_pos_inf(margin_.get());
}

void OrderPreservation::visit(const Step& step, const StepFacts& facts) {
  const std::string name = "step " + std::to_string(step.index);
  for (std::size_t k = 0; k < pairs_.size(); ++k) {
    const auto [i, j] = pairs_[k];
    const std::string pair = " for (i, j) = (" + std::to_string(i) + ", " + std::to_string(j) + ")";
    const Range du = over_step(facts, {{T_ + i, 1}, {T_ + j, -1}});
    if (!du.positive())
      throw Rejection(name + ": (e) claim: u_i − u_j = " + du.text() + " is not positive over the step" + pair);
    const Ball lo = du.lower();
    if (arb_lt(lo.get(), margin_.get())) margin_ = lo;
    const Weights ga{{i, 1}, {j, -1}};
    const Range g = over_step(facts, ga);
    if (!g.nonnegative()) {
      const Range slope = slope_over_step(facts, ga);
      if (!(a_start_[k].nonnegative() && slope.nonnegative()))
        throw Rejection(name + ": (e) claim: a_i − a_j ≥ 0 is not shown over the step" + pair + " (range " + g.text() +
                        ", start " + a_start_[k].text() + ", slope " + slope.text() + ")");
    }
    a_start_[k] = at_end(facts, ga);
  }
}

}  // namespace verify
