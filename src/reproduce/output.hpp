#pragma once
// Writing an experiment's result into `softcert reproduce --out DIR`:
//   DIR/<table>.csv           the data (decimal strings; enclosures as lower/upper columns)
//   DIR/<figure>.png|.svg     drawn by gnuplot from the CSV (report/plots.hpp), with <figure>.<ext>.gp
//   DIR/numbers.json          {"schema": "softcert.reproduce/1", experiment, paper, source,
//                              settings, seconds, softcert build, "numbers": {...}}
//   DIR/summary.md            the numbers for people, the figures with captions
// The set is written whole or not at all (write_result_staged): every file goes into a staging
// directory inside DIR, each write and close checked (and gnuplot's images checked complete),
// and only then is each renamed into DIR. Without gnuplot the figures are skipped and summary.md
// says why; everything else is written.
#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "reproduce/experiment.hpp"

namespace softcert::reproduce {

// Makes sure `dir` can take the output before anything is computed: creates it (and its
// parents) when missing and checks that a file can be created in it. Throws
// std::invalid_argument naming the problem. Returns true when it created `dir`.
bool prepare_output_dir(const std::filesystem::path& dir);

struct Written {
  std::vector<std::filesystem::path> files;  // in the order written
  std::vector<std::string> notes;            // e.g. "plots skipped: gnuplot not found"
};

// Writes every file into `dir` (each atomically, engine::write_file_atomically); a failure
// (engine::WriteError) can leave some written. write_result_staged is what `reproduce` uses.
Written write_result(const Experiment& experiment, const ExperimentResult& result, const std::filesystem::path& dir,
                     report::plots::Format format, const nlohmann::json& settings, double seconds);

// write_result into DIR/.softcert-staging-PID, then every file staged renamed into `dir`: on any
// failure (a full disk, a file size limit, a truncated image, a symlink or directory at one of
// the names in `dir`, refused before the first rename) the staging directory is removed, `dir`
// is left as it was and engine::WriteError is thrown. The files returned are in `dir`.
Written write_result_staged(const Experiment& experiment, const ExperimentResult& result, const std::filesystem::path& dir,
                            report::plots::Format format, const nlohmann::json& settings, double seconds);

// The decimal string s as a double, for drawing only ("" when s is not a finite number).
std::string for_drawing(const std::string& s);
// 0.5·(lower + upper) of two decimal strings, as a decimal for drawing only.
std::string midpoint_for_drawing(const std::string& lower, const std::string& upper);
// [lo, hi] computed in double by a few roundings from numbers of magnitude ≤ scale: widened by
// 1e-15·scale and printed to 9 significant digits rounded outward — still an enclosure. The
// lower end is raised to `floor` (a bound the exact value is known to respect, e.g. 0 for a distance).
std::pair<std::string, std::string> outward_decimals(double lo, double hi, double scale, double floor = -INFINITY);
// A double as a short decimal string (%.*g).
std::string short_number(double x, int digits = 6);

}  // namespace softcert::reproduce
