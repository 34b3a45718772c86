// engine::record_problem: the rules merge and --resume apply to every record read back
// (engine/record_validation.hpp). Each tampering of issue 28 is refused; what the runner writes is
// accepted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/record_validation.hpp"

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
  EXPECT_NE(record_problem(positive).find("upper end < 0"), std::string::npos);
  // a violation flipped to proved keeps its negative margin, or its counterexample: refused both ways
  auto proved_with_cx = result_record("proved", {"1", "2"});
  proved_with_cx["counterexample"] = nlohmann::json::object();
  EXPECT_NE(record_problem(proved_with_cx).find("only a violation carries one"), std::string::npos);
  EXPECT_NE(record_problem(result_record("confirmed", {"-2", "-1"})), "");
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
