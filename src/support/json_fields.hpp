#pragma once
// Strict readers of the fields of instance and parameter JSON whose numbers are decimal
// strings (the sink-paper instances, docs/instances.md): every failure throws
// std::invalid_argument naming the field. Rational-valued fields: certify/rational_json.hpp.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/random_source.hpp"

namespace softcert::support {

const nlohmann::json& require(const nlohmann::json& obj, const std::string& field);
std::string require_string(const nlohmann::json& obj, const std::string& field);
// A decimal-string integer ("8") in [lo, hi]; a JSON integer is accepted too.
long require_int(const nlohmann::json& obj, const std::string& field, long lo, long hi);

// Integer parameter from options.params (number or decimal string), with a default.
long param_int(const nlohmann::json& params, const std::string& key, long fallback, long lo, long hi);
double param_double(const nlohmann::json& params, const std::string& key, double fallback);
// A string parameter that must be one of `allowed` (the first is the default when absent).
// Throws std::invalid_argument naming the key and the allowed values otherwise.
std::string param_choice(const nlohmann::json& params, const std::string& key, const std::vector<std::string>& allowed);
// An integer parameter given as a number, a decimal string, or a range [lo, hi]; a range (or
// the default range when absent) is sampled with `rng`. Throws std::invalid_argument naming
// the key when malformed or outside [min_allowed, max_allowed].
long param_pick(const nlohmann::json& params, const std::string& key, long default_lo, long default_hi,
                long min_allowed, long max_allowed, RandomSource& rng);

}  // namespace softcert::support
