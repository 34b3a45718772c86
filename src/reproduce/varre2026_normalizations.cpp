// varre2026-normalizations: the paper's normalization comparison — α = f(a)/Σ_j f(a_j) for
// f = exp (softmax), x², |x|, relu, x (sum), and the elementwise sigmoid, under logistic and
// square loss, from one common start (same V(0), β*, a(0) = 𝟙).
//
// The table is the registered check varre2026.normalization.polarizes (rigorous tier:
// α(a(H)) enclosed, verdict "within ε of a one-hot vertex"), one run per (f, loss). The
// curves max_i α_i(t) are drawn from the fast tier (double, Dormand–Prince) and are labelled
// non-rigorous: they show the path, the table certifies the end point.
//
// The start is ours (a random instance of the check's generator), not the authors': their exact
// start and horizons are shown, GD beside the flow, by varre2026-log-loss-comparison and
// varre2026-square-loss-comparison (varre2026_notebook_figures.cpp). Horizons: logistic loss at
// H = 10⁵ (ours; cheap in the τ-time the rigorous tier uses for it — the authors ran this
// experiment to t = 5·10⁴, cell 6), square loss at H = 10³ (ours; t-time, where 10⁵ would take
// minutes; the authors ran t = 500), and the attention has stopped moving long before (the
// table reports the fast-tier change over the last decade).
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <iterator>
#include <optional>
#include <sstream>

#include "engine/registry.hpp"
#include "engine/verdict_policy.hpp"
#include "instances/instance.hpp"
#include "integrate/fast_stepper.hpp"
#include "integrate/odeint_system.hpp"
#include "models/value_softmax.hpp"
#include "numerics/decimal.hpp"
#include "reproduce/notebook_figure_parts.hpp"
#include "reproduce/output.hpp"
#include "reproduce/parallel.hpp"
#include "reproduce/registry.hpp"
#include "reproduce/settings.hpp"

namespace softcert::reproduce {

namespace {

namespace plots = report::plots;

const char* const kPolarizes = "varre2026.normalization.polarizes";
const char* const kNormalizations[] = {"softmax", "square", "abs", "relu", "sum", "sigmoid"};
const char* const kLosses[] = {"logistic", "square"};

// What the sources say of each pair, labelled (docs/theorems/varre2026_normalization.md):
// [paper] the seed summary's sentences, [code] only a row of the authors' notebook (cell 6).
std::string paper_says(const std::string& norm, const std::string& loss) {
  if (loss == "square") return "[paper] polarization weaker than under logistic loss";
  if (norm == "softmax") return "[paper] polarizes";
  if (norm == "square") return "[paper] x^2 polarizes like softmax";
  if (norm == "sum") return "[paper] f(x) = x does not polarize";
  if (norm == "sigmoid") return "[paper] elementwise sigmoid removes polarization";
  return "[code] a row of cell 6 only; the paper's sentence is about elementwise ReLU, not this";
}

struct Pair {
  std::string norm, loss;
  double horizon = 0;
  nlohmann::json instance;
  engine::CheckResult result;
  std::optional<engine::CheckResult> fast;  // the check's fast tier, run when the rigorous one is inconclusive
  double seconds = 0;
  std::vector<double> times;  // the curve's times (log-spaced up to the horizon)
  std::vector<double> curve;  // max_i α_i at those times (fast tier); NaN after a stop
  std::string curve_stop;     // why the fast curve stopped early ("" if it did not)
};

// max_i α_i(t) at each of p.times (increasing, > 0) by the fast tier at double precision.
void fast_curve(Pair& p) {
  const std::vector<double>& times = p.times;
  const instances::Instance inst = instances::parse_instance(p.instance);
  const models::ValueSoftmax<double> model(inst, false);
  integrate::ControlledStepper<double> st(integrate::Stepper::dopri5, 1e-10);
  const auto sys = integrate::odeint_system(model);
  std::vector<double> x = model.initial_state(), alpha, w;
  double t = 0, dt = 1.0 / 64;
  integrate::StepCount count;
  count.limit = 200000;  // |x| and relu can chatter along their kink: give up rather than crawl
  for (double tk : times) {
    if (!p.curve_stop.empty()) {
      p.curve.push_back(NAN);
      continue;
    }
    try {
      integrate::advance_to(st, sys, x, t, tk, dt, count);
      const std::vector<double> a(x.begin() + static_cast<std::ptrdiff_t>(model.a_offset()),
                                  x.begin() + static_cast<std::ptrdiff_t>(model.a_offset() + model.tokens()));
      model.normalize(a, alpha, w);
      double m = -INFINITY;
      for (double v : alpha) m = std::max(m, v);
      if (!std::isfinite(m)) throw std::runtime_error("alpha is not finite (the normalization is singular)");
      p.curve.push_back(m);
    } catch (const std::exception& e) {
      p.curve_stop = "stopped at t = " + short_number(t, 4) + ": " + e.what();
      p.curve.push_back(NAN);
    }
  }
}

// [max lower, max upper] of the check's enclosure of α(H), or {"", ""} when it has none.
// Weights that are a probability vector (non-negative, summing to one) have max α ≤ 1, so an
// upper end above 1 is shown as 1 (still an enclosure); sum and sigmoid weights are not.
bool probability_weights(const std::string& norm) { return norm != "sum" && norm != "sigmoid"; }

std::pair<std::string, std::string> max_alpha(const engine::CheckResult& r, const std::string& norm) {
  const auto& al = r.facts.alpha;  // engine::RunFacts: the rigorous enclosures
  if (al.empty()) return {"", ""};
  std::size_t lo = 0, hi = 0;  // compared exactly, on the ends themselves
  for (std::size_t k = 1; k < al.size(); ++k) {
    if (al[k].lower_rational() > al[lo].lower_rational()) lo = k;
    if (al[k].upper_rational() > al[hi].upper_rational()) hi = k;
  }
  const bool clip = probability_weights(norm) && al[hi].upper_rational() > Rational(1);
  return {al[lo].lower_text(), clip ? std::string("1") : al[hi].upper_text()};
}

// The distance to the nearest vertex, ε − margin: [ε − margin_upper, ε − margin_lower], or
// {"", ""} without a margin. For reading; widened outward (outward_decimals) so that it still
// encloses the exact distance. The certified margin itself is in numbers.json.
std::pair<std::string, std::string> distance(const engine::CheckResult& r, double epsilon) {
  if (r.margin.empty()) return {"", ""};
  const double m_lo = r.margin.lower_nearest(), m_hi = r.margin.upper_nearest();
  return outward_decimals(epsilon - m_hi, epsilon - m_lo, std::abs(epsilon) + std::abs(m_lo) + std::abs(m_hi), 0.0);
}

ExperimentResult run_normalizations(const RunContext& ctx) {
  const std::uint64_t seed = integer_setting(ctx.settings, "seed", 1, 0, UINT64_MAX);
  const std::uint64_t T = integer_setting(ctx.settings, "T", 4, 2, 8);
  const double H_logistic = number_setting(ctx.settings, "horizon_logistic", 1e5, 1, 1e7);
  const double H_square = number_setting(ctx.settings, "horizon_square", 1000, 1, 1e5);
  const double eps = number_setting(ctx.settings, "epsilon", 0.1, 1e-6, 0.5);
  const std::uint64_t points = integer_setting(ctx.settings, "points", 80, 2, 2000);
  const engine::Check* check = engine::CheckRegistry::global().find(kPolarizes);
  if (!check) throw ExperimentFailure(std::string("the check ") + kPolarizes + " is not registered in this binary");

  std::vector<Pair> pairs;
  for (const char* loss : kLosses)
    for (const char* norm : kNormalizations) {
      Pair p;
      p.norm = norm;
      p.loss = loss;
      p.horizon = p.loss == "logistic" ? H_logistic : H_square;
      engine::GenerateOptions g;
      g.params = {{"loss", loss}, {"normalization", norm}, {"T", T}};
      p.instance = check->generate(seed, g);
      for (std::uint64_t k = 0; k < points; ++k)  // log-spaced from 10⁻² to H
        p.times.push_back(std::pow(10.0, -2.0 + (std::log10(p.horizon) + 2.0) * static_cast<double>(k) /
                                                     static_cast<double>(points - 1)));
      p.times.back() = p.horizon;
      pairs.push_back(std::move(p));
    }

  ctx.progress("running " + std::string(kPolarizes) + " (rigorous) on " + std::to_string(pairs.size()) +
               " (normalization, loss) pairs, T = " + std::to_string(T) + ", H = " + short_number(H_logistic) +
               " (logistic), " + short_number(H_square) + " (square), " + std::to_string(ctx.jobs) + " thread(s)");
  parallel_for(pairs.size(), ctx.jobs, [&](std::size_t i) {
    Pair& p = pairs[i];
    engine::CheckOptions opt;
    opt.tier = engine::Tier::rigorous;
    opt.horizon = p.horizon;
    opt.params = {{"epsilon", eps}};
    opt.certificate = true;  // a proved pair whose check writes a certificate leaves it for softcert-verify
    const auto start = std::chrono::steady_clock::now();
    try {
      p.result = engine::run_check(*check, p.instance, opt);
      if (p.result.verdict == engine::Verdict::inconclusive) {  // e.g. a kink of |x| or relu: ask the fast tier
        engine::CheckOptions fo = opt;
        fo.tier = engine::Tier::fast;
        p.fast = engine::run_check(*check, p.instance, fo);
      }
    } catch (const std::exception& e) {
      p.result.verdict = engine::Verdict::error;
      p.result.reason = e.what();
    }
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    try {
      fast_curve(p);
    } catch (const std::exception& e) {  // the instance itself was refused: no curve
      p.curve.assign(p.times.size(), NAN);
      p.curve_stop = e.what();
    }
  });

  ExperimentResult res;
  plots::Csv table({"normalization", "loss", "horizon", "verdict", "max_alpha_lower", "max_alpha_upper",
                    "distance_lower", "distance_upper", "margin_lower", "margin_upper", "paper",
                    "fast_tier_verdict", "fast_tier_reason", "fast_change_last_decade", "seconds", "reason"});
  // The fast tier's |max α(H) − max α(H/10)|: how much the attention still moves at the end.
  auto last_decade_change = [](const Pair& p) -> std::string {
    const double target = p.horizon / 10;
    std::size_t k = 0;
    while (k + 1 < p.times.size() && p.times[k + 1] <= target) ++k;
    if (!std::isfinite(p.curve.back()) || !std::isfinite(p.curve[k])) return "";
    return short_number(std::abs(p.curve.back() - p.curve[k]), 3);
  };
  // The curves (fast tier) and, on the last row (t = H), the rigorous enclosure of max α(H) per
  // normalization where the check has one; the 1 − ε line of the claim "within ε of one-hot".
  std::vector<plots::Csv> curves;
  std::vector<double> highest;  // per loss: the largest value drawn (curves and proved ends)
  for (const char* loss : kLosses) {
    double top = 1 - eps;
    std::vector<std::string> cols = {"t", "one_minus_epsilon"};
    const Pair* first = nullptr;
    for (const auto& p : pairs)
      if (p.loss == loss) {
        for (const char* part : {"", "_proved_lower", "_proved_upper", "_proved_mid"}) cols.push_back(p.norm + part);
        if (!first) first = &p;
      }
    plots::Csv c(cols);
    for (std::size_t k = 0; k < first->times.size(); ++k) {
      std::vector<std::string> row = {short_number(first->times[k], 10), short_number(1 - eps, 10)};
      const bool end = k + 1 == first->times.size();
      for (const auto& p : pairs)
        if (p.loss == loss) {
          const auto [lo, hi] = max_alpha(p.result, p.norm);
          row.push_back(std::isfinite(p.curve[k]) ? short_number(p.curve[k], 10) : "");
          if (std::isfinite(p.curve[k])) top = std::max(top, p.curve[k]);
          if (end && !hi.empty()) top = std::max(top, std::strtod(hi.c_str(), nullptr));
          row.push_back(end ? lo : "");
          row.push_back(end ? hi : "");
          row.push_back(end ? midpoint_for_drawing(lo, hi) : "");
        }
      c.add_row(row);
    }
    curves.push_back(c);
    highest.push_back(top);
  }

  std::ostringstream md;
  md << "Normalizations α = f(a)/Σ_j f(a_j) (f = exp, x², |x|, relu, x) and the elementwise sigmoid, under logistic "
        "and square loss, all from the same start (generator of `" << kPolarizes << "`, seed " << seed << ", T = d = " << T
     << ", V(0) = 0.1·N(0,1), β* normalised, a(0) = 𝟙). The check asks whether α(a(H)) lies within ε = "
     << short_number(eps) << " (max-norm) of a one-hot vertex at H = " << short_number(H_logistic)
     << " (logistic loss: the paper's horizon, 10⁶ gradient steps of 0.1) and H = " << short_number(H_square)
     << " (square loss: its attention has stopped moving by then; see the last column); **rigorous tier** "
        "(validated enclosure of the full model). The curves in the figures are **non-rigorous** (fast tier).\n\n";
  md << "| f | loss | verdict | max α_i(H) | distance to one-hot | paper | fast tier, where the rigorous one is "
        "inconclusive | fast: change of max α over the last decade |\n|---|---|---|---|---|---|---|---|\n";
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& p : pairs) {
    const auto [alo, ahi] = max_alpha(p.result, p.norm);
    const auto [dlo, dhi] = distance(p.result, eps);
    const std::string verdict = engine::to_string(p.result.verdict), change = last_decade_change(p);
    const std::string fast_verdict = p.fast ? engine::to_string(p.fast->verdict) : "";
    table.add_row({p.norm, p.loss, short_number(p.horizon), verdict, alo, ahi, dlo, dhi, p.result.margin.lower_text(),
                   p.result.margin.upper_text(), paper_says(p.norm, p.loss), fast_verdict, p.fast ? p.fast->reason : "", change,
                   short_number(p.seconds, 3), p.result.reason});
    md << "| " << p.norm << " | " << p.loss << " | " << verdict << " | "
       << (alo.empty() ? std::string("—") : num::bracket_text(alo, ahi, 8)) << " | "
       << (dlo.empty() ? std::string("—") : "[" + dlo + ", " + dhi + "]") << " | " << paper_says(p.norm, p.loss) << " | "
       << (fast_verdict.empty() ? std::string("") : fast_verdict + " (non-rigorous)") << " | "
       << (change.empty() ? std::string("—") : change) << " |\n";
    rows.push_back({{"normalization", p.norm}, {"loss", p.loss}, {"horizon", p.horizon}, {"verdict", verdict},
                    {"max_alpha", alo.empty() ? nlohmann::json(nullptr) : nlohmann::json::array({alo, ahi})},
                    {"margin", {p.result.margin.lower_text(), p.result.margin.upper_text()}}, {"reason", p.result.reason},
                    {"paper", paper_says(p.norm, p.loss)}, {"seconds", p.seconds}, {"instance", p.instance},
                    {"fast_tier", p.fast ? nlohmann::json{{"verdict", fast_verdict}, {"reason", p.fast->reason},
                                                          {"margin_estimate", {p.fast->margin.lower_text(), p.fast->margin.upper_text()}}}
                                         : nlohmann::json(nullptr)},
                    {"fast_change_last_decade", change}, {"fast_curve_stop", p.curve_stop},
                    {"details", p.result.details}});
  }
  md << "\nVerdicts: `proved` = α(H) certainly within ε of a vertex (polarized); `violated` = certainly farther than "
        "ε from every vertex (not polarized at H); `inconclusive` = the enclosure straddles ε or the rigorous tier "
        "could not reach H (e.g. |x| or relu crossing their kink, a singular normalization) — see `reason` in "
        "normalizations.csv. Where the rigorous tier is inconclusive, the check's fast tier (53- and 106-bit runs) "
        "is asked too: `confirmed` there is evidence, not proof.\n";
  std::string certified;
  for (const auto& p : pairs) {
    if (p.result.certificate.empty()) continue;
    const std::string file = "certificate." + p.norm + "." + p.loss + ".jsonl";
    std::string text;
    for (const auto& line : p.result.certificate) text += line + "\n";
    res.files.emplace_back(file, text);
    certified += (certified.empty() ? "`" : ", `") + file + "`";
  }
  if (!certified.empty())
    md << "\nCertificates of the proved pairs whose check writes one (docs/certificates.md): " << certified
       << ". `softcert-verify` on this folder re-checks them with its own field and Arb balls, sharing no code with "
          "softcert.\n";
  bool any_stop = false;
  for (const auto& p : pairs)
    if (!p.curve_stop.empty()) {
      if (!any_stop) md << "\nFast-tier curves that stopped early:\n\n";
      any_stop = true;
      md << "- " << p.norm << " / " << p.loss << ": " << p.curve_stop << "\n";
    }
  res.tables.emplace_back("normalizations.csv", table);
  for (std::size_t l = 0; l < std::size(kLosses); ++l) {
    const std::string loss = kLosses[l], file = "normalization_curves_" + loss + ".csv";
    res.tables.emplace_back(file, curves[l]);
    Figure f{"normalizations_" + loss, file, {}, "", {}, {}};
    double widest = 0;
    bool any = false;
    for (const auto& p : pairs)
      if (p.loss == loss) {
        const auto [lo, hi] = max_alpha(p.result, p.norm);
        if (lo.empty()) continue;
        any = true;
        widest = std::max(widest, std::strtod(hi.c_str(), nullptr) - std::strtod(lo.c_str(), nullptr));
      }
    f.plot.title = "max_i α_i(t) under " + loss + " loss — NO GUARANTEE: lines (fast tier); PROVED: diamonds at t = H " +
                   "(rigorous tier" + (any ? ", widths ≤ " + short_number(widest, 2) : std::string(", none")) + ")\n" +
                   "curves and diamonds that coincide are drawn under the last one listed (their brackets in the key)";
    // The axes reach a little past H and past 1, so that the diamonds at t = H and the weights at 1
    // are not cut by the frame, nor the 1 − ε line drawn on it (autoscale would end at the data).
    const double H = l == 0 ? H_logistic : H_square;
    f.plot.x = {"t (log scale)", true, 7e-3, H * 2};
    f.plot.y = {"max_i α_i", false, 0.0, highest[l] <= 1 ? std::optional<double>(1.05) : std::nullopt};
    f.plot.width = 1100;
    // The key below the panel: on the right it took half the width and the title, centred over
    // the narrowed panel, ran off the image.
    f.plot.height = 700;
    f.plot.key = "below left Left reverse maxrows 7";
    std::size_t k = 0;
    for (const char* norm : kNormalizations) {
      const std::string c = plots::token_color(k++, std::size(kNormalizations));
      std::string stopped;  // a curve that ends before H says where, in its key line
      for (const auto& p : pairs)
        if (p.loss == loss && p.norm == norm && !p.curve_stop.empty())
          stopped = "; " + p.curve_stop.substr(0, std::min<std::size_t>(p.curve_stop.find(':'), 60)) + ", see summary.md";
      f.plot.series.push_back(plots::Series::line("t", norm, notebook::notebook_name(norm) + " (fast tier, no guarantee" + stopped + ")"));
      f.plot.series.back().color = c;
      for (const auto& p : pairs)
        if (p.loss == loss && p.norm == norm) {
          const auto [lo, hi] = max_alpha(p.result, p.norm);
          if (lo.empty()) continue;
          const std::string col = std::string(norm) + "_proved";
          f.plot.series.push_back(plots::Series::interval("t", col + "_mid", col + "_lower", col + "_upper",
                                                          notebook::notebook_name(norm) + ": max α(H) ∈ " + num::bracket_text(lo, hi, 9) +
                                                              ", " + engine::to_string(p.result.verdict)));
          f.plot.series.back().color = c;
          f.plot.series.back().point_type = 13;
          f.plot.series.back().point_size = 1.5;
        }
    }
    f.plot.series.push_back(plots::Series::line("t", "one_minus_epsilon", "1 − ε = " + short_number(1 - eps) +
                                                                               ": above it, within ε of one-hot (for probability weights; not Sum, not Sigmoid)"));
    f.plot.series.back().color = "#000000";
    f.plot.series.back().dashed = true;
    f.caption = "No guarantee: the curves (double precision, Dormand–Prince, tolerance 1e-10) of the largest attention "
                "weight under " + loss + " loss. Proved: the diamonds at t = H, the rigorous tier's enclosure of max α(H) "
                "(brackets and verdicts in the key and the table); the dashed line is 1 − ε, the claim's threshold.";
    res.figures.push_back(f);
  }
  nlohmann::json& n = res.numbers;
  n["check"] = kPolarizes;
  n["tier"] = "rigorous (table); fast, non-rigorous (curves)";
  n["seed"] = seed;
  n["T"] = T;
  n["horizon"] = {{"logistic", H_logistic}, {"square", H_square}};
  n["epsilon"] = eps;
  n["pairs"] = rows;
  res.summary = md.str();
  return res;
}

}  // namespace

Experiment normalizations_experiment() {
  return {"varre2026-normalizations",
          "Varre, Rofin, Flammarion (2026), Gradient flow polarizes softmax outputs towards low-entropy solutions, "
          "arXiv 2603.06248",
          "the normalization comparison: softmax, x^2, |x|, relu, sum, elementwise sigmoid under logistic and square loss",
          "varre2026.normalization.polarizes on each (f, loss): table of max alpha(H), distance to one-hot, verdict; "
          "non-rigorous max alpha(t) curves",
          {"seed", "T", "horizon_logistic", "horizon_square", "epsilon", "points"},
          run_normalizations};
}

}  // namespace softcert::reproduce
