// The pair-gap checks' decision procedure (order preservation, repulsion), compiled once: see
// run_pair_claim_at in varre2026_tube_check.hpp.
#include "varre2026_tube_check.hpp"

namespace softcert::varre2026 {

engine::CheckResult run_pair_claim_at(const instances::Instance& inst,
                                      const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                      PairClaim claim, const engine::CheckOptions& o) {
  const TubeCheckSettings set = tube_settings(o);
  const unsigned bits = o.precision_bits == 0 ? 53 : o.precision_bits;
  auto rigorous = [&] {
    return engine::with_interval_kind(bits, [&](auto kind, unsigned used) {
      engine::CheckResult r = run_pair_claim<decltype(kind)>(inst, pairs, claim, set);
      r.precision_bits = used;
      return r;
    });
  };
  if (o.tier == engine::Tier::fast) return run_pair_claim_fast(inst, pairs, claim, set.horizon, rigorous);
  return rigorous();
}

}  // namespace softcert::varre2026
