// Micro-benchmarks (Google Benchmark) of the kernels the integrators spend their time in, on
// the paper's headline instance (proofs_checks/instances/authors/headline.json, T = d = 8):
//   kernel/field/<form>/<kind>      one vector field evaluation (reduced (a, u) or full (V, a))
//   kernel/series_mul|exp/<kind>    Series<S> product and exponential, order 20
//   kernel/tape/<kind>/<derivs>     Taylor tape of the τ-time reduced field: record + solve,
//                                   with or without the variational (x0-derivative) pass
//   kernel/validated_step/<kind>    one validated Taylor–Lohner step from the initial set
//                                   (interval-mpfr: Lohner Jacobian in MPFI, or in IntervalD as
//                                   `softcert integrate --tier rigorous` does: +double-jacobian)
// Kinds at > 53 bits run at 128 bits (30 digits), the precision of table 1.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "instances/instance.hpp"
#include "integrate/validated_taylor.hpp"
#include "models/logistic_reduced.hpp"
#include "models/make_model.hpp"
#include "numerics/kinds.hpp"
#include "numerics/precision.hpp"
#include "taylor/series.hpp"
#include "taylor/tape.hpp"

namespace {

using namespace softcert;
constexpr unsigned kMpBits = 128;

const instances::Instance& headline() {
  static const instances::Instance inst =
      instances::load_instance(SOFTCERT_SOURCE_DIR "/proofs_checks/instances/authors/headline.json");
  return inst;
}

template <class S>
unsigned bits_of() {
  return std::is_same_v<S, double> || std::is_same_v<S, IntervalD> ? 53 : kMpBits;
}

template <class S>
void field_eval(benchmark::State& st, models::Form form) {
  num::PrecisionGuard guard(bits_of<S>());
  const auto model = models::make_model<S>(headline(), form);
  std::visit([&](const auto& m) {
    const std::vector<S> x = m.initial_state();
    std::vector<S> dx(x.size());
    for (auto _ : st) {
      m.rhs(x, dx);
      benchmark::DoNotOptimize(dx.data());
    }
  }, model);
  st.SetItemsProcessed(st.iterations());
}

template <class S>
void series_op(benchmark::State& st, bool exp) {
  num::PrecisionGuard guard(bits_of<S>());
  std::vector<S> c(21);
  for (std::size_t k = 0; k < c.size(); ++k) c[k] = S(1.0 / static_cast<double>(k + 1));
  const taylor::Series<S> a(c), b(c);
  for (auto _ : st) {
    taylor::Series<S> r = exp ? num::exp(a) : a * b;
    benchmark::DoNotOptimize(r);
  }
  st.SetItemsProcessed(st.iterations());
}

template <class S>
void tape_solve(benchmark::State& st, bool derivatives) {
  num::PrecisionGuard guard(bits_of<S>());
  const auto m = models::LogisticReducedTau<S>::from_instance(headline());
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  const std::vector<S> x0 = m.initial_state();
  const std::size_t order = bits_of<S>() == 53 ? 20 : 32;
  taylor::Tape<S> tape;
  for (auto _ : st) {
    tape.record(field, x0, order);
    tape.solve(derivatives);
    benchmark::DoNotOptimize(tape.coefficient(0, order));
  }
  st.SetItemsProcessed(st.iterations());
}

template <class S>
void validated_step(benchmark::State& st, bool double_jacobian) {
  num::PrecisionGuard guard(bits_of<S>());
  const auto m = models::LogisticReducedTau<S>::from_instance(headline());
  const auto md = models::LogisticReducedTau<IntervalD>::from_instance(headline());
  auto field = [&m](const auto& y, auto& dy) { m.rhs(y, dy); };
  integrate::ValidatedOptions o;
  o.order = bits_of<S>() == 53 ? 20 : 32;
  o.keep_segments = false;
  integrate::ValidatedTaylor<S, decltype(field)> vt(field, m.dimension(), o);
  if (double_jacobian) vt.set_double_jacobian_field([&md](const auto& y, auto& dy) { md.rhs(y, dy); });
  const auto start = integrate::DoubletonSet<S>::from_box(m.initial_state());
  for (auto _ : st) {
    auto set = start;
    S t(0);
    bool reached = false;
    // one step measured alone (the step is private to the flow: validated_flow.hpp)
    benchmark::DoNotOptimize(integrate::detail::FlowStepAccess::step(vt, set, t, S(1e6), reached));
  }
  st.SetItemsProcessed(st.iterations());
}

int register_all() {
  using models::Form;
  benchmark::RegisterBenchmark("kernel/field/reduced/double", field_eval<double>, Form::reduced);
  benchmark::RegisterBenchmark("kernel/field/reduced/mpfr", field_eval<MpReal>, Form::reduced);
  benchmark::RegisterBenchmark("kernel/field/reduced/interval-double", field_eval<IntervalD>, Form::reduced);
  benchmark::RegisterBenchmark("kernel/field/reduced/interval-mpfr", field_eval<IntervalMp>, Form::reduced);
  benchmark::RegisterBenchmark("kernel/field/full/double", field_eval<double>, Form::full);
  benchmark::RegisterBenchmark("kernel/field/full/mpfr", field_eval<MpReal>, Form::full);
  benchmark::RegisterBenchmark("kernel/series_mul/interval-double", series_op<IntervalD>, false);
  benchmark::RegisterBenchmark("kernel/series_exp/interval-double", series_op<IntervalD>, true);
  benchmark::RegisterBenchmark("kernel/series_mul/interval-mpfr", series_op<IntervalMp>, false);
  benchmark::RegisterBenchmark("kernel/series_exp/interval-mpfr", series_op<IntervalMp>, true);
  benchmark::RegisterBenchmark("kernel/tape/interval-double/values", tape_solve<IntervalD>, false);
  benchmark::RegisterBenchmark("kernel/tape/interval-double/derivatives", tape_solve<IntervalD>, true);
  benchmark::RegisterBenchmark("kernel/tape/interval-mpfr/values", tape_solve<IntervalMp>, false);
  benchmark::RegisterBenchmark("kernel/tape/interval-mpfr/derivatives", tape_solve<IntervalMp>, true);
  benchmark::RegisterBenchmark("kernel/validated_step/interval-double", validated_step<IntervalD>, false);
  benchmark::RegisterBenchmark("kernel/validated_step/interval-mpfr", validated_step<IntervalMp>, false);
  benchmark::RegisterBenchmark("kernel/validated_step/interval-mpfr+double-jacobian", validated_step<IntervalMp>, true);
  return 0;
}
const int registered = register_all();

}  // namespace
