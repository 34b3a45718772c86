#pragma once
// Strict reading and writing of instance JSON whose numbers are decimal strings: every
// failure throws std::invalid_argument naming the field.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "certify/rational_linear.hpp"

namespace softcert::certify {

// Writes x with `sig` significant digits as a short decimal string (the instance is then the
// decimal value exactly: what the check certifies is the written instance, not x).
std::string short_decimal(double x, int sig = 6);

const nlohmann::json& require(const nlohmann::json& obj, const std::string& field);
std::string require_string(const nlohmann::json& obj, const std::string& field);
// A decimal-string integer ("8") in [lo, hi]; a JSON integer is accepted too.
long require_int(const nlohmann::json& obj, const std::string& field, long lo, long hi);
Rational require_rational(const nlohmann::json& obj, const std::string& field);
RVec require_rvec(const nlohmann::json& obj, const std::string& field, std::size_t n);
// rows × cols (cols == 0: any common length ≥ 1).
RMat require_rmat(const nlohmann::json& obj, const std::string& field, std::size_t rows, std::size_t cols);

nlohmann::json to_json(const RVec& v);  // exact "p/q" strings
nlohmann::json to_json(const RMat& m);
RVec rvec_from_json(const nlohmann::json& j, const std::string& field);
RMat rmat_from_json(const nlohmann::json& j, const std::string& field);

// Integer parameter from options.params (number or decimal string), with a default.
long param_int(const nlohmann::json& params, const std::string& key, long fallback, long lo, long hi);
double param_double(const nlohmann::json& params, const std::string& key, double fallback);

}  // namespace softcert::certify

namespace softcert::certify {
class RandomSource;
// An integer parameter given as a number, a decimal string, or a range [lo, hi]; a range (or
// the default range when absent) is sampled with `rng`. Throws std::invalid_argument naming
// the key when malformed or outside [min_allowed, max_allowed].
long param_pick(const nlohmann::json& params, const std::string& key, long default_lo, long default_hi,
                long min_allowed, long max_allowed, RandomSource& rng);
}  // namespace softcert::certify
