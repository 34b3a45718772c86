// The fast tier's typed state (integrate/fast_integrate.hpp, FastState):
//  - at 53 bits the state is the run's doubles, and the decimal text written out
//    (`integrate --json`, decimals()) reads back to exactly those doubles, field by field;
//  - above 53 bits the state is MPFR at the run's precision: the text reads back at that precision
//    to exactly those numbers, and `values` holds the double nearest to each;
//  - the reference run (2p bits) is MPFR at 2p bits; the softmax weights sum to 1 to the precision
//    of each run (a property of the state, not of its text).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <mpfr.h>

#include "instances/instance.hpp"
#include "integrate/fast_integrate.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"

namespace softcert::integrate {
namespace {

instances::Instance fast_state_instance(const char* loss) {
  auto j = nlohmann::json::parse(R"({"model":"value_softmax","normalization":"softmax","T":3,"d":2,
    "V":[["0.1","-0.05","0.2"],["-0.15","0.3","0.05"]],
    "a":["1.1","0.9","1.0"],"beta":["0.6","0.8"],"provenance":"test"})");
  j["loss"] = loss;
  return instances::parse_instance(j);
}

// Every number of a state with its text, in one order (a, u, softmax, loss, V, tau).
template <class K>
std::vector<std::pair<K, std::string>> fast_state_pairs(const FastValues<K>& v, const FastDecimals& d) {
  std::vector<std::pair<K, std::string>> out;
  auto add = [&](const std::vector<K>& x, const std::vector<std::string>& s) {
    EXPECT_EQ(x.size(), s.size());
    for (std::size_t i = 0; i < x.size() && i < s.size(); ++i) out.emplace_back(x[i], s[i]);
  };
  add(v.a, d.a);
  add(v.u, d.u);
  add(v.alpha, d.alpha);
  out.emplace_back(v.loss, d.loss);
  EXPECT_EQ(v.V.size(), d.V.size());
  for (std::size_t i = 0; i < v.V.size() && i < d.V.size(); ++i) add(v.V[i], d.V[i]);
  EXPECT_EQ(v.tau.has_value(), !d.tau.empty());
  if (v.tau) out.emplace_back(*v.tau, d.tau);
  return out;
}

TEST(FastState, At53BitsTheWrittenDecimalsReadBackToExactlyTheTypedDoubles) {
  for (const char* loss : {"square", "logistic"})
    for (const char* t : {"2", "300"}) {  // 300: τ-time for logistic loss (τ written too)
      const FastReport rep = integrate_fast(fast_state_instance(loss), t, FastOptions{});
      const FastState& r = rep.run;
      EXPECT_FALSE(r.mp) << loss;
      EXPECT_EQ(r.values.tau.has_value(), std::string(loss) == "logistic" && std::string(t) == "300");
      const FastDecimals d = decimals(r);
      const nlohmann::json j = to_json(rep);
      EXPECT_EQ(j["a"], nlohmann::json(d.a));
      EXPECT_EQ(j["softmax"], nlohmann::json(d.alpha));
      EXPECT_EQ(j["V"], nlohmann::json(d.V));
      EXPECT_EQ(j["loss"], nlohmann::json(d.loss));
      const auto pairs = fast_state_pairs(r.values, d);
      EXPECT_EQ(pairs.size(), 3u + 3u + 3u + 1u + 6u + (r.values.tau ? 1u : 0u));
      for (const auto& [x, text] : pairs) EXPECT_EQ(num::parse_decimal<double>(text), x) << loss << " " << text;
      double sum = 0;
      for (double w : r.values.alpha) sum += w;
      EXPECT_NEAR(sum, 1.0, 1e-15);
      // the reference: MPFR at 106 bits, its doubles the nearest to it
      ASSERT_TRUE(rep.reference && rep.reference->mp);
      EXPECT_EQ(rep.reference->precision_bits, 106u);
      for (std::size_t i = 0; i < rep.reference->mp->a.size(); ++i) {
        EXPECT_GE(mpfr_get_prec(rep.reference->mp->a[i].backend().data()), 106);
        EXPECT_EQ(rep.reference->values.a[i], mpfr_get_d(rep.reference->mp->a[i].backend().data(), MPFR_RNDN));
      }
    }
}

TEST(FastState, Above53BitsTheStateIsMpfrAtThatPrecisionAndItsTextReadsBackExactly) {
  FastOptions o;
  o.precision_bits = 80;
  const FastReport rep = integrate_fast(fast_state_instance("logistic"), "3", o);
  const FastState& r = rep.run;
  ASSERT_TRUE(r.mp);
  const FastDecimals d = decimals(r);
  num::PrecisionGuard guard(80);
  const auto pairs = fast_state_pairs(*r.mp, d);
  ASSERT_EQ(pairs.size(), 3u + 3u + 3u + 1u + 6u);
  for (const auto& [x, text] : pairs) {
    EXPECT_EQ(mpfr_get_prec(x.backend().data()), static_cast<mpfr_prec_t>(num::precision_bits()));
    EXPECT_EQ(num::parse_decimal<MpReal>(text), x) << text;
  }
  // the doubles are the nearest to the MPFR numbers, and differ from them (80 > 53 bits)
  const auto nearest = fast_state_pairs(r.values, d);
  bool some_not_a_double = false;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(nearest[i].first, mpfr_get_d(pairs[i].first.backend().data(), MPFR_RNDN));
    some_not_a_double = some_not_a_double || MpReal(nearest[i].first) != pairs[i].first;
  }
  EXPECT_TRUE(some_not_a_double);
  MpReal sum(0);
  for (const auto& w : r.mp->alpha) sum += w;
  EXPECT_LT(boost::multiprecision::abs(sum - 1), MpReal(std::ldexp(1.0, -75)));
  ASSERT_TRUE(rep.reference && rep.reference->mp);
  EXPECT_GE(mpfr_get_prec(rep.reference->mp->loss.backend().data()), 160);
}

}  // namespace
}  // namespace softcert::integrate
