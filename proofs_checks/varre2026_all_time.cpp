// Varre, Rofin, Flammarion (2026), Thm 3.2 for all t, decided exactly from the initial data by
// invariant regions (docs/theorems/varre2026_all_time.md: Lemma 3, and Lemma 1 of
// varre2026_region_lemma.md).
//
// order_preservation.all_time  a(0) and u(0) co-ordered (a_i(0) ≥ a_j(0) whenever u_i(0) > u_j(0);
//                              a(0) uniform is the paper's case): for every such pair, a_i > a_j
//                              and u_i > u_j for all t > 0 (Lemma 3: the quadrant is invariant
//                              and is entered at once). Margin: the smallest u-gap at t = 0, a
//                              lower bound of every u-gap for all t.
// repulsion.leader.all_time    k = argmax u(0) unique and a_k(0) ≥ a_j(0) for all j: every gap
//                              a_k − a_j, u_k − u_j is nondecreasing on [0, ∞) (Lemma 1). Margin 0
//                              (non-strict: "nondecreasing"; the u-gaps' derivative is 0 at t = 0
//                              when a(0) is uniform).
// Outside these hypotheses the lemma says nothing: inconclusive (the tube checks decide finite H).
#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "varre2026_check.hpp"

namespace softcert::varre2026 {

inline const char* const kCoOrderedStart = "co-ordered-start";

class AllTimeCheck : public LogisticCheck {
 public:
  explicit AllTimeCheck(bool leader)
      : LogisticCheck({leader ? "varre2026.repulsion.leader.all_time" : "varre2026.order_preservation.all_time",
                       "docs/theorems/varre2026_all_time.md",
                       leader
                           ? "[ours: leader reading of Thm 3.2's 'gaps widen' (paper, seed: 'the gaps between different components "
                             "widen over time'), for all t; proof ours (Lemma 1)] Logistic loss, softmax, k = argmax u(0) unique, "
                             "a_k(0) >= a_j(0) for all j (a(0) uniform included): a_k - a_j and u_k - u_j are nondecreasing on "
                             "[0, infinity) for every j != k."
                           : "[paper, Thm 3.2: seed 'the gradient flow preserves the order of the scores a and of the projected "
                             "values u'; pairwise form, all t and the co-ordered start ours; proof ours (Lemma 3)] Logistic loss, "
                             "softmax, u(0) distinct, a_i(0) >= a_j(0) whenever u_i(0) > u_j(0) (a(0) uniform included): for "
                             "every such pair a_i > a_j and u_i > u_j for all t > 0."}),
        leader_(leader) {}
  std::vector<std::string> hypotheses() const override { return {kCoOrderedStart, kDistinctU0}; }
  std::vector<std::string> params() const override { return {"T", "d", "a_scale"}; }
  bool strict_margin() const override { return !leader_; }

  // a(0) = a_scale·N(0, 1) (default 1; 0 gives the paper's a(0) = 0), its entries then
  // rearranged to follow the order of u(0) (kept unless co-ordered-start is dropped).
  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    engine::GenerateOptions g = o;
    const double scale = number_param(o.params, "a_scale", 1.0);
    if (scale != 0) g.dropped.insert(kUniformA0);
    g.params["a_scale"] = scale;
    nlohmann::json j = generate_logistic_instance(seed, g, name());
    if (scale == 0 || o.dropped.count(kCoOrderedStart)) return j;
    const ExactStart s = exact_start(instances::parse_instance(j));
    std::vector<std::size_t> by_u(s.u.size()), by_a(s.a.size());
    for (std::size_t i = 0; i < by_u.size(); ++i) by_u[i] = by_a[i] = i;
    std::stable_sort(by_u.begin(), by_u.end(), [&](auto x, auto y) { return s.u[x] < s.u[y]; });
    std::stable_sort(by_a.begin(), by_a.end(), [&](auto x, auto y) { return s.a[x] < s.a[y]; });
    nlohmann::json a = j["a"];
    for (std::size_t r = 0; r < by_u.size(); ++r) a[by_u[r]] = j["a"][by_a[r]];  // rank r of u gets rank r of a
    j["a"] = a;
    return j;
  }

  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    std::map<std::string, bool> h = LogisticCheck::hypotheses_on(instance);
    h[kCoOrderedStart] = !first_against(exact_start(logistic_instance(instance)));
    return h;
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& o) const override {
    if (o.tier != engine::Tier::rigorous)
      throw std::invalid_argument("tier: this check is an exact certificate; use --tier rigorous");
    const ExactStart s = exact_start(logistic_instance(instance));
    const auto pairs = ordered_pairs(s);
    if (pairs.size() != s.u.size() * (s.u.size() - 1) / 2)
      throw std::invalid_argument("V: the entries of u(0) = V(0)^T beta* must be pairwise distinct");
    engine::CheckResult r;
    r.precision_bits = 0;
    if (leader_) {
      const std::size_t k = leader(s);
      for (std::size_t j = 0; j < s.a.size(); ++j)
        if (s.a[j] > s.a[k]) {
          r.reason = "a_" + std::to_string(j) + "(0) > a_" + std::to_string(k) + "(0) for the leader k = argmax u(0): "
                     "outside Lemma 1 (the tube check varre2026.repulsion.leader decides finite horizons)";
          return r;
        }
      r.details["leader"] = k;
      r.verdict = engine::Verdict::proved;
      r.margin = engine::Margin::of_exact(0);
      r.reason = "the start is in the closure of R_" + std::to_string(k) +
                 " with every u-gap positive: by Lemma 1 every gap to the leader is nondecreasing for all t >= 0";
      return r;
    }
    if (const auto bad = first_against(s)) {
      r.details["pair"] = {bad->first, bad->second};
      r.reason = "u_" + std::to_string(bad->first) + "(0) > u_" + std::to_string(bad->second) + "(0) but a(0) is ordered "
                 "against it: outside Lemma 3 (the tube check varre2026.order_preservation decides finite horizons)";
      return r;
    }
    Rational m = -1;
    for (const auto& [i, j] : pairs)
      if (m < 0 || s.u[i] - s.u[j] < m) m = s.u[i] - s.u[j];
    r.verdict = engine::Verdict::proved;
    r.margin = engine::Margin::of_exact(m);
    r.details["pairs"] = pairs.size();
    r.reason = "a(0) and u(0) are co-ordered on all " + std::to_string(pairs.size()) +
               " pairs: by Lemma 3 every order holds for all t > 0, every u-gap stays >= " + decimal_below(m);
    return r;
  }

 private:
  // A pair with u_i(0) > u_j(0) and a_i(0) < a_j(0), if any.
  static std::optional<std::pair<std::size_t, std::size_t>> first_against(const ExactStart& s) {
    for (const auto& [i, j] : ordered_pairs(s))
      if (s.a[i] < s.a[j]) return std::make_pair(i, j);
    return std::nullopt;
  }
  bool leader_;
};

SOFTCERT_REGISTER_CHECK(AllTimeCheck, /*leader=*/false);
SOFTCERT_REGISTER_CHECK(AllTimeCheck, /*leader=*/true);

}  // namespace softcert::varre2026
