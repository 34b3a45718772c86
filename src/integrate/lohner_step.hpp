#pragma once
// The Lohner step: the doubleton set c + B r (flow_sets.hpp) moved by one validated Taylor step
// (steps 1–5 at the top of integrate/validated_taylor.hpp). Included only by
// integrate/validated_taylor.cpp, where the stepper is compiled once per interval kind; every
// other translation unit sees the declaration.
#include "integrate/fault_injection.hpp"
#include "integrate/validated_taylor.hpp"

namespace softcert::integrate {

template <class S>
TubeSegment<S> ValidatedStepper<S>::step_lohner(DoubletonSet<S>& set, S& t, const S& t_end, bool& reached) {
  if (set.c.size() != n_ || set.r.size() != n_ || set.B.size() != n_ * n_)
    throw std::invalid_argument("step: the set's dimension is not the field's (c and r of n, B n × n)");
  using B = num::BoundOf<S>;
  const std::size_t n = n_, p = opt_.order;
  double clk = StepProfile::now();
  auto lap = [&clk](double& into) {
    const double t1 = StepProfile::now();
    into += t1 - clk;
    clk = t1;
  };
  const std::vector<S> X = set.box();
  require_centre_in_box(set.c, X);
  // 2. centre coefficients (independent of h: they also choose h) and the box coefficients
  //    with their x0-derivatives.
  tc_.record(f_, set.c, p);
  tc_.solve(false);
  lap(prof_.centre);
  // With the Jacobian from the double field and q = p, the double tape's coefficients over
  // [X] rounded outward (a superset of [X]) also serve step 1's polynomial P: any enclosure of
  // x_k over the box does. The stepper's own box tape, an MPFI series at MPFI precisions, is
  // then not needed at all (docs/performance.md, "What limits each figure" §3). With q < p its
  // coefficients k > q enter the record: kept.
  jacobian_in_double_ = false;
  box_in_double_ = false;
  if (double_field_ && jacobian_order() == p) {
    jacobian_in_double_ = double_jacobian(X);
    box_in_double_ = jacobian_in_double_ && double_box_coefficients_finite();
    if (box_in_double_) box_ = X;
  }
  if (!box_in_double_) {
    tx_.record(f_, X, p);
    lap(prof_.box_record);
    if (double_field_ && jacobian_order() < p) jacobian_in_double_ = double_jacobian(X);
    if (jacobian_in_double_) tx_.solve(false);
    else tx_.solve(true, jacobian_order());
  }
  lap(prof_.derivative);
  bool last = false;
  const S hS = validated_step_size(set.c, t, t_end, last);
  const B hbar = num::upper(hS);
  lap(prof_.apriori);
  fill_record(set, t, hS);
  // 4. y_c and A
  const std::size_t q = jacobian_order();
  std::vector<S> yc(n), J(n * n);
  const bool with_remainder = !fault_injection::drop_taylor_remainder.load(std::memory_order_relaxed);
  {
    using FA = taylor::FastArith<S>;
    using Af = typename FA::type;
    const Af h_f = FA::to(hS);
    [[maybe_unused]] const typename FA::Guard guard;
    Af hp1(1);
    for (std::size_t k = 0; k <= p; ++k) hp1 = hp1 * h_f;
    for (std::size_t i = 0; i < n; ++i) {
      Af acc = FA::to(rec_.center[i * (p + 1) + p]);
      for (std::size_t k = p; k-- > 0;) acc = acc * h_f + FA::to(rec_.center[i * (p + 1) + k]);
      yc[i] = FA::from(with_remainder ? acc + FA::to(rec_.remainder[i]) * hp1 : acc);
      for (std::size_t j = 0; j < n; ++j) {  // Dx_k = 0 for k > q (fill_record)
        Af a = FA::to(rec_.jac[(q * n + i) * n + j]);
        for (std::size_t k = q; k-- > 0;) a = a * h_f + FA::to(rec_.jac[(k * n + i) * n + j]);
        J[i * n + j] = FA::from(a);
      }
    }
  }
  lap(prof_.assemble);
  std::vector<S> A;
  lohner::product(J, set.B, A, n, opt_.midrad_products);
  std::vector<S> direct = lohner::fast_mat_vec(A, set.r, n);  // y_c + A r: the direct enclosure
  for (std::size_t i = 0; i < n; ++i) direct[i] += yc[i];
  lap(prof_.products);
  DoubletonSet<S> next;
  if (opt_.lohner) {
    next.c.resize(n);
    for (std::size_t i = 0; i < n; ++i) next.c[i] = num::mid_scalar(yc[i]);
    next.B = lohner::orthogonal_from(A, set.r, n, opt_.midrad_products);
    const lohner::NearInverse<S> Qinv = lohner::near_inverse_of_orthogonal(next.B, n, opt_.midrad_products);
    lap(prof_.qr);
    std::vector<S> QA;
    lohner::product(Qinv, A, QA, n, opt_.midrad_products);
    next.r = lohner::fast_mat_vec(QA, set.r, n);
    std::vector<S> dc(n);
    for (std::size_t i = 0; i < n; ++i) dc[i] = yc[i] - next.c[i];
    const std::vector<S> qdc = lohner::fast_mat_vec(Qinv.enclosure(), dc, n);
    for (std::size_t i = 0; i < n; ++i) next.r[i] += qdc[i];
    lap(prof_.products);
  } else {
    next = DoubletonSet<S>::from_box(direct);
  }
  // 5. the segment over [0, h̄]
  TubeSegment<S> seg;
  seg.t0 = t;
  seg.box = rec_.enclose_wrapped(num::hull_of_bounds<S>(B(0), hbar));  // O(q·n²): step_record.hpp
  for (std::size_t i = 0; i < n; ++i) seg.box[i] = intersect(seg.box[i], E_[i]);
  t = last ? t_end : S(t + hS);
  seg.t1 = t;
  final_ = direct;
  const std::vector<S> lb = next.box();
  for (std::size_t i = 0; i < n; ++i) final_[i] = intersect(final_[i], lb[i]);
  seg.end = final_;
  if (opt_.keep_records) seg.record = std::make_shared<const StepRecord<S>>(rec_);
  set = std::move(next);
  reached = last;
  lap(prof_.rest);
  count_step(seg, t);
  return seg;
}

}  // namespace softcert::integrate
