// The instances of sukenik2026.cost_scaling (certify/cost_scaling_instance.hpp).
#include "certify/cost_scaling_instance.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "certify/rational_json.hpp"
#include "support/json_fields.hpp"
#include "support/random_source.hpp"
#include "numerics/decimal.hpp"

namespace softcert::certify {

CostInstance read_cost_instance(const nlohmann::json& in) {
  CostInstance ci;
  const std::string emb = support::require_string(in, "embedding");
  if (emb != "orthonormal" && emb != "gaussian")
    throw std::invalid_argument("instance: field \"embedding\" must be \"orthonormal\" or \"gaussian\"");
  ci.orthonormal = emb == "orthonormal";
  const std::string tau = support::require_string(in, "tau");
  if (tau != "1" && tau != "sqrt-d") throw std::invalid_argument("instance: field \"tau\" must be \"1\" or \"sqrt-d\"");
  ci.tau_sqrt_d = tau == "sqrt-d";
  ci.gamma_text = support::require_string(in, "gamma");
  const Rational g = certify::require_rational(in, "gamma");
  if (!(g > 0)) throw std::invalid_argument("instance: field \"gamma\" must be positive");
  ci.gamma = num::parse_decimal<IntervalD>(ci.gamma_text);
  ci.proposal = support::require_string(in, "proposal");
  if (ci.proposal != "closed-form" && ci.proposal != "csdp")
    throw std::invalid_argument("instance: field \"proposal\" must be \"closed-form\" or \"csdp\"");
  if (!ci.orthonormal && ci.proposal != "csdp") throw std::invalid_argument("instance: field \"proposal\": gaussian embeddings need \"csdp\"");
  const auto& cases = support::require(in, "cases");
  if (!cases.is_array() || cases.empty()) throw std::invalid_argument("instance: field \"cases\" must be a non-empty array");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string f = "cases[" + std::to_string(i) + "]";
    certify::CostCase c;
    c.orthonormal = ci.orthonormal;
    try {
      c.T = static_cast<std::size_t>(support::require_int(cases[i], "T", 1, 4096));
      if (ci.orthonormal) {
        c.d = c.T + 1;
      } else {
        c.d = static_cast<std::size_t>(support::require_int(cases[i], "d", 1, 1024));
        c.x_exact = certify::require_rmat(cases[i], "X", c.T + 1, c.d);
        c.x = certify::IMatrix(c.T + 1, c.d);
        const auto& xs = cases[i].at("X");
        for (std::size_t r = 0; r <= c.T; ++r)
          for (std::size_t k = 0; k < c.d; ++k) c.x(r, k) = num::parse_decimal<IntervalD>(xs[r][k].get<std::string>());
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(f + ": " + e.what());
    }
    ci.cases.push_back(std::move(c));
  }
  return ci;
}

nlohmann::json generate_cost_instance(std::uint64_t seed, const nlohmann::json& params, const std::string& check) {
  support::RandomSource rng(seed, 0xc057);
  std::string emb = (seed & 1) ? "gaussian" : "orthonormal";
  if (params.contains("embedding")) emb = params.at("embedding").get<std::string>();
  if (emb != "orthonormal" && emb != "gaussian") throw std::invalid_argument("parameter \"embedding\" must be orthonormal or gaussian");
  std::string tau = (seed & 2) ? "1" : "sqrt-d";
  if (params.contains("tau")) tau = params.at("tau").get<std::string>();
  const bool ortho = emb == "orthonormal";
  const long t_max = support::param_int(params, "T_max", ortho ? 64 : 12, 2, 4096);
  const long reps = ortho ? 1 : support::param_int(params, "replicates", 2, 1, 100);
  std::string d_rule = "T+1";
  if (params.contains("d_rule")) d_rule = params.at("d_rule").get<std::string>();
  if (d_rule != "T+1" && d_rule != "half") throw std::invalid_argument("parameter \"d_rule\" must be \"T+1\" or \"half\"");
  std::string proposal = ortho ? "closed-form" : "csdp";
  if (params.contains("proposal")) proposal = params.at("proposal").get<std::string>();
  std::vector<long> ts;
  if (ortho) {
    for (long t = 2; t <= t_max; t *= 2) ts.push_back(t);
  } else {
    for (long t : {2L, 3L, 4L, 6L, 8L, 12L, 16L, 24L, 32L, 48L, 64L})
      if (t <= t_max) ts.push_back(t);
  }
  nlohmann::json in;
  in["check"] = check;
  in["embedding"] = emb;
  in["tau"] = tau;
  in["gamma"] = "1";
  in["proposal"] = proposal;
  in["cases"] = nlohmann::json::array();
  for (long t : ts)
    for (long r = 0; r < reps; ++r) {
      nlohmann::json c;
      c["T"] = std::to_string(t);
      if (!ortho) {
        const long d = d_rule == "T+1" ? t + 1 : std::max(2L, (t + 1) / 2);
        c["d"] = std::to_string(d);
        c["X"] = nlohmann::json::array();
        for (long i = 0; i <= t; ++i) {
          nlohmann::json row = nlohmann::json::array();
          for (long k = 0; k < d; ++k) row.push_back(num::decimal_nearest(rng.normal() / std::sqrt(static_cast<double>(d)), 6));
          c["X"].push_back(row);
        }
      }
      in["cases"].push_back(c);
    }
  return in;
}

}  // namespace softcert::certify
