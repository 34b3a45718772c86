#pragma once
// The base of the sink-paper checks (Súkeník, López Amado, Lampert, Mondelli 2026): the
// citation, the provenance line their generators write, and the small helpers they share.
#include <cstdint>
#include <string>

#include "certify/interval_bridge.hpp"
#include "check_text.hpp"
#include "engine/check.hpp"
#include "engine/verdict_policy.hpp"
#include "numerics/decimal.hpp"

namespace softcert::checks {

class SinkPaperCheck : public StatedCheck {
 public:
  using StatedCheck::StatedCheck;
  std::string paper() const override {
    return "Súkeník, López Amado, Lampert, Mondelli (2026), Sink vs. diagonal patterns, arXiv 2605.08453";
  }

 protected:
  // "<name> generator, seed S[, dropped: h1,h2]": where a generated instance came from.
  std::string provenance(std::uint64_t seed, const engine::GenerateOptions& o) const {
    std::string dropped;
    for (const auto& h : o.dropped) dropped += (dropped.empty() ? "" : ",") + h;
    return name() + " generator, seed " + std::to_string(seed) + (dropped.empty() ? "" : ", dropped: " + dropped);
  }
};

// Whether the generator must keep `hypothesis` (it is not among the dropped).
inline bool kept(const engine::GenerateOptions& o, const std::string& hypothesis) { return o.dropped.count(hypothesis) == 0; }

// Sets the result's margin to the outward decimal bounds of `m`.
inline void set_margin(engine::CheckResult& r, const IntervalMp& m, int digits = 17) {
  r.margin_lower = certify::lo_str(m, digits);
  r.margin_upper = certify::hi_str(m, digits);
}

// The verdict from the exact sign of a quantity decided exactly (a rational, or the outcome of an
// exact certificate's re-verification): proved when > 0, violated when < 0, inconclusive when 0
// (engine::decide_by_margin's rule for a margin known exactly). The caller sets the margin.
inline void decide_by_exact_sign(engine::CheckResult& r, int sign, const engine::MarginReasons& why) {
  r.verdict = sign > 0 ? engine::Verdict::proved : (sign < 0 ? engine::Verdict::violated : engine::Verdict::inconclusive);
  r.reason = sign > 0 ? why.holds : (sign < 0 ? why.fails : why.undecided);
}

}  // namespace softcert::checks
