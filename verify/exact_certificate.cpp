#include "exact_certificate.hpp"

#include <string>

#include "decimal.hpp"
#include "rational.hpp"
#include "step.hpp"

namespace verify {

namespace {

long small_integer(const nlohmann::json& v, const char* field) {
  const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  std::size_t used = 0;
  long n = 0;
  try {
    n = std::stol(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size() || n < 1 || n > 4096) throw Rejection(std::string("header: instance.") + field + " is not a size");
  return n;
}

// min_k p_k·w / ‖w‖ as a ball: a lower bound of the signed half-space depth of the points p_k
// when every p_k·w > 0 (checked exactly by the caller).
Ball depth_bound(const std::vector<QVec>& points, const QVec& w) {
  Q least = dot(points.front(), w);
  for (const auto& p : points) {
    const Q s = dot(p, w);
    if ((s - least).sign() < 0) least = s;
  }
  Ball norm = dot(w, w).ball(), out;
  arb_sqrt(norm.get(), norm.get(), kPrec);
  arb_div(out.get(), least.ball().get(), norm.get(), kPrec);
  return out;
}

// λ ≥ 0, Σλ = 1, Σ λ_i p_i = target exactly.
bool convex_combination(const std::vector<QVec>& points, const QVec& lambda, const QVec& target) {
  if (lambda.size() != points.size()) return false;
  Q total;
  QVec sum(target.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (lambda[i].sign() < 0) return false;
    total = total + lambda[i];
    for (std::size_t k = 0; k < target.size(); ++k) sum[k] = sum[k] + lambda[i] * points[i][k];
  }
  if (!(total == Q(1))) return false;
  for (std::size_t k = 0; k < target.size(); ++k)
    if (!(sum[k] == target[k])) return false;
  return true;
}

}  // namespace

// sukenik2026.sink_alignment: the sink x_0 as a query too, keys x_1..x_T. Representable: some W
// with x_qᵀ W (x_0 − x_k) > 0 for all queries q ∈ {0..T} and keys k. Aligned: some u with
// u·x_q > 0 for every q. The claim on this instance: representable ⟺ aligned, with a margin.
FileVerdict check_exact(const std::vector<nlohmann::json>& lines) {
  if (lines.size() != 2) throw Rejection("an exact certificate has a header and one evidence line");
  const nlohmann::json& head = lines[0];
  if (head.value("check", "") != "sukenik2026.sink_alignment" ||
      head.value("claim", nlohmann::json::object()).value("kind", "") != "representable_iff_aligned")
    throw Rejection("header: no exact claim this verifier knows (" + head.value("check", std::string("?")) + ")");
  const nlohmann::json& inst = head.at("instance");
  const long d = small_integer(inst.at("d"), "d"), T = small_integer(inst.at("T"), "T");
  const QVec sink = parse_rational_vector(inst.at("sink"), static_cast<std::size_t>(d));
  if (!inst.at("tokens").is_array() || inst.at("tokens").size() != static_cast<std::size_t>(T))
    throw Rejection("header: instance.tokens is not T rows");
  std::vector<QVec> queries{sink}, keys;
  for (const auto& row : inst.at("tokens")) {
    const QVec x = parse_rational_vector(row, static_cast<std::size_t>(d));
    queries.push_back(x);
    QVec diff(static_cast<std::size_t>(d));
    for (long i = 0; i < d; ++i) diff[i] = sink[i] - x[i];
    keys.push_back(diff);
  }
  const nlohmann::json& m = head.at("margin");
  if (!m.is_array() || m.size() != 2 || !parse_number(m[0]).positive())
    throw Rejection("header: the margin " + m.dump() + " is not positive, so it does not back proved");
  const Ball margin = parse_number(m[0]);

  const nlohmann::json& ev = lines[1];
  std::vector<Ball> bounds;  // lower bounds of the margin max(ρ(x_0 − keys), −ρ(queries))
  bool keys_separated = false;
  if (ev.contains("sink_minus_keys") && ev.at("sink_minus_keys").contains("separator")) {
    const QVec v = parse_rational_vector(ev.at("sink_minus_keys").at("separator"), static_cast<std::size_t>(d));
    for (long k = 0; k < T; ++k)
      if (dot(keys[k], v).sign() <= 0) throw Rejection("keys: v·(x_0 − x_" + std::to_string(k + 1) + ") is not > 0");
    keys_separated = true;
    bounds.push_back(depth_bound(keys, v));
  }
  const nlohmann::json& qs = ev.at("queries");
  std::string side;
  if (qs.contains("separator")) {
    const QVec u = parse_rational_vector(qs.at("separator"), static_cast<std::size_t>(d));
    for (std::size_t q = 0; q < queries.size(); ++q)
      if (dot(queries[q], u).sign() <= 0) throw Rejection("queries: u·x_" + std::to_string(q) + " is not > 0 (not aligned)");
    // aligned; W = u vᵀ has gaps (u·x_q)(v·(x_0 − x_k)) > 0: representable
    if (!keys_separated) throw Rejection("aligned, but no separator of x_0 − x_k shows it representable");
    side = "aligned and representable (W = u v^T, every gap > 0)";
  } else if (qs.contains("zero_combination")) {
    const QVec lambda = parse_rational_vector(qs.at("zero_combination"), queries.size());
    if (!convex_combination(queries, lambda, QVec(static_cast<std::size_t>(d))))
      throw Rejection("queries: the zero combination is not a convex combination equal to 0");
    // not aligned (u·Σλx = 0 for every u), not representable (Σ_q λ_q x_qᵀ W d_k = 0 for every W)
    side = "neither aligned nor representable (0 is a convex combination of the queries)";
    if (qs.contains("inner_radius")) {
      const Q r = parse_rational(qs.at("inner_radius"));
      const nlohmann::json& combos = qs.at("interior_combinations");
      bool ok = r.sign() > 0 && combos.is_array() && combos.size() == static_cast<std::size_t>(2 * d);
      for (long k = 0; ok && k < 2 * d; ++k) {
        QVec target(static_cast<std::size_t>(d));
        target[k / 2] = k % 2 == 0 ? r : Q() - r;
        ok = convex_combination(queries, parse_rational_vector(combos[k], queries.size()), target);
      }
      if (!ok) throw Rejection("queries: the interior combinations do not give ±r e_k");
      Ball b = r.ball(), root(d);
      arb_sqrt(root.get(), root.get(), kPrec);
      arb_div(b.get(), b.get(), root.get(), kPrec);
      bounds.push_back(b);
    }
  } else {
    throw Rejection("queries: neither a separator nor a zero combination");
  }
  bool backed = false;
  for (const Ball& b : bounds) backed = backed || (b - margin).nonnegative();
  if (!backed) throw Rejection("the margin's lower end " + margin.text(17) + " is above every certified depth bound");
  return {true, side + "; representable iff aligned; margin >= " + margin.text(12) + " backed"};
}

}  // namespace verify
