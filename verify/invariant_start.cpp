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
#include <string>
#include <vector>

#include "exact_certificate.hpp"
#include "field.hpp"
#include "rational.hpp"
#include "step.hpp"

namespace verify {

namespace {

struct ExactStart {
  QVec a, u;
};

// a(0) and u(0) = V(0)ᵀβ*, exactly; the instance is first read as the model softcert-verify
// knows (field_from_instance throws for another model, loss or normalisation).
ExactStart exact_start(const nlohmann::json& inst) {
  const Field f = field_from_instance(inst);
  const std::size_t T = static_cast<std::size_t>(f.T);
  ExactStart s;
  s.a = parse_rational_vector(inst.at("a"), T);
  const QVec beta = parse_rational_vector(inst.at("beta"), inst.at("beta").size());
  s.u.assign(T, Q());
  for (std::size_t i = 0; i < beta.size(); ++i) {
    const QVec row = parse_rational_vector(inst.at("V").at(i), T);
    for (std::size_t j = 0; j < T; ++j) s.u[j] = s.u[j] + row[j] * beta[i];
  }
  return s;
}

std::string name(const char* v, std::size_t i) { return std::string(v) + "_" + std::to_string(i) + "(0)"; }

}  // namespace

FileVerdict check_all_time(const nlohmann::json& head, bool leader) {
  const ExactStart s = exact_start(head.at("instance"));
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
