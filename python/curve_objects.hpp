#pragma once
// The validated curve as Python sees it (a part of python/softcert_module.cpp): softcert.tube()'s
// raw arrays, which python/softcert/_claims.py turns into Tube, Segment and Interval objects.
#include "result_objects.hpp"

namespace {

// ---------------------------------------------------------------------------------------------
// The curve

// The segments of a curve as numpy arrays of [lower, upper] pairs (outward doubles): "t" (K, 2),
// "a", "u", "softmax" (K, T, 2), "loss" (K, 2); with how the run ended.
py::dict curve_arrays(const integ::CurveEnclosure& c, std::size_t T) {
  auto pair = [](const softcert::IntervalD& x) {
    py::list p;
    p.append(x.lower());
    p.append(x.upper());
    return p;
  };
  py::list t, a, u, s, loss;
  for (const auto& seg : c.segments) {
    t.append(pair(seg.t));
    loss.append(pair(seg.loss));
    py::list ai, ui, si;
    for (std::size_t i = 0; i < T; ++i) {
      ai.append(pair(seg.a[i]));
      ui.append(pair(seg.u[i]));
      si.append(pair(seg.softmax[i]));
    }
    a.append(ai);
    u.append(ui);
    s.append(si);
  }
  py::object np = py::module_::import("numpy");
  auto arr = [&](const py::list& l, std::vector<py::ssize_t> empty_shape) {
    if (l.empty()) return np.attr("zeros")(py::cast(empty_shape), py::arg("dtype") = "float64");
    return np.attr("array")(l, py::arg("dtype") = "float64");
  };
  const auto n = static_cast<py::ssize_t>(T);
  py::dict d;
  d["t"] = arr(t, {0, 2});
  d["a"] = arr(a, {0, n, 2});
  d["u"] = arr(u, {0, n, 2});
  d["softmax"] = arr(s, {0, n, 2});
  d["loss"] = arr(loss, {0, 2});
  d["complete"] = c.complete;
  d["t_reached"] = c.t_reached;
  d["stopped"] = c.stopped;
  d["precision_bits"] = c.precision_bits;
  d["order"] = c.order;
  d["time_variable"] = std::string(integ::to_string(c.time_variable));
  return d;
}

// softcert.tube(instance, H, ...): the validated curve over [0, H] of the reduced logistic form.
// A choice no method serves is the plan's std::invalid_argument, a ValueError naming the argument.
// On Ctrl-C the run stops after its current step and the curve so far comes back with
// "interrupted" true (python/softcert/_claims.py raises softcert.Interrupted with it).
py::object tube_py(py::handle inst_obj, py::handle h_obj, py::handle precision_obj, py::handle time_obj,
                   py::handle progress_obj) {
  const Instance& inst = instance_arg(inst_obj);
  const std::string H = time_decimal(h_obj, "H");
  check_positive(H, "H");
  if (!integ::reduced_logistic_applies(inst))
    value_error("instance: tube() covers the value-softmax model with logistic loss and softmax (the reduced form); "
                "integrate() and trajectory() take the others");
  integ::RigorousIntegrateOptions o;
  o.precision_bits = precision_arg(precision_obj, "rigorous");
  o.time_variable = integ::parse_plan_time(str_arg(time_obj, "time"), "time");
  Progress reports{progress_arg(progress_obj)};
  if (reports.wanted()) o.progress = [p = &reports](std::size_t steps, double t) { p->report(steps, t); };
  bool interrupted = false;
  auto [curve, seconds] = run_interruptible([&](const std::atomic<bool>& cancel) {
    const auto start = std::chrono::steady_clock::now();
    integ::CurveEnclosure c = integ::rigorous_curve(inst, H, o, &cancel);
    return std::make_pair(std::move(c), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }, &reports, &interrupted);
  py::dict d = curve_arrays(curve, inst.T);
  d["H"] = H;
  d["interrupted"] = interrupted;
  d["seconds"] = seconds;
  return d;
}

}  // namespace
