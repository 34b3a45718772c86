#pragma once
// The entropy of σ(a) and the fast tier of the regression sweep check (varre2026_regression.cpp):
// the 53-bit run and the 106-bit reference run of integrate/fast_integrate.hpp, each member's
// entropy evaluated from that run's a (in double for the 53-bit run, in MPFR at 106 bits for the
// reference). No guarantee: engine::decide_fast decides from the two margins.
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/verdict_policy.hpp"
#include "instances/regression_sweep.hpp"
#include "integrate/flow.hpp"
#include "numerics/decimal.hpp"
#include "numerics/entropy_enclosure.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "numerics/stable.hpp"

namespace softcert::varre2026 {

// The entropy of softmax(a): logsumexp(a) − Σ σ_i(a) a_i (numerics/entropy_enclosure.hpp: over
// a box at interval kinds, the plain value at point kinds).
template <class S>
S entropy_from_scores(const std::vector<S>& a) {
  return num::softmax_entropy(a);
}

// The pairs (i, j) of members whose gap H_i − H_j a reading's margin is the minimum of.
using EntropyGaps = std::vector<std::pair<std::size_t, std::size_t>>;

// The fast tier's two runs (53 bits, 106 bits) of every member a gap of g uses: their margins
// min over g of H_i − H_j into lo / hi (engine::decide_fast decides), their entropies into details.
inline void run_fast_entropies(const instances::RegressionSweep& sw, double H, std::size_t max_steps, const EntropyGaps& g,
                               engine::FastRun& lo, engine::FastRun& hi, nlohmann::json& details,
                               engine::RunFacts& facts) {
  lo = {NAN, 53, ""};
  hi = {NAN, 106, ""};
  std::vector<bool> needed(sw.members.size(), false);
  for (const auto& [i, j] : g) needed[i] = needed[j] = true;
  std::vector<double> h(sw.members.size(), 0.0);
  std::vector<std::vector<MpReal>> a_ref(sw.members.size());  // the 106-bit run's scores
  flow::EstimateRequest q;
  q.max_steps = max_steps;
  nlohmann::json hj = nlohmann::json::array();
  for (std::size_t i = 0; i < sw.members.size(); ++i) {
    if (!needed[i]) {
      hj.push_back(nullptr);
      continue;
    }
    flow::EstimatePair rep;
    try {
      rep = flow::estimate_full_at(sw.members[i], H, q);
    } catch (const std::runtime_error& e) {
      lo.failure = e.what();
      return;
    }
    if (!rep.reference) {
      lo.failure = "no reference run";
      return;
    }
    h[i] = entropy_from_scores(rep.run.values.a);
    hj.push_back(h[i]);
    a_ref[i] = rep.reference->mp->a;
  }
  double m = INFINITY;
  for (const auto& [i, j] : g) m = std::min(m, h[i] - h[j]);
  // the reference run's entropies and margin at its own 106 bits
  nlohmann::json hj_ref = nlohmann::json::array();
  std::string m_ref_text;
  std::vector<num::Enclosure> estimates;  // the 106-bit run's entropies (engine::RunFacts)
  double mr = 0;
  {
    num::PrecisionGuard guard(106);
    std::vector<MpReal> h_ref(sw.members.size(), MpReal(0));
    estimates.assign(sw.members.size(), num::Enclosure());
    for (std::size_t i = 0; i < sw.members.size(); ++i) {
      if (!needed[i]) {
        hj_ref.push_back(nullptr);
        continue;
      }
      h_ref[i] = entropy_from_scores(a_ref[i]);
      hj_ref.push_back(num::to_decimal(h_ref[i]));
      estimates[i] = num::Enclosure::point_estimate(h_ref[i]);
    }
    MpReal m_ref = h_ref[g[0].first] - h_ref[g[0].second];
    for (const auto& [i, j] : g)
      if (MpReal(h_ref[i] - h_ref[j]) < m_ref) m_ref = h_ref[i] - h_ref[j];
    m_ref_text = num::to_decimal(m_ref);
    mr = m_ref.convert_to<double>();
  }
  details["entropy_53"] = hj;
  details["entropy_106"] = hj_ref;
  facts.member_entropy = std::move(estimates);
  details["margin_53"] = m;
  details["margin_106"] = m_ref_text;
  lo.margin = m;
  hi.margin = mr;
}

}  // namespace softcert::varre2026
