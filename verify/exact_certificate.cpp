#include "exact_certificate.hpp"

#include <functional>
#include <optional>
#include <string>

#include "decimal.hpp"
#include "rational.hpp"
#include "step.hpp"

namespace verify {

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

// The header's margin: a positive lower end, which is what the record calls proved.
Ball positive_margin(const nlohmann::json& head) {
  const nlohmann::json& m = head.at("margin");
  if (!m.is_array() || m.size() != 2 || !parse_number(m[0]).positive())
    throw Rejection("header: the margin " + m.dump() + " is not positive, so it does not back proved");
  return parse_number(m[0]);
}

void require_backed(const Ball& margin, const std::vector<Ball>& bounds) {
  bool backed = false;
  for (const Ball& b : bounds) backed = backed || (b - margin).nonnegative();
  if (!backed) throw Rejection("the margin's lower end " + margin.text(17) + " is above every certified depth bound");
}

namespace {

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

struct Embeddings {
  long d = 0, T = 0;
  QVec sink;
  std::vector<QVec> tokens;
};

Embeddings read_embeddings(const nlohmann::json& inst) {
  Embeddings e;
  e.d = small_integer(inst.at("d"), "d");
  e.T = small_integer(inst.at("T"), "T");
  e.sink = parse_rational_vector(inst.at("sink"), static_cast<std::size_t>(e.d));
  if (!inst.at("tokens").is_array() || inst.at("tokens").size() != static_cast<std::size_t>(e.T))
    throw Rejection("header: instance.tokens is not T rows");
  for (const auto& row : inst.at("tokens")) e.tokens.push_back(parse_rational_vector(row, static_cast<std::size_t>(e.d)));
  return e;
}

// Whether the symmetric rational matrix g is positive semidefinite, exactly: symmetric
// elimination; a negative pivot, or a zero pivot with a nonzero rest of its column, refutes it.
bool psd(std::vector<QVec> g) {
  const std::size_t n = g.size();
  for (std::size_t k = 0; k < n; ++k) {
    const int s = g[k][k].sign();
    if (s < 0) return false;
    if (s == 0) {
      for (std::size_t i = k + 1; i < n; ++i)
        if (g[i][k].sign() != 0) return false;
      continue;
    }
    Q inv;
    fmpq_inv(inv.get(), g[k][k].get());
    for (std::size_t i = k + 1; i < n; ++i) {
      const Q f = g[i][k] * inv;
      for (std::size_t j = k + 1; j < n; ++j) g[i][j] = g[i][j] - f * g[k][j];
    }
  }
  return true;
}

// A certified κ > 0 with ‖Σ_j q_j v_j‖ ≥ κ‖q‖₁ for the vectors v_1..v_T, backing the header's
// margin. Evidence: a separator w of the v_j (κ = min_j w·v_j/‖w‖), or s² with G − s²I ⪰ 0 for
// their Gram matrix G (κ = s/√T). `name` is how the vectors are called in messages.
std::string kappa_backs_margin(const std::vector<QVec>& v, long d, const nlohmann::json& head, const nlohmann::json& ev,
                               const std::string& name) {
  const Ball margin = positive_margin(head);
  std::vector<Ball> bounds;
  std::string how;
  if (ev.contains("half_space")) {
    const QVec w = parse_rational_vector(ev.at("half_space").at("w"), static_cast<std::size_t>(d));
    for (std::size_t j = 0; j < v.size(); ++j)
      if (dot(v[j], w).sign() <= 0) throw Rejection("half-space: w·" + name + "_" + std::to_string(j + 1) + " is not > 0");
    bounds.push_back(depth_bound(v, w));
    how = "a separator of the " + name + "_j";
  }
  if (ev.contains("full_rank")) {
    const Q s2 = parse_rational(ev.at("full_rank").at("sigma_min_sq_lower"));
    std::vector<QVec> g(v.size(), QVec(v.size()));
    for (std::size_t i = 0; i < v.size(); ++i)
      for (std::size_t j = 0; j < v.size(); ++j) g[i][j] = dot(v[i], v[j]) - (i == j ? s2 : Q());
    if (s2.sign() <= 0 || !psd(g)) throw Rejection("full-rank: G − s²I is not positive semidefinite for s² > 0");
    Ball k = s2.ball(), t(static_cast<slong>(v.size()));
    arb_div(k.get(), k.get(), t.get(), kPrec);
    arb_sqrt(k.get(), k.get(), kPrec);
    bounds.push_back(k);
    how += std::string(how.empty() ? "" : " and ") + "G − s²I ⪰ 0";
  }
  if (bounds.empty()) throw Rejection("neither a half-space nor a full-rank certificate");
  require_backed(margin, bounds);
  return "kappa > 0 certified by " + how + "; margin >= " + margin.text(12) + " backed";
}

// sukenik2026.hard_switch.inputs: with P = I − x_0x_0ᵀ/‖x_0‖², a certified κ > 0 with
// ‖Σ_j q_j Px_j‖ ≥ κ‖q‖₁ (docs/theorems/sukenik2026_hard_switch.md: then every value map that
// silences the sink has ‖o‖ ≥ σ_⊥ κ (1 − p_0)).
FileVerdict check_switch(const nlohmann::json& head, const nlohmann::json& ev) {
  const Embeddings e = read_embeddings(head.at("instance"));
  const Q sink_sq = dot(e.sink, e.sink);
  if (sink_sq.sign() <= 0) throw Rejection("header: the sink is the zero vector");
  std::vector<QVec> parts;
  for (const auto& x : e.tokens) {
    const Q c = dot(x, e.sink) / sink_sq;
    QVec y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] - c * e.sink[i];
    parts.push_back(y);
  }
  return {true, kappa_backs_margin(parts, e.d, head, ev, "Px")};
}

// sukenik2026.hard_switch: the values v_1..v_T themselves (docs/theorems/sukenik2026_hard_switch.md,
// first part): ‖Σ_{j≥1} p_j v_j‖ ≥ κ(1 − p_0) for every attention vector p.
FileVerdict check_switch_values(const nlohmann::json& head, const nlohmann::json& ev) {
  const nlohmann::json& inst = head.at("instance");
  const long d = small_integer(inst.at("d"), "d"), T = small_integer(inst.at("T"), "T");
  if (!inst.at("values").is_array() || inst.at("values").size() != static_cast<std::size_t>(T))
    throw Rejection("header: instance.values is not T rows");
  std::vector<QVec> values;
  for (const auto& row : inst.at("values")) values.push_back(parse_rational_vector(row, static_cast<std::size_t>(d)));
  return {true, kappa_backs_margin(values, d, head, ev, "v")};
}

// sukenik2026.sink_representability: some W with x_qᵀ W (x_0 − x_k) > 0 for all queries and keys
// q, k ∈ 1..T. Evidence of the proved side: separators u of the queries (u·x_q > 0) and v of the
// sink minus the keys (v·(x_0 − x_k) > 0); then W = u vᵀ has every gap (u·x_q)(v·(x_0 − x_k)) > 0.
// The header's margin, min(ρ(queries), ρ(x_0 − keys)), is at most both depth bounds.
FileVerdict check_representability(const nlohmann::json& head, const nlohmann::json& ev) {
  const Embeddings e = read_embeddings(head.at("instance"));
  std::vector<QVec> keys;
  for (const auto& x : e.tokens) {
    QVec diff(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) diff[i] = e.sink[i] - x[i];
    keys.push_back(diff);
  }
  const std::size_t d = static_cast<std::size_t>(e.d);
  const QVec u = parse_rational_vector(ev.at("queries").at("separator"), d);
  const QVec v = parse_rational_vector(ev.at("sink_minus_keys").at("separator"), d);
  for (long q = 0; q < e.T; ++q)
    if (dot(e.tokens[q], u).sign() <= 0) throw Rejection("queries: u·x_" + std::to_string(q + 1) + " is not > 0");
  for (long k = 0; k < e.T; ++k)
    if (dot(keys[k], v).sign() <= 0) throw Rejection("keys: v·(x_0 − x_" + std::to_string(k + 1) + ") is not > 0");
  const Ball margin = positive_margin(head);
  require_backed(margin, {depth_bound(e.tokens, u)});
  require_backed(margin, {depth_bound(keys, v)});
  return {true, "representable: W = u v^T has every gap > 0; margin >= " + margin.text(12) + " backed by both depths"};
}

// The depth evidence of one point set P (docs/certificates.md): a separator w (every w·p > 0,
// ρ(P) ≥ min_p w·p/‖w‖), or a convex combination of P equal to 0 (ρ(P) ≤ 0), with optionally an
// inner radius r and 2d convex combinations equal to ±r e_k (ρ(P) ≤ −r/√d). Each piece present is
// checked exactly; `name` and `point` name the set and its points in messages.
struct DepthEvidence {
  std::optional<Ball> depth_lower;   // ρ(P) ≥ this (a separator)
  bool zero_in_hull = false;         // ρ(P) ≤ 0
  std::optional<Ball> inner;         // ρ(P) ≤ −this
};

DepthEvidence read_depth_evidence(const std::vector<QVec>& points, long d, const nlohmann::json& ev, const std::string& name,
                                  const std::function<std::string(std::size_t)>& point) {
  DepthEvidence out;
  if (ev.contains("separator")) {
    const QVec w = parse_rational_vector(ev.at("separator"), static_cast<std::size_t>(d));
    for (std::size_t k = 0; k < points.size(); ++k)
      if (dot(points[k], w).sign() <= 0) throw Rejection(name + ": " + point(k) + " is not > 0");
    out.depth_lower = depth_bound(points, w);
  } else if (ev.contains("zero_combination")) {
    if (!convex_combination(points, parse_rational_vector(ev.at("zero_combination"), points.size()), QVec(static_cast<std::size_t>(d))))
      throw Rejection(name + ": the zero combination is not a convex combination equal to 0");
    out.zero_in_hull = true;
    if (ev.contains("inner_radius")) {
      const Q r = parse_rational(ev.at("inner_radius"));
      const nlohmann::json& combos = ev.at("interior_combinations");
      bool ok = r.sign() > 0 && combos.is_array() && combos.size() == static_cast<std::size_t>(2 * d);
      for (long k = 0; ok && k < 2 * d; ++k) {
        QVec target(static_cast<std::size_t>(d));
        target[k / 2] = k % 2 == 0 ? r : Q() - r;
        ok = convex_combination(points, parse_rational_vector(combos[k], points.size()), target);
      }
      if (!ok) throw Rejection(name + ": the interior combinations do not give ±r e_k");
      Ball b = r.ball(), root(d);
      arb_sqrt(root.get(), root.get(), kPrec);
      arb_div(b.get(), b.get(), root.get(), kPrec);
      out.inner = b;
    }
  } else {
    throw Rejection(name + ": neither a separator nor a zero combination");
  }
  return out;
}

// sukenik2026.sink_alignment: the sink x_0 as a query too, keys x_1..x_T. Representable: some W
// with x_qᵀ W (x_0 − x_k) > 0 for all queries q ∈ {0..T} and keys k. Aligned: some u with
// u·x_q > 0 for every q. Three statements, each with its margin (the check's docs):
//   representable_iff_aligned   max(ρ(x_0 − keys), −ρ(queries))
//   pairwise_necessary          max(−min(ρ(queries), ρ(x_0 − keys)), min_k x_0·x_k)
//                               (representable ⇒ every token positively aligned with the sink)
//   mean_sufficient             max(−x_0·x̄, min(ρ(queries), ρ(x_0 − keys)))
//                               (aligned with the tokens' mean ⇒ representable)
// Separators u (queries) and v (x_0 − keys) make W = u vᵀ represent the sink, every gap
// (u·x_q)(v·(x_0 − x_k)) > 0; a zero combination of either set rules every W out
// (Σ λ x_qᵀ W d_k = 0). The header's margin must be at most one certified lower bound of it.
FileVerdict check_alignment(const nlohmann::json& head, const nlohmann::json& ev, const std::string& kind) {
  const Embeddings e = read_embeddings(head.at("instance"));
  const long d = e.d;
  const QVec& sink = e.sink;
  std::vector<QVec> queries{sink}, keys;
  for (const auto& x : e.tokens) {
    queries.push_back(x);
    QVec diff(static_cast<std::size_t>(d));
    for (long i = 0; i < d; ++i) diff[i] = sink[i] - x[i];
    keys.push_back(diff);
  }
  const Ball margin = positive_margin(head);
  const DepthEvidence q = read_depth_evidence(queries, d, ev.at("queries"), "queries",
                                              [](std::size_t k) { return "u·x_" + std::to_string(k); });
  DepthEvidence k;
  if (ev.contains("sink_minus_keys"))
    k = read_depth_evidence(keys, d, ev.at("sink_minus_keys"), "keys",
                            [](std::size_t j) { return "v·(x_0 − x_" + std::to_string(j + 1) + ")"; });
  const bool representable = q.depth_lower && k.depth_lower;  // W = u vᵀ
  std::vector<Ball> bounds;                                   // certified lower bounds of the margin
  std::string side;
  if (kind == "representable_iff_aligned") {
    if (q.depth_lower && !k.depth_lower) throw Rejection("aligned, but no separator of x_0 − x_k shows it representable");
    side = q.depth_lower ? "aligned and representable (W = u v^T, every gap > 0)"
                         : "neither aligned nor representable (0 is a convex combination of the queries)";
    if (k.depth_lower) bounds.push_back(*k.depth_lower);
    if (q.inner) bounds.push_back(*q.inner);
  } else if (kind == "pairwise_necessary") {
    Q least = dot(sink, e.tokens.front());
    for (const auto& x : e.tokens)
      if ((dot(sink, x) - least).sign() < 0) least = dot(sink, x);
    bounds.push_back(least.ball());
    if (q.inner) bounds.push_back(*q.inner);
    if (k.inner) bounds.push_back(*k.inner);
    side = least.sign() > 0 ? "every token positively aligned with the sink" : "not representable (the implication holds vacuously)";
  } else {
    Q mean;
    for (const auto& x : e.tokens) mean = mean + dot(sink, x);
    bounds.push_back((Q() - mean / Q(static_cast<slong>(e.tokens.size()))).ball());
    if (representable) {  // a ball holding min of the two depth bounds: never the larger of two that overlap
      Ball least;
      arb_min(least.get(), q.depth_lower->get(), k.depth_lower->get(), kPrec);
      bounds.push_back(least);
    }
    side = representable ? "representable (W = u v^T, every gap > 0)" : "the sink not aligned with the tokens' mean (vacuous)";
  }
  require_backed(margin, bounds);
  return {true, side + "; " + kind + "; margin >= " + margin.text(12) + " backed"};
}

}  // namespace

FileVerdict check_exact(const std::vector<nlohmann::json>& lines) {
  if (lines.size() != 2) throw Rejection("an exact certificate has a header and one evidence line");
  const nlohmann::json& head = lines[0];
  const std::string check = head.value("check", ""), kind = head.value("claim", nlohmann::json::object()).value("kind", "");
  if (check == "sukenik2026.sink_alignment" &&
      (kind == "representable_iff_aligned" || kind == "pairwise_necessary" || kind == "mean_sufficient"))
    return check_alignment(head, lines[1], kind);
  if (check == "sukenik2026.hard_switch.inputs" && kind == "switch_needs_sink") return check_switch(head, lines[1]);
  if (check == "sukenik2026.hard_switch" && kind == "values_need_sink") return check_switch_values(head, lines[1]);
  if (check == "sukenik2026.sink_representability" && kind == "representable") return check_representability(head, lines[1]);
  if (check == "varre2026.order_preservation.all_time" && kind == "co_ordered_start") return check_all_time(head, false);
  if ((check == "varre2026.repulsion.leader.all_time" || check == "varre2026.repulsion.leader") && kind == "leader_first")
    return check_all_time(head, true);
  if (check == "varre2026.elementwise_relu.no_polarization" && kind == "limit_not_one_hot") return check_elementwise_relu(head);
  if (check == "sukenik2026.oversmoothing.general" && (kind == "dense_smooths_more" || kind == "counteracts"))
    return check_oversmoothing_general(head, kind == "counteracts");
  if (check == "sukenik2026.cost_scaling" && kind == "sink_cheaper") return check_cost_scaling(head, lines[1]);
  if (check == "sukenik2026.oversmoothing" && (kind == "dense_smooths_more" || kind == "counteracts"))
    return check_oversmoothing(head, kind == "counteracts");
  throw Rejection("header: no exact claim this verifier knows (" + check + ")");
}

}  // namespace verify
