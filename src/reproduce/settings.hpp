#pragma once
// Reading `reproduce --set KEY=VALUE` settings (RunContext::settings): a missing key gives the
// default; a value of the wrong kind or out of range throws std::invalid_argument naming it.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace softcert::reproduce {

struct Experiment;

// The settings of `reproduce NAME --set KEY=VALUE ...`: each VALUE read as JSON when it is JSON
// (nested at most num::kMaxJsonDepth deep), else kept as the string; every KEY one that
// `experiment` lists, given once, and the assignment valid UTF-8 (numbers.json records it).
// Throws std::invalid_argument naming the assignment otherwise.
// The values' kinds and ranges are the experiment's to check (the readers below).
nlohmann::json parse_settings(const Experiment& experiment, const std::vector<std::string>& assignments);

inline double number_setting(const nlohmann::json& s, const char* key, double fallback, double lo, double hi) {
  if (!s.contains(key)) return fallback;
  if (!s[key].is_number() || !(s[key].get<double>() >= lo && s[key].get<double>() <= hi))
    throw std::invalid_argument(std::string("--set ") + key + ": expected a number in [" + nlohmann::json(lo).dump() +
                                ", " + nlohmann::json(hi).dump() + "]");
  return s[key].get<double>();
}

inline std::uint64_t integer_setting(const nlohmann::json& s, const char* key, std::uint64_t fallback, std::uint64_t lo,
                                     std::uint64_t hi) {
  if (!s.contains(key)) return fallback;
  // JSON reads a non-negative integer as unsigned, a negative one as signed: only the former fit.
  if (!s[key].is_number_unsigned() || s[key].get<std::uint64_t>() < lo || s[key].get<std::uint64_t>() > hi)
    throw std::invalid_argument(std::string("--set ") + key + ": expected an integer in [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
  return s[key].get<std::uint64_t>();
}

}  // namespace softcert::reproduce
