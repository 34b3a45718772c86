// Every (loss, normalization) vector field is the negative gradient of its loss: the rhs is
// compared with central differences of ValueSoftmax::loss_value at 256 bits. The τ-time field
// is the t-time field divided by γ; interval kinds enclose the point field.
#include <gtest/gtest.h>

#include "models/value_softmax.hpp"
#include "numerics/precision.hpp"

namespace softcert {
namespace {

using instances::Loss;
using instances::Normalization;

instances::Instance small_instance(Loss loss, Normalization norm) {
  auto j = nlohmann::json::parse(R"({"model":"value_softmax","T":3,"d":2,
    "V":[["0.3","-0.2","0.45"],["0.1","0.25","-0.35"]],"a":["0.5","1.25","-0.375"],
    "beta":["0.6","-0.8"],"X":[["1","0.5"],["-0.25","2"],["0.75","-1"]],"y":["1","-1","0.5"],
    "p":["0.25","0.75"],"provenance":"test"})");
  j["loss"] = instances::to_string(loss);
  j["normalization"] = instances::to_string(norm);
  return instances::parse_instance(j);
}

const Loss kLosses[] = {Loss::logistic, Loss::logistic_dataset, Loss::square, Loss::regression, Loss::cross_entropy};
const Normalization kNorms[] = {Normalization::softmax, Normalization::square, Normalization::abs,
                                Normalization::relu, Normalization::sum, Normalization::sigmoid};

TEST(ModelGradient, RhsIsMinusGradientOfTheLossForEveryLossAndNormalization) {
  num::PrecisionGuard g(256);
  const MpReal h("1e-30");
  for (Loss loss : kLosses)
    for (Normalization norm : kNorms) {
      const auto inst = small_instance(loss, norm);
      const models::ValueSoftmax<MpReal> m(inst);
      const auto x = m.initial_state();
      std::vector<MpReal> f;
      m.rhs(x, f);
      ASSERT_EQ(f.size(), x.size());
      for (std::size_t k = 0; k < x.size(); ++k) {
        auto xp = x, xm = x;
        xp[k] += h;
        xm[k] -= h;
        const MpReal grad = (m.loss_value(xp) - m.loss_value(xm)) / (2 * h);
        EXPECT_LT(abs(f[k] + grad), MpReal("1e-40"))
            << instances::to_string(loss) << "/" << instances::to_string(norm) << " component " << k << ": rhs "
            << f[k] << " vs −∇L " << -grad;
      }
    }
}

TEST(ModelGradient, TauTimeFieldIsTTimeFieldOverGamma) {
  num::PrecisionGuard g(128);
  for (Normalization norm : kNorms) {
    const auto inst = small_instance(Loss::logistic, norm);
    const models::ValueSoftmax<MpReal> mt(inst, false), mtau(inst, true);
    auto x = mt.initial_state(), xt = mtau.initial_state();
    std::vector<MpReal> f, ft;
    mt.rhs(x, f);
    mtau.rhs(xt, ft);
    ASSERT_EQ(ft.size(), f.size() + 1);
    const MpReal dt_dtau = ft.back();  // 1 + e^m = 1/γ
    for (std::size_t k = 0; k < f.size(); ++k) EXPECT_LT(abs(f[k] * dt_dtau - ft[k]), MpReal("1e-35")) << k;
  }
}

template <class I>
void expect_interval_field_encloses_point_field() {
  for (Loss loss : kLosses)
    for (Normalization norm : kNorms) {
      const auto inst = small_instance(loss, norm);
      std::vector<MpReal> fp;
      std::vector<I> fi;
      {
        num::PrecisionGuard g(300);
        const models::ValueSoftmax<MpReal> mp(inst);
        mp.rhs(mp.initial_state(), fp);
      }
      const models::ValueSoftmax<I> mi(inst);
      mi.rhs(mi.initial_state(), fi);
      num::PrecisionGuard g(300);
      for (std::size_t k = 0; k < fp.size(); ++k) {
        // Widen the 300-bit point by 1e-80 (its own rounding) before the containment test.
        const MpReal lo = MpReal(num::lower(fi[k])), hi = MpReal(num::upper(fi[k]));
        EXPECT_LE(lo, fp[k] + MpReal("1e-80")) << instances::to_string(loss) << "/" << instances::to_string(norm) << " " << k;
        EXPECT_GE(hi, fp[k] - MpReal("1e-80")) << instances::to_string(loss) << "/" << instances::to_string(norm) << " " << k;
        EXPECT_LT(MpReal(hi - lo), MpReal("1e-12"));
      }
    }
}

TEST(ModelGradient, IntervalDoubleFieldEnclosesThePointField) { expect_interval_field_encloses_point_field<IntervalD>(); }

TEST(ModelGradient, IntervalMpfrFieldEnclosesThePointField) {
  num::PrecisionGuard g(120);
  expect_interval_field_encloses_point_field<IntervalMp>();
}

TEST(ModelGradient, KinkWithUncertainSignThrowsForIntervals) {
  for (Normalization norm : {Normalization::abs, Normalization::relu}) {
    const auto inst = small_instance(Loss::square, norm);
    const models::ValueSoftmax<IntervalD> m(inst);
    auto x = m.initial_state();
    x[m.a_offset()] = IntervalD(-0.125, 0.125);
    std::vector<IntervalD> f;
    EXPECT_THROW(m.rhs(x, f), std::domain_error);
  }
}

}  // namespace
}  // namespace softcert
