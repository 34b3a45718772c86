#pragma once
// Certified entry into the forward-invariant region R_k = {a_k > a_j and u_k > u_j ∀ j ≠ k}
// of the τ-time logistic flow (docs/theorems/varre2026_region_lemma.md, Lemma 1). Entry at
// any time proves, by Lemma 2, one-hot convergence σ(a) → e_k and the massive-value split for
// all t → ∞.
#include <limits>
#include <optional>
#include <string>

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
  integrate::WalkOutcome walk;
};

// Guarantee: when `entry` is set, the exact solution is in R_winner at every time of `t`
// (every gap enclosure at that step end has a positive lower bound).
template <class S>
RegionEntrySearch<S> find_region_entry(const instances::Instance& inst, const TubeCheckSettings& set) {
  const auto model = models::LogisticReducedTau<S>::from_instance(inst);
  const std::size_t T = model.tokens();
  RegionEntrySearch<S> out;
  integrate::ValidatedOptions vo;
  vo.order = set.order;
  vo.max_steps = set.max_steps;
  vo.h_max = set.h_max;
  vo.keep_segments = false;
  auto try_winner = [&](const integrate::TubeStep<S>& st, std::size_t k) -> bool {
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
  out.walk = integrate::walk_until_time<S>(model, set.horizon, vo, [&](const integrate::TubeStep<S>& st) {
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

}  // namespace softcert::varre2026
