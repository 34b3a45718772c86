// sukenik2026.cost_scaling, claim sink_cheaper, for orthonormal embeddings (q_t = e_t, k_s = e_s
// in R^{T+1}; docs/theorems/sukenik2026_cost_scaling.md). For every T of the instance:
//   cost_sink ≤ U = ½(‖A‖² + ‖B‖²)/m, m = min over the sink's constraints (t, 0, s), 1 ≤ s ≤ t,
//     of A_t·(B_0 − B_s) > 0 (the factors scaled by 1/√m are feasible);
//   cost_diag ≥ L = Σy/μ for y ≥ 0 on the diagonal's constraints (t, t, s), 0 ≤ s < t, and
//     μ²I − ZZᵀ ≻ 0, Z = Σ y e_t(e_t − e_s)ᵀ (Σy ≤ ⟨W, Z⟩ ≤ ‖W‖_*‖Z‖₂ for every feasible W).
// So cost_diag/cost_sink − 1 ≥ L/U − 1 (the scale γτ cancels); the header's margin must be at most
// the least of these.
#include "decimal.hpp"
#include "exact_certificate.hpp"
#include "rational.hpp"
#include "step.hpp"

namespace verify {
namespace {

std::vector<QVec> read_rows(const nlohmann::json& m, std::size_t rows, const std::string& name) {
  if (!m.is_array() || m.size() != rows || !m[0].is_array() || m[0].empty())
    throw Rejection(name + " is not " + std::to_string(rows) + " nonempty rows");
  std::vector<QVec> out;
  for (const auto& row : m) out.push_back(parse_rational_vector(row, m[0].size()));
  return out;
}

}  // namespace

FileVerdict check_cost_scaling(const nlohmann::json& head, const nlohmann::json& ev) {
  const nlohmann::json& inst = head.at("instance");
  if (inst.value("embedding", "") != "orthonormal") throw Rejection("header: the instance's embeddings are not orthonormal");
  const nlohmann::json &cases = inst.at("cases"), &evidence = ev.at("cases");
  if (!cases.is_array() || !evidence.is_array() || cases.empty() || cases.size() != evidence.size())
    throw Rejection("evidence: not one case for each of the instance's cases");
  const Ball margin = positive_margin(head);
  Ball least;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::size_t T = static_cast<std::size_t>(small_integer(cases[i].at("T"), "cases.T")), d = T + 1;
    const std::string at = "case T = " + std::to_string(T) + ": ";
    if (evidence[i].at("T") != cases[i].at("T")) throw Rejection(at + "the evidence is for another T");
    const auto a = read_rows(evidence[i].at("sink").at("A"), d, at + "sink A");
    const auto b = read_rows(evidence[i].at("sink").at("B"), d, at + "sink B");
    if (a[0].size() != b[0].size()) throw Rejection(at + "sink: A and B have different ranks");
    Q m = dot(a[1], b[0]) - dot(a[1], b[1]), squares;
    for (std::size_t t = 1; t <= T; ++t)
      for (std::size_t s = 1; s <= t; ++s)
        if (const Q v = dot(a[t], b[0]) - dot(a[t], b[s]); (v - m).sign() < 0) m = v;
    if (m.sign() <= 0) throw Rejection(at + "sink: the factors' least margin A_t·(B_0 − B_s) is not positive");
    for (std::size_t r = 0; r < d; ++r) squares = squares + dot(a[r], a[r]) + dot(b[r], b[r]);
    const QVec y = parse_rational_vector(evidence[i].at("diagonal").at("y"), T * (T + 1) / 2);
    const Q mu = parse_rational(evidence[i].at("diagonal").at("mu"));
    Q total;
    std::vector<QVec> z(d, QVec(d));
    for (std::size_t t = 1, c = 0; t <= T; ++t)
      for (std::size_t s = 0; s < t; ++s, ++c) {
        if (y[c].sign() < 0) throw Rejection(at + "diagonal: a multiplier is negative");
        total = total + y[c];
        z[t][t] = z[t][t] + y[c];
        z[t][s] = z[t][s] - y[c];
      }
    if (total.sign() <= 0 || mu.sign() <= 0) throw Rejection(at + "diagonal: Σy or μ is not positive");
    Matrix g(static_cast<slong>(d));
    for (std::size_t r = 0; r < d; ++r)
      for (std::size_t c = 0; c < d; ++c) arb_set_fmpq(g.at(r, c), ((r == c ? mu * mu : Q()) - dot(z[r], z[c])).get(), kPrec);
    if (!g.positive_definite()) throw Rejection(at + "diagonal: μ²I − ZZᵀ is not shown positive definite");
    const Ball r = (Q(2) * m * total / (mu * squares)).ball() - Ball(1);  // L/U − 1
    if (i == 0) least = r;
    arb_min(least.get(), least.get(), r.get(), kPrec);
  }
  require_backed(margin, {least});
  return {true, "sink cheaper than diagonal for every T (factors, multipliers and ||Z|| re-checked); margin >= " +
                    margin.text(12) + " backed"};
}

}  // namespace verify
