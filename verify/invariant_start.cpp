// varre2026.order_preservation.all_time and varre2026.repulsion.leader.all_time
// (docs/theorems/varre2026_all_time.md): claims for all t ≥ 0 that follow, by the invariant-
// quadrant lemma (Lemma 3) and the region lemma (Lemma 1), from exact conditions on the initial
// state. The verifier trusts those lemmas as paper proofs and checks the conditions exactly: the
// instance's a(0) and u(0) = V(0)ᵀβ* as FLINT rationals.
//   co_ordered_start: u(0) distinct and a_i(0) ≥ a_j(0) whenever u_i(0) > u_j(0); then every such
//     pair keeps a_i > a_j and u_i > u_j for all t > 0 and u_i − u_j ≥ u_i(0) − u_j(0). The
//     header's margin is at most the smallest u-gap at t = 0.
//   leader_first: k = argmax u(0) strict and a_k(0) ≥ a_j(0) for every j; then every gap to k is
//     nondecreasing for all t ≥ 0. The claim is non-strict: the header's margin is at most 0.
// And varre2026.elementwise_relu.no_polarization (docs/theorems/varre2026_elementwise_relu.md):
// with α = max(a, 0) unnormalised the flow is solved in closed form, and α/Σα tends to p∞ with
// p∞_i ∝ √c a_i(0) + u_i(0) on the tokens S = {a_i(0) > 0, √c a_i(0) + u_i(0) > 0}; the claim
// "not one-hot" is |S| ≥ 2, checked exactly (√c a + u > 0 ⇔ u ≥ 0 or c a² > u² for a > 0), and
// the header's margin is at most 1 − max_i p∞_i, in Arb balls.
#include <string>
#include <vector>

#include "exact_certificate.hpp"
#include "rational.hpp"
#include "step.hpp"

namespace verify {

namespace {

struct ExactStart {
  QVec a, u;
};

std::string name(const char* v, std::size_t i) { return std::string(v) + "_" + std::to_string(i) + "(0)"; }

// a(0), u(0) = V(0)ᵀβ* and c = ‖β*‖², exactly, from an instance of the logistic value model with
// the given normalization (Rejection for another model, loss, normalization or shape).
ExactStart exact_start(const nlohmann::json& inst, const char* normalization, Q& c) {
  if (inst.value("model", "") != "value_softmax" || inst.value("loss", "") != "logistic" ||
      inst.value("normalization", "") != normalization)
    throw Rejection(std::string("header: the instance is not the logistic value model with normalization \"") + normalization + "\"");
  const std::size_t T = inst.at("a").size();
  if (T < 1 || T > 4096) throw Rejection("header: instance.a is not a size");
  ExactStart s;
  s.a = parse_rational_vector(inst.at("a"), T);
  const QVec beta = parse_rational_vector(inst.at("beta"), inst.at("beta").size());
  if (inst.at("V").size() != beta.size()) throw Rejection("header: instance.V has not one row per entry of beta");
  s.u.assign(T, Q());
  for (std::size_t i = 0; i < beta.size(); ++i) {
    const QVec row = parse_rational_vector(inst.at("V").at(i), T);
    for (std::size_t j = 0; j < T; ++j) s.u[j] = s.u[j] + row[j] * beta[i];
    c = c + beta[i] * beta[i];
  }
  return s;
}

}  // namespace

FileVerdict check_elementwise_relu(const nlohmann::json& head) {
  Q c;
  const ExactStart s = exact_start(head.at("instance"), "relu", c);
  if (c.sign() <= 0) throw Rejection("header: beta is 0");
  std::vector<std::size_t> survivors;
  for (std::size_t i = 0; i < s.a.size(); ++i)
    if (s.a[i].sign() > 0 && (s.u[i].sign() >= 0 || (c * s.a[i] * s.a[i] - s.u[i] * s.u[i]).sign() > 0)) survivors.push_back(i);
  if (survivors.size() < 2)
    throw Rejection("the claim: " + std::to_string(survivors.size()) + " token(s) survive, so the limit is one-hot or absent");
  Ball k = c.ball(), total;
  arb_sqrt(k.get(), k.get(), kPrec);
  std::vector<Ball> weight;
  for (std::size_t i : survivors) {
    weight.push_back(k * s.a[i].ball() + s.u[i].ball());
    total += weight.back();
  }
  Ball least;
  arb_pos_inf(least.get());
  for (const Ball& w : weight) {
    Ball rest = total - w;
    arb_div(rest.get(), rest.get(), total.get(), kPrec);
    if (arb_lt(rest.get(), least.get())) least = rest;
  }
  const Ball margin = positive_margin(head);
  if (!(least - margin).nonnegative())
    throw Rejection("the margin's lower end " + margin.text(17) + " is above 1 − max p∞ = " + least.text(17));
  return {true, std::to_string(survivors.size()) + " tokens survive: the limit of α/Σα has 1 − max p∞ = " + least.text(12) +
                    "; margin >= " + margin.text(12) + " backed"};
}

FileVerdict check_all_time(const nlohmann::json& head, bool leader) {
  Q c;
  const ExactStart s = exact_start(head.at("instance"), "softmax", c);
  const std::size_t T = s.u.size();
  const nlohmann::json& m = head.at("margin");
  if (!m.is_array() || m.size() != 2) throw Rejection("header: no margin");
  const Ball margin = parse_number(m[0]);
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = i + 1; j < T; ++j)
      if (s.u[i] == s.u[j]) throw Rejection("start: " + name("u", i) + " = " + name("u", j) + ": u(0) is not distinct");
  if (leader) {
    std::size_t k = 0;
    for (std::size_t j = 1; j < T; ++j)
      if ((s.u[j] - s.u[k]).sign() > 0) k = j;
    for (std::size_t j = 0; j < T; ++j)
      if ((s.a[j] - s.a[k]).sign() > 0)
        throw Rejection("start: " + name("a", j) + " > " + name("a", k) + " for the leader k = argmax u(0): Lemma 1 does not apply");
    if (!(Ball(0) - margin).nonnegative())
      throw Rejection("the margin's lower end " + margin.text(17) + " is above 0, the claim's certified bound (non-strict)");
    return {true, "leader k = " + std::to_string(k) + " with the largest a(0): every gap to it nondecreasing for all t (Lemma 1); margin 0"};
  }
  Q least;
  bool first = true;
  std::size_t pairs = 0;
  for (std::size_t i = 0; i < T; ++i)
    for (std::size_t j = 0; j < T; ++j) {
      if (i == j || (s.u[i] - s.u[j]).sign() <= 0) continue;
      if ((s.a[i] - s.a[j]).sign() < 0)
        throw Rejection("start: " + name("u", i) + " > " + name("u", j) + " but " + name("a", i) + " < " + name("a", j) +
                        ": not co-ordered, Lemma 3 does not apply");
      const Q gap = s.u[i] - s.u[j];
      if (first || (gap - least).sign() < 0) least = gap;
      first = false;
      ++pairs;
    }
  if (first) throw Rejection("start: no ordered pair");
  const Ball bound = least.ball();
  if (!(bound - margin).nonnegative())
    throw Rejection("the margin's lower end " + margin.text(17) + " is above the smallest u-gap at t = 0, " + bound.text(17));
  return {true, "a(0) and u(0) co-ordered on all " + std::to_string(pairs) + (pairs == 1 ? " pair" : " pairs") + ": every order holds for all t > 0 (Lemma 3); min u-gap " +
                    bound.text(12) + "; margin >= " + margin.text(12) + " backed"};
}

}  // namespace verify
