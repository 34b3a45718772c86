// Parts shared by the notebook-figure experiments (reproduce/notebook_figure_parts.hpp).
#include "reproduce/notebook_figure_parts.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "numerics/decimal.hpp"
#include "reproduce/output.hpp"
#include "reproduce/parallel.hpp"
#include "reproduce/settings.hpp"

namespace softcert::reproduce::notebook {

const char* const kPaper =
    "Varre, Rofin, Flammarion (2026), Gradient flow polarizes softmax outputs towards low-entropy solutions, "
    "arXiv 2603.06248; code: github tml-epfl/softmax visualizations/toy_experiments.ipynb";

namespace {

std::string num(double x) { return std::isfinite(x) ? short_number(x, 10) : std::string(); }
// For the summary: "n/a" where a quantity does not exist (entropy of signed weights).
std::string shown(double x, int digits) { return std::isfinite(x) ? short_number(x, digits) : std::string("n/a"); }
nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

// The fast tier's tolerance (dopri5 at 1e-11, reference rkf78 at 1e-13; notebook_run.hpp): flow
// values of the loss and gradient norms below it are not drawn on their log axes.
constexpr double kFlowFloor = 1e-11;
// Digits of agreement of the flow's two runs from which a row is called confirmed.
constexpr double kAgreeDigits = 3;

// How many GD samples each panel marks with a dot (the flow is drawn through every sample).
constexpr std::size_t kGdDots = 40;

// A member's samples as a table (one table per member, which gnuplot reads much faster than one
// big one; the panels still filter on the `member` column).
// Token columns are numbered from 0 (docs/reviewers.md, "Token numbering"); `gd_dot` holds
// the member's label on the rows whose GD value is drawn as a dot.
plots::Csv trajectories_table(const Member& member, const NotebookRun& run, const ExtraColumns& extra) {
  const std::size_t T = run.samples.front().gd.alpha.size();
  std::vector<std::string> cols{"member", "iteration", "t", "gd_dot", "gd_loss", "flow_loss", "gd_entropy",
                                "flow_entropy", "gd_max_weight", "flow_max_weight", "gd_column_norm",
                                "flow_column_norm", "gd_grad_values_norm", "flow_grad_values_norm", "gd_grad_a_norm",
                                "flow_grad_a_norm", "distance_alpha", "distance_state"};
  for (std::size_t i = 0; i < T; ++i)
    for (const char* q : {"gd_u", "flow_u", "gd_alpha", "flow_alpha", "gd_a", "flow_a"}) cols.push_back(q + std::to_string(i));
  for (const auto& [name, cells] : extra) {
    if (cells.size() != run.samples.size()) throw std::logic_error("notebook table: column " + name + " has a cell per sample");
    cols.push_back(name);
  }
  plots::Csv csv(cols);
  {
    // A failed flow leaves its columns empty (not drawn), never a made-up number.
    const bool f = run.flow_ok;
    auto flow = [f](double v) { return f ? num(v) : std::string(); };
    // Loss and gradient norms are drawn on log axes: below the fast tier's tolerance the flow's
    // value is its own noise, not a value two runs agree on — left empty (not drawn).
    auto resolved = [f](double v) { return f && std::abs(v) >= kFlowFloor ? num(v) : std::string(); };
    const std::size_t n = run.samples.size(), stride = std::max<std::size_t>(1, n / kGdDots);
    for (std::size_t k = 0; k < n; ++k) {
      const auto& s = run.samples[k];
      const bool dot = k % stride == 0 || k + 1 == n;
      std::vector<std::string> row{member.label, std::to_string(s.iteration), num(s.t), dot ? member.label : "",
                                   num(s.gd.loss), resolved(s.flow.loss), num(s.gd.entropy), flow(s.flow.entropy),
                                   num(s.gd.max_weight), flow(s.flow.max_weight), num(s.gd.attended_column_norm),
                                   flow(s.flow.attended_column_norm), num(s.gd.grad_values_norm),
                                   resolved(s.flow.grad_values_norm), num(s.gd.grad_a_norm), resolved(s.flow.grad_a_norm),
                                   flow(s.distance_alpha), flow(s.distance_state)};
      const std::size_t Tm = s.gd.alpha.size();
      for (std::size_t i = 0; i < T; ++i) {
        if (i >= Tm) {
          row.insert(row.end(), 6, "");
          continue;
        }
        for (const Observed* o : {&s.gd, &s.flow})
          row.push_back(i < o->u.size() && (o == &s.gd || f) ? num(o->u[i]) : "");
        row.push_back(num(s.gd.alpha[i]));
        row.push_back(f ? num(s.flow.alpha[i]) : "");
        row.push_back(num(s.gd.a[i]));
        row.push_back(f ? num(s.flow.a[i]) : "");
      }
      for (const auto& column : extra) row.push_back(column.second[k]);
      csv.add_row(row);
    }
  }
  return csv;
}

// The rigorous endpoint as table columns: its bracket and midpoint on the last sample's row
// (the authors' horizon), empty elsewhere and when nothing was proved.
ExtraColumns proved_end_columns(const NotebookRun& run, const CertifiedEndpoint& end) {
  ExtraColumns out;
  const std::size_t n = run.samples.size();
  auto add = [&](const std::string& name, const std::string& lo, const std::string& hi) {
    std::vector<std::string> l(n), h(n), m(n);
    if (end.proved && !lo.empty()) l.back() = lo, h.back() = hi, m.back() = midpoint_for_drawing(lo, hi);
    out.emplace_back("proved_" + name + "_lower", l);
    out.emplace_back("proved_" + name + "_upper", h);
    out.emplace_back("proved_" + name + "_mid", m);
  };
  add("max_weight", end.max_weight_lower, end.max_weight_upper);
  add("loss", end.loss_lower, end.loss_upper);
  return out;
}

nlohmann::json observed_json(const Observed& o) {
  return {{"entropy", finite_or_null(o.entropy)}, {"max_weight", o.max_weight}, {"loss", o.loss}, {"alpha", o.alpha}, {"a", o.a},
          {"attended_column_norm", o.attended_column_norm}};
}

}  // namespace

namespace {

plots::Plot empty_panel(const PanelAxes& ax) {
  plots::Plot p;
  p.title = ax.title;
  p.x = {"t = iteration × lr", ax.log_x, std::nullopt, std::nullopt};
  p.y = {ax.y_label, ax.log_y, std::nullopt, std::nullopt};
  p.key = "off";
  return p;
}

}  // namespace

// Per-token curves of quantity q ("alpha", "a", "u") of one member: the flow as a line and the
// authors' GD as dots, in token i's colour (the same in every panel); `legend`: a key entry
// "token i" per token (counted from 0).
plots::Plot token_panel(const std::string& member, const char* q, std::size_t T, const PanelAxes& ax, bool legend,
                        const std::string& key) {
  plots::Plot p = empty_panel(ax);
  for (std::size_t i = 0; i < T; ++i) {
    const std::string c = plots::token_color(i, T);
    auto line = plots::Series::line("t", std::string("flow_") + q + std::to_string(i), "token " + std::to_string(i));
    line.where("member", member);
    line.color = c;
    line.in_legend = legend;
    auto dots = plots::Series::points("t", std::string("gd_") + q + std::to_string(i));
    dots.where("gd_dot", member);
    dots.color = c;
    dots.in_legend = false;
    p.series.push_back(line);
    p.series.push_back(dots);
  }
  if (legend) p.key = key;
  return p;
}

// Scalar curves (loss, gradient norms, column norm): flow line and GD dots per quantity.
plots::Plot scalar_panel(const std::string& member, const std::vector<Scalar>& qs, const PanelAxes& ax, bool legend) {
  plots::Plot p = empty_panel(ax);
  for (const auto& q : qs) {
    auto line = plots::Series::line("t", "flow_" + q.column, q.title);
    line.where("member", member);
    line.color = q.color;
    line.in_legend = legend;
    auto dots = plots::Series::points("t", "gd_" + q.column);
    dots.where("gd_dot", member);
    dots.color = q.color;
    dots.in_legend = false;
    p.series.push_back(line);
    p.series.push_back(dots);
  }
  if (legend) p.key = "inside top right";
  return p;
}


std::string notebook_name(const std::string& norm) {
  if (norm == "abs") return "L1 (|x|)";
  if (norm == "sum") return "Sum";
  if (norm == "square") return "L2 (x²)";
  if (norm == "softmax") return "Softmax";
  if (norm == "relu") return "Relu (normalised)";
  return "Sigmoid (elementwise)";
}

void mark_proved_end(plots::Plot& p, const std::string& member, const CertifiedEndpoint& end, Proved what,
                     ProvedMark mark) {
  if (!end.proved) return;
  const bool weight = what == Proved::max_weight;
  const std::string& lo = weight ? end.max_weight_lower : end.loss_lower;
  const std::string& hi = weight ? end.max_weight_upper : end.loss_upper;
  if (lo.empty()) return;
  const std::string c = weight ? "max_weight" : "loss";
  auto s = plots::Series::interval("t", "proved_" + c + "_mid", "proved_" + c + "_lower", "proved_" + c + "_upper",
                                   std::string("PROVED at t = ") + end.t + (weight ? ": max α/Σα ∈ " : ": loss ∈ ") +
                                       softcert::num::bracket_text(lo, hi, 9));
  s.where("member", member);
  s.color = "#000000";
  s.point_type = 13;  // a filled diamond, larger than the dots
  s.point_size = 1.6;
  // The enclosure goes into the panel's title, not its key: a key inside the panel crossed some
  // curve in every placement tried (the curves of the six normalizations fill different corners).
  s.in_legend = false;
  if (mark == ProvedMark::diamond) p.series.push_back(s);
  // A second line: beside a long title it ran off the image.
  p.title += "\n" + s.title + (mark == ProvedMark::title_only ? " (not drawn: the panel shows α)" : "");
}

std::string how_drawn(const std::vector<MemberResult>& runs) {
  std::size_t proved = 0;
  for (const auto& r : runs) proved += r.end && r.end->proved ? 1 : 0;
  const std::string lines = "NO GUARANTEE: lines = gradient flow (fast tier), dots = the authors' GD (double)\n";
  if (proved == 0) return lines + "PROVED: nothing drawn (the rigorous endpoints and why not: summary.md)";
  return lines + "PROVED: black diamonds (rigorous tier), the enclosure in the panel's title; " + std::to_string(proved) +
         " of " + std::to_string(runs.size()) + " runs proved (summary.md)";
}

std::string flow_state(const NotebookRun& r) {
  if (!r.flow_ok) return " — GD only: the fast tier gave up on the flow";
  if (r.flow_digits < kAgreeDigits)
    return " — flow NOT confirmed: its two runs agree to " + short_number(std::max(0.0, r.flow_digits), 2) + " digits";
  return "";
}

std::size_t tokens_of(const NotebookRun& r) { return r.samples.front().gd.alpha.size(); }

std::size_t key_row(const std::vector<MemberResult>& runs) {
  for (std::size_t r = 0; r < runs.size(); ++r)
    if (runs[r].run->flow_ok) return r;
  return 0;
}

ExperimentResult run_members(const RunContext& ctx, const std::string& what, const std::vector<Member>& members,
                             const FigureBuilder& figures, bool rigorous_default, bool linear_t, const Augment& augment) {
  const std::size_t points = integer_setting(ctx.settings, "points", 200, 2, 1000);
  const bool rigorous = integer_setting(ctx.settings, "rigorous", rigorous_default ? 1 : 0, 0, 1) == 1;
  EndpointBudget budget;
  budget.max_states = integer_setting(ctx.settings, "rigorous_max_states", budget.max_states, 2, 500);
  budget.max_steps = integer_setting(ctx.settings, "rigorous_max_steps", budget.max_steps, 1, 1000000);
  std::vector<AuthorsInstance> inst;
  for (const auto& m : members) inst.push_back(authors_instance(m.stem));
  ctx.progress("running the authors' gradient descent and the gradient flow" +
               std::string(rigorous ? ", and the rigorous tier to the authors' horizon (minutes)," : "") + " on " +
               std::to_string(members.size()) + " instance(s) of " + what + ", " + std::to_string(ctx.jobs) + " thread(s)");
  std::vector<NotebookRun> runs(members.size());
  std::vector<CertifiedEndpoint> ends(members.size());
  std::vector<std::string> errors(members.size());
  parallel_for(members.size(), ctx.jobs, [&](std::size_t i) {
    try {
      runs[i] = run_notebook(inst[i], points, linear_t);
      ctx.progress(members[i].label + ": GD and flow done" + std::string(rigorous ? ", rigorous endpoint next" : ""));
      const std::string t = inst[i].instance.authors_run.value("horizon", std::string());
      if (!rigorous) ends[i].note = "not attempted (--set rigorous=1 to try; measured costs in docs/reviewers.md)";
      else if (t.empty()) ends[i].note = "not attempted: the instance records no horizon";
      else ends[i] = certify_endpoint(inst[i].instance, t, budget);
    } catch (const std::exception& e) {
      errors[i] = e.what();
    }
  });
  for (std::size_t i = 0; i < members.size(); ++i)
    if (!errors[i].empty()) throw ExperimentFailure(members[i].label + ": " + errors[i]);

  ExperimentResult res;
  plots::Csv distance({"member", "t", "distance_alpha", "distance_state"});
  std::ostringstream md;
  md << "The authors' experiment (" << what << ") from their exact initial doubles "
        "(proofs_checks/instances/authors/). **GD**: the authors' gradient descent at their learning rate and "
        "iteration count, run by softcert in double. **Flow**: the gradient flow it discretises, at t = iteration × "
        "learning rate, by the fast tier (dopri5, tolerance 1e-11, against an rkf78 reference at 1e-13: "
        "*confirmed* where they agree to 3 digits or more, never proved). Entropy and max weight are those of α "
        "normalised to sum 1 (n/a: signed weights, which the sum normalization gives once a score turns negative). "
        "A flow the fast tier could not finish (kinks of |x| and relu make it chatter) is shown as —. "
        "**Proved at t**: where the rigorous tier reaches the authors' horizon (validated steps on the full state, "
        "intervals over double: the Taylor–Lohner set, or from 200 states on the ball step, docs/method.md §2b), "
        "the enclosures of the entropy and of the max weight at that time, ends "
        "rounded outward; else why not. Tokens are counted from 0 (CSV columns `gd_alpha0`, …; the "
        "arrays `alpha`, `a` in numbers.json; the figures' keys).\n\n";
  md << "| run | cell | lr × iterations = t | entropy at t (GD / flow) | max weight (GD / flow) | loss (GD / flow) | "
        "max distance α, GD–flow | flow digits | proved at t: entropy; max weight |\n|---|---|---|---|---|---|---|---|---|\n";
  nlohmann::json& n = res.numbers;
  n["flow_tier"] = "fast (confirmed: two runs, digits of agreement)";
  n["gd"] = "the authors' gradient descent, run by softcert in double";
  n["runs"] = nlohmann::json::object();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const auto& m = members[i];
    const auto& r = runs[i];
    double max_da = 0, max_ds = 0;
    for (const auto& s : r.samples) {
      max_da = std::max(max_da, s.distance_alpha);
      max_ds = std::max(max_ds, s.distance_state);
      if (s.t > 0 && r.flow_ok) distance.add_row({m.label, num(s.t), num(s.distance_alpha), num(s.distance_state)});
    }
    const auto& last = r.samples.back();
    const auto& first = r.samples.front();
    nlohmann::json j;
    j["instance"] = "proofs_checks/instances/authors/" + m.stem + ".json";
    j["authors_run"] = r.authors.instance.authors_run;
    j["t_end"] = last.t;
    j["gd_at_end"] = observed_json(last.gd);
    j["flow_at_end"] = r.flow_ok ? observed_json(last.flow) : nlohmann::json(nullptr);
    j["at_start"] = observed_json(first.gd);
    j["max_distance_alpha"] = max_da;
    j["max_distance_state"] = max_ds;
    j["flow_ok"] = r.flow_ok;
    if (!r.flow_ok) j["flow_note"] = r.flow_note;
    j["flow_digits_of_agreement"] = std::round(r.flow_digits * 10) / 10;
    j["flow_steps"] = r.flow_steps;
    const CertifiedEndpoint& c = ends[i];
    nlohmann::json cj;
    cj["proved"] = c.proved;
    if (c.proved) {
      cj["t"] = c.t;
      cj["steps"] = c.steps;
      cj["time_variable"] = integrate::to_string(c.time_variable);
      cj["entropy"] = c.entropy_lower.empty() ? nlohmann::json(nullptr) : nlohmann::json::array({c.entropy_lower, c.entropy_upper});
      cj["max_weight"] = c.max_weight_lower.empty() ? nlohmann::json(nullptr)
                                                    : nlohmann::json::array({c.max_weight_lower, c.max_weight_upper});
      cj["loss"] = nlohmann::json::array({c.loss_lower, c.loss_upper});
    } else {
      cj["note"] = c.note;
    }
    j["rigorous_at_end"] = cj;
    n["runs"][m.label] = j;
    md << "| " << m.name() << " | " << r.authors.cell << " | " << num(r.authors.learning_rate) << " × "
       << r.authors.iterations << " = " << num(last.t) << " | " << shown(last.gd.entropy, 4) << " / "
       << (r.flow_ok ? shown(last.flow.entropy, 4) : "—") << " | " << short_number(last.gd.max_weight, 4)
       << " / " << (r.flow_ok ? short_number(last.flow.max_weight, 4) : "—") << " | " << short_number(last.gd.loss, 4)
       << " / " << (r.flow_ok ? short_number(last.flow.loss, 4) : "—") << " | "
       << (r.flow_ok ? short_number(max_da, 2) : "— (" + r.flow_note + ")") << " | "
       << (r.flow_ok ? short_number(r.flow_digits, 3) + (r.flow_digits < kAgreeDigits ? " (the two runs disagree: not confirmed)" : "") : "—") << " | ";
    if (!c.proved) md << "— (" << c.note << ")";
    else
      md << (c.entropy_lower.empty() ? std::string("n/a") : "[" + c.entropy_lower + ", " + c.entropy_upper + "]") << "; "
         << (c.max_weight_lower.empty() ? std::string("n/a") : "[" + c.max_weight_lower + ", " + c.max_weight_upper + "]")
         << " (" << c.steps << " steps)";
    md << " |\n";
  }
  std::vector<MemberResult> results(members.size());
  for (std::size_t i = 0; i < members.size(); ++i) {
    results[i] = {&runs[i], &ends[i]};
    ExtraColumns extra = proved_end_columns(runs[i], ends[i]);
    if (augment) augment(i, runs[i], extra, n["runs"][members[i].label], md);
    res.tables.emplace_back(members[i].label + ".csv", trajectories_table(members[i], runs[i], extra));
  }
  for (auto& f : figures(members, results)) res.figures.push_back(std::move(f));
  res.tables.emplace_back("distance.csv", distance);
  Figure d;
  d.name = "softcert_distance";
  d.table = "distance.csv";
  d.plot.title = "softcert's addition (not in the notebook): distance between the authors' GD and the gradient flow\n"
                 "NO GUARANTEE (GD in double, flow by the fast tier); a distance of 0 and a row without flow are not drawn";
  if (members.size() > 1)  // (one curve: nothing to coincide with)
    d.plot.title += "\ncurves that coincide are drawn under the last one listed (with positive scores |x|, sum and relu agree)";
  d.plot.x = {"t (log scale)", true, std::nullopt, std::nullopt};
  d.plot.y = {"max_i |α_GD − α_flow| (log scale)", true, std::nullopt, std::nullopt};
  for (const auto& m : members) d.plot.series.push_back(plots::Series::line("t", "distance_alpha", m.name()).where("member", m.label));
  d.caption = "How far the authors' discrete process is from the continuous flow the paper's theorems are about, "
              "at every plotted time (0 would be off the log scale and is not drawn).";
  res.figures.push_back(d);
  res.summary = md.str();
  return res;
}

}  // namespace softcert::reproduce::notebook
