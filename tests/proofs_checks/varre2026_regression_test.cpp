// varre2026.regression.conditioning and .monotone (proofs_checks/varre2026_regression.cpp):
// the authors' sweep in the fast tier, sweeps whose answer is known, refused sweeps, the
// generator's golden values, and the rigorous tier enclosing the fast tier on a small sweep.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "engine/registry.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"

namespace softcert {
namespace {

using engine::Verdict;
using J = nlohmann::json;

const char* const kFirstLast = "varre2026.regression.conditioning";
const char* const kMonotone = "varre2026.regression.conditioning.monotone";

const engine::Check& check(const char* name) {
  const engine::Check* c = engine::CheckRegistry::global().find(name);
  if (!c) throw std::logic_error(std::string("not registered: ") + name);
  return *c;
}

engine::CheckResult run(const char* name, const J& sweep, engine::Tier tier, std::optional<double> horizon = std::nullopt,
                        const J& params = J::object()) {
  engine::CheckOptions o;
  o.tier = tier;
  o.horizon = horizon;
  o.params = params;
  return check(name).run(sweep, o);
}

J authors_sweep() {
  std::ifstream in(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/varre2026-regression-authors-sweep.json");
  EXPECT_TRUE(in.good());
  return J::parse(in);
}

double d(const J& x) { return x.is_string() ? std::stod(x.get<std::string>()) : x.get<double>(); }
Rational q(const std::string& x) { return num::parse_decimal<Rational>(x); }

// --- the authors' sweep (notebook cells 10–11), fast tier, t = 300 ----------------------------

TEST(Varre2026Regression, AuthorsSweepFileHoldsTheAuthorsInstances) {
  // scripts/make_authors_instances.py writes both; its --check needs numpy, this test does not
  const J sweep = authors_sweep();
  ASSERT_EQ(sweep["members"].size(), 5u);
  for (int k = 1; k <= 5; ++k) {
    std::ifstream in(std::string(SOFTCERT_SOURCE_DIR) + "/proofs_checks/instances/authors/regression-kappa" +
                     std::to_string(k) + ".json");
    ASSERT_TRUE(in.good()) << k;
    EXPECT_EQ(sweep["members"][k - 1], J::parse(in)) << "members[" << k - 1 << "] vs regression-kappa" << k << ".json";
  }
}

TEST(Varre2026Regression, AuthorsSweepFastTierEntropyFallsFromKappa1ToKappa5) {
  const J sweep = authors_sweep();
  ASSERT_EQ(sweep["kappa"], J({"1", "2", "3", "4", "5"}));
  const auto r = run(kFirstLast, sweep, engine::Tier::fast);
  ASSERT_EQ(r.verdict, Verdict::confirmed) << r.reason;
  EXPECT_EQ(r.horizon, 300.0);  // the authors' t = lr × iterations
  const J& h53 = r.details["entropy_53"];
  const J& h106 = r.details["entropy_106"];
  // what the check finds: κ = 1 stays within 1e-3 of uniform (log 20), κ = 5 ends far below it
  for (const J* h : {&h53, &h106}) {
    EXPECT_GT(d((*h)[0]), std::log(20.0) - 1e-3);
    EXPECT_LT(d((*h)[4]), 1.0);
    EXPECT_LT(d((*h)[4]), d((*h)[0]));
    EXPECT_TRUE((*h)[1].is_null() && (*h)[2].is_null() && (*h)[3].is_null());  // only the endpoints are run
  }
  // both runs give the same margin, far beyond their disagreement
  const double m53 = r.details["margin_53"].get<double>(), m106 = d(r.details["margin_106"]);
  EXPECT_GT(m106, 2.0);
  EXPECT_LT(std::abs(m53 - m106), 1e-6 * m106);
}

TEST(Varre2026Regression, AuthorsSweepFastTierEntropyFallsAtEveryStep) {
  const auto r = run(kMonotone, authors_sweep(), engine::Tier::fast);
  ASSERT_EQ(r.verdict, Verdict::confirmed) << r.reason;
  for (const char* key : {"entropy_53", "entropy_106"}) {
    const J& h = r.details[key];
    ASSERT_EQ(h.size(), 5u);
    for (std::size_t i = 0; i + 1 < h.size(); ++i) EXPECT_GT(d(h[i]), d(h[i + 1])) << key << " at kappa index " << i;
  }
  const double m53 = r.details["margin_53"].get<double>(), m106 = d(r.details["margin_106"]);
  EXPECT_GT(m106, 0.0);
  EXPECT_LT(std::abs(m53 - m106), 1e-6 * m106);
  EXPECT_LE(std::stod(r.margin.lower_text()), std::min(m53, m106));
}

// --- hand-made sweeps whose answer is known --------------------------------------------------

// d = n = T = 2, members sharing V(0), a(0), y; X = diag(1, 1/κ).
J member(const std::string& inv_kappa, const J& V, const J& a) {
  return {{"model", "value_softmax"}, {"loss", "regression"}, {"normalization", "softmax"}, {"T", 2}, {"d", 2},
          {"V", V}, {"a", a}, {"X", J::array({J::array({"1", "0"}), J::array({"0", inv_kappa})})},
          {"y", {"1", "-0.5"}}, {"provenance", "test"}};
}

J sweep_of(const std::vector<std::pair<std::string, std::string>>& kappa_and_inverse, const J& V, const J& a) {
  J s = {{"model", "value_softmax_sweep"}, {"kappa", J::array()}, {"members", J::array()}};
  for (const auto& [k, inv] : kappa_and_inverse) {
    s["kappa"].push_back(k);
    s["members"].push_back(member(inv, V, a));
  }
  return s;
}

// Equal columns of V(0) and a(0) = 0: swapping the two tokens maps the state to itself, so the
// columns stay equal, a_1 = a_2 for all t and σ(a) = (½, ½): every member's entropy is exactly
// log 2 at every t. The true margin is 0, so the strict claim is false; the enclosures of log 2
// overlap and cannot certify equality, so the only sound verdict is inconclusive — never proved.
TEST(Varre2026Regression, SymmetricStartEntropiesAreEqualSoNeverProved) {
  const J V = J::array({J::array({"0.1", "0.1"}), J::array({"-0.2", "-0.2"})});
  const J sweep = sweep_of({{"1", "1"}, {"2", "0.5"}}, V, {"0", "0"});
  for (const char* name : {kFirstLast, kMonotone}) {
    const auto r = run(name, sweep, engine::Tier::rigorous, 10.0);
    EXPECT_EQ(r.verdict, Verdict::inconclusive) << name << ": " << r.reason;
    EXPECT_LT(std::stod(r.margin.lower_text()), 0.0) << name;
    EXPECT_GT(std::stod(r.margin.upper_text()), 0.0) << name;
    for (const auto& h : r.details["entropy"]) {
      EXPECT_LE(q(h[0].get<std::string>()), Rational(std::log(2.0)) + Rational(1e-12));
      EXPECT_GE(q(h[1].get<std::string>()), Rational(std::log(2.0)) - Rational(1e-12));
    }
    const auto f = run(name, sweep, engine::Tier::fast, 10.0);
    EXPECT_NE(f.verdict, Verdict::confirmed) << name << ": " << f.reason;
    EXPECT_NE(f.verdict, Verdict::proved) << name;
  }
}

// With two members both readings have one gap, H_0 − H_1: the same verdict and margin.
TEST(Varre2026Regression, TwoMemberSweepReadingsCoincide) {
  const J V = J::array({J::array({"0.5", "-0.3"}), J::array({"0.2", "0.4"})});
  const J sweep = sweep_of({{"1", "1"}, {"4", "0.25"}}, V, {"0", "0"});
  const auto rf = run(kFirstLast, sweep, engine::Tier::rigorous, 20.0);
  const auto rm = run(kMonotone, sweep, engine::Tier::rigorous, 20.0);
  ASSERT_NE(rf.verdict, Verdict::inconclusive) << rf.reason;
  EXPECT_EQ(rm.verdict, rf.verdict);
  EXPECT_EQ(rm.margin.lower_text(), rf.margin.lower_text());
  EXPECT_EQ(rm.margin.upper_text(), rf.margin.upper_text());
}

// --- refused sweeps ----------------------------------------------------------------------------

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The sweep is validated before anything else runs; an invalid horizon then stops a valid
// sweep without integrating it, so "horizon: ..." means the sweep itself was accepted.
std::string refusal(const char* name, const J& sweep) {
  engine::CheckOptions o;
  o.horizon = -1;
  try {
    (void)check(name).run(sweep, o);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    return starts_with(what, "horizon: ") ? "(accepted)" : what;
  }
  return "(ran)";
}

TEST(Varre2026Regression, MembersMustShareTheStartAndTheTarget) {
  engine::GenerateOptions g;
  g.params = {{"d", 3}, {"n", 3}, {"kappa", {1, 2, 3}}};
  const J good = check(kFirstLast).generate(5, g);
  J s = good;
  s["members"][1]["V"][0][1] = "0.5";
  EXPECT_TRUE(starts_with(refusal(kFirstLast, s), "members[1].V[0]: must equal members[0].V[0]")) << refusal(kFirstLast, s);
  s = good;
  s["members"][2]["a"][0] = "0.5";
  EXPECT_TRUE(starts_with(refusal(kMonotone, s), "members[2].a: ")) << refusal(kMonotone, s);
  s = good;
  s["members"][1]["y"][2] = "0.5";
  EXPECT_TRUE(starts_with(refusal(kFirstLast, s), "members[1].y: ")) << refusal(kFirstLast, s);
  s = good;
  s["members"][1]["loss"] = "square";
  s["members"][1]["beta"] = {"1", "0", "0"};
  EXPECT_TRUE(starts_with(refusal(kFirstLast, s), "members[1].loss: ")) << refusal(kFirstLast, s);
  s = good;
  s["members"][1]["V"][0][1] = "abc";
  EXPECT_TRUE(starts_with(refusal(kFirstLast, s), "members[1].V[0][1]: ")) << refusal(kFirstLast, s);
  // the same values written differently are the same instance
  s = good;
  s["members"][1]["y"][0] = s["members"][0]["y"][0].get<std::string>() + "000";
  EXPECT_EQ(refusal(kFirstLast, s), "(accepted)");
}

TEST(Varre2026Regression, KappaLabelsMustIncreaseAndBeTheConditionNumbers) {
  const J V = J::array({J::array({"0.5", "-0.3"}), J::array({"0.2", "0.4"})});
  // identical members: as a sweep κ = 2, 2 is not ordered; labelled 1, 2 the label is false
  J s = sweep_of({{"2", "0.5"}, {"2", "0.5"}}, V, {"0", "0"});
  EXPECT_TRUE(starts_with(refusal(kFirstLast, s), "kappa[1]: kappa must increase strictly")) << refusal(kFirstLast, s);
  s = sweep_of({{"1", "0.5"}, {"2", "0.5"}}, V, {"0", "0"});
  EXPECT_TRUE(starts_with(refusal(kMonotone, s), "kappa[0]: members[0].X has condition number 2")) << refusal(kMonotone, s);
  s = sweep_of({{"1", "1"}, {"2", "0.5"}}, V, {"0", "0"});
  s["kappa"].push_back("3");
  EXPECT_TRUE(starts_with(refusal(kFirstLast, s), "kappa: ")) << refusal(kFirstLast, s);
  s = sweep_of({{"1", "1"}}, V, {"0", "0"});
  EXPECT_TRUE(starts_with(refusal(kFirstLast, s), "members: ")) << refusal(kFirstLast, s);
}

// --- the generator ------------------------------------------------------------------------------

TEST(Varre2026Regression, GeneratorGoldenValues) {
  // Pinned from the generator and reproduced independently by a Python implementation of the
  // same specification (SplitMix64, Box–Muller with each operation correctly rounded via mpmath,
  // Householder QR in IEEE double): seed 7, d = n = 3, κ = 1, 2.
  engine::GenerateOptions g;
  g.params = {{"d", 3}, {"n", 3}, {"kappa", {1, 2}}};
  const J s = check(kFirstLast).generate(7, g);
  EXPECT_EQ(s, check(kFirstLast).generate(7, g));   // same seed, same sweep
  EXPECT_EQ(s, check(kMonotone).generate(7, g));    // both readings draw the same sweeps
  ASSERT_EQ(s["kappa"], J({"1", "2"}));
  const J& m0 = s["members"][0];
  const J& m1 = s["members"][1];
  EXPECT_EQ(m0["V"][0][0], "1.3649922974572283e-05");  // W = 1e-5·z
  EXPECT_EQ(m0["V"][0][1], "1.4452122126941494e-06");
  EXPECT_EQ(m0["a"][0], "0.0010401878512087334");      // a = 1e-3·z
  EXPECT_EQ(m0["y"][0], "0.22810905200093937");
  EXPECT_EQ(m0["X"][0][0], "0.39719844474469096");     // U diag(1, 1, 1) Vᵀ
  EXPECT_EQ(m0["X"][0][1], "0.7276482883096127");
  EXPECT_EQ(m1["X"][0][0], "0.37803871017895385");     // U diag(1, 0.75, 0.5) Vᵀ
  EXPECT_EQ(m1["X"][2][2], "-0.07049903447112324");
  EXPECT_EQ(m1["V"], m0["V"]);
  EXPECT_EQ(m1["a"], m0["a"]);
  EXPECT_EQ(m1["y"], m0["y"]);
  EXPECT_NE(m1["X"], m0["X"]);
}

TEST(Varre2026Regression, GeneratorDefaultsAreTheAuthorsSizes) {
  const J s = check(kFirstLast).generate(11, {});
  EXPECT_EQ(s["kappa"], J({"1", "2", "3", "4", "5"}));
  ASSERT_EQ(s["members"].size(), 5u);
  for (const auto& m : s["members"]) {
    EXPECT_EQ(m["T"], 20);
    EXPECT_EQ(m["d"], 20);
    EXPECT_EQ(m["X"].size(), 20u);
    EXPECT_EQ(m["loss"], "regression");
  }
  // the check accepts its own sweeps: cond(X) = κ (to 1e-9), shared start and target
  EXPECT_EQ(refusal(kMonotone, s), "(accepted)");
  engine::GenerateOptions wide;
  wide.params = {{"d", 4}, {"n", 6}};  // n > d: X is n × d with min(n, d) = 4 singular values
  const J w = check(kFirstLast).generate(11, wide);
  EXPECT_EQ(w["members"][0]["X"].size(), 6u);
  EXPECT_EQ(w["members"][0]["X"][0].size(), 4u);
  EXPECT_EQ(refusal(kFirstLast, w), "(accepted)");
  engine::GenerateOptions bad;
  bad.params = {{"kappa", {2, 1}}};
  EXPECT_THROW((void)check(kFirstLast).generate(1, bad), std::invalid_argument);
}

// --- the rigorous tier on a small sweep -------------------------------------------------------

// The members' tails run to the default rule here (stop_when_decided = false: tight entropies);
// the next test covers the default, which stops them once the margin is decided.
TEST(Varre2026Regression, RigorousTierEnclosesTheFastTierOnASmallSweep) {
  engine::GenerateOptions g;
  g.params = {{"d", 3}, {"n", 3}, {"kappa", {1, 3}}};
  const J s = check(kMonotone).generate(2, g);
  const auto r = run(kMonotone, s, engine::Tier::rigorous, 100.0, {{"stop_when_decided", false}});
  const auto f = run(kMonotone, s, engine::Tier::fast, 100.0);
  ASSERT_TRUE(r.verdict == Verdict::proved || r.verdict == Verdict::violated) << r.reason;
  ASSERT_EQ(f.verdict, r.verdict == Verdict::proved ? Verdict::confirmed : Verdict::violated) << f.reason;
  const J& enc = r.details["entropy"];
  const J& h106 = f.details["entropy_106"];
  ASSERT_EQ(enc.size(), 2u);
  for (std::size_t i = 0; i < enc.size(); ++i) {
    const Rational lo = q(enc[i][0]), hi = q(enc[i][1]), x = q(h106[i]);
    EXPECT_LE(lo, x) << "member " << i;
    EXPECT_LE(x, hi) << "member " << i;
    EXPECT_LT(hi - lo, Rational(1e-6)) << "member " << i;
  }
  const Rational m = q(f.details["margin_106"]);
  EXPECT_LE(q(r.margin.lower_text()), m);
  EXPECT_LE(m, q(r.margin.upper_text()));
  // the same numbers as typed facts (engine::RunFacts, what softcert reproduce reads): the text
  // of the records is theirs, and the 106-bit estimates lie in the enclosures, compared on the ends
  ASSERT_EQ(r.facts.member_entropy.size(), 2u);
  ASSERT_EQ(f.facts.member_entropy.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const num::Enclosure& e = r.facts.member_entropy[i];
    const num::Enclosure& x = f.facts.member_entropy[i];
    EXPECT_FALSE(e.estimate());
    EXPECT_TRUE(x.estimate());
    EXPECT_EQ(e.lower_text(), enc[i][0].get<std::string>());
    EXPECT_EQ(e.upper_text(), enc[i][1].get<std::string>());
    EXPECT_EQ(x.lower_text(), h106[i].get<std::string>());
    EXPECT_LE(e.lower_rational(), x.lower_rational()) << "member " << i;
    EXPECT_LE(x.upper_rational(), e.upper_rational()) << "member " << i;
  }
}

// The default: each member's PL tail stops as soon as its entropy, enclosed over the tail's ball,
// lies inside the window the margin needs (varre2026_regression.cpp, member_requests; docs/method.md
// §5b). The same verdict as the run to the default rule, entropies that still contain the 106-bit
// fast tier's, every member inside its window (so the margin is certainly positive), and fewer
// steps; a non-boolean stop_when_decided is refused.
TEST(Varre2026Regression, RigorousTailStopsWhenTheMarginIsDecidedWithTheSameVerdict) {
  engine::GenerateOptions g;
  g.params = {{"d", 3}, {"n", 3}, {"kappa", {1, 3}}};
  const J s = check(kMonotone).generate(2, g);
  const auto early = run(kMonotone, s, engine::Tier::rigorous, 100.0);
  const auto full = run(kMonotone, s, engine::Tier::rigorous, 100.0, {{"stop_when_decided", false}});
  const auto f = run(kMonotone, s, engine::Tier::fast, 100.0);
  ASSERT_EQ(early.verdict, Verdict::proved) << early.reason;
  ASSERT_EQ(full.verdict, Verdict::proved) << full.reason;
  const J& enc = early.details["entropy"];
  const J& win = early.details["tail_windows"];
  ASSERT_EQ(enc.size(), 2u);
  ASSERT_EQ(win.size(), 2u);
  std::size_t early_steps = 0, full_steps = 0;
  for (std::size_t i = 0; i < enc.size(); ++i) {
    const Rational lo = q(enc[i][0]), hi = q(enc[i][1]), x = q(f.details["entropy_106"][i]);
    EXPECT_LE(lo, x) << "member " << i;
    EXPECT_LE(x, hi) << "member " << i;
    if (!win[i][0].is_null()) { EXPECT_GT(lo, Rational(win[i][0].get<double>())) << "member " << i; }
    if (!win[i][1].is_null()) { EXPECT_LT(hi, Rational(win[i][1].get<double>())) << "member " << i; }
    early_steps += early.details["steps"][i].get<std::size_t>();
    full_steps += full.details["steps"][i].get<std::size_t>();
  }
  EXPECT_LT(early_steps, full_steps);
  EXPECT_THROW(run(kMonotone, s, engine::Tier::rigorous, 100.0, {{"stop_when_decided", 1}}), std::invalid_argument);
}

// params.set = "ball": the same sweep with the ball step (docs/method.md §2b) — the same verdict,
// entropies that contain the 106-bit fast tier's; an unknown set is refused.
TEST(Varre2026Regression, RigorousBallSetGivesTheSameVerdictAndEnclosesTheFastTier) {
  engine::GenerateOptions g;
  g.params = {{"d", 3}, {"n", 3}, {"kappa", {1, 3}}};
  const J s = check(kMonotone).generate(2, g);
  engine::CheckOptions o;
  o.tier = engine::Tier::rigorous;
  o.horizon = 100.0;
  o.params = {{"set", "ball"}, {"stop_when_decided", false}};
  const auto r = check(kMonotone).run(s, o);
  const auto lohner = run(kMonotone, s, engine::Tier::rigorous, 100.0, {{"stop_when_decided", false}});
  const auto f = run(kMonotone, s, engine::Tier::fast, 100.0);
  EXPECT_EQ(r.details["set"], "ball");
  EXPECT_EQ(lohner.details["set"], "lohner");
  ASSERT_EQ(r.verdict, lohner.verdict) << r.reason;
  const J& enc = r.details["entropy"];
  ASSERT_EQ(enc.size(), 2u);
  for (std::size_t i = 0; i < enc.size(); ++i) {
    const Rational lo = q(enc[i][0]), hi = q(enc[i][1]), x = q(f.details["entropy_106"][i]);
    EXPECT_LE(lo, x) << "member " << i;
    EXPECT_LE(x, hi) << "member " << i;
    EXPECT_LT(hi - lo, Rational(1e-6)) << "member " << i;
  }
  o.params = {{"set", "ball"}, {"ball_pieces", 3}};
  const auto rp = check(kMonotone).run(s, o);
  EXPECT_EQ(rp.details["ball_pieces"], 3);
  EXPECT_EQ(rp.verdict, r.verdict) << rp.reason;
  for (const J& bad : {J{{"set", "cube"}}, J{{"ball_pieces", 2}}, J{{"set", "ball"}, {"ball_pieces", 0}}, J{{"set", "ball"}, {"ball_pieces", 1.5}}}) {
    o.params = bad;
    EXPECT_THROW(check(kMonotone).run(s, o), std::invalid_argument) << bad.dump();
  }
}

}  // namespace
}  // namespace softcert
