#include "support/json_fields.hpp"

#include <cctype>
#include <cmath>
#include <stdexcept>

#include "numerics/quote.hpp"

namespace softcert::support {

const nlohmann::json& require(const nlohmann::json& obj, const std::string& field) {
  if (!obj.is_object()) throw std::invalid_argument("instance: not a JSON object (reading \"" + field + "\")");
  const auto it = obj.find(field);
  if (it == obj.end()) throw std::invalid_argument("instance: missing field \"" + field + "\"");
  return *it;
}

std::string require_string(const nlohmann::json& obj, const std::string& field) {
  const auto& v = require(obj, field);
  if (!v.is_string()) throw std::invalid_argument("instance: field \"" + field + "\" must be a string");
  return v.get<std::string>();
}

long require_int(const nlohmann::json& obj, const std::string& field, long lo, long hi) {
  const auto& v = require(obj, field);
  long x = 0;
  if (v.is_number_integer()) {
    x = v.get<long>();
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    std::size_t pos = 0;
    try {
      x = std::stol(s, &pos);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos == 0 || pos != s.size()) throw std::invalid_argument("instance: field \"" + field + "\" must be an integer, got " + num::quoted(s));
  } else {
    throw std::invalid_argument("instance: field \"" + field + "\" must be an integer");
  }
  if (x < lo || x > hi)
    throw std::invalid_argument("instance: field \"" + field + "\" = " + std::to_string(x) + " outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return x;
}

long param_int(const nlohmann::json& params, const std::string& key, long fallback, long lo, long hi) {
  if (!params.is_object() || !params.contains(key)) return fallback;
  nlohmann::json wrapper = nlohmann::json::object();
  wrapper[key] = params.at(key);
  try {
    return require_int(wrapper, key, lo, hi);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("parameter: ") + e.what());
  }
}

std::string param_choice(const nlohmann::json& params, const std::string& key, const std::vector<std::string>& allowed) {
  if (!params.is_object() || !params.contains(key)) return allowed.at(0);
  const auto& v = params.at(key);
  if (v.is_string())
    for (const auto& a : allowed)
      if (v.get_ref<const std::string&>() == a) return a;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "\"" : ", \"") + a + "\"";
  throw std::invalid_argument("params." + key + ": must be one of " + list);
}

double param_double(const nlohmann::json& params, const std::string& key, double fallback) {
  if (!params.is_object() || !params.contains(key)) return fallback;
  const auto& v = params.at(key);
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    // the whole string, and finite: std::stod alone read "5abc" as 5 and took "nan" and "inf"
    const std::string& s = v.get_ref<const std::string&>();
    std::size_t pos = 0;
    double x = 0;
    try {
      x = std::stod(s, &pos);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos != 0 && pos == s.size() && std::isfinite(x) && !std::isspace(static_cast<unsigned char>(s[0]))) return x;
    throw std::invalid_argument("parameter \"" + key + "\" must be a finite number, got " + num::quoted(s));
  }
  throw std::invalid_argument("parameter \"" + key + "\" must be a number");
}

long param_pick(const nlohmann::json& params, const std::string& key, long default_lo, long default_hi,
                long min_allowed, long max_allowed, RandomSource& rng) {
  long lo = default_lo, hi = default_hi;
  if (params.is_object() && params.contains(key)) {
    const auto& v = params.at(key);
    if (v.is_array()) {
      if (v.size() != 2) throw std::invalid_argument("parameter \"" + key + "\": a range must be [lo, hi]");
      nlohmann::json w = {{"lo", v[0]}, {"hi", v[1]}};
      lo = param_int(w, "lo", 0, min_allowed, max_allowed);
      hi = param_int(w, "hi", 0, min_allowed, max_allowed);
      if (lo > hi) throw std::invalid_argument("parameter \"" + key + "\": empty range");
    } else {
      lo = hi = param_int(params, key, 0, min_allowed, max_allowed);
    }
  }
  if (lo < min_allowed || hi > max_allowed) throw std::invalid_argument("parameter \"" + key + "\" outside the allowed range");
  return lo == hi ? lo : static_cast<long>(rng.integer(static_cast<int>(lo), static_cast<int>(hi)));
}

}  // namespace softcert::support
