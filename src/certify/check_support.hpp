#pragma once
// Small helpers shared by the finite-certificate checks (proofs_checks/sukenik2026_*).
#include <string>

#include "certify/interval_bridge.hpp"
#include "engine/check.hpp"

namespace softcert::certify {

// Sets the result's margin to the outward decimal bounds of `m`.
inline void set_margin(engine::CheckResult& r, const IntervalMp& m, int digits = 17) {
  r.margin_lower = lo_str(m, digits);
  r.margin_upper = hi_str(m, digits);
}

// The hypotheses of `all` not dropped.
inline bool kept(const engine::GenerateOptions& o, const std::string& hypothesis) { return o.dropped.count(hypothesis) == 0; }

}  // namespace softcert::certify
