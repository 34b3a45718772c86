// softcert search end to end: finds, shrinks and certifies counterexamples when a hypothesis
// is dropped, and `softcert replay` reproduces each; a tampered counterexample is refused by
// replay; with every hypothesis kept on a check that holds it reports none, with the smallest
// margin; bad usage exits 2 and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "search/instance_leaves.hpp"
#include "engine/registry.hpp"
#include "search/margin_evaluator.hpp"
#include "support/run_cli.hpp"

namespace {

using softcert::testing::run_softcert;

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string out_path(const std::string& name) {
  const std::string p = ::testing::TempDir() + name;
  std::filesystem::remove(p);
  return p;
}

// Searches NAME with the drops, expects a certified counterexample, and replays it.
nlohmann::json find_and_replay(const std::string& name, const std::string& drops, const std::string& file) {
  const std::string out = out_path(file);
  const auto s = run_softcert("search " + name + " " + drops + " --budget 30 --seed 1 -q --out " + out);
  EXPECT_EQ(s.status, 0) << s.out << s.err;
  EXPECT_NE(s.out.find("counterexample found"), std::string::npos) << s.out;
  const nlohmann::json rec = read_json(out);
  EXPECT_EQ(rec["check"], name);
  EXPECT_EQ(rec["verdict"], "violated");
  EXPECT_LT(std::stod(rec["margin"][1].get<std::string>()), 0);  // certified strictly below 0
  EXPECT_GE(rec["search"]["tried"].get<long>(), 1);
  EXPECT_EQ(rec["search"]["seed"], 1);
  EXPECT_FALSE(std::filesystem::exists(out + ".tmp"));
  const auto r = run_softcert("replay " + out);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("reproduced rigorously"), std::string::npos);
  return rec;
}

TEST(CliSearch, SinkRepresentabilityWithoutHalfSpace) {
  const auto rec = find_and_replay("sukenik2026.sink_representability", "--drop half-space", "search_sink.json");
  EXPECT_EQ(rec["details"]["half_space"], false);
  EXPECT_EQ(rec["details"]["sink_exposed"], true);  // the kept hypothesis still holds
  EXPECT_LE(std::stol(rec["counterexample"]["T"].get<std::string>()), 3);  // shrunk
}

TEST(CliSearch, HardSwitchWithoutRankAndHalfSpace) {
  const auto rec = find_and_replay("sukenik2026.hard_switch", "--drop full-rank --drop half-space", "search_switch.json");
  EXPECT_GT(rec["search"]["shrink_steps"].get<long>(), 0);
  EXPECT_LE(std::stol(rec["counterexample"]["d"].get<std::string>()), 2);
}

TEST(CliSearch, OrderPreservationWithoutUniformStart) {
  const auto rec = find_and_replay("varre2026.order_preservation", "--drop uniform-a0", "search_order.json");
  EXPECT_LE(rec["counterexample"]["T"].get<long>(), 3);
  EXPECT_FALSE(rec["counterexample"].contains("seed"));  // changed: no longer the generator's
  EXPECT_TRUE(rec["horizon"].is_number());
}

TEST(CliSearch, TamperedCounterexampleIsRefusedByReplay) {
  const std::string out = out_path("search_tamper.json");
  ASSERT_EQ(run_softcert("search varre2026.order_preservation --drop uniform-a0 -q --out " + out).status, 0);
  nlohmann::json rec = read_json(out);
  // Change one digit of one number so that the violation disappears (found by trying them).
  const auto* check = softcert::engine::CheckRegistry::global().find(rec["check"]);
  ASSERT_NE(check, nullptr);
  softcert::engine::CheckOptions o;
  o.horizon = rec["horizon"].get<double>();
  bool tampered = false;
  for (const auto& at : softcert::search::decimal_leaves(rec["counterexample"])) {
    const std::string text = rec["counterexample"][at].get<std::string>();
    for (std::size_t k = 0; k < text.size() && !tampered; ++k) {
      if (!std::isdigit(static_cast<unsigned char>(text[k]))) continue;
      for (char digit = '0'; digit <= '9' && !tampered; ++digit) {
        if (digit == text[k]) continue;
        nlohmann::json inst = rec["counterexample"];
        std::string changed = text;
        changed[k] = digit;
        inst[at] = changed;
        try {
          if (check->run(inst, o).verdict == softcert::engine::Verdict::violated) continue;
        } catch (const std::invalid_argument&) {
          continue;
        }
        rec["counterexample"] = inst;
        tampered = true;
      }
    }
    if (tampered) break;
  }
  ASSERT_TRUE(tampered) << rec["counterexample"].dump();
  std::ofstream(out) << rec.dump(2);
  const auto r = run_softcert("replay " + out);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("NOT reproduced"), std::string::npos) << r.err;
}

TEST(CliSearch, HoldingCheckReportsNoneWithTheSmallestMargin) {
  const std::string out = out_path("search_none.json");
  const auto s = run_softcert("search sukenik2026.hard_switch --max-samples 16 --seed 3 -q --out " + out);
  EXPECT_EQ(s.status, 1) << s.out << s.err;
  EXPECT_NE(s.out.find("no counterexample found in"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("smallest margin"), std::string::npos) << s.out;
  const nlohmann::json rec = read_json(out);
  EXPECT_FALSE(rec.contains("counterexample"));
  EXPECT_GT(rec["search"]["tried"].get<long>(), 16);  // samples and local optimisation
  EXPECT_GT(rec["search"]["min_margin"].get<double>(), 0);
  EXPECT_TRUE(rec["closest"]["instance"].is_object());
  EXPECT_EQ(rec["closest"]["verdict"], "proved");
  EXPECT_EQ(run_softcert("replay " + out).status, 2);  // nothing to replay
}

TEST(CliSearch, BadUsageExitsTwoAndWritesNothing) {
  const std::string out = out_path("search_bad.json");
  auto r = run_softcert("search sukenik2026.hard_switch --drop no-such-hypothesis --out " + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no hypothesis \"no-such-hypothesis\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("full-rank, half-space"), std::string::npos) << r.err;
  EXPECT_EQ(run_softcert("search no.such.check --out " + out).status, 2);
  EXPECT_EQ(run_softcert("search sukenik2026.hard_switch --budget 0 --out " + out).status, 2);
  EXPECT_EQ(run_softcert("search sukenik2026.hard_switch --out /no/such/dir/x.json").status, 2);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
