// KinkPossible's message and JSON (the guarantee is stated in integrate/kink_report.hpp).
#include <string>

#include "integrate/kink_report.hpp"

namespace softcert::integrate {

namespace {

std::string pair_text(const EnclosedValue& e) { return "[" + e.lower_text() + ", " + e.upper_text() + "]"; }

std::string arrival_text(const KinkArrival& a) {
  return "a[" + std::to_string(a.score) + "] reaches 0 at t ∈ " + pair_text(a.t) + " and " +
         (a.motion == "slides" ? "slides along it (Filippov)" : "stays at 0 (the zero branch)");
}

std::string message(const KinkInfo& k) {
  const std::string f = k.normalization == "abs" ? "|x|" : k.normalization;
  std::string s = "kink possible at t ∈ " + pair_text(k.stopped_at) + ": certified that no " +
                  (k.arrivals.empty() ? "" : "other ") + "attention score reaches the kink of " + f +
                  " (a_k = 0) for t ≤ " + k.stopped_at.lower_text() + " (" + std::to_string(k.steps) +
                  " validated steps, each keeping every other score's sign)";
  if (!k.arrivals.empty()) {
    s += "; certified crossings before that: ";
    for (std::size_t i = 0; i < k.arrivals.size(); ++i) s += (i ? "; " : "") + arrival_text(k.arrivals[i]);
  }
  s += "; the flow is not enclosed past t ∈ " + pair_text(k.stopped_at);
  if (k.has_nearest)
    s += "; nearest its kink there: a[" + std::to_string(k.nearest_score) + "] ∈ " + pair_text(k.nearest_score_value);
  if (!k.zero_from_start.empty()) {
    s += "; a[k](0) = 0 (on the kink from the start, not covered by this statement) for k ∈ {";
    for (std::size_t i = 0; i < k.zero_from_start.size(); ++i) s += (i ? ", " : "") + std::to_string(k.zero_from_start[i]);
    s += "}";
  }
  return s + " (stopped by: " + k.cause + ")";
}

}  // namespace

KinkPossible::KinkPossible(KinkInfo info) : support::RigorousFailure(message(info)), info_(std::move(info)) {}

nlohmann::json to_json(const KinkInfo& k) {
  nlohmann::json j = {{"normalization", k.normalization},
                      {"kink_free_until", k.stopped_at.lower_text()},
                      {"stopped_at", nlohmann::json::array({k.stopped_at.lower_text(), k.stopped_at.upper_text()})},
                      {"steps", k.steps},
                      {"zero_from_start", k.zero_from_start},
                      {"cause", k.cause}};
  if (!k.arrivals.empty()) {
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& a : k.arrivals)
      arr.push_back({{"score", a.score}, {"t", nlohmann::json::array({a.t.lower_text(), a.t.upper_text()})}, {"motion", a.motion}});
    j["arrivals"] = arr;
  }
  if (k.has_nearest) {
    j["nearest_score"] = k.nearest_score;
    j["nearest_score_value"] = nlohmann::json::array({k.nearest_score_value.lower_text(), k.nearest_score_value.upper_text()});
  }
  return j;
}

}  // namespace softcert::integrate
