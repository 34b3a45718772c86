#pragma once
// Parts shared by the experiments that draw the authors' notebook figures
// (varre2026_notebook_figures.cpp, varre2026_headline_gd.cpp): the members' tables, the panels
// (flow lines and GD dots, which carry no guarantee; markers where the rigorous tier proved a
// value) and the run of every member (reproduce/notebook_run.hpp, reproduce/certified_endpoint.hpp).
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "reproduce/certified_endpoint.hpp"
#include "reproduce/experiment.hpp"
#include "reproduce/notebook_run.hpp"

namespace softcert::reproduce::notebook {

namespace plots = report::plots;

extern const char* const kPaper;

struct Member {
  std::string label;  // file names and numbers.json keys, e.g. "softmax", "D20", "kappa3"
  std::string stem;   // authors' instance file stem
  std::string shown;  // the name on the figure, as the notebook's ("L1 (|x|)", "κ = 3"); "" → label
  const std::string& name() const { return shown.empty() ? label : shown; }
};

// Columns a member's table gains beside the notebook's: name → one cell per sample ("" where none).
using ExtraColumns = std::vector<std::pair<std::string, std::vector<std::string>>>;

// What a figure builder gets for each member.
struct MemberResult {
  const NotebookRun* run = nullptr;
  const CertifiedEndpoint* end = nullptr;  // the rigorous tier at the authors' horizon
};
using FigureBuilder = std::function<std::vector<Figure>(const std::vector<Member>&, const std::vector<MemberResult>&)>;
// Called once per member after the runs (serially): extra table columns, numbers and summary lines.
using Augment = std::function<void(std::size_t member, const NotebookRun&, ExtraColumns&, nlohmann::json& run_numbers,
                                   std::ostringstream& summary)>;

// One panel of a notebook figure.
struct PanelAxes {
  std::string title, y_label;
  bool log_x = true, log_y = false;
};

// Per-token flow lines and GD dots of quantity q ("alpha", "a", "u"); `legend`: "token i" entries.
plots::Plot token_panel(const std::string& member, const char* q, std::size_t T, const PanelAxes& ax, bool legend,
                        const std::string& key = "outside right top maxrows 10");

struct Scalar {
  std::string column;  // without the gd_/flow_ prefix
  std::string title, color;
};
plots::Plot scalar_panel(const std::string& member, const std::vector<Scalar>& qs, const PanelAxes& ax, bool legend);

// A normalization's name as the notebook's rows give it (its classes, cell 5), with ours where
// they differ: "abs" → "L1 (|x|)", "square" → "L2 (x²)", "relu" → "Relu (normalised)", ….
std::string notebook_name(const std::string& norm);

// Which proved endpoint a panel marks: the largest weight of α/Σα, or the loss.
enum class Proved { max_weight, loss };
// Where the proved enclosure shows: a diamond on the panel plus its bracket in the title, or the
// bracket alone when the panel does not draw the proved quantity (the sigmoid's α, whose proved
// value is of α/Σα).
enum class ProvedMark { diamond, title_only };
// Adds the rigorous tier's enclosure at the authors' horizon (nothing when it was not proved).
void mark_proved_end(plots::Plot& p, const std::string& member, const CertifiedEndpoint& end, Proved what,
                     ProvedMark mark = ProvedMark::diamond);

// The figure's statement of what carries no guarantee and what is proved (its title's second
// line): the diamonds where an endpoint of `runs` was proved, or that none was and why.
std::string how_drawn(const std::vector<MemberResult>& runs);
// A panel-title suffix about the flow of this run: given up, or its two runs disagreeing.
std::string flow_state(const NotebookRun& r);
std::size_t tokens_of(const NotebookRun& r);
std::size_t key_row(const std::vector<MemberResult>& runs);  // the first row whose flow lines exist

// Runs every member (GD, flow, rigorous endpoint) and assembles tables, figures, numbers and summary.
// rigorous_default: whether the rigorous endpoint is attempted unless `--set rigorous=0/1` says
// otherwise; linear_t: the notebook draws on a linear t axis (evenly spaced samples are added).
ExperimentResult run_members(const RunContext& ctx, const std::string& what, const std::vector<Member>& members,
                             const FigureBuilder& figures, bool rigorous_default, bool linear_t = false,
                             const Augment& augment = {});

}  // namespace softcert::reproduce::notebook
