#include "integrate/derived_enclosures.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "integrate/enclosed_value.hpp"
#include "numerics/decimal.hpp"
#include "numerics/entropy_enclosure.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert::integrate {
namespace {

// A result's enclosure as an interval of kind S containing it: its binary ends as they are (at 53
// bits for IntervalD; for IntervalMp rounded outward to the current precision, the result's own).
template <class S>
S interval_of(const EnclosedValue& e) {
  if constexpr (std::is_same_v<S, IntervalD>) return e.value.to_interval_d();
  else return e.value.to_interval_mp();
}

template <class S>
std::vector<S> intervals_of(const std::vector<EnclosedValue>& v) {
  std::vector<S> out;
  out.reserve(v.size());
  for (const auto& e : v) out.push_back(interval_of<S>(e));
  return out;
}

template <class S>
S max_any(const S& x, const S& y) {
  if constexpr (num::is_interval_v<S>) return num::max_of(x, y);
  else return x < y ? y : x;
}

// The k-th largest (k = 1, 2) of the scores: enclosed by the k-th largest lower bound and the
// k-th largest upper bound (an order statistic is nondecreasing in each argument).
template <class S>
S kth_largest(const std::vector<S>& a, std::size_t k) {
  using B = num::BoundOf<S>;
  std::vector<B> lo, hi;
  for (const auto& x : a) {
    lo.push_back(num::lower(x));
    hi.push_back(num::upper(x));
  }
  std::sort(lo.begin(), lo.end(), [](const B& p, const B& q) { return q < p; });
  std::sort(hi.begin(), hi.end(), [](const B& p, const B& q) { return q < p; });
  return num::hull_of_bounds<S>(lo[k - 1], hi[k - 1]);
}

// The enclosure of an interval; a point (the fast tier's double, no guarantee) as a point estimate
// written to nearest twice.
template <class S>
EnclosedValue enclose(const S& x) {
  if constexpr (num::is_interval_v<S>) {
    return enclosed_value(x);
  } else {
    return EnclosedValue{num::Enclosure::point_estimate(x), 0.0};
  }
}

template <class S>
DerivedEnclosures derive(const std::vector<S>& a, const std::vector<S>& alpha, const S& loss) {
  DerivedEnclosures out;
  if (alpha.empty()) throw std::invalid_argument("derived quantities: the state has no weights");
  bool undefined = false;
  if (const auto h = num::entropy_enclosure(alpha, undefined)) out.entropy = enclose(*h);
  else out.entropy_note = undefined ? "undefined: some weight α_k/Σα is certainly negative"
                                    : "not enclosed: Σα is not certainly positive or the sign of some weight is uncertain";
  if constexpr (num::is_interval_v<S>) {
    if (const auto m = num::max_weight_enclosure(alpha)) out.max_weight = enclose(*m);
  } else {
    S sum(0), best = alpha[0];
    for (const auto& x : alpha) {
      sum = sum + x;
      best = max_any(best, x);
    }
    if (sum > 0) out.max_weight = enclose(S(best / sum));
  }
  for (std::size_t k = 0; k < alpha.size() && !out.argmax; ++k) {
    bool above_all = true;
    for (std::size_t j = 0; j < alpha.size() && above_all; ++j)
      if (j != k && !num::certainly_gt(alpha[k], alpha[j])) above_all = false;
    if (above_all) out.argmax = k;
  }
  out.loss = enclose(loss);
  if (!a.empty()) {
    S top = a[0];
    for (const auto& x : a) top = max_any(top, x);
    for (const auto& x : a) out.gaps_to_max.push_back(enclose(S(top - x)));
    if (a.size() >= 2) {
      if constexpr (num::is_interval_v<S>) {
        const S gap = kth_largest(a, 1) - kth_largest(a, 2);
        // The gap is ≥ 0 for every point: clip the enclosure's lower end at 0 (exact on bounds).
        out.score_gap = enclose(num::max_of(gap, S(0)));
      } else {
        std::vector<S> s = a;
        std::sort(s.begin(), s.end(), [](const S& p, const S& q) { return q < p; });
        out.score_gap = enclose(S(s[0] - s[1]));
      }
    }
  }
  return out;
}

template <class S>
DerivedEnclosures derive_result(const RigorousIntegrateResult& r) {
  return derive(intervals_of<S>(r.a), intervals_of<S>(r.softmax), interval_of<S>(r.loss));
}

}  // namespace

DerivedEnclosures derive_enclosures(const RigorousIntegrateResult& r) {
  if (r.precision_bits <= 53) return derive_result<IntervalD>(r);
  num::PrecisionGuard guard(r.precision_bits);
  return derive_result<IntervalMp>(r);
}

DerivedEnclosures derive_enclosures(const std::vector<IntervalD>& a, const std::vector<IntervalD>& alpha,
                                    const IntervalD& loss) {
  return derive(a, alpha, loss);
}

DerivedEnclosures derive_enclosures(const std::vector<IntervalMp>& a, const std::vector<IntervalMp>& alpha,
                                    const IntervalMp& loss) {
  return derive(a, alpha, loss);
}

DerivedEnclosures derive_points(const std::vector<double>& a, const std::vector<double>& weights, double loss) {
  return derive(a, weights, loss);
}

nlohmann::json to_json(const DerivedEnclosures& d) {
  auto pair = [](const std::optional<EnclosedValue>& e) {
    return e ? nlohmann::json::array({e->lower_text(), e->upper_text()}) : nlohmann::json(nullptr);
  };
  nlohmann::json j;
  j["entropy"] = pair(d.entropy);
  if (!d.entropy_note.empty()) j["entropy_note"] = d.entropy_note;
  j["max_weight"] = pair(d.max_weight);
  j["argmax"] = d.argmax ? nlohmann::json(*d.argmax) : nlohmann::json(nullptr);
  j["score_gap"] = pair(d.score_gap);
  j["gaps_to_max"] = nlohmann::json::array();
  for (const auto& g : d.gaps_to_max) j["gaps_to_max"].push_back({g.lower_text(), g.upper_text()});
  return j;
}

}  // namespace softcert::integrate
