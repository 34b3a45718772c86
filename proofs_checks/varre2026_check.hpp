#pragma once
// The bases of the value-softmax checks (Varre, Rofin, Flammarion 2026). Every one cites the
// paper; the logistic ones of Thms 3.2 and 3.3 also share their hypotheses, their generator
// and the exact test of both hypotheses that lets `softcert search` move their instances.
#include <algorithm>
#include <map>
#include <string>
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

 protected:
  static bool uniform(const std::vector<Rational>& a) {
    return std::all_of(a.begin(), a.end(), [&](const Rational& x) { return x == a[0]; });
  }
};

}  // namespace softcert::varre2026
