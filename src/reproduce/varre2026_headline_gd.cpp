// varre2026-softmax-and-u-evolution: the notebook's cells 2–3 (softmax_and_u_evolution_icml_2col.pdf),
// the headline run — gradient descent at lr 0.1 for 10⁶ iterations (t = 10⁵) — drawn as the
// notebook draws it, with what softcert proves about it on the figure:
//   - the authors' GD iterates ENCLOSED at the plotted iterations: exact real gradient descent
//     with step the double nearest 0.1, under Lohner's wrapping control at 53 bits on the reduced
//     (a, u) model (reproduce/certified_gd.hpp; the set-up of varre2026.gd.order_preservation);
//   - the gradient flow ENCLOSED by the rigorous tier at the same times (one τ-time pass), and its
//     endpoint at t = 10⁵ (reproduce/certified_endpoint.hpp);
//   - beside them, without guarantee, the GD in double and the flow by the fast tier.
// `--set certified_iterations=N` caps the enclosed iterates for quick runs (the plotted iterations
// up to N); the default is the notebook's 10⁶.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <sstream>
#include <tuple>

#include "integrate/rigorous_integrate.hpp"
#include "numerics/decimal.hpp"
#include "reproduce/certified_gd.hpp"
#include "reproduce/notebook_figure_parts.hpp"
#include "reproduce/output.hpp"
#include "reproduce/settings.hpp"

namespace softcert::reproduce {

namespace {

using namespace notebook;

// What the headline figure adds to the notebook's: the widths its keys state.
struct Certified {
  double gd_width = -1;    // largest width of the enclosed iterates drawn; < 0: none
  double flow_width = -1;  // largest width of the flow's enclosures drawn; < 0: none
  std::string gd_note;
};

// Enclosure ends shortened outward for the CSV (9 significant digits: still an enclosure).
std::string lower9(const num::Enclosure& e) { return num::decimal_down(e.lower_text(), 9); }
std::string upper9(const num::Enclosure& e) { return num::decimal_up(e.upper_text(), 9); }

// t = k·0.1 as an exact decimal: the notebook's time axis (iteration × learning rate 0.1).
std::string tenth(std::uint64_t k) { return std::to_string(k / 10) + (k % 10 ? "." + std::to_string(k % 10) : ""); }

// Adds columns <prefix>sigma<i>_{lower,upper,mid} and <prefix>u<i>_… from enclosures per sample
// (nullptr: no enclosure at that sample).
void add_enclosure_columns(ExtraColumns& extra, const std::string& prefix, std::size_t T, std::size_t samples,
                           const std::function<const std::vector<num::Enclosure>*(std::size_t, bool sigma)>& at) {
  for (const bool sigma : {true, false})
    for (std::size_t i = 0; i < T; ++i) {
      std::vector<std::string> lo(samples), hi(samples), mid(samples);
      for (std::size_t k = 0; k < samples; ++k)
        if (const auto* v = at(k, sigma)) {
          lo[k] = lower9((*v)[i]), hi[k] = upper9((*v)[i]);
          mid[k] = midpoint_for_drawing(lo[k], hi[k]);
        }
      const std::string name = prefix + (sigma ? "sigma" : "u") + std::to_string(i);
      extra.emplace_back(name + "_lower", lo);
      extra.emplace_back(name + "_upper", hi);
      extra.emplace_back(name + "_mid", mid);
    }
}

nlohmann::json pair_json(const num::Enclosure& e) { return nlohmann::json::array({e.lower_text(), e.upper_text()}); }

// The index whose lower end beats every other upper end, compared exactly; -1 when none.
int certified_argmax(const std::vector<num::Enclosure>& s) {
  for (std::size_t k = 0; k < s.size(); ++k) {
    bool all = true;
    for (std::size_t j = 0; j < s.size() && all; ++j)
      if (j != k && !(s[k].lower_rational() > s[j].upper_rational())) all = false;
    if (all) return static_cast<int>(k);
  }
  return -1;
}

// Cell 3: 1×2 — σ(a)_i on log-log axes, u_i on a log t axis; the enclosed GD iterates as
// triangles and the enclosed flow as open circles at the dotted iterations, in each token's colour.
FigureBuilder cell3_figure(std::shared_ptr<const Certified> cert) {
  return [cert](const std::vector<Member>& ms, const std::vector<MemberResult>& runs) {
    const NotebookRun& run = *runs[0].run;
    const std::size_t T = tokens_of(run);
    const std::string& m = ms[0].label;
    Figure f{"softmax_and_u_evolution", m + ".csv", {}, "", {}, {}};
    plots::Layout l;
    // What the markers are, with their widths, in the title: a key entry would take the colour of
    // one token's markers.
    auto widths = [](double w) { return w < 0 ? std::string(" (not run)") : ", widths ≤ " + short_number(w, 2); };
    l.title = "Evolution of σ(a) and of u (notebook cell 3)\n" + how_drawn(runs) + "\nENCLOSED: triangles (GD iterates, 53 bits" +
              widths(cert->gd_width) + ", drawn over the GD dots), open circles (flow, rigorous" + widths(cert->flow_width) + ")";
    l.rows = 1, l.cols = 2, l.width = 1500, l.height = 700;
    auto certified = [&](plots::Plot& p, const char* q) {
      for (const auto& [prefix, width, pt, what] :
           {std::tuple{std::string("rflow_"), cert->flow_width, 6, std::string("flow ENCLOSED (rigorous)")},
            std::tuple{std::string("gdc_"), cert->gd_width, 9, std::string("GD iterates ENCLOSED (53 bits)")}}) {
        if (width < 0) continue;
        for (std::size_t i = 0; i < T; ++i) {
          const std::string c = prefix + q + std::to_string(i);
          auto s = plots::Series::interval("t", c + "_mid", c + "_lower", c + "_upper",
                                           what + ", widths ≤ " + short_number(width, 2));
          s.where("gd_dot", m);
          s.color = plots::token_color(i, T);
          s.point_type = pt;
          s.point_size = pt == 9 ? 1.0 : 1.6;  // the triangles drawn last, inside the circles
          s.in_legend = false;
          p.series.push_back(s);
        }
      }
    };
    plots::Plot sp = token_panel(m, "alpha", T, {"Evolution of σ(a) (log-log)" + flow_state(run), "σ(a)_i", true, true}, true,
                                 "at graph 0.01, 0.47 left top Left reverse");
    certified(sp, "sigma");
    mark_proved_end(sp, m, *runs[0].end, Proved::max_weight);
    // The keys where the curves leave room: σ's lower left (every weight starts at 1/8), u's upper
    // left (every u starts near 0).
    sp.key = "at graph 0.01, 0.47 left top Left reverse";
    plots::Plot up = token_panel(m, "u", T, {"Evolution of u = Vᵀβ* (log t)", "u_i", true, false}, true, "at graph 0.01, 0.99 left top Left reverse");
    certified(up, "u");
    l.panels = {sp, up};
    f.layout = l;
    f.caption = "The notebook's figure (cell 3): σ(a)_i(t) on log-log axes and u_i(t) on a log t axis, one colour per "
                "token (tokens counted from 0). No guarantee: lines (the gradient flow, fast tier) and dots (the authors' "
                "gradient descent in double). Enclosed: triangles, the exact GD iterates (step the double nearest 0.1) by "
                "interval iteration" + (cert->gd_note.empty() ? std::string() : " (" + cert->gd_note + ")") +
                "; open circles, the exact flow by the rigorous tier; the black diamond, the flow's proved max weight at "
                "t = 10⁵. The enclosures are far narrower than the markers (widths in the key); the bars are invisible.";
    return std::vector<Figure>{f};
  };
}

}  // namespace

ExperimentResult run_headline_gd(const RunContext& ctx) {
  const std::uint64_t cap = integer_setting(ctx.settings, "certified_iterations", 1000000, 0, 1000000);
  const bool rigorous = integer_setting(ctx.settings, "rigorous", 1, 0, 1) == 1;
  auto cert = std::make_shared<Certified>();
  const Augment augment = [&](std::size_t, const NotebookRun& run, ExtraColumns& extra, nlohmann::json& j, std::ostringstream& md) {
    const std::size_t n = run.samples.size(), T = tokens_of(run);
    const instances::Instance& inst = run.authors.instance;
    // The enclosed GD iterates, at every sample iteration up to the cap.
    std::vector<std::uint64_t> record_at;
    for (const auto& s : run.samples)
      if (s.iteration <= std::min(cap, run.authors.iterations)) record_at.push_back(s.iteration);
    CertifiedIterates gd;
    if (cap > 0) {
      ctx.progress("enclosing the authors' GD iterates 0.." + std::to_string(record_at.back()) +
                   " under Lohner's wrapping control (53 bits; about 2 CPU-minutes for 10^6)");
      gd = certify_gd_iterates(inst, run.authors.learning_rate, run.authors.iterations, record_at, 53, 1e-3,
                               [&](std::uint64_t k) { ctx.progress("  GD iterate " + std::to_string(k)); });
    }
    std::vector<const CertifiedIterate*> gd_at(n, nullptr);
    for (const auto& it : gd.iterates)
      for (std::size_t k = 0; k < n; ++k)
        if (run.samples[k].iteration == it.k) gd_at[k] = &it;
    add_enclosure_columns(extra, "gdc_", T, n, [&](std::size_t k, bool sigma) -> const std::vector<num::Enclosure>* {
      return gd_at[k] ? (sigma ? &gd_at[k]->sigma : &gd_at[k]->u) : nullptr;
    });
    // The flow enclosed at the same times t = k·0.1 (k > 0), one τ-time pass.
    std::vector<std::string> times;
    std::vector<std::size_t> rows;
    for (std::size_t k = 0; k < n; ++k)
      if (run.samples[k].iteration > 0) times.push_back(tenth(run.samples[k].iteration)), rows.push_back(k);
    std::vector<std::vector<num::Enclosure>> flow_sigma(n), flow_u(n);
    double flow_width = -1;
    if (rigorous) {
      ctx.progress("enclosing the flow at the " + std::to_string(times.size()) + " plotted times (rigorous tier)");
      try {
        const auto res = integrate::rigorous_integrate_at(inst, times);
        flow_width = 0;
        for (std::size_t r = 0; r < res.size(); ++r) {
          for (std::size_t i = 0; i < T; ++i) {
            flow_sigma[rows[r]].push_back(res[r].softmax[i].value);
            flow_u[rows[r]].push_back(res[r].u[i].value);
          }
          flow_width = std::max(flow_width, res[r].max_width);
        }
      } catch (const support::RigorousFailure& e) {
        throw ExperimentFailure(std::string("the rigorous tier could not enclose the headline flow: ") + e.what());
      }
    }
    add_enclosure_columns(extra, "rflow_", T, n, [&](std::size_t k, bool sigma) -> const std::vector<num::Enclosure>* {
      const auto& v = sigma ? flow_sigma[k] : flow_u[k];
      return v.empty() ? nullptr : &v;
    });
    cert->flow_width = flow_width;
    cert->gd_width = gd.iterates.empty() ? -1 : gd.max_width();
    if (gd.done < run.authors.iterations)
      cert->gd_note = "enclosed up to iterate " + std::to_string(gd.done) + " of " + std::to_string(run.authors.iterations) +
                      (gd.note.empty() ? " (--set certified_iterations)" : ": " + gd.note);

    nlohmann::json c;
    c["method"] = "interval iteration of x + lr f(x) on the reduced (a, u) model (integrate::enclose_gradient_descent)";
    c["lr"] = num::decimal_round_trip(gd.lr);
    c["lr_is"] = "the double nearest the notebook's learning rate, as numpy's";
    c["precision_bits"] = gd.precision_bits;
    c["iterations_requested"] = cap == 0 ? 0 : record_at.back();
    c["iterations_done"] = gd.done;
    if (!gd.note.empty()) c["note"] = gd.note;
    c["max_width"] = cert->gd_width < 0 ? nlohmann::json(nullptr) : nlohmann::json(cert->gd_width);
    if (!gd.iterates.empty()) {
      const CertifiedIterate& last = gd.iterates.back();
      nlohmann::json e;
      e["iteration"] = last.k;
      e["t"] = tenth(last.k);
      for (std::size_t i = 0; i < T; ++i) {
        e["sigma"].push_back(pair_json(last.sigma[i]));
        e["u"].push_back(pair_json(last.u[i]));
      }
      e["loss"] = pair_json(last.loss);
      const int w = certified_argmax(last.sigma);
      e["certified_argmax_token"] = w < 0 ? nlohmann::json(nullptr) : nlohmann::json(w);
      c["at_last"] = e;
      md << "\n**The authors' GD iterates, enclosed** (exact real gradient descent, step " << num::decimal_round_trip(gd.lr)
         << " as a double, interval iteration at " << gd.precision_bits << " bits): iterates 0.." << gd.done
         << (gd.done < run.authors.iterations ? " (of " + std::to_string(run.authors.iterations) + ")" : std::string())
         << ", largest width at the plotted iterates " << short_number(cert->gd_width, 2) << ". At iterate " << last.k
         << " (t = " << tenth(last.k) << "): σ(a)_" << (w < 0 ? 0 : w) << " ∈ "
         << num::bracket_text(last.sigma[w < 0 ? 0 : w].lower_text(), last.sigma[w < 0 ? 0 : w].upper_text(), 10)
         << ", loss ∈ " << num::bracket_text(last.loss.lower_text(), last.loss.upper_text(), 10) << "; certified winner: "
         << (w < 0 ? std::string("none") : "token " + std::to_string(w) + " (counted from 0)") << ".";
      if (!gd.note.empty()) md << " " << gd.note << ".";
      md << "\n";
    }
    j["certified_gd"] = c;
    if (flow_width >= 0) {
      j["rigorous_flow_at_plotted_times"] = {{"times", times.size()}, {"max_width", flow_width}};
      md << "\n**The flow, enclosed** by the rigorous tier at the " << times.size() << " plotted times (one τ-time "
         << "pass), largest width " << short_number(flow_width, 2) << ".\n";
    }
  };
  auto r = run_members(ctx, "cells 2–3, the headline run: d = T = 8, seed 123, logistic loss, softmax",
                       {{"headline", "headline", ""}}, cell3_figure(cert), true, false, augment);
  r.summary += "\nThe notebook's figure shows σ(a)_i on log-log axes and u_i on a log t axis [code, cell 3]. The "
               "rigorous enclosure of the same flow at 121 times is `softcert reproduce varre2026-headline`.\n";
  return r;
}

}  // namespace softcert::reproduce
