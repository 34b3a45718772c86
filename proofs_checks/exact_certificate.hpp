#pragma once
// The exact certificate of a proved result (softcert.exact.v1, docs/certificates.md), for checks
// whose decision is exact: a header binding the check, the claim's kind, the instance and the
// record's margin, then one line of evidence, the decision's own exact data, which softcert-verify
// re-checks (or, where it recomputes the claim itself, reads as information).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"

namespace softcert {

inline std::vector<std::string> exact_certificate(const std::string& check, const std::string& kind,
                                                  const nlohmann::json& instance, const engine::CheckResult& r,
                                                  const nlohmann::json& evidence) {
  const nlohmann::json header = {{"certificate", "softcert.exact.v1"},
                                 {"check", check},
                                 {"claim", {{"kind", kind}}},
                                 {"instance", instance},
                                 {"margin", nlohmann::json::array({r.margin.lower_text(), r.margin.upper_text()})}};
  return {header.dump(), evidence.dump()};
}

}  // namespace softcert
