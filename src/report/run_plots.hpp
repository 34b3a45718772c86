#pragma once
// The standard figures of a suite run, drawn with report/plots.hpp into DIR/plots/: verdict
// counts per check, the certified margin of every instance, the run time of every instance.
#include <filesystem>
#include <string>
#include <vector>

#include "engine/runner.hpp"

namespace softcert::report {

struct Figure {
  std::string title;
  std::filesystem::path image;  // relative to the report directory; empty when not drawn
  std::filesystem::path csv;    // the data, relative to the report directory
  std::string caption;
};

struct RunFigures {
  std::vector<Figure> figures;  // the CSVs are always written; images only when plotted
  bool plotted = false;
  std::string note;  // why there are no images (gnuplot absent or failed), else ""
};

// Writes DIR/plots/{verdicts,instances}.csv and, when gnuplot is available, the PNG images.
// Never fails because of gnuplot: the note says what went wrong.
RunFigures write_run_figures(const std::filesystem::path& dir, const engine::SuiteReport& report);

}  // namespace softcert::report
