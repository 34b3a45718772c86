#include "certify/soft_cost_instance.hpp"

#include <cmath>
#include <stdexcept>

#include "certify/rational_json.hpp"
#include "support/json_fields.hpp"
#include "support/random_source.hpp"
#include "numerics/decimal.hpp"

namespace softcert::certify {

namespace {

std::vector<std::size_t> read_ts(const nlohmann::json& v, const std::string& field) {
  if (!v.is_array() || v.empty()) throw std::invalid_argument(field + " must be a non-empty array of integers");
  std::vector<std::size_t> ts;
  for (const auto& e : v) {
    long t = 0;
    if (e.is_number_integer()) t = e.get<long>();
    else if (e.is_string()) t = std::stol(e.get<std::string>());
    else throw std::invalid_argument(field + ": entries must be integers");
    if (t < 2 || t > 1024) throw std::invalid_argument(field + ": each T must lie in [2, 1024]");
    if (!ts.empty() && static_cast<std::size_t>(t) <= ts.back()) throw std::invalid_argument(field + " must increase strictly");
    ts.push_back(static_cast<std::size_t>(t));
  }
  return ts;
}

}  // namespace

SoftCostInstance read_soft_cost_instance(const nlohmann::json& in) {
  SoftCostInstance si;
  const std::string emb = support::require_string(in, "embedding");
  if (emb != "orthonormal" && emb != "gaussian") throw std::invalid_argument("instance: field \"embedding\" must be \"orthonormal\" or \"gaussian\"");
  si.orthonormal = emb == "orthonormal";
  si.epsilon_text = support::require_string(in, "epsilon");
  const Rational e = certify::require_rational(in, "epsilon");
  if (!(e > 0) || !(e < Rational(1, 2))) throw std::invalid_argument("instance: field \"epsilon\" must lie in (0, 1/2)");
  si.epsilon = num::parse_decimal<IntervalD>(si.epsilon_text);
  si.d = static_cast<std::size_t>(support::require_int(in, "d", 1, 64));
  si.ts = read_ts(support::require(in, "T"), "instance: field \"T\"");
  const std::size_t n = si.ts.back() + 1;
  si.x = certify::IMatrix(n, si.d);
  if (si.orthonormal) {
    if (n > si.d) throw std::invalid_argument("instance: orthonormal embeddings need T_max + 1 <= d");
    for (std::size_t s = 0; s < n; ++s) si.x(s, s) = IntervalD(1.0);
    return si;
  }
  const auto& xs = support::require(in, "X");
  if (!xs.is_array() || xs.size() != n) throw std::invalid_argument("instance: field \"X\" must have T_max + 1 rows");
  for (std::size_t r = 0; r < n; ++r) {
    if (!xs[r].is_array() || xs[r].size() != si.d) throw std::invalid_argument("instance: field \"X\": row " + std::to_string(r) + " must have d entries");
    for (std::size_t k = 0; k < si.d; ++k) {
      if (!xs[r][k].is_string()) throw std::invalid_argument("instance: field \"X\": entries must be decimal strings");
      try {
        si.x(r, k) = num::parse_decimal<IntervalD>(xs[r][k].get<std::string>());
      } catch (const std::exception&) {
        throw std::invalid_argument("instance: field \"X\": row " + std::to_string(r) + " has a malformed decimal");
      }
    }
  }
  return si;
}

nlohmann::json generate_soft_cost_instance(std::uint64_t seed, const nlohmann::json& params, const std::string& check) {
  support::RandomSource rng(seed, 0x50f7);
  const nlohmann::json p = params.is_object() ? params : nlohmann::json::object();
  std::string emb = p.contains("embedding") ? p.at("embedding").get<std::string>() : "gaussian";
  if (emb != "orthonormal" && emb != "gaussian") throw std::invalid_argument("parameter \"embedding\" must be orthonormal or gaussian");
  const std::string eps = p.contains("epsilon") ? (p.at("epsilon").is_string() ? p.at("epsilon").get<std::string>() : num::decimal_nearest(p.at("epsilon").get<double>(), 6)) : "0.1";
  const long d = support::param_int(p, "d", 8, 2, 64);
  const std::vector<std::size_t> ts = p.contains("T") ? read_ts(p.at("T"), "parameter \"T\"") : std::vector<std::size_t>{4, 8, 16, 32, 64, 128};
  const double min_cos = support::param_double(p, "min_cosine", 0.2);
  if (!(min_cos >= 0 && min_cos < 0.9)) throw std::invalid_argument("parameter \"min_cosine\" must lie in [0, 0.9)");
  nlohmann::json in;
  in["check"] = check;
  in["embedding"] = emb;
  in["epsilon"] = eps;
  in["d"] = d;
  in["T"] = ts;
  if (emb == "orthonormal") return in;
  const std::size_t n = ts.back() + 1;
  auto unit = [&] {
    std::vector<double> v(static_cast<std::size_t>(d));
    double s = 0;
    for (auto& c : v) { c = rng.normal(); s += c * c; }
    for (auto& c : v) c /= std::sqrt(s);
    return v;
  };
  std::vector<std::vector<double>> x{unit()};
  while (x.size() < n) {
    auto v = unit();
    double c = 0;
    for (long k = 0; k < d; ++k) c += v[static_cast<std::size_t>(k)] * x[0][static_cast<std::size_t>(k)];
    if (c < 0) { for (auto& e : v) e = -e; c = -c; }
    if (c >= min_cos) x.push_back(v);
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& v : x) {
    nlohmann::json row = nlohmann::json::array();
    for (double e : v) row.push_back(num::decimal_nearest(e, 6));
    rows.push_back(row);
  }
  in["min_cosine"] = num::decimal_nearest(min_cos, 6);
  in["X"] = rows;
  return in;
}

}  // namespace softcert::certify
