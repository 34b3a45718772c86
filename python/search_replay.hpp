#pragma once
// softcert.search() and softcert.replay() (a part of python/softcert_module.cpp): the engine's
// counterexample search and its replay, for every registered check — the built-in ones and the
// claims stated in Python (softcert.Check) alike. The record is the one `softcert search --out`
// writes and `softcert replay` reads (docs/search.md).
#include "suite_run.hpp"
#include "search/replay_certification.hpp"
#include "search/search.hpp"
#include "search/search_record.hpp"

namespace {

py::object search_py(const std::string& name, py::handle drop_obj, std::uint64_t seed, double budget,
                     std::size_t max_samples, py::handle horizon_obj, py::handle params) {
  const engine::Check* check = engine::CheckRegistry::global().find(name);
  if (!check) value_error("name: " + engine::CheckRegistry::global().unknown(name));
  softcert::search::SearchSettings s;
  s.seed = seed;
  if (!(budget > 0) || !std::isfinite(budget)) value_error("budget: must be a positive number of seconds");
  s.budget_seconds = budget;
  s.max_samples = max_samples;
  if (!drop_obj.is_none()) {
    if (py::isinstance<py::str>(drop_obj) || !py::isinstance<py::iterable>(drop_obj))
      value_error("drop: expected a list of hypothesis names, got " + type_name(drop_obj));
    for (py::handle h : drop_obj) {
      const std::string hyp = str_arg(h, "drop");
      if (const std::string p = engine::unknown_hypothesis_problem(*check, hyp); !p.empty()) value_error("drop: " + p);
      s.evaluator.dropped.insert(hyp);
    }
  }
  if (const std::optional<double> h = optional_float_arg(horizon_obj, "horizon")) {
    if (!(*h > 0) || !std::isfinite(*h)) value_error("horizon: must be a positive finite number");
    s.evaluator.horizon = *h;
  }
  if (!params.is_none()) {
    if (!py::isinstance<py::dict>(params)) value_error("params: expected a dict");
    s.evaluator.params = from_python(params, "params");
    if (const std::string p = engine::unknown_param_problem(*check, s.evaluator.params); !p.empty()) value_error("params: " + p);
  }
  const json record = run_interruptible([&](const std::atomic<bool>&) {
    softcert::search::SearchOutcome o;
    try {
      o = softcert::search::run_search(*check, s, [](const softcert::search::SearchProgress&) {});
    } catch (const std::invalid_argument& e) {
      throw py::value_error(e.what());
    }
    return softcert::search::search_record(*check, s, o);
  });
  return to_python(record);
}

// The replay of a record (a search's or a violated check record): its verdict, margin and reason.
py::dict replay_py(py::handle record_obj) {
  if (!py::isinstance<py::dict>(record_obj)) value_error("record: expected a dict (a search or check record)");
  const json record = from_python(record_obj, "record");
  std::string why;
  const std::optional<engine::CheckResult> r =
      run_interruptible([&](const std::atomic<bool>&) { return softcert::search::replay_result(record, &why); });
  if (!r) value_error("record: " + why);
  py::dict d;
  d["verdict"] = std::string(engine::to_string(r->verdict));
  d["reason"] = r->reason;
  d["margin"] = r->margin.empty() ? py::object(py::none()) : py::object(py::make_tuple(r->margin.lower_text(), r->margin.upper_text()));
  return d;
}

}  // namespace
