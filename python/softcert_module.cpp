// The extension softcert._core of the Python package `softcert` (python/softcert/, docs/python.md):
// instances from numpy arrays, the fast and the rigorous tier, trajectories and theorem checks,
// from the same engine as the CLI. The public functions, their docstrings and signatures are
// python/softcert/__init__.py's; every keyword arrives here as a Python object and is converted
// with an error naming it (str_arg, int_arg, ...).
//
// Every path goes through the engine function the CLI uses, so that the numbers are the CLI's:
//   Instance(...)   builds the instance file's JSON and calls instances::parse_instance (the same
//                   validation and messages); float64 values enter as their EXACT decimal
//                   expansion (a double is m·2^e, a terminating decimal), strings as given.
//   integrate()     fast: integrate::integrate_fast with the options of `softcert integrate`;
//                   rigorous: as run_rigorous in src/cli/cmd_integrate.cpp, the reduced form
//                   (rigorous_integrate) where it applies, else rigorous_integrate_model.
//   trajectory()    rigorous: one validated pass, integrate::rigorous_integrate_at (reduced form,
//                   τ-time, as `softcert reproduce varre2026-headline`) or
//                   rigorous_integrate_model_at (full state); fast: integrate::integrate_fast_at,
//                   one t-time run landing on every time.
//   derived         integrate/derived_enclosures.hpp (entropy, max weight, argmax, gaps), the
//                   CLI's "derived" object.
//   check()         engine::run_item, the function that builds each JSONL record of `softcert
//                   check --json`, on a one-entry suite built as src/cli/cmd_check.cpp builds it.
//
// Long computations run in a worker thread with the GIL released; the calling thread waits in
// short intervals and checks for signals (python/interruptible.hpp). On Ctrl-C a rigorous
// integration stops after its current validated step and KeyboardInterrupt is raised; tube()
// hands back the curve validated so far with softcert.Interrupted; a fast-tier run or a check
// finishes first.

#include "search_replay.hpp"

namespace {

// ---------------------------------------------------------------------------------------------
// integrate, trajectory, check


struct IntegrateArgs {
  std::string tier;
  unsigned precision = 53;
  FastArgs fast;
  py::object progress;  // None or the callable
};

IntegrateArgs integrate_args(py::handle tier, py::handle precision, py::handle stepper, py::handle form, py::handle time,
                             py::handle tolerance, py::handle reference, py::handle progress) {
  IntegrateArgs a;
  a.tier = tier_arg(tier);
  a.precision = precision_arg(precision, a.tier);
  a.fast = FastArgs{a.precision, str_arg(stepper, "stepper"), str_arg(form, "form"),
                    integ::parse_plan_time(str_arg(time, "time"), "time"),
                    optional_float_arg(tolerance, "tolerance"), bool_arg(reference, "reference")};
  a.progress = progress_arg(progress);
  return a;
}

// The rigorous tier's options as run_rigorous in src/cli/cmd_integrate.cpp, with progress reports.
integ::RigorousIntegrateOptions rigorous_options(const IntegrateArgs& a, Progress& progress) {
  integ::RigorousIntegrateOptions o;
  o.precision_bits = a.precision;
  o.time_variable = a.fast.time;
  if (progress.wanted()) o.progress = [p = &progress](std::size_t steps, double t) { p->report(steps, t); };
  return o;
}

py::object integrate_py(py::handle inst_obj, py::handle t_obj, py::handle tier_obj, py::handle precision_obj,
                        py::handle stepper, py::handle form, py::handle time, py::handle tolerance, py::handle reference,
                        py::handle progress) {
  const Instance& inst = instance_arg(inst_obj);
  const IntegrateArgs args = integrate_args(tier_obj, precision_obj, stepper, form, time, tolerance, reference, progress);
  Progress reports{args.progress};
  const std::string t = time_decimal(t_obj, "t");
  check_positive(t, "t");
  if (args.tier == "fast") {
    const integ::FastOptions o = args.fast.options();
    const integ::FastReport rep =
        run_interruptible([&](const std::atomic<bool>&) { return integ::integrate_fast(inst, t, o); }, &reports);
    return fast_result(rep);
  }
  const integ::RigorousIntegrateOptions o = rigorous_options(args, reports);
  // What the run does is integrate::plan_run's, asked once by the run (as in `softcert integrate`);
  // what it refuses is a ValueError naming the argument (integrate::PlanRefusal, a
  // std::invalid_argument, comes back through run_interruptible and pybind11 raises it as ValueError).
  auto [r, seconds] = run_interruptible([&](const std::atomic<bool>& cancel) {
    const auto start = std::chrono::steady_clock::now();
    integ::RigorousIntegrateResult res = integ::rigorous_integrate_planned(inst, t, cancellable(o, cancel));
    return std::make_pair(std::move(res), std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }, &reports);
  return rigorous_result(r, seconds);
}

// Stacks one per-time field of the results along a new leading (time) axis.
py::object stack(const py::list& dicts, const char* key, const char* dtype = "float64") {
  py::list items;
  for (py::handle d : dicts) {
    py::object v = py::reinterpret_borrow<py::dict>(d)[key];
    if (v.is_none()) return py::none();
    items.append(v);
  }
  return py::module_::import("numpy").attr("array")(items, py::arg("dtype") = dtype);
}

py::dict stacked(const py::list& dicts) {
  py::dict out;
  for (const char* k : {"a", "u", "softmax", "loss", "V", "entropy", "max_weight", "score_gap", "gaps_to_max"})
    out[k] = stack(dicts, k);
  out["argmax"] = stack(dicts, "argmax", "int64");
  return out;
}

py::object trajectory_py(py::handle inst_obj, py::handle times_obj, py::handle tier_obj, py::handle precision_obj,
                         py::handle stepper, py::handle form, py::handle time, py::handle tolerance, py::handle reference,
                         py::handle progress) {
  const Instance& inst = instance_arg(inst_obj);
  const IntegrateArgs args = integrate_args(tier_obj, precision_obj, stepper, form, time, tolerance, reference, progress);
  Progress reports{args.progress};
  const std::vector<std::string> times = times_decimals(times_obj);
  const std::string& tier = args.tier;
  py::object o = py::cast(Trajectory{});
  o.attr("tier") = tier;
  o.attr("t") = py::cast(times);
  o.attr("times") = vector_array(times);
  py::list results;
  const auto start = std::chrono::steady_clock::now();
  const bool from_zero = softcert::num::parse_decimal<softcert::Rational>(times[0]) == 0;
  for (std::size_t k = from_zero ? 1 : 0; k < times.size(); ++k) {
    const std::string field = "times[" + std::to_string(k) + "]";
    check_positive(times[k], field);
    if (k > 0 && !(softcert::num::parse_decimal<softcert::Rational>(times[k]) >
                   softcert::num::parse_decimal<softcert::Rational>(times[k - 1])))
      value_error(field + ": times must be strictly increasing (" + times[k - 1] + " then " + times[k] + ")");
  }
  if (tier == "fast") {
    if (from_zero) value_error("times[0]: the fast trajectory starts after t = 0 (the initial state is the instance's)");
    if (args.fast.time == integ::PlanTime::tau) value_error("time: the fast trajectory runs in t-time (one pass landing on every time)");
    const integ::FastOptions opts = args.fast.options();
    Progress* p = &reports;
    const auto reps = run_interruptible([&](const std::atomic<bool>&) {
      std::vector<integ::FastReport> out = integ::integrate_fast_at(inst, times, opts);
      p->report(out.empty() ? 0 : out.back().run.steps, softcert::num::parse_decimal<double>(times.back()));
      return out;
    }, &reports);
    py::list states, digits, steps;
    for (const auto& rep : reps) {
      py::object r = fast_result(rep);
      results.append(r);
      states.append(r.attr("state"));
      digits.append(r.attr("digits"));
      steps.append(r.attr("steps"));
    }
    o.attr("state") = stacked(states);
    o.attr("digits") = args.fast.reference ? py::object(py::module_::import("numpy").attr("array")(digits, py::arg("dtype") = "float64"))
                                           : py::object(py::none());
    o.attr("steps") = steps;
    o.attr("reference") = args.fast.reference;
  } else {
    // One validated pass over every time: the reduced logistic form in τ-time
    // (integrate::rigorous_integrate_at, as `softcert reproduce varre2026-headline`), else the full
    // state (integrate::rigorous_integrate_model_at); t = 0 is enclosed exactly when asked for.
    const bool reduced = integ::reduced_logistic_applies(inst);
    if (!reduced && args.fast.time)
      value_error("time: the full-state rigorous tier chooses its own time variable (τ for logistic loss, else t); "
                  "leave time at auto");
    const integ::RigorousIntegrateOptions base_opts = rigorous_options(args, reports);
    const std::vector<std::string> rest(times.begin() + (from_zero ? 1 : 0), times.end());
    const auto rows = run_interruptible([&](const std::atomic<bool>& cancel) {
      const integ::RigorousIntegrateOptions opts = cancellable(base_opts, cancel);
      std::vector<integ::RigorousIntegrateResult> out;
      if (from_zero) out.push_back(reduced ? integ::rigorous_integrate(inst, times[0], opts)
                                           : integ::rigorous_integrate_model(inst, times[0], opts));
      if (!rest.empty())
        for (auto& r : reduced ? integ::rigorous_integrate_at(inst, rest, opts) : integ::rigorous_integrate_model_at(inst, rest, opts))
          out.push_back(std::move(r));
      return out;
    }, &reports);
    py::list lower, upper, steps;
    for (const auto& r : rows) {
      py::object res = rigorous_result(r, std::nullopt);
      results.append(res);
      lower.append(res.attr("lower"));
      upper.append(res.attr("upper"));
      steps.append(r.steps);
    }
    o.attr("lower") = stacked(lower);
    o.attr("upper") = stacked(upper);
    o.attr("steps") = steps;
    o.attr("max_width") = rows.empty() ? 0.0 : std::max_element(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
      return x.max_width < y.max_width;
    })->max_width;
  }
  o.attr("seconds") = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.attr("results") = results;
  return o;
}

py::object check_py(py::handle name_obj, py::handle instance, py::handle horizon_obj, py::handle tier_obj,
                    py::handle precision_obj, py::object params, py::handle seed_obj, py::handle drop_obj) {
  // The checks of src/cli/cmd_check.cpp, then its one-entry suite.
  const std::string name = str_arg(name_obj, "name");
  if (!engine::CheckRegistry::global().find(name))
    value_error("name: no check named '" + name + "' (softcert.checks() lists them)");
  const std::string tier = tier_arg(tier_obj);
  const long long p_in = int_arg(precision_obj, "precision", 0, 65536, "0 (the check's default) or 53 to 65536 bits");
  if (p_in != 0 && p_in < 53) value_error("precision: must be 0 (the check's default) or 53 to 65536 bits, got " + std::to_string(p_in));
  const auto precision = static_cast<unsigned>(p_in);
  const std::optional<double> horizon = optional_float_arg(horizon_obj, "horizon");
  const auto seed = static_cast<std::uint64_t>(int_arg(seed_obj, "seed", 0, std::numeric_limits<long long>::max(), "in [0, 2**63)"));
  if (horizon && (!(*horizon > 0) || !std::isfinite(*horizon)))
    value_error("horizon: must be a positive finite number, got " + py::repr(py::float_(*horizon)).cast<std::string>());
  engine::SuiteEntry e;
  e.check = name;
  e.options.tier = tier == "fast" ? engine::Tier::fast : engine::Tier::rigorous;
  e.options.precision_bits = precision;
  if (const std::string p = engine::precision_problem(e.options.tier, precision); !p.empty())
    value_error("precision: " + p);
  e.options.horizon = horizon;
  if (!params.is_none()) {
    if (!py::isinstance<py::dict>(params)) value_error("params: expected a dict");
    e.options.params = from_python(params, "params");
  }
  if (const std::string p = engine::unknown_param_problem(*engine::CheckRegistry::global().find(name), e.options.params);
      !p.empty())
    value_error("params: " + p);
  e.generate.params = e.options.params;
  // drop=[...]: the CLI's --drop, one name per hypothesis (a bare string would iterate by letter)
  if (!drop_obj.is_none()) {
    if (py::isinstance<py::str>(drop_obj) || py::isinstance<py::bytes>(drop_obj) || !py::isinstance<py::iterable>(drop_obj))
      value_error("drop: expected a list of hypothesis names, got " + type_name(drop_obj));
    for (py::handle h : drop_obj) {
      if (!py::isinstance<py::str>(h)) value_error("drop: expected hypothesis names (str), got " + type_name(h));
      const std::string hyp = h.cast<std::string>();
      if (const std::string p = engine::unknown_hypothesis_problem(*engine::CheckRegistry::global().find(name), hyp);
          !p.empty())
        value_error("drop: " + p);
      e.generate.dropped.insert(hyp);  // neither generated nor tested on the instance, as check --drop
    }
  }
  std::optional<json> in_memory;
  if (py::isinstance<Instance>(instance)) {
    in_memory = inst_ns::to_json(instance.cast<const Instance&>());
  } else if (py::isinstance<py::str>(instance) || py::hasattr(instance, "__fspath__")) {
    const std::filesystem::path f = py::str(py::module_::import("os").attr("fspath")(instance)).cast<std::string>();
    if (!std::filesystem::is_regular_file(f)) value_error("instance: no such file: " + f.string());
    e.instance_files.push_back(std::filesystem::absolute(f));
  } else {
    value_error("instance: expected a softcert.Instance or a path to an instance file, got " + type_name(instance));
  }
  const engine::Suite suite = engine::single_check_suite(std::move(e), seed);
  engine::WorkItem item;
  if (in_memory) {
    const auto& id = (*in_memory).value("id", std::string());
    item.instance_id = id.empty() ? "python" : id;
    item.instance = std::move(in_memory);
  } else {
    item = engine::plan(suite).at(0);
  }
  json record = run_interruptible([&](const std::atomic<bool>&) { return engine::run_item(suite, item); });
  record["run"] = engine::run_identity(suite, 1).id;  // as `softcert check` stamps it (docs/reports.md)
  return to_python(record);
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "softcert: certified gradient flows of softmax-attention models and theorem checks (docs/python.md)";
  m.attr("__version__") = SOFTCERT_VERSION;
  m.attr("git_commit") = SOFTCERT_GIT_COMMIT;
  auto& rigorous_failure = py::register_exception<softcert::support::RigorousFailure>(m, "RigorousFailure", PyExc_RuntimeError);
  // |x| and relu stopped before a kink (integrate/kink_report.hpp): a RigorousFailure whose
  // `info` is the CLI's --json "kink" object (kink_free_until, stopped_at, nearest_score, ...).
  static py::exception<integ::KinkPossible> kink_possible(m, "KinkPossible", rigorous_failure.ptr());
  py::register_exception_translator([](std::exception_ptr p) {  // tried before the one above
    try {
      if (p) std::rethrow_exception(p);
    } catch (const integ::KinkPossible& e) {
      py::object err = py::reinterpret_borrow<py::object>(kink_possible.ptr())(e.what());
      err.attr("info") = to_python(integ::to_json(e.info()));
      PyErr_SetObject(kink_possible.ptr(), err.ptr());
    }
  });
  py::register_exception<integ::FastOverflow>(m, "FastOverflow", PyExc_RuntimeError);

  py::class_<Instance>(m, "Instance",
                       "A problem instance (docs/instances.md), held as exact decimal strings.\n\n"
                       "Instance(*, V, a, beta=None, loss='logistic', normalization='softmax', X=None, y=None, p=None,\n"
                       "         provenance='python', U=None, model=None, id=None, seed=None, p_logits=None, authors_run=None,\n"
                       "         loss_formula=None, normalization_formula=None)\n\n"
                       "V is d x T (row i = coordinate i, column j = token j; tokens numbered from 0), a has T entries,\n"
                       "beta d (logistic, square), X n x d and y n (logistic_dataset, regression), p d (cross_entropy);\n"
                       "U instead of V gives the tied model; loss='formula' with loss_formula, normalization='formula'\n"
                       "with normalization_formula give them as formulas (docs/formulas.md). Arrays: numpy float64\n"
                       "(each double taken exactly, as its exact decimal expansion), integers, or decimal strings. Validated as an instance file is: a bad\n"
                       "field or argument raises ValueError naming it. Instance.load(path) and Instance.from_json(text)\n"
                       "read the instance file format (duplicate keys and NUL bytes refused).")
      .def(py::init(&make_instance), py::kw_only(), py::arg("V") = py::none(), py::arg("a") = py::none(),  // signature: __init__.py
           py::arg("beta") = py::none(), py::arg("loss") = "logistic", py::arg("normalization") = "softmax",
           py::arg("X") = py::none(), py::arg("y") = py::none(), py::arg("p") = py::none(),
           py::arg("provenance") = "python", py::arg("U") = py::none(), py::arg("model") = py::none(),
           py::arg("id") = py::none(), py::arg("seed") = py::none(), py::arg("p_logits") = py::none(),
           py::arg("authors_run") = py::none(), py::arg("loss_formula") = py::none(),
           py::arg("normalization_formula") = py::none(),
           "Arrays: numpy float64 (each double taken exactly), integers, or decimal strings. Validated as an "
           "instance file is; a bad field raises ValueError naming it.")
      .def_static("from_json", &instance_from_json, py::arg("json"), "From JSON text or a dict (the instance file format).")
      .def_static("load", &inst_ns::load_instance, py::arg("path"), "From an instance file.")
      .def("to_json", [](const Instance& i, int indent) { return inst_ns::to_json(i).dump(indent); },
           py::arg("indent") = 1, "The instance file's JSON (every number a decimal string).")
      .def("decimals", &instance_decimals, py::arg("field"), "An array field as its exact decimal strings.")
      .def_property_readonly("model", [](const Instance& i) { return i.model; })
      .def_property_readonly("loss", [](const Instance& i) { return std::string(inst_ns::to_string(i.loss)); })
      .def_property_readonly("normalization",
                             [](const Instance& i) { return std::string(inst_ns::to_string(i.normalization)); })
      .def_property_readonly("T", [](const Instance& i) { return i.T; })
      .def_property_readonly("d", [](const Instance& i) { return i.d; })
      .def_property_readonly("provenance", [](const Instance& i) { return i.provenance; })
      .def_property_readonly("id", [](const Instance& i) { return i.id.empty() ? py::object(py::none()) : py::str(i.id); })
      .def_property_readonly("seed", [](const Instance& i) { return i.seed ? py::object(py::int_(*i.seed)) : py::object(py::none()); })
      .def_property_readonly("V", [](const Instance& i) { return matrix_array(i.V); }, "V (U for the tied model), nearest doubles")
      .def_property_readonly("U", [](const Instance& i) { return i.tied() ? py::object(matrix_array(i.V)) : py::object(py::none()); })
      .def_property_readonly("a", [](const Instance& i) { return vector_array(i.a); })
      .def_property_readonly("beta", [](const Instance& i) { return optional_vector(i.beta); })
      .def_property_readonly("X", [](const Instance& i) { return optional_matrix(i.X); })
      .def_property_readonly("y", [](const Instance& i) { return optional_vector(i.y); })
      .def_property_readonly("p", [](const Instance& i) { return optional_vector(i.p); })
      // The same problem, not the same provenance or id (instance_equality.hpp)
      .def("__eq__", [](const Instance& x, const Instance& y) { return softcert::python::same_problem(x, y); },
           py::is_operator())
      .def("__repr__", [](const Instance& i) {
        return "softcert.Instance(model='" + i.model + "', loss='" + inst_ns::to_string(i.loss) + "', normalization='" +
               inst_ns::to_string(i.normalization) + "', T=" + std::to_string(i.T) + ", d=" + std::to_string(i.d) +
               (i.id.empty() ? "" : ", id='" + i.id + "'") + ")";
      });

  py::class_<FastResult>(m, "FastResult", py::dynamic_attr(),
                         "integrate(..., tier='fast'): the state at t in floating point, no guarantee. Attributes: state\n"
                         "(a, u, softmax, V, loss and the derived point values entropy, max_weight, score_gap, gaps_to_max,\n"
                         "argmax), argmax, digits (agreement with the reference run), steps, decimals, json. help(softcert.integrate).")
      .def("__repr__", [](py::object self) { return short_repr(self, {"t", "steps", "digits", "precision_bits"}); });
  py::class_<RigorousResult>(m, "RigorousResult", py::dynamic_attr(),
                             "integrate(..., tier='rigorous'): enclosures at t. Guarantee: for every key of lower/upper (a, u,\n"
                             "softmax, V, loss, entropy, max_weight, score_gap, gaps_to_max) the exact value of the exact flow\n"
                             "lies in [lower[key], upper[key]] (outward-rounded doubles; exact ends in decimals). argmax: the\n"
                             "token (from 0) certainly carrying the largest weight, or None. help(softcert.integrate).")
      .def("intervals", &mpmath_intervals, py::arg("field"),
           "One field's enclosures as mpmath intervals at the result's precision (outward rounded).")
      .def("__repr__", [](py::object self) { return short_repr(self, {"t", "steps", "max_width", "precision_bits"}); });
  py::class_<Trajectory>(m, "Trajectory", py::dynamic_attr(),
                         "trajectory(...): the state at many times from one pass; lower/upper (rigorous) or state (fast)\n"
                         "stacked on a leading time axis, results, times, t, steps; to_pandas(), softcert.plot(tr, q).\n"
                         "help(softcert.trajectory).")
      .def("__repr__", [](py::object self) {
        const py::list t = self.attr("t");
        return "softcert.Trajectory(tier=" + py::repr(self.attr("tier")).cast<std::string>() + ", " +
               std::to_string(t.size()) + " times in [" + py::str(self.attr("times").attr("min")()).cast<std::string>() +
               ", " + py::str(self.attr("times").attr("max")()).cast<std::string>() +
               "], seconds=" + py::repr(self.attr("seconds")).cast<std::string>() + ")";
      });

  // The public functions with their full docstrings and signatures are python/softcert/__init__.py's.
  m.def("integrate", &integrate_py, py::arg("instance"), py::arg("t"), py::kw_only(), py::arg("tier") = "fast",
        py::arg("precision") = 53, py::arg("stepper") = "auto", py::arg("form") = "full", py::arg("time") = "auto",
        py::arg("tolerance") = py::none(), py::arg("reference") = true, py::arg("progress") = py::none(),
        "softcert.integrate's implementation (see help(softcert.integrate)).");
  m.def("trajectory", &trajectory_py, py::arg("instance"), py::arg("times"), py::kw_only(), py::arg("tier") = "fast",
        py::arg("precision") = 53, py::arg("stepper") = "auto", py::arg("form") = "full", py::arg("time") = "auto",
        py::arg("tolerance") = py::none(), py::arg("reference") = false, py::arg("progress") = py::none(),
        "softcert.trajectory's implementation (see help(softcert.trajectory)).");
  m.def("check", &check_py, py::arg("name"), py::arg("instance"), py::kw_only(), py::arg("horizon") = py::none(),
        py::arg("tier") = "rigorous", py::arg("precision") = 0, py::arg("params") = py::none(), py::arg("seed") = 1,
        py::arg("drop") = py::none(), "softcert.check's implementation (see help(softcert.check)).");
  m.def("checks", []() {
    py::list out;
    for (const engine::Check* c : engine::CheckRegistry::global().all()) {
      py::dict d;
      d["name"] = c->name();
      d["paper"] = c->paper();
      d["statement"] = c->statement();
      d["hypotheses"] = py::cast(c->hypotheses());
      d["doc"] = c->doc();
      out.append(d);
    }
    return out;
  }, "The registered theorem checks: name, paper, statement, hypotheses, doc.");
  m.def("tube", &tube_py, py::arg("instance"), py::arg("H"), py::kw_only(), py::arg("precision") = 53,
        py::arg("time") = "auto", py::arg("progress") = py::none(), "softcert.tube's raw arrays (see help(softcert.tube)).");
  m.def("register_check", &register_check_py, py::arg("name"), py::arg("statement"), py::arg("margin"),
        py::arg("hypotheses") = py::none(), py::arg("generate") = py::none(), py::arg("horizon") = 10.0,
        "softcert.Check's registration (see help(softcert.Check)).");
  m.def("suite", &suite_py, py::arg("file"), py::arg("out") = py::none(), py::arg("jobs") = 1u,
        "softcert.suite's implementation (see help(softcert.suite)).");
  m.def("search", &search_py, py::arg("name"), py::kw_only(), py::arg("drop") = py::none(), py::arg("seed") = 1u,
        py::arg("budget") = 60.0, py::arg("max_samples") = 0u, py::arg("horizon") = py::none(),
        py::arg("params") = py::none(), "softcert.search's implementation (see help(softcert.search)).");
  m.def("replay", &replay_py, py::arg("record"), "softcert.replay's implementation (see help(softcert.replay)).");
  m.def("exact_decimal", &exact_decimal, py::arg("x"), "The exact decimal expansion of a double (as instances store it).");
}
