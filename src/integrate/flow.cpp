#include "integrate/flow.hpp"

#include <string>

#include "numerics/decimal.hpp"

namespace softcert::flow {
namespace {

integrate::RigorousIntegrateOptions rigorous_options(const Request& request) {
  integrate::RigorousIntegrateOptions o;
  o.precision_bits = request.precision_bits;
  o.time_variable = request.time;
  o.set = request.set;
  o.ball_pieces = request.ball_pieces.value_or(0);
  o.tail = request.tail;
  o.tail_width = request.tail_width;
  o.order = request.order;
  o.max_steps = request.max_steps;
  return o;
}

}  // namespace

StateEnclosure state_at(const instances::Instance& instance, double t, const Request& request) {
  return integrate::rigorous_integrate(instance, num::exact_decimal(t), rigorous_options(request));
}

CurveEnclosure curve_over(const instances::Instance& instance, double H, const Request& request,
                          const std::atomic<bool>* cancel) {
  return integrate::rigorous_curve(instance, num::exact_decimal(H), rigorous_options(request), cancel);
}

std::vector<StateEnclosure> states_at(const instances::Instance& instance, const std::vector<double>& times,
                                      const Request& request) {
  std::vector<std::string> decimals;
  decimals.reserve(times.size());
  for (double t : times) decimals.push_back(num::exact_decimal(t));
  return integrate::rigorous_integrate_at(instance, decimals, rigorous_options(request));
}

StateEstimate estimate_at(const instances::Instance& instance, double t, unsigned bits) {
  integrate::FastOptions o;
  o.precision_bits = bits;
  o.escalate = false;  // the caller asks for the other precision itself, and compares
  return integrate::integrate_fast(instance, num::exact_decimal(t), o).run;
}

EstimatePair estimate_full_at(const instances::Instance& instance, double t, const EstimateRequest& request) {
  integrate::FastOptions o;
  o.precision_bits = request.precision_bits;
  o.escalate = request.reference;
  o.max_steps = request.max_steps;
  return integrate::integrate_fast(instance, num::exact_decimal(t), o);
}

}  // namespace softcert::flow
