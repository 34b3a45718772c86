#pragma once
// Plots made by gnuplot from CSV files: "write this CSV, plot these columns with this title
// and these axes to this file". Used for the suite report (report/run_plots.hpp) and meant for
// any later figure (σ(a)(t), u(t), gaps over time, enclosure widths, cost scaling with a
// power-law fit on log-log axes).
//
//   plots::Csv csv({"t", "sigma_lo", "sigma_hi"});
//   csv.add_row({"0.5", "0.1", "0.2"});                      // numbers as decimal strings
//   csv.write(dir / "sigma.csv");
//   plots::Plot p;
//   p.title = "σ(a)(t)"; p.x = {"t", true}; p.y = {"σ", false};
//   p.series = {plots::Series::band("t", "sigma_lo", "sigma_hi", "enclosure")};
//   plots::render(p, csv, dir / "sigma.csv", dir / "sigma.png");  // → Rendered{ok, message}
//
// Several panels in one image (the notebook's subplot grids): plots::Layout, rendered the same way.
// Scripts name the CSV and the image relative to the image's folder and gnuplot runs there, so
// `cd DIR && gnuplot NAME.png.gp` redraws a figure wherever DIR was moved; render() draws into a
// temporary file and renames it (no half-drawn image under the final name).
//
// gnuplot is found at run time (PATH, or $SOFTCERT_GNUPLOT; SOFTCERT_GNUPLOT=none disables it):
// when it is absent, render() returns ok = false with the reason and nothing else happens.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace softcert::report::plots {

// A CSV file with a header row. Cells are written as given, except that commas, quotes and
// line breaks (which gnuplot's CSV reader does not unquote) become ';', '\'' and ' '.
class Csv {
 public:
  explicit Csv(std::vector<std::string> columns);
  void add_row(std::vector<std::string> cells);  // throws std::invalid_argument on a width mismatch
  const std::vector<std::string>& columns() const { return columns_; }
  std::size_t rows() const { return rows_.size(); }
  std::string text() const;
  void write(const std::filesystem::path& file) const;  // atomically

 private:
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
};

enum class Style {
  lines,
  points,
  linespoints,
  bars,       // clustered histogram bars; x is a label column (categories)
  stacked_hbars,  // horizontal bars, one row per label (x = label column), the stacked_hbars series of a
                  // plot stacked left to right in their order: readable for dozens of labels
  interval,   // a point at y with an error bar from y_low to y_high (a certified interval)
  band,       // the region between y_low and y_high, filled (an enclosure over time)
  power_fit,  // points, plus the least-squares line of log y on log x, slope in the legend
};

struct Series {
  std::string x, y;            // column names (for bars, x is the category-label column)
  std::string y_low, y_high;   // interval and band
  std::string title;           // legend entry ("" → the y column's name)
  bool in_legend = true;       // false: drawn without a legend entry (many curves of one kind)
  Style style = Style::lines;
  std::string color;           // "#rrggbb"; "" → the plot's palette by series position (a power fit's
                               // line takes its points' colour)
  bool dashed = false;         // lines: dashed
  int point_type = 0;          // points, interval: gnuplot's point type (0 → a filled circle; 9 → a
                               // filled triangle pointing up, 13 → a filled diamond)
  double point_size = 0;       // points, interval: gnuplot's point size (0 → the style's own)
  // Plot only rows whose column `where_column` equals `where_value` (e.g. one check's rows).
  std::string where_column, where_value;

  static Series line(std::string x, std::string y, std::string title = "");
  static Series points(std::string x, std::string y, std::string title = "");
  static Series bars(std::string label_column, std::string y, std::string title = "");
  static Series interval(std::string x, std::string y, std::string lo, std::string hi, std::string title = "");
  static Series band(std::string x, std::string lo, std::string hi, std::string title = "");
  static Series power_fit(std::string x, std::string y, std::string title = "");
  Series& where(std::string column, std::string value);
};

// Colour k of n distinguishable colours (hues spread round the circle, alternate lightness so
// that neighbours differ): one colour per token, the same in every panel of a figure.
std::string token_color(std::size_t k, std::size_t n);

struct Axis {
  std::string label;
  bool log = false;
  std::optional<double> min, max;
};

enum class Format { png, svg };

struct Plot {
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  Format format = Format::png;
  int width = 900, height = 500;  // pixels
  // gnuplot's `set key …` ("outside right top", "inside top left", "off", "… maxrows 10").
  std::string key = "outside right top";
};

// rows × cols panels in one image, filled row by row (format, size and title are the layout's;
// each panel's own format, width and height are ignored).
struct Layout {
  std::string title;
  int rows = 1, cols = 1;
  std::vector<Plot> panels;
  // Panel i draws from panel_data[i] when given (a smaller file per panel is much faster to
  // draw than one big one); otherwise from the CSV passed to render().
  std::vector<std::pair<const Csv*, std::filesystem::path>> panel_data;
  // Fraction of the width kept free on the right for the panels' keys ("outside right"), so
  // that every panel has the same size.
  double key_space = 0;
  Format format = Format::png;
  int width = 1200, height = 500;
};

struct Rendered {
  bool ok = false;
  std::string message;  // why not, when !ok (gnuplot missing, gnuplot's error output)
};

// The gnuplot executable to use, or nullopt (with the reason in *why) when there is none.
std::optional<std::string> find_gnuplot(std::string* why = nullptr);

// The gnuplot script that draws `plot` from `csv` into `image` (exposed for tests and for
// people who want to restyle a figure by hand).
std::string gnuplot_script(const Plot& plot, const Csv& csv, const std::filesystem::path& csv_file,
                           const std::filesystem::path& image);

std::string gnuplot_script(const Layout& layout, const Csv& csv, const std::filesystem::path& csv_file,
                           const std::filesystem::path& image);

// Writes image.gp next to the image and runs gnuplot on it (`csv` must already be written to
// csv_file; it names the columns). Never throws for a missing or
// failing gnuplot: the result says what happened. Throws std::invalid_argument for a series
// naming a column the CSV lacks, and engine::WriteError (leaving no image) when gnuplot exits 0
// with an image that does not end as a PNG or SVG ends: it does not report failed writes, so a
// full disk showed only as a truncated image.
Rendered render(const Plot& plot, const Csv& csv, const std::filesystem::path& csv_file,
                const std::filesystem::path& image);
Rendered render(const Layout& layout, const Csv& csv, const std::filesystem::path& csv_file,
                const std::filesystem::path& image);

}  // namespace softcert::report::plots
