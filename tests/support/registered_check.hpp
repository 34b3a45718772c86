#pragma once
// A registered check run by name on one instance through the engine (engine::run_check: its
// hypotheses tested first, its verdict policy applied), and the authors' instances as JSON —
// what the tests of single checks share.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "support/input_file.hpp"
#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"

namespace softcert::testing {

inline engine::CheckResult run_registered(const std::string& check, const nlohmann::json& inst, double horizon,
                                          const nlohmann::json& params = nlohmann::json::object()) {
  const engine::Check* c = engine::CheckRegistry::global().find(check);
  EXPECT_NE(c, nullptr) << check;
  if (!c) return {};
  engine::CheckOptions o;
  o.horizon = horizon;
  o.params = params;
  return engine::run_check(*c, inst, o);
}

// proofs_checks/instances/authors/FILE, parsed.
inline nlohmann::json authors_instance_json(const std::string& file) {
  return nlohmann::json::parse(
      support::read_input_file(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/" + file));
}

}  // namespace softcert::testing
