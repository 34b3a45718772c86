// The plan's choices read from text (run_knobs.hpp).
#include "integrate/run_knobs.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace softcert::integrate {

namespace {

// The value of `text` among (word, value) pairs, else the error naming the field and the words.
template <class T, std::size_t N>
T pick(std::string_view text, std::string_view field, const std::pair<const char*, T> (&words)[N]) {
  for (const auto& [word, value] : words)
    if (text == word) return value;
  std::string accepted;
  for (std::size_t i = 0; i < N; ++i) accepted += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + words[i].first;
  throw std::invalid_argument(std::string(field) + ": expected " + accepted + ", got \"" + std::string(text) + "\"");
}

}  // namespace

std::optional<PlanForm> parse_plan_form(std::string_view text, std::string_view field) {
  using F = std::optional<PlanForm>;
  return pick<F>(text, field, {{"auto", F{}}, {"reduced", F{PlanForm::reduced_logistic}}, {"full", F{PlanForm::full_state}}});
}

std::optional<PlanTime> parse_plan_time(std::string_view text, std::string_view field) {
  using T = std::optional<PlanTime>;
  return pick<T>(text, field, {{"auto", T{}}, {"t", T{PlanTime::t}}, {"tau", T{PlanTime::tau}}});
}

std::optional<PlanStepper> parse_plan_set(std::string_view text, std::string_view field) {
  using S = std::optional<PlanStepper>;
  return pick<S>(text, field, {{"auto", S{}}, {"lohner", S{PlanStepper::lohner}}, {"ball", S{PlanStepper::ball}}});
}

TailPolicy parse_tail_policy(std::string_view text, std::string_view field) {
  return pick<TailPolicy>(text, field, {{"auto", TailPolicy::automatic}, {"off", TailPolicy::off}});
}

}  // namespace softcert::integrate
