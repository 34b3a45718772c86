#include "report/plots.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
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

// A gnuplot single-quoted string: no escapes inside except '' for '. (Not named `quoted`: for a
// mutable std::string argument-dependent lookup would pick std::quoted, which escapes otherwise.)
std::string gnuplot_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "''";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out + "'";
}

// A title (of the image or of a panel) of several lines as a gnuplot string expression: each line quoted,
// joined by "\n" (gnuplot's newline inside double quotes).
std::string gnuplot_quoted_lines(const std::string& s) {
  std::string out, line;
  for (char c : s) {
    if (c != '\n') {
      line += c;
      continue;
    }
    out += gnuplot_quoted(line) + ".\"\\n\".";
    line.clear();
  }
  return out + gnuplot_quoted(line);
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

// " pt P ps S": the series' marker, or a filled circle of size `size`.
std::string marker(const Series& s, double size) {
  std::ostringstream o;
  o << " pt " << (s.point_type > 0 ? s.point_type : 7) << " ps " << (s.point_size > 0 ? s.point_size : size);
  return o.str();
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

namespace {

// The default colours, by series position, when a series names none.
const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"};

std::string color_of(const Series& s, std::size_t i) {
  return s.color.empty() ? kPalette[i % std::size(kPalette)] : s.color;
}

// `file` as the script names it: relative to the image's folder, where gnuplot runs.
std::string relative_to_image(const fs::path& file, const fs::path& image) {
  const fs::path dir = fs::absolute(image).parent_path().lexically_normal();
  const fs::path rel = fs::absolute(file).lexically_normal().lexically_relative(dir);
  return rel.empty() ? file.string() : rel.string();
}

void header(std::ostringstream& g, Format format, int width, int height, const fs::path& image) {
  const std::string name = image.filename().string();
  g << "# made by softcert (report/plots.cpp); run `gnuplot " << name << ".gp` in this folder to redraw\n";
  g << "set encoding utf8\n";
  if (format == Format::svg)
    g << "set terminal svg size " << width << "," << height << " dynamic noenhanced font 'sans,11'\n";
  else
    g << "set terminal pngcairo size " << width << "," << height << " noenhanced font 'sans,10'\n";
  // softcert draws into a temporary file (gnuplot -e "softcert_output='…'") and renames it.
  g << "if (!exists('softcert_output')) softcert_output = " << gnuplot_quoted(name) << "\n";
  g << "set output softcert_output\n";
  g << "set datafile separator ','\n";
  g << "set datafile columnheaders\n";
}

// One panel: its settings and its plot command. `reset` undoes the previous panel's settings
// (multiplot keeps them).
void panel(std::ostringstream& g, const Plot& plot, const Csv& csv, const std::string& csv_name, bool reset) {
  if (reset)
    g << "unset logscale\nset xrange [*:*] noreverse\nset yrange [*:*] noreverse\nset xtics autofreq norotate\n"
         "set ytics autofreq\nset autoscale\nset offsets 0, 0, 0, 0\nset style fill empty\n";
  // gnuplot's own tick format prints 0.0100000 on a log axis.
  g << "set format x '%g'\nset format y '%g'\n";
  g << "set title " << gnuplot_quoted_lines(plot.title) << "\n";
  g << "set xlabel " << gnuplot_quoted(plot.x.label) << "\nset ylabel " << gnuplot_quoted(plot.y.label) << "\n";
  g << "set grid\nset key " << (plot.key.empty() ? std::string("outside right top") : plot.key) << "\n";
  if (plot.x.log) g << "set logscale x\n";
  if (plot.y.log) g << "set logscale y\n";
  auto range = [&g](const char* axis, const Axis& a) {
    if (!a.min && !a.max) return;
    g << "set " << axis << "range [" << (a.min ? std::to_string(*a.min) : "*") << ":"
      << (a.max ? std::to_string(*a.max) : "*") << "]\n";
  };
  range("x", plot.x);
  range("y", plot.y);
  bool any_bars = false, any_hbars = false;
  for (const auto& s : plot.series) {
    any_bars |= s.style == Style::bars;
    any_hbars |= s.style == Style::stacked_hbars;
  }
  // Curves, markers and bands: an autoscaled end of the x axis, and of a linear y axis, sits a
  // little beyond the data instead of on the next tic, so that nothing is drawn on the frame — a
  // weight at 1, a proved diamond at t = H. A log y axis keeps gnuplot's extension to whole
  // decades: fixed to the data, a range inside one decade would carry no labelled tic.
  if (!any_bars && !any_hbars) {
    g << "set autoscale xfix\n";
    if (!plot.y.log) g << "set autoscale yfix\n";
    g << "set offsets graph 0.01, graph 0.03, " << (plot.y.log ? "0, 0" : "graph 0.05, graph 0.05") << "\n";
  }
  if (any_bars)
    g << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.85 border -1\n"
         "set boxwidth 0.9\nset xtics rotate by -25 left\nset yrange [0:*]\n";
  if (any_hbars)  // first label on top; a little room above and below the bars
    g << "set style fill solid 0.85 border -1\nset yrange [*:*] reverse\nset offsets 0, graph 0.04, 0.6, 0.6\n"
         "set xrange [0:*]\nset ytics nomirror\n";
  const std::string file = gnuplot_quoted(csv_name);
  // Power-law fits first: `stats` on log-log data gives slope and intercept.
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const Series& s = plot.series[i];
    if (s.style != Style::power_fit) continue;
    g << "stats " << file << " using (log" << col(csv, s, s.x, true) << "):(log" << col(csv, s, s.y, true)
      << ") name 'F" << i << "' nooutput\n";
  }
  g << "plot ";
  std::string hbar_base = "0";
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const Series& s = plot.series[i];
    // gnuplot leaves a series with an empty title out of the key.
    const std::string title = !s.in_legend ? std::string("\"\"") : gnuplot_quoted(s.title.empty() ? (s.y.empty() ? s.y_high : s.y) : s.title);
    const std::string lc = " lc rgb '" + color_of(s, i) + "'";
    if (i) g << ", \\\n     ";
    switch (s.style) {
      case Style::lines:
      case Style::points:
      case Style::linespoints: {
        const std::string with = s.style == Style::lines ? std::string("lines lw 1.5")
                                 : (s.style == Style::points ? "points" : "linespoints") + marker(s, 0.6);
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y, plot.y.log) << " with "
          << with << lc << (s.dashed ? " dt 2" : "") << " title " << title;
        break;
      }
      case Style::bars:
        g << file << " using " << col(csv, s, s.y, false) << ":xtic(" << column_index(csv, s.x) << ")" << lc
          << " title " << title;
        break;
      case Style::stacked_hbars: {
        const std::string v = col(csv, s, s.y, false), hi = "(" + hbar_base + " + " + v + ")";
        g << file << " using ((" << hbar_base << " + " << hi << ") / 2):($0):(" << hbar_base << "):" << hi
          << ":($0 - 0.4):($0 + 0.4):ytic(" << column_index(csv, s.x) << ") with boxxyerror" << lc << " title " << title;
        hbar_base = hi;
        break;
      }
      case Style::interval:
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y, plot.y.log) << ":"
          << col(csv, s, s.y_low, plot.y.log) << ":" << col(csv, s, s.y_high, plot.y.log)
          << " with yerrorbars" << marker(s, 0.5) << lc << " title " << title;
        break;
      case Style::band:
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y_low, plot.y.log) << ":"
          << col(csv, s, s.y_high, plot.y.log) << " with filledcurves fs transparent solid 0.35 noborder" << lc
          << " title " << title;
        break;
      case Style::power_fit:
        g << file << " using " << col(csv, s, s.x, plot.x.log) << ":" << col(csv, s, s.y, plot.y.log)
          << " with points pt 7 ps 0.7" << lc << " title " << title << ", \\\n     exp(F" << i << "_intercept) * x**F"
          << i << "_slope with lines lw 1.5 dt 2" << lc << " title sprintf('least-squares fit (statistics, no certificate): slope %.3f', F" << i << "_slope)";
        break;
    }
  }
  g << "\n";
}

// Runs gnuplot on `script` in the image's folder, drawing into a temporary file renamed to
// `image` on success.
// Whether gnuplot's image ends as its format ends: a PNG in its IEND chunk (the 12 bytes
// 00 00 00 00 'IEND' AE 42 60 82), an SVG in "</svg>" (then only white space). gnuplot does not
// report a failed write: on a full disk, or past `ulimit -f`, it exits 0 having written a
// truncated image. (Another extension: any nonempty file.)
bool image_is_complete(const fs::path& image, const fs::path& named_as) {
  std::ifstream in(image, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty()) return false;
  const std::string ext = named_as.extension().string();
  if (ext == ".png") {
    static const std::string iend("\0\0\0\0IEND\xAE\x42\x60\x82", 12);
    return text.size() >= 8 + 12 && text.compare(0, 8, "\x89PNG\r\n\x1A\n") == 0 &&
           text.compare(text.size() - 12, 12, iend) == 0;
  }
  if (ext == ".svg") {
    const std::size_t end = text.find_last_not_of(" \t\r\n");
    return end != std::string::npos && end + 1 >= 6 && text.compare(end + 1 - 6, 6, "</svg>") == 0;
  }
  return true;
}

Rendered run_gnuplot(const std::string& script, const fs::path& image_in) {
  Rendered r;
  const auto exe = find_gnuplot(&r.message);
  if (!exe) return r;
  const fs::path image = fs::absolute(image_in);
  const fs::path dir = image.parent_path();
  const fs::path script_file = image.string() + ".gp", log_file = image.string() + ".log";
  const std::string temp_name = image.filename().string() + ".tmp-" + std::to_string(::getpid());
  engine::write_file_atomically(script_file, script);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  // The log is never written through a symlink planted at its name: the name is
  // unlinked first (a link, not its target) and opened with O_NOFOLLOW; if something else is
  // there, the spawn fails and the plot is reported missing, nothing else is touched.
  ::unlink(log_file.c_str());
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
  std::vector<std::string> args = {*exe, "-e", "softcert_output=" + gnuplot_quoted(temp_name),
                                   script_file.filename().string()};
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
  const fs::path temp = dir / temp_name;
  std::error_code ec;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(temp, ec) && fs::file_size(temp, ec) > 0) {
    if (!image_is_complete(temp, image)) {
      const auto bytes = fs::file_size(temp, ec);
      fs::remove(temp, ec);
      fs::remove(log_file, ec);
      throw engine::WriteError(image.string() + ": gnuplot wrote an incomplete image (" + std::to_string(bytes) +
                               " bytes, without its end): the disk is full or a file size limit was reached");
    }
    fs::rename(temp, image, ec);
    if (!ec) {
      r.ok = true;
      fs::remove(log_file, ec);
      return r;
    }
  }
  fs::remove(temp, ec);
  if (log.size() > 600) log = "..." + log.substr(log.size() - 600);
  r.message = "gnuplot failed on " + script_file.string() + (log.empty() ? std::string() : ": " + log);
  return r;
}

}  // namespace

std::string token_color(std::size_t k, std::size_t n) {
  if (n == 0) n = 1;
  const double h = 360.0 * static_cast<double>(k % n) / static_cast<double>(n);
  const double s = 0.75, l = n > 10 && k % 2 ? 0.36 : 0.5;
  const double c = (1 - std::abs(2 * l - 1)) * s, hp = h / 60, x = c * (1 - std::abs(std::fmod(hp, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  if (hp < 1) r = c, g = x;
  else if (hp < 2) r = x, g = c;
  else if (hp < 3) g = c, b = x;
  else if (hp < 4) g = x, b = c;
  else if (hp < 5) r = x, b = c;
  else r = c, b = x;
  const double m = l - c / 2;
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(255 * (r + m))),
                static_cast<int>(std::lround(255 * (g + m))), static_cast<int>(std::lround(255 * (b + m))));
  return buf;
}

std::string gnuplot_script(const Plot& plot, const Csv& csv, const fs::path& csv_file, const fs::path& image) {
  std::ostringstream g;
  header(g, plot.format, plot.width, plot.height, image);
  panel(g, plot, csv, relative_to_image(csv_file, image), false);
  return g.str();
}

std::string gnuplot_script(const Layout& layout, const Csv& csv, const fs::path& csv_file, const fs::path& image) {
  std::ostringstream g;
  header(g, layout.format, layout.width, layout.height, image);
  g << "set multiplot layout " << layout.rows << "," << layout.cols << " title " << gnuplot_quoted_lines(layout.title);
  if (layout.key_space > 0) {
    // Fixed margins (fractions of the image): equal panels, the keys in the space on the right;
    // 18 px more at the top for every line of the image's title after the first, and 14 px more
    // above every row for every line of the longest panel title after the first.
    auto lines = [](const std::string& t) { return static_cast<double>(std::count(t.begin(), t.end(), '\n')); };
    double panel_lines = 0;
    for (const auto& p : layout.panels) panel_lines = std::max(panel_lines, lines(p.title));
    const double top = 1 - (62.0 + 18.0 * lines(layout.title) + 14.0 * panel_lines) / layout.height;
    const double bottom = 48.0 / layout.height, left = 90.0 / layout.width;
    g << " margins " << left << ", " << 1 - layout.key_space << ", " << bottom << ", " << top << " spacing "
      << 105.0 / layout.width << ", " << (100.0 + 14.0 * panel_lines) / layout.height;
  }
  g << "\n";
  const std::string name = relative_to_image(csv_file, image);
  for (std::size_t i = 0; i < layout.panels.size(); ++i) {
    if (i < layout.panel_data.size() && layout.panel_data[i].first)
      panel(g, layout.panels[i], *layout.panel_data[i].first, relative_to_image(layout.panel_data[i].second, image), true);
    else
      panel(g, layout.panels[i], csv, name, true);
  }
  g << "unset multiplot\n";
  return g.str();
}

Rendered render(const Plot& plot, const Csv& csv, const fs::path& csv_file, const fs::path& image) {
  return run_gnuplot(gnuplot_script(plot, csv, csv_file, image), image);  // throws for a bad column
}

Rendered render(const Layout& layout, const Csv& csv, const fs::path& csv_file, const fs::path& image) {
  if (static_cast<std::size_t>(layout.rows) * static_cast<std::size_t>(layout.cols) < layout.panels.size())
    throw std::invalid_argument("plot layout: " + std::to_string(layout.panels.size()) + " panels in a " +
                                std::to_string(layout.rows) + "×" + std::to_string(layout.cols) + " grid");
  return run_gnuplot(gnuplot_script(layout, csv, csv_file, image), image);
}

}  // namespace softcert::report::plots
