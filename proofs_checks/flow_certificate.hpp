#pragma once
// The certificate of a proved result resting on validated steps (softcert.flow.v1,
// docs/certificates.md): a header binding the check, the model the steps integrate, the instance,
// the horizon, the claim and the record's margin, then the run's step lines
// (integrate/step_certificate.hpp), which softcert-verify re-checks with its own field.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "numerics/decimal.hpp"

namespace softcert {

inline std::vector<std::string> flow_certificate(const std::string& check, const std::string& model,
                                                 const nlohmann::json& instance, const engine::CheckResult& r,
                                                 const nlohmann::json& claim, const std::vector<std::string>& steps) {
  const nlohmann::json header = {{"certificate", "softcert.flow.v1"},
                                 {"check", check},
                                 {"model", model},
                                 {"set", "lohner"},
                                 {"instance", instance},
                                 {"horizon", num::exact_decimal(*r.horizon)},
                                 {"claim", claim},
                                 {"margin", r.margin.empty() ? nlohmann::json()
                                                             : nlohmann::json::array({r.margin.lower_text(), r.margin.upper_text()})}};
  std::vector<std::string> lines{header.dump()};
  lines.insert(lines.end(), steps.begin(), steps.end());
  return lines;
}

}  // namespace softcert
