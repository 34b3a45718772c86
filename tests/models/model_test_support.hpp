#pragma once
// Small instances for the model and fast-tier tests.
#include <string>

#include "instances/instance.hpp"

namespace softcert::testing {

inline std::string headline_path() { return std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/headline.json"; }

inline instances::Instance headline() { return instances::load_instance(headline_path()); }

// T = 2, d = 2 logistic instance with distinct u entries.
inline instances::Instance two_token_logistic() {
  return instances::parse_instance(nlohmann::json::parse(R"({"model":"value_softmax","loss":"logistic",
    "normalization":"softmax","T":2,"d":2,"V":[["0.3","-0.2"],["0.1","0.25"]],"a":["0.2","-0.1"],
    "beta":["0.6","0.8"],"provenance":"test"})"));
}

}  // namespace softcert::testing
