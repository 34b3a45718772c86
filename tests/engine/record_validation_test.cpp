// engine::record_problem: the rules merge and --resume apply to every record read back
// (engine/record_validation.hpp). Each tampering of issue 28 is refused; what the runner writes is
// accepted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/check.hpp"
#include "engine/record_validation.hpp"
#include "numerics/precision.hpp"

namespace softcert::engine {
namespace {

nlohmann::json result_record(const std::string& verdict, nlohmann::json margin) {
  return {{"check", "sukenik2026.hard_switch"}, {"instance", "x#0"}, {"verdict", verdict}, {"margin", margin}};
}

TEST(RecordValidation, WhatTheRunnerWritesIsAccepted) {
  EXPECT_EQ(record_problem(result_record("proved", {"1e-3", "2"})), "");
  EXPECT_EQ(record_problem(result_record("proved", nullptr)), "");  // an exact certificate without a margin
  EXPECT_EQ(record_problem(result_record("inconclusive", {"-1", "2"})), "");
  EXPECT_EQ(record_problem(result_record("error", nullptr)), "");
  EXPECT_EQ(record_problem(result_record("confirmed", {"0.5", "0.5"})), "");
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
  EXPECT_NE(record_problem(positive).find("violated needs an upper end <= 0"), std::string::npos);
  // a strict claim's margin exactly 0 refutes it (a one-hot limit where "not one-hot" is claimed:
  // the record the quick suite's elementwise-relu entry writes); a non-strict one needs < 0
  auto at_zero = result_record("violated", {"0", "0"});
  at_zero["check"] = "varre2026.elementwise_relu.no_polarization";
  at_zero["counterexample"] = nlohmann::json::object();
  EXPECT_EQ(record_problem(at_zero), "");
  at_zero["check"] = "varre2026.repulsion.leader";
  EXPECT_NE(record_problem(at_zero).find("upper end < 0"), std::string::npos);
  // a violation flipped to proved keeps its negative margin, or its counterexample: refused both ways
  auto proved_with_cx = result_record("proved", {"1", "2"});
  proved_with_cx["counterexample"] = nlohmann::json::object();
  EXPECT_NE(record_problem(proved_with_cx).find("only a violation carries one"), std::string::npos);
  EXPECT_NE(record_problem(result_record("confirmed", {"-2", "-1"})), "");
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
