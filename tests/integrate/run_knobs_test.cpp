// integrate/run_knobs.hpp, the one reader of the plan's words: every accepted word gives its
// value ("auto" the empty choice), and any other word is refused naming the edge's field and
// the accepted words.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "integrate/run_knobs.hpp"

namespace softcert {
namespace {

using integrate::PlanForm;
using integrate::PlanStepper;
using integrate::PlanTime;
using integrate::TailPolicy;

// The message of the std::invalid_argument that `read` throws ("" if none).
std::string refusal(const std::function<void()>& read) {
  try {
    read();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(RunKnobs, EveryAcceptedWordGivesItsValue) {
  EXPECT_FALSE(integrate::parse_plan_form("auto"));
  EXPECT_EQ(integrate::parse_plan_form("reduced"), PlanForm::reduced_logistic);
  EXPECT_EQ(integrate::parse_plan_form("full"), PlanForm::full_state);
  EXPECT_FALSE(integrate::parse_plan_time("auto"));
  EXPECT_EQ(integrate::parse_plan_time("t"), PlanTime::t);
  EXPECT_EQ(integrate::parse_plan_time("tau"), PlanTime::tau);
  EXPECT_FALSE(integrate::parse_plan_set("auto"));
  EXPECT_EQ(integrate::parse_plan_set("lohner"), PlanStepper::lohner);
  EXPECT_EQ(integrate::parse_plan_set("ball"), PlanStepper::ball);
  EXPECT_EQ(integrate::parse_tail_policy("auto"), TailPolicy::automatic);
  EXPECT_EQ(integrate::parse_tail_policy("off"), TailPolicy::off);
}

// Each value's word reads back as that value (what results and reports write is what edges read).
TEST(RunKnobs, WrittenWordsReadBack) {
  for (PlanForm f : {PlanForm::reduced_logistic, PlanForm::full_state}) EXPECT_EQ(integrate::parse_plan_form(to_string(f)), f);
  for (PlanTime t : {PlanTime::t, PlanTime::tau}) EXPECT_EQ(integrate::parse_plan_time(to_string(t)), t);
  for (PlanStepper s : {PlanStepper::lohner, PlanStepper::ball}) EXPECT_EQ(integrate::parse_plan_set(to_string(s)), s);
  for (TailPolicy p : {TailPolicy::automatic, TailPolicy::off}) EXPECT_EQ(integrate::parse_tail_policy(to_string(p)), p);
}

TEST(RunKnobs, ABadWordIsRefusedNamingTheFieldAndTheWords) {
  EXPECT_EQ(refusal([] { integrate::parse_plan_form("half"); }), "form: expected auto, reduced or full, got \"half\"");
  EXPECT_EQ(refusal([] { integrate::parse_plan_time("later"); }), "time: expected auto, t or tau, got \"later\"");
  EXPECT_EQ(refusal([] { integrate::parse_plan_set("cube"); }), "set: expected auto, lohner or ball, got \"cube\"");
  EXPECT_EQ(refusal([] { integrate::parse_tail_policy("maybe"); }), "tail: expected auto or off, got \"maybe\"");
  // the edge names the field as its users spell it
  EXPECT_EQ(refusal([] { integrate::parse_plan_set("Ball", "params.set"); }), "params.set: expected auto, lohner or ball, got \"Ball\"");
  EXPECT_EQ(refusal([] { integrate::parse_plan_time("", "--time"); }), "--time: expected auto, t or tau, got \"\"");
  EXPECT_EQ(refusal([] { integrate::parse_tail_policy("on", "--tail"); }).rfind("--tail: ", 0), 0u);
}

}  // namespace
}  // namespace softcert
