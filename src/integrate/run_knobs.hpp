#pragma once
// The one reader of the plan's choices from text, for every edge that takes them as words:
// `softcert integrate` (--time, --set, --tail), the checks' params (suites, `check --param`) and
// the Python module. "auto" is the empty optional: the plan's to choose (integrate/run_plan.hpp).
//
// A word outside the accepted ones throws std::invalid_argument naming `field` (the edge's own
// name for it: "--set", "params.set", "time") and the accepted words, e.g.
// `set: expected auto, lohner or ball, got "cube"`.
#include <optional>
#include <string_view>

#include "integrate/plan_choices.hpp"

namespace softcert::integrate {

std::optional<PlanForm> parse_plan_form(std::string_view text, std::string_view field = "form");     // auto, reduced, full
std::optional<PlanTime> parse_plan_time(std::string_view text, std::string_view field = "time");     // auto, t, tau
std::optional<PlanStepper> parse_plan_set(std::string_view text, std::string_view field = "set");    // auto, lohner, ball
TailPolicy parse_tail_policy(std::string_view text, std::string_view field = "tail");                // auto, off

}  // namespace softcert::integrate
