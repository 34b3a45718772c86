#pragma once
// A claim stated in Python, judged by the engine (a part of python/softcert_module.cpp):
// softcert.Check registers a PythonCheck, an engine::Check like every built-in one, so that
// check(), suites, the hypothesis rule, the margin contract and the one verdict policy apply to
// it unchanged (docs/python.md, "Your own claim").
//
// The claim: margin(state(t)) > 0 for every t ∈ [0, H], on the value-softmax model with logistic
// loss and softmax. The rigorous tier asks the executor for the curve (flow::curve_over) and
// python/softcert/_claims.py evaluates the user's margin on every segment in mpmath interval
// arithmetic; the enclosure of its minimum over the segments is the margin decided here. The fast
// tier evaluates it at 201 times of one fast run and its 2p-bit reference (engine::decide_fast).
#include "curve_objects.hpp"
#include "engine/verdict_policy.hpp"
#include "integrate/flow.hpp"
#include "support/failures.hpp"

namespace {

// A Python object kept for the life of the process: the registry outlives the interpreter, and a
// reference released after Python finalises would crash at exit, so it is never released.
class KeptObject {
 public:
  KeptObject() = default;
  explicit KeptObject(py::handle h) : p_(h.ptr()) { Py_XINCREF(p_); }
  py::handle get() const { return p_; }
  bool is_none() const { return p_ == nullptr || p_ == Py_None; }

 private:
  PyObject* p_ = nullptr;
};

class PythonCheck final : public engine::Check {
 public:
  PythonCheck(std::string name, std::string statement, py::handle margin, std::vector<std::string> hypothesis_names,
              py::handle hypotheses, py::handle generate, double horizon)
      : name_(std::move(name)),
        statement_(std::move(statement)),
        hypothesis_names_(std::move(hypothesis_names)),
        margin_(margin),
        hypotheses_(hypotheses),
        generate_(generate),
        horizon_(horizon) {}

  std::string name() const override { return name_; }
  std::string paper() const override { return "ours: a claim stated in Python (softcert.Check)"; }
  std::string statement() const override { return statement_; }
  std::vector<std::string> hypotheses() const override { return hypothesis_names_; }
  bool shorter_horizon_keeps_claim() const override { return true; }  // a claim for all t in [0, H]

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions&) const override {
    if (generate_.is_none())
      throw std::invalid_argument(name_ + ": this Python claim has no generator (softcert.Check(..., generate=f)); "
                                          "give it instances");
    py::gil_scoped_acquire gil;
    py::object inst = generate_.get()(seed);
    if (!py::isinstance<Instance>(inst))
      throw std::invalid_argument(name_ + ": generate(seed) must return a softcert.Instance, got " + type_name(inst));
    return inst_ns::to_json(inst.cast<const Instance&>());
  }

  // Each hypothesis is a Python predicate on the instance; an exception from it propagates.
  std::map<std::string, bool> hypotheses_on(const nlohmann::json& instance) const override {
    std::map<std::string, bool> out;
    if (hypothesis_names_.empty()) return out;
    py::gil_scoped_acquire gil;
    const py::object inst = py::cast(inst_ns::parse_instance(instance));
    const py::dict preds = py::reinterpret_borrow<py::dict>(hypotheses_.get());
    for (const auto& h : hypothesis_names_) out[h] = py::bool_(preds[py::str(h)](inst));
    return out;
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& options) const override {
    const Instance inst = inst_ns::parse_instance(instance);
    if (!integ::reduced_logistic_applies(inst))
      throw std::invalid_argument("model: a Python claim is judged on the value-softmax model with logistic loss and softmax");
    const double H = options.horizon.value_or(horizon_);
    if (options.tier == engine::Tier::fast) return run_fast(inst, H);
    return run_rigorous(inst, H, options.precision_bits);
  }

 private:
  // The enclosure of min over the curve's segments of margin(segment), outward doubles
  // (python/softcert/_claims.py), with the GIL held for the arrays and the user's function.
  softcert::IntervalD judge(const integ::CurveEnclosure& curve, std::size_t T) const {
    py::gil_scoped_acquire gil;
    const py::tuple lo_hi = py::module_::import("softcert._claims").attr("_judge")(margin_.get(), curve_arrays(curve, T));
    return softcert::IntervalD(lo_hi[0].cast<double>(), lo_hi[1].cast<double>());
  }

  engine::CheckResult run_rigorous(const Instance& inst, double H, unsigned bits) const {
    engine::CheckResult r;
    r.horizon = H;
    return engine::rigorous_run(r, [&](engine::CheckResult& r) {
      softcert::flow::Request request;
      request.precision_bits = bits == 0 ? 53 : bits;
      const softcert::flow::CurveEnclosure curve = softcert::flow::curve_over(inst, H, request);
      if (!curve.complete)
        throw softcert::support::RigorousFailure("the curve stopped after t = " +
                                                 softcert::num::decimal_down(curve.t_reached, 9) + ": " + curve.stopped);
      r.precision_bits = curve.precision_bits;
      r.details["segments"] = curve.segments.size();
      const softcert::IntervalD m = judge(curve, inst.T);
      engine::decide_by_margin(r, m,
                               {"margin > 0 on every one of the " + std::to_string(curve.segments.size()) +
                                    " validated segments covering [0, H]",
                                "margin < 0 on a whole validated segment: the claim fails there",
                                "the margin's enclosure contains 0 on some segment"});
    });
  }

  // min over 201 times t_k = k·H/200 of margin at the fast state, for the run and its reference.
  engine::CheckResult run_fast(const Instance& inst, double H) const {
    std::vector<std::string> times;
    for (int k = 1; k <= 200; ++k) times.push_back(softcert::num::exact_decimal(H * k / 200));
    integ::FastOptions o;
    o.escalate = true;
    const std::vector<integ::FastReport> reps = integ::integrate_fast_at(inst, times, o);
    auto point_arrays = [&](bool reference) {
      integ::CurveEnclosure c;
      c.complete = true;
      c.t_reached = H;
      c.precision_bits = reference ? 106 : 53;
      auto add = [&](double t, const integ::FastValues<double>& v) {
        integ::CurveSegment s;
        s.t = softcert::IntervalD(t, t);
        for (std::size_t i = 0; i < inst.T; ++i) {
          s.a.emplace_back(v.a[i], v.a[i]);
          s.u.emplace_back(v.u[i], v.u[i]);
          s.softmax.emplace_back(v.alpha[i], v.alpha[i]);
        }
        s.loss = softcert::IntervalD(v.loss, v.loss);
        c.segments.push_back(std::move(s));
      };
      for (std::size_t k = 0; k < reps.size(); ++k) {
        const integ::FastReport& rep = reps[k];
        if (reference && !rep.reference) throw std::runtime_error("fast tier: no reference run");
        add(H * static_cast<double>(k + 1) / 200, reference ? rep.reference->values : rep.run.values);
      }
      return c;
    };
    const integ::CurveEnclosure run = point_arrays(false), ref = point_arrays(true);
    const double m53 = judge(run, inst.T).lower(), m106 = judge(ref, inst.T).lower();
    return engine::decide_fast(engine::FastRun{m53, 53, ""}, engine::FastRun{m106, 106, ""},
                               "margin > 0 at 200 times of two fast runs that agree", "min margin over the times",
                               [&] { return run_rigorous(inst, H, 0); });
  }

  std::string name_, statement_;
  std::vector<std::string> hypothesis_names_;
  KeptObject margin_, hypotheses_, generate_;
  double horizon_;
};

// softcert.Check's registration: the engine's registry, checked for a valid and unused name.
void register_check_py(const std::string& name, const std::string& statement, py::handle margin, py::handle hypotheses,
                       py::handle generate, double horizon) {
  if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != std::string::npos)
    value_error("name: letters, digits and . _ - only, got " + py::repr(py::str(name)).cast<std::string>());
  if (engine::CheckRegistry::global().find(name)) value_error("name: a check named '" + name + "' is registered already");
  if (!PyCallable_Check(margin.ptr())) value_error("margin: expected a callable margin(segment)");
  if (!generate.is_none() && !PyCallable_Check(generate.ptr())) value_error("generate: expected None or a callable generate(seed)");
  if (!(horizon > 0) || !std::isfinite(horizon)) value_error("horizon: must be a positive finite number");
  std::vector<std::string> names;
  if (!hypotheses.is_none()) {
    if (!py::isinstance<py::dict>(hypotheses)) value_error("hypotheses: expected a dict name -> predicate(instance)");
    for (auto item : py::reinterpret_borrow<py::dict>(hypotheses)) {
      if (!py::isinstance<py::str>(item.first)) value_error("hypotheses: names must be str");
      if (!PyCallable_Check(item.second.ptr())) value_error("hypotheses: each value must be a callable predicate(instance)");
      names.push_back(item.first.cast<std::string>());
    }
  }
  engine::CheckRegistry::global().add(
      std::make_unique<PythonCheck>(name, statement, margin, std::move(names), hypotheses, generate, horizon));
}

}  // namespace
