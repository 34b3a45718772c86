#pragma once
// A paper experiment for `softcert reproduce NAME`: it computes in memory (tables, figures to
// draw, the numbers, a short Markdown summary) and writes nothing itself; output.hpp writes
// the result once the computation has succeeded, so a failed run leaves nothing half-written.
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/plots.hpp"

namespace softcert::reproduce {

struct Figure {
  std::string name;   // file name without extension ("sigma" → sigma.png or sigma.svg)
  std::string table;  // file name of the CSV (in ExperimentResult::tables) it is drawn from
  report::plots::Plot plot;  // one panel (unless `layout` is set)
  std::string caption;  // one sentence a reader needs (what is rigorous, what is not)
  std::optional<report::plots::Layout> layout;  // several panels in one image (the notebook's subplot grids)
  std::vector<std::string> panel_tables;        // the CSV of each layout panel ("" or missing → `table`)
};

struct ExperimentResult {
  std::vector<std::pair<std::string, report::plots::Csv>> tables;  // file name → CSV
  std::vector<Figure> figures;
  std::vector<std::pair<std::string, std::string>> files;  // other files: name → content (e.g. the instance)
  nlohmann::json numbers = nlohmann::json::object();       // → numbers.json
  std::string summary;                                     // Markdown body → summary.md
};

// A computation the experiment needs could not be done (e.g. the rigorous tier could not
// validate a step): `reproduce` exits 3 and writes nothing.
struct ExperimentFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct RunContext {
  // Settings from `--set KEY=VALUE` (`reproduce --list` names them). Every key is one the
  // experiment lists in Experiment::settings; values are checked by the experiment.
  nlohmann::json settings = nlohmann::json::object();
  unsigned jobs = 1;  // threads for experiments made of independent runs; results do not depend on it
  std::function<void(const std::string&)> progress = [](const std::string&) {};
};

struct Experiment {
  std::string name;     // e.g. "varre2026-headline"
  std::string paper;    // citation
  std::string source;   // which figure / table / experiment of the paper
  std::string summary;  // what it computes and writes, one line
  std::vector<std::string> settings;  // the keys `--set` accepts (docs/cli.md lists them)
  // Throws std::invalid_argument for a bad setting (exit 2), ExperimentFailure (exit 3).
  std::function<ExperimentResult(const RunContext&)> run;
};

}  // namespace softcert::reproduce
