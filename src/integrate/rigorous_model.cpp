#include "integrate/rigorous_model.hpp"

#include <cmath>
#include <limits>

#include "integrate/rigorous_full.hpp"
#include "models/tied_value_softmax.hpp"
#include "models/value_softmax.hpp"
#include "numerics/decimal.hpp"
#include "numerics/precision.hpp"

namespace softcert::integrate {

namespace {

template <class S>
DecimalEnclosure enclosure(const S& x) {
  const double w = num::to_double(num::hull_of_bounds<S>(num::width(x), num::width(x)));
  return DecimalEnclosure{num::lower_decimal(x), num::upper_decimal(x), std::nextafter(w, std::numeric_limits<double>::infinity())};
}

template <class S>
std::vector<DecimalEnclosure> enclosures(const std::vector<S>& v) {
  std::vector<DecimalEnclosure> out;
  for (const auto& x : v) out.push_back(enclosure(x));
  return out;
}

template <class S>
RigorousIntegrateResult run(const instances::Instance& inst, const std::string& t_text, const RigorousIntegrateOptions& o) {
  const S t_end = num::parse_decimal<S>(t_text);
  if (!num::certainly_nonnegative(t_end)) throw std::invalid_argument("t: must be ≥ 0");
  ValidatedOptions vo;
  vo.order = o.order != 0 ? o.order : (o.precision_bits <= 53 ? 20 : std::max(20u, o.precision_bits / 4));
  vo.max_steps = o.max_steps;
  const FullStateEnclosure<S> e = enclose_full_state<S>(inst, t_end, vo);
  const std::size_t T = inst.T, d = inst.d;
  RigorousIntegrateResult r;
  r.t = t_text;
  r.precision_bits = o.precision_bits <= 53 ? 53 : o.precision_bits;
  r.order = vo.order;
  r.time_variable = !inst.tied() && inst.loss == instances::Loss::logistic ? "tau" : "t";
  r.steps = e.steps;
  const std::vector<S> x(e.x.begin(), e.x.begin() + static_cast<std::ptrdiff_t>(d * T + T));  // (V, a): without τ's t
  const std::vector<S> a(x.begin() + static_cast<std::ptrdiff_t>(d * T), x.end());
  r.a = enclosures(a);
  r.softmax = enclosures(e.alpha);
  std::vector<std::vector<S>> V(d);
  for (std::size_t i = 0; i < d; ++i) {
    V[i].assign(x.begin() + static_cast<std::ptrdiff_t>(i * T), x.begin() + static_cast<std::ptrdiff_t>(i * T + T));
    r.V.push_back(enclosures(V[i]));
  }
  if (!inst.beta.empty()) r.u = enclosures(models::transpose_times(V, models::parse_vector<S>(inst.beta)));
  if (inst.tied()) r.loss = enclosure(models::TiedValueSoftmax<S>(inst).loss_value(x));
  else r.loss = enclosure(models::ValueSoftmax<S>(inst).loss_value(x));
  for (const auto& v : {&r.a, &r.u})
    for (const auto& q : *v) r.max_width = std::max(r.max_width, q.width);
  return r;
}

}  // namespace

bool reduced_logistic_applies(const instances::Instance& inst) {
  return !inst.tied() && inst.loss == instances::Loss::logistic && inst.normalization == instances::Normalization::softmax;
}

RigorousIntegrateResult rigorous_integrate_model(const instances::Instance& inst, const std::string& t_end,
                                                 const RigorousIntegrateOptions& o) {
  if (!num::is_decimal_syntax(t_end)) throw std::invalid_argument("t: not a decimal number: \"" + t_end + "\"");
  if (o.precision_bits <= 53) return run<IntervalD>(inst, t_end, o);
  num::PrecisionGuard guard(o.precision_bits);
  return run<IntervalMp>(inst, t_end, o);
}

}  // namespace softcert::integrate
