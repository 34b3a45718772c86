// Formulas (instances/formula.hpp): the reader refuses bad text naming the field and the column;
// the symbolic derivative equals central differences at 256 bits; the logistic loss's derivative
// takes the built-in gradient's form; interval evaluation encloses the 256-bit value and
// refuses arguments outside a function's domain.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "instances/formula.hpp"
#include "numerics/precision.hpp"

namespace softcert {
namespace {

using instances::CompiledFormula;
using instances::Formula;

const std::vector<std::string> kVars = {"z", "beta", "target"};

std::string refusal(const std::string& text) {
  try {
    Formula::parse(text, kVars, "loss_formula");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Formula, RefusesBadTextNamingTheFieldAndTheColumn) {
  const struct {
    const char* text;
    const char* says;
  } cases[] = {
      {"", "is empty"},
      {"exp(z", "expected ')' closing \"exp(\" at column 6"},
      {"foo(z)", "unknown name \"foo\""},
      {"y * z", "unknown name \"y\""},
      {"2^z", "the exponent after '^' must be an integer from 0 to 64"},
      {"z^65", "must be an integer from 0 to 64"},
      {"1..2 + z", "malformed number \"1..2\" at column 1"},
      {"z +", "unexpected end"},
      {"z z", "unexpected \"z\" after a complete formula at column 3"},
      {"z # 1", "unexpected \"#\""},
      {"exp z", "expected '(' after the function \"exp\""},
  };
  for (const auto& c : cases) {
    const std::string why = refusal(c.text);
    EXPECT_EQ(why.rfind("loss_formula: ", 0), 0u) << c.text << ": " << why;
    EXPECT_NE(why.find(c.says), std::string::npos) << c.text << ": " << why;
  }
  EXPECT_NE(refusal("y * z").find("variables: z, beta, target"), std::string::npos);
  EXPECT_NE(refusal("ezp(z)").find("did you mean \"exp\""), std::string::npos) << refusal("ezp(z)");
  EXPECT_NE(refusal(std::string(5000, '1')).find("longer than 4096 characters"), std::string::npos);
  EXPECT_NE(refusal(std::string(65, '(') + "z" + std::string(65, ')')).find("nested deeper than 64"), std::string::npos);
  EXPECT_EQ(refusal(std::string(64, '(') + "z" + std::string(64, ')')), "");  // 64 levels are read
  EXPECT_NE(refusal(std::string(65, '-') + "z").find("nested deeper than 64"), std::string::npos);
  std::string calls = "z";
  for (int i = 0; i < 64; ++i) calls = (i % 2 ? "exp(" : "log1p(") + calls + ")";
  EXPECT_EQ(refusal(calls), "");
  EXPECT_NE(refusal("exp(" + calls + ")").find("nested deeper than 64"), std::string::npos);
}

TEST(Formula, ReadsPrecedenceAndAssociativity) {
  num::PrecisionGuard g(128);
  const MpReal z("0.75");
  const auto at = [&](const char* text) { return CompiledFormula<MpReal>(Formula::parse(text, kVars, "f")).evaluate(std::vector<MpReal>{z, 0, 0}.data()); };
  EXPECT_EQ(at("1 - 2 - 3"), MpReal(-4));          // left-associative
  EXPECT_EQ(at("8 / 4 / 2"), MpReal(1));
  EXPECT_EQ(at("2 + 3 * 4"), MpReal(14));
  EXPECT_EQ(at("-2^2"), MpReal(-4));               // − binds looser than ^
  EXPECT_EQ(at("(1 + z)^3"), (1 + z) * (1 + z) * (1 + z));
  EXPECT_EQ(at("z^0"), MpReal(1));
  EXPECT_EQ(at("2.5e-1 * 4"), MpReal(1));
  EXPECT_EQ(at("0.5 + 5.25"), MpReal("5.75"));
}

TEST(Formula, DerivativeEqualsCentralDifferencesAt256Bits) {
  num::PrecisionGuard g(256);
  const char* formulas[] = {"log(1 + exp(-z))", "log1p(exp(2*z - 1))", "log(exp(z) + 0.5)", "log(3 + z^2)",
                            "exp(-z) * z^5 - 3 * z^3", "sqrt(1 + sqr(z))", "1 / (1 + z^2)", "expm1(z) / (2 + z)",
                            "(beta - target)^2 / 2", "exp(beta * target) - log1p(beta^4)", "-(-(z))", "z^7 / (z^2 + 1)^3"};
  const MpReal h("1e-25");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (const char* text : formulas) {
    const Formula f = Formula::parse(text, kVars, "f");
    for (std::size_t var : {std::size_t(0), std::size_t(1)}) {
      if (!f.uses(var)) continue;
      const CompiledFormula<MpReal> F(f), dF(f.derivative(var));
      for (int trial = 0; trial < 8; ++trial) {
        std::vector<MpReal> x = {MpReal(u(rng)), MpReal(u(rng)), MpReal(u(rng))};
        auto xp = x, xm = x;
        xp[var] += h;
        xm[var] -= h;
        const MpReal fd = (F.evaluate(xp.data()) - F.evaluate(xm.data())) / (2 * h);
        const MpReal d = dF.evaluate(x.data());
        EXPECT_LT(abs(d - fd), MpReal("1e-45") * (1 + abs(d))) << text << " d/d" << kVars[var] << " at " << x[var] << ": " << d
                                                                << " vs " << fd << " (" << f.derivative(var).text() << ")";
      }
    }
  }
}

TEST(Formula, LogisticDerivativeHasTheBuiltInGradientsForm) {
  // −1/(1 + e^z): z occurs once (the built-in logistic gradient −β*/(1 + e^m)); u'/u would be
  // −e^{−z}/(1 + e^{−z}).
  EXPECT_EQ(Formula::parse("log(1 + exp(-z))", kVars, "f").derivative(0).text(), "(-(1 / (1 + exp(z))))");
  EXPECT_EQ(Formula::parse("log1p(exp(-z))", kVars, "f").derivative(0).text(), "(-(1 / (1 + exp(z))))");
  EXPECT_EQ(Formula::parse("log(exp(2*z) + 3)", kVars, "f").derivative(0).text(), "(2 / (1 + (3 * exp((-(2 * z))))))");
  // The square loss: (2(β − t))/2, exact in binary arithmetic, i.e. β − t.
  EXPECT_EQ(Formula::parse("(beta - target)^2 / 2", kVars, "f").derivative(1).text(), "((2 * (beta - target)) / 2)");
}

TEST(Formula, IntervalEvaluationEnclosesThe256BitValue) {
  const char* formulas[] = {"log(1 + exp(-z))", "sqrt(2 + z) / (3 - z)", "expm1(z) * log1p(z^2)", "exp(z)^5 - 0.1 * z"};
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const char* text : formulas) {
    const Formula f = Formula::parse(text, kVars, "f");
    const CompiledFormula<IntervalD> Fi(f);
    for (int trial = 0; trial < 50; ++trial) {
      const double lo = u(rng), hi = lo + 1e-3 * (1 + u(rng));
      const IntervalD box(lo, hi);
      const IntervalD r = Fi(box);
      num::PrecisionGuard g(256);
      const CompiledFormula<MpReal> Fp(f);
      for (double x : {lo, hi, 0.5 * (lo + hi)}) {
        const MpReal v = Fp(MpReal(x));
        EXPECT_LE(MpReal(r.lower()), v) << text << " at " << x;
        EXPECT_GE(MpReal(r.upper()), v) << text << " at " << x;
      }
      // A constant that is no double (0.1) is enclosed, not rounded to nearest.
      const IntervalD tenth = CompiledFormula<IntervalD>(Formula::parse("0.1 + 0 * z", kVars, "f"))(box);
      EXPECT_LT(tenth.lower(), tenth.upper());
    }
  }
}

TEST(Formula, IntervalArgumentsOutsideTheDomainAreRefused) {
  const std::vector<std::string> x = {"x"};
  const auto at = [&](const char* text, IntervalD v) { return CompiledFormula<IntervalD>(Formula::parse(text, x, "f"))(v); };
  EXPECT_THROW(at("log(x)", IntervalD(-1, 2)), std::domain_error);  // num::log alone would enclose log((0, 2])
  EXPECT_THROW(at("sqrt(x)", IntervalD(0, 1)), std::domain_error);
  EXPECT_THROW(at("log1p(x)", IntervalD(-1, 0)), std::domain_error);
  EXPECT_THROW(at("1 / x", IntervalD(-0.5, 0.5)), std::domain_error);
  EXPECT_NO_THROW(at("log(x) + sqrt(x) + log1p(x) + 1 / x", IntervalD(0.5, 2)));
  EXPECT_THROW(at("log(x)", IntervalD(0)), std::domain_error);
}

}  // namespace
}  // namespace softcert
