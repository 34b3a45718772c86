#include "certify/rational_json.hpp"

#include <stdexcept>

#include "support/json_fields.hpp"

namespace softcert::certify {

Rational require_rational(const nlohmann::json& obj, const std::string& field) {
  const auto& v = support::require(obj, field);
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
  RVec v = rvec_from_json(support::require(obj, field), field);
  if (v.size() != n) throw std::invalid_argument("instance: field \"" + field + "\" must have " + std::to_string(n) + " entries, has " + std::to_string(v.size()));
  return v;
}

RMat require_rmat(const nlohmann::json& obj, const std::string& field, std::size_t rows, std::size_t cols) {
  RMat m = rmat_from_json(support::require(obj, field), field);
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

}  // namespace softcert::certify
