#pragma once
// Rational-valued fields of instance and certificate JSON, exact both ways: decimal or "p/q"
// strings in, "p/q" strings out. Every failure throws std::invalid_argument naming the field.
// Other fields: support/json_fields.hpp.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "certify/rational_linear.hpp"

namespace softcert::certify {

Rational require_rational(const nlohmann::json& obj, const std::string& field);
RVec require_rvec(const nlohmann::json& obj, const std::string& field, std::size_t n);
// rows × cols (cols == 0: any common length ≥ 1).
RMat require_rmat(const nlohmann::json& obj, const std::string& field, std::size_t rows, std::size_t cols);

nlohmann::json to_json(const RVec& v);  // exact "p/q" strings
nlohmann::json to_json(const RMat& m);
RVec rvec_from_json(const nlohmann::json& j, const std::string& field);
RMat rmat_from_json(const nlohmann::json& j, const std::string& field);

}  // namespace softcert::certify
