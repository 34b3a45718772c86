#include "certify/instance_json.hpp"

#include "engine/decimal_shortening.hpp"
#include "numerics/quote.hpp"

#include <stdexcept>

namespace softcert::certify {

std::string short_decimal(double x, int sig) { return engine::decimal_with_digits(x, sig); }

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

Rational require_rational(const nlohmann::json& obj, const std::string& field) {
  const auto& v = require(obj, field);
  if (!v.is_string()) throw std::invalid_argument("instance: field \"" + field + "\" must be a decimal string");
  return parse_rational(v.get<std::string>(), field);
}

RVec rvec_from_json(const nlohmann::json& j, const std::string& field) {
  if (!j.is_array()) throw std::invalid_argument("instance: field \"" + field + "\" must be an array");
  RVec v;
  v.reserve(j.size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string f = field + "[" + std::to_string(i) + "]";
    if (!j[i].is_string()) throw std::invalid_argument("instance: field \"" + f + "\" must be a decimal string");
    v.push_back(parse_rational(j[i].get<std::string>(), f));
  }
  return v;
}

RMat rmat_from_json(const nlohmann::json& j, const std::string& field) {
  if (!j.is_array()) throw std::invalid_argument("instance: field \"" + field + "\" must be an array of rows");
  RMat m;
  for (std::size_t i = 0; i < j.size(); ++i) m.push_back(rvec_from_json(j[i], field + "[" + std::to_string(i) + "]"));
  return m;
}

RVec require_rvec(const nlohmann::json& obj, const std::string& field, std::size_t n) {
  RVec v = rvec_from_json(require(obj, field), field);
  if (v.size() != n) throw std::invalid_argument("instance: field \"" + field + "\" must have " + std::to_string(n) + " entries, has " + std::to_string(v.size()));
  return v;
}

RMat require_rmat(const nlohmann::json& obj, const std::string& field, std::size_t rows, std::size_t cols) {
  RMat m = rmat_from_json(require(obj, field), field);
  if (m.size() != rows) throw std::invalid_argument("instance: field \"" + field + "\" must have " + std::to_string(rows) + " rows, has " + std::to_string(m.size()));
  const std::size_t c = cols ? cols : (m.empty() ? 0 : m[0].size());
  if (c == 0) throw std::invalid_argument("instance: field \"" + field + "\" has empty rows");
  for (std::size_t i = 0; i < m.size(); ++i)
    if (m[i].size() != c)
      throw std::invalid_argument("instance: field \"" + field + "[" + std::to_string(i) + "]\" must have " + std::to_string(c) + " entries");
  return m;
}

nlohmann::json to_json(const RVec& v) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& x : v) j.push_back(rational_string(x));
  return j;
}

nlohmann::json to_json(const RMat& m) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& r : m) j.push_back(to_json(r));
  return j;
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

double param_double(const nlohmann::json& params, const std::string& key, double fallback) {
  if (!params.is_object() || !params.contains(key)) return fallback;
  const auto& v = params.at(key);
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    try {
      return std::stod(v.get<std::string>());
    } catch (const std::exception&) {
    }
  }
  throw std::invalid_argument("parameter \"" + key + "\" must be a number");
}

}  // namespace softcert::certify

#include "certify/random_source.hpp"

namespace softcert::certify {
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
}  // namespace softcert::certify
