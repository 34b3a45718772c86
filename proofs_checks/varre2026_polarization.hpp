#pragma once
// What the normalization-family and regression checks share: how far an attention vector is
// from one-hot, an instance generator for any loss and normalization, and the attention at a
// horizon in either tier.
#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>
#include <thread>
#include <type_traits>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "engine/verdict_policy.hpp"
#include "instances/generator.hpp"
#include "instances/instance.hpp"
#include "support/cpu_cap.hpp"
#include "integrate/flow.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"
#include "flow_certificate.hpp"
#include "varre2026_common.hpp"

namespace softcert::varre2026 {

// dist(α) = min_k max(|1 − α_k|, max_{j≠k} |α_j|): the ℓ∞ distance from α to the nearest
// one-hot vertex e_k. Guarantee (interval kinds): contains dist(α) for every α in the box.
template <class S>
S vertex_distance(const std::vector<S>& alpha) {
  S best;
  for (std::size_t k = 0; k < alpha.size(); ++k) {
    S dk = num::abs_of(S(S(1) - alpha[k]));
    for (std::size_t j = 0; j < alpha.size(); ++j)
      if (j != k) dk = num::max_of(dk, num::abs_of(alpha[j]));
    best = k == 0 ? dk : num::min_of(best, dk);
  }
  return best;
}

inline double vertex_distance_point(const std::vector<double>& alpha) {
  double best = INFINITY;
  for (std::size_t k = 0; k < alpha.size(); ++k) {
    double dk = std::abs(1 - alpha[k]);
    for (std::size_t j = 0; j < alpha.size(); ++j)
      if (j != k) dk = std::max(dk, std::abs(alpha[j]));
    best = std::min(best, dk);
  }
  return best;
}


inline std::string string_param(const nlohmann::json& params, const char* key, const std::string& fallback) {
  if (!params.contains(key)) return fallback;
  if (!params[key].is_string()) throw std::invalid_argument(std::string("params.") + key + ": must be a string");
  return params[key].get<std::string>();
}

// Hypothesis: a(0) = 1·𝟙, so α(0) is uniform for every normalization f(x)/Σf (and the same
// for every index under elementwise sigmoid); a(0) = 0 would make x², |x|, relu, x singular.
inline const char* const kUniformOnesA0 = "uniform-a0";

// A value-softmax instance for any loss/normalization (params "loss", "normalization", default
// logistic/softmax): T from params.T (default [2, 4]), d = params.d or T, V(0) = v_scale·N(0,1)
// (default 0.1), β* ~ N(0, I) normalised, a(0) = 1 — or, with `uniform-a0` dropped,
// a(0) = 1 + params.a_scale·N(0,1) (default scale 0.5). Dataset losses get n = params.n (default 8).
inline nlohmann::json generate_family_instance(std::uint64_t seed, const engine::GenerateOptions& o,
                                               const std::string& check) {
  support::SplitMix64 pick(seed ^ 0xfa311eULL);
  instances::GeneratorOptions g;
  g.T = pick_size(o.params, "T", 0, pick.next());
  if (g.T == 0) g.T = 2 + static_cast<std::size_t>(pick.next() % 3);
  g.d = pick_size(o.params, "d", g.T, pick.next());
  g.n = pick_size(o.params, "n", 8, pick.next());
  g.loss = instances::parse_loss(string_param(o.params, "loss", "logistic"));
  g.normalization = instances::parse_normalization(string_param(o.params, "normalization", "softmax"));
  g.v_scale = number_param(o.params, "v_scale", 0.1);
  const bool uniform = !o.dropped.count(kUniformOnesA0);
  g.a_scale = uniform ? 0.0 : number_param(o.params, "a_scale", 0.5);
  instances::Instance inst = instances::generate_instance(seed, g);
  for (auto& x : inst.a) x = uniform ? "1" : num::decimal_round_trip(1.0 + num::parse_decimal<double>(x));
  inst.id = check + "@" + std::to_string(seed);
  inst.provenance = check + " generator, seed " + std::to_string(seed) + (uniform ? "" : ", dropped: uniform-a0");
  return instances::to_json(inst);
}

// The certified kink arrivals of a rigorous run (integrate/kink_crossing.hpp) for a check's
// details: [{"score", "t": [lower, upper], "motion"}].
inline nlohmann::json kink_arrivals_json(const std::vector<flow::KinkArrival>& arrivals) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& k : arrivals)
    a.push_back({{"score", k.score}, {"t", nlohmann::json::array({k.t.lower_text(), k.t.upper_text()})}, {"motion", k.motion}});
  return a;
}

// flow::full_state_at for every member i with needed[i] (others: empty), the members spread over
// up to `threads` threads (0: the machine's cores; within the CPU cap) when S is IntervalD; one after another at MPFR
// kinds (Boost's precision is process-wide state, numerics/precision.hpp). Each member's run is
// the same computation on any thread, so the enclosures do not depend on `threads`. A member that
// throws: the first such member's exception (in member order) is rethrown after all have ended.
// requests[i]: member i's own request (e.g. its own PL-tail stop test, Request::tail_decided).
template <class S>
std::vector<std::optional<flow::FullStateEnclosure<S>>> rigorous_states_at(const std::vector<instances::Instance>& members,
                                                                                const std::vector<bool>& needed, double H,
                                                                                const std::vector<flow::Request>& requests,
                                                                                unsigned threads = 0) {
  const std::size_t m = members.size();
  if (requests.size() != m) throw std::invalid_argument("rigorous_states_at: one request per member");
  std::vector<std::optional<flow::FullStateEnclosure<S>>> out(m);
  std::vector<std::exception_ptr> failed(m);
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < m;) {
      if (!needed[i]) continue;
      try {
        out[i] = flow::full_state_at<S>(members[i], H, requests[i]);
      } catch (...) {
        failed[i] = std::current_exception();
      }
    }
  };
  const std::size_t wanted = static_cast<std::size_t>(std::count(needed.begin(), needed.end(), true));
  std::size_t n = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  if (!std::is_same_v<S, IntervalD>) n = 1;
  n = std::max<std::size_t>(1, std::min(n, wanted));
  // Each extra thread runs on a core the CPU cap has free (support/cpu_cap.hpp; none taken:
  // the members run here, one after another).
  std::vector<support::CpuSlot> cores;
  for (std::size_t k = 1; k < n; ++k)
    if (auto core = support::CpuSlot::try_extra()) cores.push_back(std::move(*core));
    else break;
  std::vector<std::thread> pool;
  for (std::size_t k = 0; k < cores.size(); ++k) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
  return out;
}

// The same request for every member.
template <class S>
std::vector<std::optional<flow::FullStateEnclosure<S>>> rigorous_states_at(const std::vector<instances::Instance>& members,
                                                                                const std::vector<bool>& needed, double H,
                                                                                const flow::Request& request,
                                                                                unsigned threads = 0) {
  return rigorous_states_at<S>(members, needed, H, std::vector<flow::Request>(members.size(), request), threads);
}

// The first member's run of rigorous_states_at's result (at least one member was needed).
template <class S>
const flow::FullStateEnclosure<S>& first_run(const std::vector<std::optional<flow::FullStateEnclosure<S>>>& runs) {
  for (const auto& run : runs)
    if (run) return *run;
  throw std::logic_error("first_run: no member ran");
}
// The certificate of a proved claim on α(a(H)) of the full model (docs/certificates.md): a header
// binding the check, the instance, the horizon, the claim (`kind`, ε) and the margin, then the
// run's steps (flow::full_state_at), over which softcert-verify encloses α where t = H may be and
// decides the claim itself.
inline std::vector<std::string> attention_at_horizon_certificate(const std::string& check, const std::string& kind,
                                                                 const nlohmann::json& instance, const engine::CheckResult& r,
                                                                 const std::vector<std::string>& steps, double epsilon) {
  return flow_certificate(check, "value_softmax_tau", instance, r, {{"kind", kind}, {"epsilon", num::exact_decimal(epsilon)}},
                          steps);
}

// The request of a check that sets only the Taylor order (0: the plan's) and the step budget.
inline flow::Request order_and_budget(unsigned order, std::size_t max_steps) {
  flow::Request q;
  q.order = order;
  q.max_steps = max_steps;
  return q;
}

// The same request without a tail (a check whose quoted enclosures are the validated steps' own).
inline flow::Request no_tail(flow::Request q) {
  q.tail = flow::TailPolicy::off;
  return q;
}

// α(a(H)) by the fast tier at 53 bits and again at 106 (no guarantee), as doubles.
struct FastAlpha {
  std::vector<double> run, reference;
  std::string failure;  // non-empty: the fast tier could not reach H (budget, stiffness)
};

inline FastAlpha fast_alpha(const instances::Instance& inst, double H, std::size_t max_steps) {
  FastAlpha out;
  flow::EstimateRequest q;
  q.max_steps = max_steps;
  try {
    const flow::EstimatePair rep = flow::estimate_full_at(inst, H, q);
    out.run = rep.run.values.alpha;
    if (rep.reference) out.reference = rep.reference->values.alpha;  // the 106-bit run's nearest doubles
  } catch (const std::runtime_error& e) {
    out.failure = e.what();
  }
  return out;
}

}  // namespace softcert::varre2026
