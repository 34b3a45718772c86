// engine::record_problem: the rules merge and --resume apply to every record read back
// (engine/record_validation.hpp). Each tampering below is refused; what the runner writes is
// accepted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "engine/verdict.hpp"
#include "engine/record_validation.hpp"
#include "engine/registry.hpp"
#include "numerics/precision.hpp"

namespace softcert::engine {
namespace {

nlohmann::json result_record(const std::string& verdict, nlohmann::json margin) {
  return {{"check", "sukenik2026.hard_switch"}, {"instance", "x#0"}, {"verdict", verdict}, {"margin", margin}};
}

TEST(RecordValidation, WhatTheRunnerWritesIsAccepted) {
  EXPECT_EQ(record_problem(result_record("proved", {"1e-3", "2"})), "");
  EXPECT_EQ(record_problem(result_record("inconclusive", {"-1", "2"})), "");
  EXPECT_EQ(record_problem(result_record("error", nullptr)), "");
  auto confirmed = result_record("confirmed", {"0.5", "0.5"});
  confirmed["tier"] = "fast";
  confirmed["details"] = {{"margin_is_estimate", true}};
  EXPECT_EQ(record_problem(confirmed), "");
  auto violated = result_record("violated", {"-inf", "-1.5e-3"});
  violated["counterexample"] = nlohmann::json::object({{"T", 2}});
  EXPECT_EQ(record_problem(violated), "");
}

TEST(RecordValidation, ProvedNeedsAMarginCertainlyOnTheClaimsSide) {
  EXPECT_NE(record_problem(result_record("proved", {"-5", "-4"})).find("proved needs a lower end > 0"), std::string::npos);
  EXPECT_NE(record_problem(result_record("proved", {"0", "1"})), "");  // strict claim: 0 is not enough
  EXPECT_NE(record_problem(result_record("proved", {"-0.0", "1"})), "");
  // the non-strict claims (varre2026.repulsion.*) may have 0 as lower end, never below; an
  // unknown check counts as strict
  auto non_strict = result_record("proved", {"0", "1"});
  non_strict["check"] = "varre2026.repulsion.leader";
  EXPECT_EQ(record_problem(non_strict), "");
  non_strict["margin"] = {"-1e-30", "1"};
  EXPECT_NE(record_problem(non_strict).find("lower end >= 0"), std::string::npos);
  auto unknown = result_record("proved", {"0", "1"});
  unknown["check"] = "no.such.check";
  EXPECT_NE(record_problem(unknown), "");
}

TEST(RecordValidation, ViolatedKeepsItsCounterexampleAndANegativeMargin) {
  auto flipped = result_record("violated", {"-2", "-1"});
  EXPECT_NE(record_problem(flipped).find("counterexample"), std::string::npos);  // dropped counterexample
  flipped["counterexample"] = "not an object";
  EXPECT_NE(record_problem(flipped), "");
  auto positive = result_record("violated", {"1", "2"});
  positive["counterexample"] = nlohmann::json::object();
  EXPECT_NE(record_problem(positive).find("violated needs an upper end"), std::string::npos);
  // a violation flipped to proved keeps its negative margin, or its counterexample: refused both ways
  auto proved_with_cx = result_record("proved", {"1", "2"});
  proved_with_cx["counterexample"] = nlohmann::json::object();
  EXPECT_NE(record_problem(proved_with_cx).find("only a violation carries one"), std::string::npos);
  EXPECT_NE(record_problem(result_record("confirmed", {"-2", "-1"})), "");
}

// The verdict follows from the evidence the record keeps: a proved carries its margin (every
// check writes one), a fast-tier estimate backs only confirmed or inconclusive, and confirmed is
// only the fast tier's. An edit of a confirmed into a proved, or a proved stripped of its
// margin, is refused.
TEST(RecordValidation, AProvedKeepsItsMarginAndOnlyTheFastTierConfirms) {
  EXPECT_NE(record_problem(result_record("proved", nullptr)).find("proved without its \"margin\""), std::string::npos);
  auto confirmed = result_record("confirmed", {"0.5", "0.75"});
  confirmed["tier"] = "fast";
  confirmed["details"] = {{"margin_is_estimate", true}};
  ASSERT_EQ(record_problem(confirmed), "");
  auto edited = confirmed;
  edited["verdict"] = "proved";
  EXPECT_NE(record_problem(edited).find("fast-tier estimate"), std::string::npos) << record_problem(edited);
  auto no_estimate = confirmed;
  no_estimate["details"].erase("margin_is_estimate");
  EXPECT_NE(record_problem(no_estimate).find("without the fast tier's estimates"), std::string::npos);
  auto rigorous = confirmed;
  rigorous["tier"] = "rigorous";
  EXPECT_NE(record_problem(rigorous).find("only the fast tier confirms"), std::string::npos);
  // an exact check in the fast tier still proves (sukenik2026.* ignore the tier)
  auto exact = result_record("proved", {"1", "2"});
  exact["tier"] = "fast";
  EXPECT_EQ(record_problem(exact), "");
}

// A strict claim (margin > 0) is refuted by a margin known to be <= 0: an exact counterexample
// whose margin is exactly 0 (varre2026.elementwise_relu.no_polarization with one survivor: the
// limit is one-hot, 1 - max p = 0). A non-strict claim (margin >= 0) needs an upper end < 0, and
// so does a check this build does not know.
TEST(RecordValidation, AStrictClaimIsViolatedByAMarginAtMostZero) {
  auto exact = result_record("violated", {"0", "0"});
  exact["check"] = "varre2026.elementwise_relu.no_polarization";
  exact["counterexample"] = nlohmann::json::object();
  EXPECT_EQ(record_problem(exact), "");
  exact["margin"] = {"-1", "0"};
  EXPECT_EQ(record_problem(exact), "");
  exact["margin"] = {"0", "1e-300"};
  EXPECT_NE(record_problem(exact).find("violated needs an upper end <= 0"), std::string::npos) << record_problem(exact);
  auto non_strict = exact;
  non_strict["check"] = "varre2026.repulsion.leader";
  non_strict["margin"] = {"0", "0"};
  EXPECT_NE(record_problem(non_strict).find("violated needs an upper end < 0"), std::string::npos);
  auto unknown = exact;
  unknown["check"] = "no.such.check";
  unknown["margin"] = {"0", "0"};
  EXPECT_NE(record_problem(unknown).find("violated needs an upper end < 0"), std::string::npos);
  // confirmed: both fast runs estimated a strict claim's margin > 0, so its upper end is > 0
  auto confirmed = result_record("confirmed", {"-1", "0"});
  confirmed["tier"] = "fast";
  confirmed["details"] = {{"margin_is_estimate", true}};
  EXPECT_NE(record_problem(confirmed).find("a margin certainly <= 0 contradicts it"), std::string::npos);
  confirmed["check"] = "varre2026.repulsion.leader";  // non-strict: both runs may be exactly 0
  confirmed["margin"] = {"0", "0"};
  EXPECT_EQ(record_problem(confirmed), "");
}

// The runner's margin contract for proved (enforce_margin_contract) is the records' rule: a
// proved it keeps is a proved the reader accepts, and one it demotes the reader would refuse.
TEST(RecordValidation, TheRunnersContractIsTheRecordsRule) {
  for (const char* name : {"sukenik2026.hard_switch", "varre2026.repulsion.leader"}) {
    const Check* check = CheckRegistry::global().find(name);
    ASSERT_NE(check, nullptr) << name;
    for (const Margin& m : {Margin::of_exact(0), Margin::of_exact(1), Margin::of_rationals(Rational(-1), Rational(1)),
                            Margin::of_rationals(Rational(0), Rational(1)), Margin::of_rationals(Rational(1, 3), Rational(1))}) {
      CheckResult r;
      r.verdict = Verdict::proved;
      r.margin = m;
      enforce_margin_contract(*check, r);
      auto record = result_record("proved", {m.lower_text(), m.upper_text()});
      record["check"] = name;
      EXPECT_EQ(r.verdict == Verdict::proved, record_problem(record).empty()) << name << " " << m.lower_text();
    }
  }
}

// A margin written as the runner writes it ([lower_text, upper_text]) and read back by the
// record reader's parse is the same margin: same text, same signs, ends enclosing the written ones.
TEST(RecordValidation, MarginsRoundTripThroughTheRecord) {
  num::PrecisionGuard guard(256);
  const IntervalMp x = IntervalMp(2) / IntervalMp(3) - IntervalMp(1) / IntervalMp(7);
  for (const Margin& written : {Margin(IntervalD(0.1, 2.0 / 3.0)), Margin(x), Margin(IntervalMp(-x), 17),
                                Margin::at_least(IntervalD(1e-3, 1)), Margin::of_exact(0),
                                Margin::of_rationals(Rational(-2, 3), Rational(-1, 3))}) {
    const nlohmann::json record = result_record("inconclusive", {written.lower_text(), written.upper_text()});
    const nlohmann::json reread = nlohmann::json::parse(record.dump());
    const Margin read = Margin::parse(reread["margin"][0].get<std::string>(), reread["margin"][1].get<std::string>());
    EXPECT_EQ(read.lower_text(), written.lower_text());
    EXPECT_EQ(read.upper_text(), written.upper_text());
    EXPECT_EQ(read.certain_sign(), written.certain_sign());
    EXPECT_EQ(read.lower_sign(), written.lower_sign());
    EXPECT_EQ(read.upper_sign(), written.upper_sign());
    EXPECT_LE(read.lower_rational(), written.lower_rational());
    if (std::isfinite(read.upper_up())) {
      EXPECT_GE(read.upper_rational(), written.upper_rational());
    }
    // and the record reader accepts what its verdict would be
    const char* verdict = written.certain_sign() > 0 ? "proved" : "inconclusive";
    EXPECT_EQ(record_problem(result_record(verdict, reread["margin"])), "") << written.lower_text();
  }
}

TEST(RecordValidation, MalformedMarginsAreRefused) {
  EXPECT_NE(record_problem(result_record("inconclusive", {"2", "1"})).find("lower end above its upper end"), std::string::npos);
  EXPECT_NE(record_problem(result_record("inconclusive", {"1.5", "1.25"})), "");  // same signs, wrong order
  EXPECT_NE(record_problem(result_record("inconclusive", {"a", "1"})), "");
  EXPECT_NE(record_problem(result_record("inconclusive", {"1"})), "");
  EXPECT_NE(record_problem(result_record("inconclusive", {1, 2})), "");
  EXPECT_NE(record_problem(result_record("inconclusive", "1")), "");
}

}  // namespace
}  // namespace softcert::engine
