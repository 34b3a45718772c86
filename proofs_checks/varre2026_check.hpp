#pragma once
// The bases of the value-softmax checks (Varre, Rofin, Flammarion 2026). Every one cites the
// paper; the logistic ones of Thms 3.2 and 3.3 also share their hypotheses, their generator
// and the exact test of both hypotheses that lets `softcert search` move their instances.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check_text.hpp"
#include "engine/check.hpp"
#include "varre2026_common.hpp"

namespace softcert::varre2026 {

class VarreCheck : public StatedCheck {
 public:
  using StatedCheck::StatedCheck;
  std::string paper() const override { return kPaper; }
};

// Logistic loss, softmax, hypotheses uniform-a0 and distinct-u0, instances from
// generate_logistic_instance.
class LogisticCheck : public VarreCheck {
 public:
  using VarreCheck::VarreCheck;
  std::vector<std::string> hypotheses() const override { return {kUniformA0, kDistinctU0}; }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    return generate_logistic_instance(seed, o, name());
  }

  // Both hypotheses decided exactly on the rational initial data.
  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    const ExactStart s = exact_start(logistic_instance(instance));
    const std::size_t t = s.u.size();
    return {{kUniformA0, uniform(s.a)}, {kDistinctU0, ordered_pairs(s).size() == t * (t - 1) / 2}};
  }

  // The first entries that differ (uniform-a0) or tie (distinct-u0), exactly.
  std::string why_hypothesis_fails(const std::string& h, const nlohmann::json& instance) const override {
    const instances::Instance inst = logistic_instance(instance);
    const ExactStart s = exact_start(inst);
    if (h == kUniformA0)
      for (std::size_t j = 1; j < s.a.size(); ++j)
        if (s.a[j] != s.a[0])
          return "a_0(0) = " + inst.a[0] + " but a_" + std::to_string(j) + "(0) = " + inst.a[j];
    if (h == kDistinctU0)
      if (const auto tie = tied_pair(s.u))
        return "u_" + std::to_string(tie->first) + "(0) = u_" + std::to_string(tie->second) +
               "(0) (u(0) = V(0)^T beta*, exactly)";
    return "";
  }

 protected:
  static bool uniform(const std::vector<Rational>& a) {
    return std::all_of(a.begin(), a.end(), [&](const Rational& x) { return x == a[0]; });
  }
  // The first pair i < j with v_i = v_j, if any.
  static std::optional<std::pair<std::size_t, std::size_t>> tied_pair(const std::vector<Rational>& v) {
    for (std::size_t i = 0; i < v.size(); ++i)
      for (std::size_t j = i + 1; j < v.size(); ++j)
        if (v[i] == v[j]) return std::make_pair(i, j);
    return std::nullopt;
  }
};

}  // namespace softcert::varre2026
