#pragma once
// Exact certificates ("softcert.exact.v1", docs/certificates.md): a claim decided by exact
// rational certificates, re-checked here with FLINT rationals and, for the margins' square roots,
// Arb balls. Known claims: sukenik2026.sink_alignment ("representable iff aligned"),
// sukenik2026.hard_switch.inputs and sukenik2026.hard_switch (a certified κ > 0 for the tokens'
// parts orthogonal to the sink, or for the values), sukenik2026.sink_representability (a rank-one
// W represents the sink) and sukenik2026.oversmoothing (the sign of ρ'(α) − ρ'(0), recomputed
// from the Gram matrices: verify/oversmoothing.cpp), sukenik2026.cost_scaling (the sink's factors
// and the diagonal's multipliers: verify/cost_scaling.cpp), and the all-time orderings that follow
// from exact conditions on the initial state (verify/invariant_start.cpp).
#include <vector>

#include <nlohmann/json.hpp>

#include "arb_types.hpp"
#include "certificate.hpp"

namespace verify {

// Throws Rejection (step.hpp) naming what failed.
FileVerdict check_exact(const std::vector<nlohmann::json>& lines);

// The pieces the exact families share. A size in [1, 4096] ("instance.<field>" in the message);
// the header's margin's lower end, required positive (what the record calls proved); that the
// margin's lower end is at most one of the certified bounds.
long small_integer(const nlohmann::json& v, const char* field);
Ball positive_margin(const nlohmann::json& head);
void require_backed(const Ball& margin, const std::vector<Ball>& bounds);

// sukenik2026.oversmoothing, claim "dense_smooths_more" or (counteracts) its opposite.
FileVerdict check_oversmoothing(const nlohmann::json& head, bool counteracts);
FileVerdict check_oversmoothing_general(const nlohmann::json& head, bool counteracts);
// varre2026.order_preservation.all_time (claim co_ordered_start) and
// varre2026.repulsion.leader.all_time (leader_first): verify/invariant_start.cpp.
FileVerdict check_all_time(const nlohmann::json& head, bool leader);
// varre2026.elementwise_relu.no_polarization (claim limit_not_one_hot): verify/invariant_start.cpp.
FileVerdict check_elementwise_relu(const nlohmann::json& head);
// sukenik2026.cost_scaling, orthonormal embeddings (claim sink_cheaper): verify/cost_scaling.cpp.
FileVerdict check_cost_scaling(const nlohmann::json& head, const nlohmann::json& ev);

}  // namespace verify
