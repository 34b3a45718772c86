#include "reproduce/output.hpp"

#include <fcntl.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "engine/build_info.hpp"
#include "engine/journal.hpp"
#include "numerics/decimal.hpp"

namespace softcert::reproduce {

namespace fs = std::filesystem;
namespace plots = report::plots;

bool prepare_output_dir(const fs::path& dir) {
  std::error_code ec;
  const bool existed = fs::exists(dir, ec);
  if (existed && !fs::is_directory(dir, ec)) throw std::invalid_argument("--out: " + dir.string() + " exists and is not a directory");
  if (!existed) {
    fs::create_directories(dir, ec);
    if (ec) throw std::invalid_argument("--out: cannot create " + dir.string() + ": " + ec.message());
  }
  // A probe file: permissions, read-only file systems and full disks all show here.
  const fs::path probe = dir / (".softcert-write-test-" + std::to_string(::getpid()));
  {
    // O_EXCL | O_NOFOLLOW: a file or symlink planted at the (guessable) probe name is never
    // written through.
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    const bool ok = fd >= 0 && ::write(fd, "probe\n", 6) == 6;
    if (fd >= 0) ::close(fd);
    if (!ok) {
      if (fd >= 0) fs::remove(probe, ec);
      if (!existed) fs::remove(dir, ec);
      throw std::invalid_argument("--out: cannot write into " + dir.string());
    }
  }
  fs::remove(probe, ec);
  return !existed;
}

std::string short_number(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, x);
  return buf;
}

std::pair<std::string, std::string> outward_decimals(double lo, double hi, double scale, double floor) {
  const double slack = 1e-15 * scale + 1e-300;
  return {num::decimal_down(std::max(lo - slack, floor), 9), num::decimal_up(hi + slack, 9)};
}

std::string for_drawing(const std::string& s) {
  if (s.empty()) return "";
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || !std::isfinite(x)) return "";
  return short_number(x, 12);
}

std::string midpoint_for_drawing(const std::string& lower, const std::string& upper) {
  const std::string lo = for_drawing(lower), hi = for_drawing(upper);
  if (lo.empty() || hi.empty()) return "";
  return short_number(0.5 * std::strtod(lo.c_str(), nullptr) + 0.5 * std::strtod(hi.c_str(), nullptr), 12);
}

Written write_result(const Experiment& experiment, const ExperimentResult& result, const fs::path& dir,
                     plots::Format format, const nlohmann::json& settings, double seconds) {
  Written w;
  auto put = [&w, &dir](const std::string& name, const std::string& text) {
    engine::write_file_atomically(dir / name, text);
    w.files.push_back(dir / name);
  };
  for (const auto& [name, csv] : result.tables) {
    csv.write(dir / name);
    w.files.push_back(dir / name);
  }
  for (const auto& [name, text] : result.files) put(name, text);

  const char* ext = format == plots::Format::svg ? ".svg" : ".png";
  std::string figures_md;
  std::string skipped;
  for (const Figure& f : result.figures) {
    const plots::Csv* csv = nullptr;
    for (const auto& [name, c] : result.tables)
      if (name == f.table) csv = &c;
    if (!csv) throw std::logic_error("reproduce: figure " + f.name + " names no table " + f.table);
    plots::Plot p = f.plot;
    p.format = format;
    std::optional<plots::Layout> layout = f.layout;
    if (layout) {
      layout->format = format;
      for (std::size_t i = 0; i < f.panel_tables.size(); ++i) {
        const plots::Csv* pc = nullptr;
        for (const auto& [name, c] : result.tables)
          if (name == f.panel_tables[i]) pc = &c;
        if (!pc) throw std::logic_error("reproduce: figure " + f.name + " names no table " + f.panel_tables[i]);
        layout->panel_data.emplace_back(pc, dir / f.panel_tables[i]);
      }
    }
    const std::string title = layout ? layout->title : p.title;
    const std::string image = f.name + ext;
    figures_md += "### " + title + "\n\n";
    if (skipped.empty()) {
      const plots::Rendered r = layout ? plots::render(*layout, *csv, dir / f.table, dir / image)
                                       : plots::render(p, *csv, dir / f.table, dir / image);
      if (r.ok) {
        w.files.push_back(dir / image);
        figures_md += "![" + title + "](" + image + ")\n\n";
      } else {
        skipped = r.message;
        w.notes.push_back("plots skipped: " + r.message);
      }
    }
    figures_md += f.caption + " Data: `" + f.table + "`" + (skipped.empty() ? "." : " (not drawn).") + "\n\n";
  }

  nlohmann::json numbers;
  numbers["schema"] = "softcert.reproduce/1";
  numbers["experiment"] = experiment.name;
  numbers["paper"] = experiment.paper;
  numbers["source"] = experiment.source;
  numbers["settings"] = settings;
  numbers["seconds"] = seconds;
  numbers["softcert"] = build_info_json();
  numbers["numbers"] = result.numbers;
  put("numbers.json", numbers.dump(1) + "\n");

  std::string md = "# " + experiment.name + "\n\n";
  md += "Paper: " + experiment.paper + ".  \nSource: " + experiment.source + ".  \n";
  const BuildInfo b = build_info();
  md += "softcert " + b.version + " (" + b.git_commit + "), " + short_number(seconds, 3) + " s";
  if (!settings.empty()) md += ", settings " + settings.dump();
  md += ".\n\n" + result.summary + "\n";
  if (!result.figures.empty()) {
    md += "## Figures\n\n";
    if (!skipped.empty()) md += "Plots skipped: " + skipped + "\n\n";
    md += figures_md;
  }
  md += "Files: ";
  for (std::size_t i = 0; i < w.files.size(); ++i) md += (i ? ", `" : "`") + w.files[i].filename().string() + "`";
  md += ", `summary.md`.\n";
  put("summary.md", md);
  return w;
}

Written write_result_staged(const Experiment& experiment, const ExperimentResult& result, const fs::path& dir,
                            plots::Format format, const nlohmann::json& settings, double seconds) {
  const fs::path stage = dir / (".softcert-staging-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove_all(stage, ec);  // this pid's own leftover (a symlink there is removed, not followed)
  if (!fs::create_directory(stage, ec) || ec)
    throw engine::WriteError(stage.string() + ": cannot create the staging directory: " + ec.message());
  try {
    Written w = write_result(experiment, result, stage, format, settings, seconds);
    std::vector<fs::path> names;
    for (const auto& entry : fs::directory_iterator(stage)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    // Every name checked before the first rename: nothing is renamed over a symlink or a directory
    for (const fs::path& name : names) {
      const fs::file_status st = fs::symlink_status(dir / name, ec);
      if (fs::exists(st) && !fs::is_regular_file(st))
        throw engine::WriteError((dir / name).string() + ": exists and is not a regular file (a symlink or a directory): "
                                 "not replaced");
    }
    for (const fs::path& name : names)
      if (::rename((stage / name).c_str(), (dir / name).c_str()) != 0)
        throw engine::WriteError((dir / name).string() + ": cannot move into place: " + std::strerror(errno));
    fs::remove(stage, ec);
    for (fs::path& f : w.files) f = dir / f.filename();
    return w;
  } catch (const engine::WriteError& e) {
    fs::remove_all(stage, ec);
    // named by the path in `dir` that failed, not by the staging directory that is gone
    std::string what = e.what();
    const std::string from = stage.string() + "/", to = (dir / "").string();
    for (std::size_t at = what.find(from); at != std::string::npos; at = what.find(from, at + to.size()))
      what.replace(at, from.size(), to);
    throw engine::WriteError(what);
  } catch (...) {
    fs::remove_all(stage, ec);
    throw;
  }
}

}  // namespace softcert::reproduce
