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

namespace {

// Whether x0[offset + k] exceeds every other x0[offset + j], certainly.
bool strict_argmax(const Field& f, slong offset, slong k) {
  for (slong j = 0; j < f.T; ++j)
    if (j != k && !(f.x0[offset + k] - f.x0[offset + j]).positive()) return false;
  return true;
}

// The smaller of a and b.
Ball least(const Ball& a, const Ball& b) { return arb_lt(b.get(), a.get()) ? b : a; }

}  // namespace

RegionEntry::RegionEntry(const Field& f, const nlohmann::json& claim, const std::string& check) : T_(f.T) {
  k_ = claim.at("winner").get<slong>();
  if (k_ < 0 || k_ >= T_) throw Rejection("claim: the winner is not a token");
  bool by_u = false, by_a = false;
  if (check == "varre2026.attention_sink" || check == "varre2026.attention_sink.argmax_u0") {
    by_u = true;
  } else if (check == "varre2026.attention_sink.argmax_a0" || check == "varre2026.attention_sink.values_at_zero") {
    by_a = true;
  } else if (check == "varre2026.attention_sink.agreeing") {
    by_u = by_a = true;
  } else if (check == "varre2026.one_hot.t2_basin") {
    // two tokens: E − 1 = cosh δ − 1 − Δ²/(2c), δ = a_0 − a_1, Δ = u_0 − u_1 (the conserved
    // quantity of docs/theorems/varre2026_t2_basin.md); E < 1 names argmax u(0), E > 1 argmax a(0)
    if (T_ != 2) throw Rejection("header: varre2026.one_hot.t2_basin has two tokens");
    const Ball delta = f.x0[0] - f.x0[1], gap = f.x0[2] - f.x0[3];
    Ball e, sq = gap * gap, two_c = f.c + f.c;
    arb_cosh(e.get(), delta.get(), kPrec);
    arb_div(sq.get(), sq.get(), two_c.get(), kPrec);
    e = e - Ball(1) - sq;
    if (arb_is_negative(e.get())) by_u = true;
    else if (arb_is_positive(e.get())) by_a = true;
    else throw Rejection("claim: E − 1 = " + e.text() + " is not certainly nonzero, so it names no winner");
  } else if (check != "varre2026.one_hot.eventual" && check != "varre2026.massive_values") {
    throw Rejection("header: the check " + check + " has no region-entry claim this verifier knows");
  }
  const std::string k = std::to_string(k_);
  if (by_u && !strict_argmax(f, T_, k_)) throw Rejection("claim: " + check + " needs the winner argmax u(0), and u_" + k + "(0) is not it");
  if (by_a && !strict_argmax(f, 0, k_)) throw Rejection("claim: " + check + " needs the winner argmax a(0), and a_" + k + "(0) is not it");
}

// The smallest gap x_k − x_j over a and u (j ≠ k), each from gap(offset of k, offset of j);
// `where` and `after` frame the message naming a gap that is not certainly positive.
template <class Gap>
Ball RegionEntry::least_gap(Gap gap, const std::string& where, const std::string& after) const {
  Ball m;
  arb_pos_inf(m.get());
  for (slong j = 0; j < T_; ++j) {
    if (j == k_) continue;
    for (const slong off : {slong(0), T_}) {
      const Ball g = gap(off + k_, off + j);
      const std::string x = off ? "u_" : "a_";
      if (!g.positive())
        throw Rejection(where + x + std::to_string(k_) + " − " + x + std::to_string(j) + " = " + g.text() + " is not positive" + after);
      m = least(m, g);
    }
  }
  return m;
}

Ball RegionEntry::at_start(const Field& f) const {
  return least_gap([&](slong i, slong j) { return f.x0[i] - f.x0[j]; }, "(e) claim: at t = 0, ", "");
}

Ball RegionEntry::at_end(const StepFacts& facts, const std::string& step) const {
  return least_gap([&](slong i, slong j) { return verify::at_end(facts, {{i, 1}, {j, -1}}); },
                   step + ": (e) claim: at the step's end, ", ": no entry into R_" + std::to_string(k_));
}

}  // namespace verify
