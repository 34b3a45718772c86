#include "report/plots.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "engine/journal.hpp"

extern char** environ;

namespace softcert::report::plots {

namespace fs = std::filesystem;

namespace {

std::string clean_cell(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (c == ',') c = ';';
    else if (c == '"') c = '\'';
    else if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

// A gnuplot single-quoted string: no escapes inside except '' for '.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "''";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out + "'";
}

std::size_t column_index(const Csv& csv, const std::string& name) {
  for (std::size_t i = 0; i < csv.columns().size(); ++i)
    if (csv.columns()[i] == name) return i + 1;  // gnuplot columns are 1-based
  throw std::invalid_argument("plot: the CSV has no column '" + name + "'");
}

// A gnuplot `using` expression for one column, NaN (not drawn) where the filter fails.
std::string col(const Csv& csv, const Series& s, const std::string& name, bool log_axis) {
  std::string e = "column(" + std::to_string(column_index(csv, name)) + ")";
  // Non-positive values cannot be drawn on a log axis: leave them out rather than fail.
  if (log_axis) e = "(" + e + " > 0 ? " + e + " : NaN)";
  if (!s.where_column.empty()) {
    // gnuplot strings are compared with eq; the value is written as a double-quoted string.
    std::string v;
    for (char c : s.where_value) v += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    e = "(strcol(" + std::to_string(column_index(csv, s.where_column)) + ") eq \"" + v + "\" ? " + e + " : NaN)";
  }
  return "(" + e + ")";
}

bool executable(const fs::path& p) { return ::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p); }

}  // namespace

Csv::Csv(std::vector<std::string> columns) : columns_(std::move(columns)) {
  for (auto& c : columns_) c = clean_cell(c);
}

void Csv::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size())
    throw std::invalid_argument("csv: row of " + std::to_string(cells.size()) + " cells for " +
                                std::to_string(columns_.size()) + " columns");
  for (auto& c : cells) c = clean_cell(c);
  rows_.push_back(std::move(cells));
}

std::string Csv::text() const {
  std::ostringstream o;
  auto line = [&o](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) o << (i ? "," : "") << cells[i];
    o << "\n";
  };
  line(columns_);
  for (const auto& r : rows_) line(r);
  return o.str();
}

void Csv::write(const fs::path& file) const { engine::write_file_atomically(file, text()); }

Series Series::line(std::string x, std::string y, std::string title) {
  Series s;
  s.x = std::move(x), s.y = std::move(y), s.title = std::move(title), s.style = Style::lines;
  return s;
}
Series Series::points(std::string x, std::string y, std::string title) {
  Series s = line(std::move(x), std::move(y), std::move(title));
  s.style = Style::points;
  return s;
}
Series Series::bars(std::string label_column, std::string y, std::string title) {
  Series s = line(std::move(label_column), std::move(y), std::move(title));
  s.style = Style::bars;
  return s;
}
Series Series::interval(std::string x, std::string y, std::string lo, std::string hi, std::string title) {
  Series s = line(std::move(x), std::move(y), std::move(title));
  s.y_low = std::move(lo), s.y_high = std::move(hi), s.style = Style::interval;
  return s;
}
Series Series::band(std::string x, std::string lo, std::string hi, std::string title) {
  Series s = line(std::move(x), "", std::move(title));
  s.y_low = std::move(lo), s.y_high = std::move(hi), s.style = Style::band;
  return s;
}
Series Series::power_fit(std::string x, std::string y, std::string title) {
  Series s = line(std::move(x), std::move(y), std::move(title));
  s.style = Style::power_fit;
  return s;
}
Series& Series::where(std::string column, std::string value) {
  where_column = std::move(column), where_value = std::move(value);
  return *this;
}

std::optional<std::string> find_gnuplot(std::string* why) {
  auto fail = [why](const std::string& reason) -> std::optional<std::string> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (const char* env = std::getenv("SOFTCERT_GNUPLOT")) {
    const std::string v = env;
    if (v.empty() || v == "none") return fail("plots disabled (SOFTCERT_GNUPLOT=none)");
    if (!executable(v)) return fail("SOFTCERT_GNUPLOT=" + v + " is not an executable file");
    return v;
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path p = fs::path(dir) / "gnuplot";
    if (executable(p)) return p.string();
  }
  return fail("gnuplot not found on PATH (Debian: apt-get install gnuplot-nox)");
}

std::string gnuplot_script(const Plot& plot, const Csv& csv, const fs::path& csv_file, const fs::path& image) {
  std::ostringstream g;
  g << "# made by softcert (report/plots.cpp); run `gnuplot " << image.filename().string() << ".gp` to redraw\n";
  g << "set encoding utf8\n";
  if (plot.format == Format::svg)
    g << "set terminal svg size " << plot.width << "," << plot.height << " dynamic noenhanced font 'sans,11'\n";
  else
    g << "set terminal pngcairo size " << plot.width << "," << plot.height << " noenhanced font 'sans,10'\n";
  g << "set output " << quoted(image.string()) << "\n";
  g << "set datafile separator ','\n";
  g << "set datafile columnheaders\n";
  g << "set title " << quoted(plot.title) << "\n";
  g << "set xlabel " << quoted(plot.x.label) << "\nset ylabel " << quoted(plot.y.label) << "\n";
  g << "set grid\nset key outside right top\n";
  if (plot.x.log) g << "set logscale x\n";
  if (plot.y.log) g << "set logscale y\n";
  auto range = [&g](const char* axis, const Axis& a) {
    if (!a.min && !a.max) return;
    g << "set " << axis << "range [" << (a.min ? std::to_string(*a.min) : "*") << ":"
      << (a.max ? std::to_string(*a.max) : "*") << "]\n";
  };
  range("x", plot.x);
  range("y", plot.y);
  bool any_bars = false;
  for (const auto& s : plot.series) any_bars |= s.style == Style::bars;
  if (any_bars)
    g << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
         "set boxwidth 0.9\nset xtics rotate by -25 left\nset yrange [0:*]\n";
  // Power-law fits first: `stats` on log-log data gives slope and intercept.
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const Series& s = plot.series[i];
    if (s.style != Style::power_fit) continue;
    g << "stats " << quoted(csv_file.string()) << " using (log" << col(csv, s, s.x, true) << "):(log"
      << col(csv, s, s.y, true) << ") name 'F" << i << "' nooutput\n";
  }
  const std::string file = quoted(csv_file.string());
  g << "plot ";
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const Series& s = plot.series[i];
    // gnuplot leaves a series with an empty title out of the key.
    const std::string title = !s.in_legend ? std::string("\"\"") : quoted(s.title.empty() ? (s.y.empty() ? s.y_high : s.y) : s.title);
    if (i) g << ", \\\n     ";
    switch (s.style) {
      case Style::lines:
      case Style::points:
      case Style::linespoints: {
        const char* with = s.style == Style::lines ? "lines lw 1.5" : s.style == Style::points ? "points pt 7 ps 0.6"
                                                                                                : "linespoints pt 7 ps 0.6";
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y, plot.y.log) << " with "
          << with << " title " << title;
        break;
      }
      case Style::bars:
        g << file << " using " << col(csv, s, s.y, false) << ":xtic(" << column_index(csv, s.x) << ") title " << title;
        break;
      case Style::interval:
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y, plot.y.log) << ":"
          << col(csv, s, s.y_low, plot.y.log) << ":" << col(csv, s, s.y_high, plot.y.log)
          << " with yerrorbars pt 7 ps 0.5 title " << title;
        break;
      case Style::band:
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y_low, plot.y.log) << ":"
          << col(csv, s, s.y_high, plot.y.log) << " with filledcurves fs transparent solid 0.35 noborder title "
          << title;
        break;
      case Style::power_fit:
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y, plot.y.log)
          << " with points pt 7 ps 0.7 title " << title << ", \\\n     exp(F" << i << "_intercept) * x**F" << i
          << "_slope with lines lw 1.5 dt 2 title sprintf('fit: slope %.3f', F" << i << "_slope)";
        break;
    }
  }
  g << "\n";
  return g.str();
}

Rendered render(const Plot& plot, const Csv& csv, const fs::path& csv_file, const fs::path& image) {
  const std::string script = gnuplot_script(plot, csv, csv_file, image);  // throws for a bad column
  Rendered r;
  const auto exe = find_gnuplot(&r.message);
  if (!exe) return r;
  const fs::path script_file = image.string() + ".gp", log_file = image.string() + ".log";
  engine::write_file_atomically(script_file, script);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<std::string> args = {*exe, script_file.string()};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe->c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    r.message = "cannot start " + *exe;
    return r;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string log;
  {
    std::ifstream in(log_file);
    log.assign(std::istreambuf_iterator<char>(in), {});
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(image) && fs::file_size(image) > 0) {
    r.ok = true;
    fs::remove(log_file);
    return r;
  }
  if (log.size() > 600) log = "..." + log.substr(log.size() - 600);
  r.message = "gnuplot failed on " + script_file.string() + (log.empty() ? std::string() : ": " + log);
  return r;
}

}  // namespace softcert::report::plots
