#pragma once
// Reading a counterexample for `softcert replay`: a results.jsonl record with a
// "counterexample", or a file written by `softcert search` (same fields). Kept apart from the
// command so that the reader can be fuzzed (fuzz/fuzz_replay.cpp).
#include <string>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"

namespace softcert::engine {

struct ReplayRequest {
  const Check* check = nullptr;  // the registered check named by the record
  nlohmann::json instance;       // the counterexample
  CheckOptions options;          // always the rigorous tier; precision, horizon, params, dropped as recorded
};

// Parses the text of one record. Throws std::invalid_argument naming the problem (not JSON,
// not an object, no "check", unknown check, no "counterexample" object, badly typed
// precision_bits / horizon / params, a "dropped" hypothesis the check does not have); `where`
// prefixes the message (the file name).
ReplayRequest read_replay_record(const std::string& text, const std::string& where);

}  // namespace softcert::engine
