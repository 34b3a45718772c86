#pragma once
// softcert.suite(): a suite file run from Python (a part of python/softcert_module.cpp), so that
// its entries may name claims registered from Python (softcert.Check; a suite entry's
// `python = "module:attribute"` is imported by python/softcert/_claims.py first). The run is the
// CLI's: engine::run_suite, one run per --out directory at a time with an earlier run moved aside,
// and report::write_reports; the exit status is the suite's (0 as expected, 1 unexpected, 3 too
// many inconclusive).
#include "python_check.hpp"
#include "engine/journal.hpp"
#include "report/summary.hpp"

namespace {

py::dict suite_py(const std::string& file, py::handle out_obj, unsigned jobs) {
  engine::Suite suite;
  try {
    suite = engine::load_suite(file);
  } catch (const std::invalid_argument& e) {
    value_error(e.what());
  }
  engine::RunSettings settings;
  settings.jobs = jobs;
  if (!out_obj.is_none()) settings.out_dir = std::filesystem::path(py::str(py::module_::import("os").attr("fspath")(out_obj)).cast<std::string>());
  engine::SuiteReport rep = run_interruptible([&](const std::atomic<bool>&) {
    std::unique_ptr<engine::OutDirLock> lock;
    std::string moved;
    if (settings.out_dir) {
      lock = std::make_unique<engine::OutDirLock>(*settings.out_dir);
      moved = engine::move_earlier_run_aside(*settings.out_dir);
    }
    engine::SuiteReport r = engine::run_suite(suite, settings);
    if (!moved.empty()) r.notes.insert(r.notes.begin(), moved);
    if (settings.out_dir) softcert::report::write_reports(*settings.out_dir, suite, r, {"python", "softcert.suite", file});
    return r;
  });
  py::dict d;
  d["exit_status"] = rep.exit_status;
  py::list records;
  for (const auto& r : rep.records) records.append(to_python(r));
  d["records"] = records;
  d["notes"] = py::cast(rep.notes);
  return d;
}

}  // namespace
