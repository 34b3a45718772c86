#pragma once
// Certified entry into the forward-invariant region R_k = {a_k > a_j and u_k > u_j ∀ j ≠ k}
// of the τ-time logistic flow (docs/theorems/varre2026_region_lemma.md, Lemma 1). Entry at
// any time proves, by Lemma 2, one-hot convergence σ(a) → e_k and the massive-value split for
// all t → ∞.
#include <limits>
#include <optional>
#include <string>

#include "flow_certificate.hpp"
#include "varre2026_tube_check.hpp"

namespace softcert::varre2026 {

template <class S>
struct RegionEntry {
  std::size_t winner = 0;
  std::size_t step = 0;
  S t;       // enclosure of the entry time (t-time)
  S margin;  // min over j ≠ k of the lower bounds of a_k − a_j and u_k − u_j at entry (> 0)
  S u_winner;
};

template <class S>
struct RegionEntrySearch {
  std::optional<RegionEntry<S>> entry;
  flow::WalkResult walk;  // with set.certificate on IntervalD: the steps up to the entry's, as certificate lines
};

// Guarantee: when `entry` is set, the exact solution is in R_winner at every time of `t`
// (every gap enclosure at that step end has a positive lower bound).
template <class S>
RegionEntrySearch<S> find_region_entry(const instances::Instance& inst, const TubeCheckSettings& set) {
  const auto model = models::LogisticReducedTau<S>::from_instance(inst);
  const std::size_t T = model.tokens();
  RegionEntrySearch<S> out;
  flow::WalkRequest q;
  q.order = set.order;
  q.max_steps = set.max_steps;
  q.h_max = set.h_max;
  q.certificate = set.certificate;
  auto try_winner = [&](const flow::TubeStep<S>& st, std::size_t k) -> bool {
    // the step's actual end is at s = h, known as an enclosure: evaluate over all of it
    const S at = st.h();
    num::BoundOf<S> m = std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < T; ++j) {
      if (j == k) continue;
      const S ga = st.difference(k, j, at), gu = st.difference(T + k, T + j, at);
      if (!num::certainly_positive(ga) || !num::certainly_positive(gu)) return false;
      m = std::min(m, std::min(num::lower(ga), num::lower(gu)));
    }
    RegionEntry<S> e;
    e.winner = k;
    e.step = st.index();
    e.t = st.component(2 * T, at);
    e.margin = num::hull_of_bounds<S>(m, m);
    e.u_winner = st.component(T + k, at);
    out.entry = e;
    return true;
  };
  out.walk = flow::walk_until_time<S>(model, set.horizon, q, [&](const flow::TubeStep<S>& st) {
    // candidates: the largest a and the largest u at the step end (a choice only; entry is
    // certified for whichever candidate passes)
    std::size_t ka = 0, ku = 0;
    for (std::size_t i = 1; i < T; ++i) {
      if (num::mid(st.end()[i]) > num::mid(st.end()[ka])) ka = i;
      if (num::mid(st.end()[T + i]) > num::mid(st.end()[T + ku])) ku = i;
    }
    if (try_winner(st, ka)) return false;
    if (ku != ka && try_winner(st, ku)) return false;
    return true;
  });
  return out;
}

// The certificate of a proved entry into R_winner (docs/certificates.md): a header binding the
// check, the instance, the horizon, the winner and the margin, then the walk's steps up to the
// entry's, on whose end softcert-verify checks a_k > a_j and u_k > u_j (and, from the check's
// name, which token the claim says must win). Empty when the walk wrote no certificate.
template <class S>
std::vector<std::string> region_entry_certificate(const std::string& check, const nlohmann::json& instance,
                                                  const engine::CheckResult& r, const RegionEntrySearch<S>& found) {
  if (!found.walk.certificate || !found.entry || r.margin.empty()) return {};
  return flow_certificate(check, "logistic_reduced_tau", instance, r, {{"kind", "region_entry"}, {"winner", found.entry->winner}},
                          *found.walk.certificate);
}

}  // namespace softcert::varre2026
