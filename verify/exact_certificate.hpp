#pragma once
// Exact certificates ("softcert.exact.v1", docs/certificates.md): a claim decided by exact
// rational certificates, re-checked here with FLINT rationals and, for the margin's one square
// root, Arb balls. Known claims: sukenik2026.sink_alignment ("representable iff aligned") and
// sukenik2026.hard_switch.inputs ("switch needs sink": a certified κ > 0 for the tokens' parts
// orthogonal to the sink).
#include <vector>

#include <nlohmann/json.hpp>

#include "certificate.hpp"

namespace verify {

// Throws Rejection (step.hpp) naming what failed.
FileVerdict check_exact(const std::vector<nlohmann::json>& lines);

}  // namespace verify
