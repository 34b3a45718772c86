// The tied model (models/tied_value_softmax.hpp, notebook cell 8): its vector field is the
// negative gradient of ℓ(U softmax(U a)) — compared with central differences at 256 bits, with
// U ≠ I and a ≠ 0 so that both terms of dU/dt matter; interval kinds enclose the point field;
// the instance reader takes "U" and refuses what the tied model cannot be.
#include <gtest/gtest.h>

#include "models/make_model.hpp"
#include "models/tied_value_softmax.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "numerics/traits.hpp"

namespace softcert {
namespace {

nlohmann::json tied_json() {
  return nlohmann::json::parse(R"({"model":"tied_value_softmax","loss":"logistic","normalization":"softmax",
    "T":3,"d":3,"U":[["1.1","-0.2","0.3"],["0.05","0.9","-0.4"],["0.25","0.15","1.3"]],
    "a":["0.5","1.25","-0.375"],"beta":["0.6","-0.8","0.25"],"provenance":"test"})");
}

TEST(TiedModel, RhsIsMinusGradientOfTheLoss) {
  num::PrecisionGuard g(256);
  const auto inst = instances::parse_instance(tied_json());
  const models::TiedValueSoftmax<MpReal> m(inst);
  const auto x = m.initial_state();
  ASSERT_EQ(x.size(), 12u);
  std::vector<MpReal> f;
  m.rhs(x, f);
  const MpReal h("1e-30");
  for (std::size_t k = 0; k < x.size(); ++k) {
    auto xp = x, xm = x;
    xp[k] += h;
    xm[k] -= h;
    const MpReal grad = (m.loss_value(xp) - m.loss_value(xm)) / (2 * h);
    EXPECT_LT(abs(f[k] + grad), MpReal("1e-40")) << "component " << k << ": rhs " << f[k] << " vs −∇L " << -grad;
    EXPECT_GT(abs(grad), MpReal("1e-6")) << "component " << k << " should move";
  }
}

TEST(TiedModel, IntervalFieldEnclosesThePointField) {
  const auto inst = instances::parse_instance(tied_json());
  std::vector<MpReal> fp;
  {
    num::PrecisionGuard g(300);
    const models::TiedValueSoftmax<MpReal> mp(inst);
    mp.rhs(mp.initial_state(), fp);
  }
  const models::TiedValueSoftmax<IntervalD> mi(inst);
  std::vector<IntervalD> fi;
  mi.rhs(mi.initial_state(), fi);
  ASSERT_EQ(fi.size(), fp.size());
  num::PrecisionGuard g(300);
  for (std::size_t k = 0; k < fi.size(); ++k) {
    EXPECT_LE(MpReal(num::lower(fi[k])), fp[k]) << k;
    EXPECT_GE(MpReal(num::upper(fi[k])), fp[k]) << k;
    EXPECT_LT(num::upper(fi[k]) - num::lower(fi[k]), 1e-13) << k;
  }
}

TEST(TiedModel, InstanceReaderTakesUAndRefusesWhatTheModelCannotBe) {
  const auto inst = instances::parse_instance(tied_json());
  EXPECT_TRUE(inst.tied());
  EXPECT_EQ(instances::to_json(inst).count("U"), 1u);
  EXPECT_EQ(instances::to_json(inst).count("V"), 0u);
  EXPECT_EQ(instances::parse_instance(instances::to_json(inst)).V, inst.V);
  auto bad = [](nlohmann::json j, const std::string& field) {
    try {
      instances::parse_instance(j);
      ADD_FAILURE() << "accepted: " << j.dump();
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(field + ":", 0), 0u) << e.what();
    }
  };
  auto j = tied_json(); j["loss"] = "square"; bad(j, "loss");
  j = tied_json(); j["normalization"] = "sigmoid"; bad(j, "normalization");
  j = tied_json(); j["V"] = j["U"]; bad(j, "V");
  j = tied_json(); j.erase("U"); bad(j, "U");
  j = tied_json(); j["T"] = 2; bad(j, "T");
  // The value-softmax model and the reduced forms refuse a tied instance instead of misreading U as V.
  EXPECT_THROW((void)models::ValueSoftmax<double>{inst}, std::invalid_argument);
  EXPECT_THROW((void)models::make_model<double>(inst, models::Form::reduced), std::invalid_argument);
  EXPECT_NO_THROW((void)std::get<models::TiedValueSoftmax<double>>(models::make_model<double>(inst, models::Form::full)));
}

}  // namespace
}  // namespace softcert
