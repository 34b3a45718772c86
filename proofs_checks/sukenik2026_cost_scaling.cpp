// sukenik2026.cost_scaling — a sink is cheaper than a diagonal pattern: T vs T^{3/2}
// [reconstruction].
//
//   cost_P = min ½(‖W_Q‖²_F + ‖W_K‖²_F) = min ‖W‖_*  subject to the pattern's margins
//     sink      x_tᵀ W (x_0 − x_s)/τ ≥ γ   for 1 ≤ s ≤ t ≤ T
//     diagonal  x_tᵀ W (x_t − x_s)/τ ≥ γ   for 0 ≤ s < t ≤ T
//   Orthonormal embeddings: cost_sink = γτ T/√(T+1), cost_diag = γτ Σ_t √(t/(t+1)) (exact;
//   docs), so with τ = √d, d = T+1 the costs grow as T and ~T^{3/2}; the ratio ≍ √T for any τ.
//   The unfactorised cost min ‖W‖²_F is the same for both patterns.
//
// For every T of the instance, each cost gets a certified bracket (margin_nuclear.hpp: an
// upper bound from feasible factors, a lower bound from dual multipliers and a certified
// ‖Z‖₂ bound; proposals from closed forms or CSDP, never trusted).
// proved:   every bracket certified, and diag_lower > sink_upper for every T (the margin is
//           min_T diag_lower/sink_upper − 1); orthonormal brackets contain the closed forms.
// violated: a certified bracket excludes a closed form, or diag_upper < sink_lower somewhere.
// Exponent fits (log-log least squares, bootstrap CIs) are reported in details: statistics
// on certified numbers, not part of the verdict.
#include <cmath>
#include <set>
#include <sstream>

#include "certify/closed_form_patterns.hpp"
#include "certify/cost_scaling.hpp"
#include "certify/csdp_solver.hpp"
#include "certify/rational_json.hpp"
#include "instances/json_fields.hpp"
#include "statistics/loglog_fit.hpp"
#include "instances/random_source.hpp"
#include "engine/registry.hpp"
#include "numerics/decimal.hpp"
#include "numerics/elementary.hpp"
#include "sukenik2026_check.hpp"

namespace softcert::checks {
namespace {

using certify::CostCase;
using certify::Pattern;

struct CostInstance {
  bool orthonormal = true;
  bool tau_sqrt_d = true;
  IntervalD gamma{1.0};
  std::string gamma_text = "1";
  std::string proposal = "closed-form";
  std::vector<CostCase> cases;
};

CostInstance read_cost_instance(const nlohmann::json& in) {
  CostInstance ci;
  const std::string emb = instances::require_string(in, "embedding");
  if (emb != "orthonormal" && emb != "gaussian")
    throw std::invalid_argument("instance: field \"embedding\" must be \"orthonormal\" or \"gaussian\"");
  ci.orthonormal = emb == "orthonormal";
  const std::string tau = instances::require_string(in, "tau");
  if (tau != "1" && tau != "sqrt-d") throw std::invalid_argument("instance: field \"tau\" must be \"1\" or \"sqrt-d\"");
  ci.tau_sqrt_d = tau == "sqrt-d";
  ci.gamma_text = instances::require_string(in, "gamma");
  const Rational g = certify::require_rational(in, "gamma");
  if (!(g > 0)) throw std::invalid_argument("instance: field \"gamma\" must be positive");
  ci.gamma = num::parse_decimal<IntervalD>(ci.gamma_text);
  ci.proposal = instances::require_string(in, "proposal");
  if (ci.proposal != "closed-form" && ci.proposal != "csdp")
    throw std::invalid_argument("instance: field \"proposal\" must be \"closed-form\" or \"csdp\"");
  if (!ci.orthonormal && ci.proposal != "csdp") throw std::invalid_argument("instance: field \"proposal\": gaussian embeddings need \"csdp\"");
  const auto& cases = instances::require(in, "cases");
  if (!cases.is_array() || cases.empty()) throw std::invalid_argument("instance: field \"cases\" must be a non-empty array");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const std::string f = "cases[" + std::to_string(i) + "]";
    CostCase c;
    c.orthonormal = ci.orthonormal;
    try {
      c.T = static_cast<std::size_t>(instances::require_int(cases[i], "T", 1, 4096));
      if (ci.orthonormal) {
        c.d = c.T + 1;
      } else {
        c.d = static_cast<std::size_t>(instances::require_int(cases[i], "d", 1, 1024));
        c.x_exact = certify::require_rmat(cases[i], "X", c.T + 1, c.d);
        c.x = certify::IMatrix(c.T + 1, c.d);
        const auto& xs = cases[i].at("X");
        for (std::size_t r = 0; r <= c.T; ++r)
          for (std::size_t k = 0; k < c.d; ++k) c.x(r, k) = num::parse_decimal<IntervalD>(xs[r][k].get<std::string>());
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(f + ": " + e.what());
    }
    ci.cases.push_back(std::move(c));
  }
  return ci;
}

// Printed ends of an enclosure round outward (lower down, upper up), so that the printed
// bracket still contains the certified one; point values are written by num::decimal_nearest.
std::string down(double x, int digits = 9) { return num::lower_decimal(IntervalD(x), digits); }
std::string up(double x, int digits = 9) { return num::upper_decimal(IntervalD(x), digits); }

class CostScaling final : public SinkPaperCheck {
 public:
  std::string name() const override { return "sukenik2026.cost_scaling"; }
  std::string statement() const override {
    return "[ours: reconstruction of the abstract's 'quantitative comparison of the costs'; the seed's sink ~ T, "
           "diagonal ~ T^{3/2} hold for our tau = sqrt(d), d = T+1, the ratio ~ sqrt(T) for any tau; the Gaussian-"
           "embeddings claim is ours] The minimum factorised cost min ||W||_* of the sink pattern is below that of "
           "the diagonal "
           "pattern on each orthonormal instance (certified brackets; for Gaussian embeddings only the mean log-ratio over "
           "the sample is decided, our reading); for orthonormal embeddings cost_sink = g*tau*T/sqrt(T+1) and "
           "cost_diag = g*tau*sum_t sqrt(t/(t+1)), i.e. T vs T^{3/2} for tau = sqrt(d), d = T+1, ratio ~ sqrt(T); "
           "the unfactorised cost ||W||_F^2 is equal for both.";
  }
  std::string doc() const override { return "docs/theorems/sukenik2026_cost_scaling.md"; }
  // Claim B is about RANDOM embeddings (the generator's draws): no property of one instance
  // decides it, so hypotheses_on leaves it undecided and a search that keeps it only samples
  // the generator. `--drop random-embeddings` lets the search choose embeddings adversarially.
  std::vector<std::string> hypotheses() const override { return {"random-embeddings"}; }
  std::vector<std::string> params() const override {
    return {"embedding", "tau", "T_max", "replicates", "d_rule", "proposal", "gap_target"};
  }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    instances::RandomSource rng(seed, 0xc057);
    std::string emb = (seed & 1) ? "gaussian" : "orthonormal";
    if (o.params.contains("embedding")) emb = o.params.at("embedding").get<std::string>();
    if (emb != "orthonormal" && emb != "gaussian") throw std::invalid_argument("parameter \"embedding\" must be orthonormal or gaussian");
    std::string tau = (seed & 2) ? "1" : "sqrt-d";
    if (o.params.contains("tau")) tau = o.params.at("tau").get<std::string>();
    const bool ortho = emb == "orthonormal";
    const long t_max = instances::param_int(o.params, "T_max", ortho ? 64 : 12, 2, 4096);
    const long reps = ortho ? 1 : instances::param_int(o.params, "replicates", 2, 1, 100);
    std::string d_rule = "T+1";
    if (o.params.contains("d_rule")) d_rule = o.params.at("d_rule").get<std::string>();
    if (d_rule != "T+1" && d_rule != "half") throw std::invalid_argument("parameter \"d_rule\" must be \"T+1\" or \"half\"");
    std::string proposal = ortho ? "closed-form" : "csdp";
    if (o.params.contains("proposal")) proposal = o.params.at("proposal").get<std::string>();
    std::vector<long> ts;
    if (ortho) {
      for (long t = 2; t <= t_max; t *= 2) ts.push_back(t);
    } else {
      for (long t : {2L, 3L, 4L, 6L, 8L, 12L, 16L, 24L, 32L, 48L, 64L})
        if (t <= t_max) ts.push_back(t);
    }
    nlohmann::json in;
    in["check"] = name();
    in["embedding"] = emb;
    in["tau"] = tau;
    in["gamma"] = "1";
    in["proposal"] = proposal;
    in["cases"] = nlohmann::json::array();
    for (long t : ts)
      for (long r = 0; r < reps; ++r) {
        nlohmann::json c;
        c["T"] = std::to_string(t);
        if (!ortho) {
          const long d = d_rule == "T+1" ? t + 1 : std::max(2L, (t + 1) / 2);
          c["d"] = std::to_string(d);
          c["X"] = nlohmann::json::array();
          for (long i = 0; i <= t; ++i) {
            nlohmann::json row = nlohmann::json::array();
            for (long k = 0; k < d; ++k) row.push_back(num::decimal_nearest(rng.normal() / std::sqrt(static_cast<double>(d)), 6));
            c["X"].push_back(row);
          }
        }
        in["cases"].push_back(c);
      }
    in["provenance"] = provenance(seed, o);
    return in;
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& options) const override {
    const CostInstance ci = read_cost_instance(instance);
    engine::CheckResult r;
    r.precision_bits = 53;
    if (ci.proposal == "csdp" && !certify::csdp_available()) {
      r.verdict = engine::Verdict::inconclusive;
      r.reason = "csdp (coinor-csdp) not found: no proposals for the brackets";
      return r;
    }
    const double gap_target = instances::param_double(options.params, "gap_target", 1e-6);
    nlohmann::json rows = nlohmann::json::array();
    std::ostringstream table;
    table << "   T    d | sink cost bracket              | diagonal cost bracket          | ratio diag/sink        | rel.gap\n";
    bool all_certified = true, contradiction = false, reversed = false;
    double margin_lo = INFINITY, margin_hi = INFINITY, max_gap = 0;
    IntervalD log_ratio_sum(0.0);  // Σ log(diag/sink) over cases (gaussian reading), enclosed
    int sink_cheaper = 0, diag_cheaper = 0, infeasible_cases = 0;
    std::vector<double> xs, sink_mid, diag_mid, ratio_mid;
    for (const auto& c : ci.cases) {
      const auto sink = certify::certify_pattern_cost(c, Pattern::sink, ci.proposal);
      const auto diag = certify::certify_pattern_cost(c, Pattern::diagonal, ci.proposal);
      // Scale γτ (τ = √d or 1), enclosed.
      const IntervalD tau = ci.tau_sqrt_d ? num::sqrt(IntervalD(static_cast<double>(c.d))) : IntervalD(1.0);
      const IntervalD scale = ci.gamma * tau;
      nlohmann::json row;
      row["T"] = c.T;
      row["d"] = c.d;
      row["sink_proposal_note"] = sink.note;
      row["diagonal_proposal_note"] = diag.note;
      const bool ok = sink.bracket.lower_ok && sink.bracket.upper_ok && diag.bracket.lower_ok && diag.bracket.upper_ok;
      row["certified"] = ok;
      if (sink.infeasible || diag.infeasible) {
        // A pattern that no W represents (possible when d < T+1): cost +∞, exact certificate.
        row["sink_infeasible"] = sink.infeasible;
        row["diagonal_infeasible"] = diag.infeasible;
        if (sink.infeasible) row["sink_farkas_y"] = certify::to_json(sink.farkas_y);
        if (diag.infeasible) row["diagonal_farkas_y"] = certify::to_json(diag.farkas_y);
        ++infeasible_cases;
        rows.push_back(row);
        table << num::decimal_nearest(static_cast<double>(c.T), 4) << " " << num::decimal_nearest(static_cast<double>(c.d), 4) << " | "
              << (sink.infeasible ? "infeasible (certified)" : "-") << " | " << (diag.infeasible ? "infeasible (certified)" : "-") << "\n";
        continue;
      }
      all_certified = all_certified && ok;
      if (!ok) {
        rows.push_back(row);
        table << num::decimal_nearest(static_cast<double>(c.T), 4) << "  not certified (" << sink.note << diag.note << ")\n";
        continue;
      }
      const IntervalD s(sink.bracket.lower, sink.bracket.upper), dg(diag.bracket.lower, diag.bracket.upper);
      const IntervalD s_scaled = s * scale, d_scaled = dg * scale, ratio = dg / s;
      row["sink"] = {num::lower(s_scaled), num::upper(s_scaled)};
      row["diagonal"] = {num::lower(d_scaled), num::upper(d_scaled)};
      row["ratio"] = {num::lower(ratio), num::upper(ratio)};
      const double gap = std::max(sink.bracket.relative_gap(), diag.bracket.relative_gap());
      max_gap = std::max(max_gap, gap);
      row["relative_gap"] = gap;
      if (c.orthonormal) {
        const IntervalD sc = certify::sink_cost_closed_form(c.T), dc = certify::diagonal_cost_closed_form(c.T);
        const bool sink_in = num::possibly_le(s, sc) && num::possibly_ge(s, sc);
        const bool diag_in = num::possibly_le(dg, dc) && num::possibly_ge(dg, dc);
        row["sink_closed_form"] = num::mid(sc * scale);
        row["diagonal_closed_form"] = num::mid(dc * scale);
        row["closed_forms_inside"] = sink_in && diag_in;
        contradiction = contradiction || !sink_in || !diag_in;
        if (const auto f = certify::certified_frobenius_cost(c.T, Pattern::sink)) {
          const auto fd = certify::certified_frobenius_cost(c.T, Pattern::diagonal);
          const IntervalD fs = IntervalD(f->convert_to<double>()) * num::sqr(scale);
          row["frobenius_sink_exact_gamma1_tau1"] = certify::rational_string(*f);
          row["frobenius_equal"] = fd && *fd == *f;
          row["frobenius_scaled_approx"] = num::mid(fs);
        }
      }
      // Sink cheaper: diag_lo / sink_hi − 1 > 0 (the scale cancels).
      const IntervalD rel = IntervalD(diag.bracket.lower) / IntervalD(sink.bracket.upper) - IntervalD(1.0);
      const IntervalD rel_hi = IntervalD(diag.bracket.upper) / IntervalD(sink.bracket.lower) - IntervalD(1.0);
      margin_lo = std::min(margin_lo, num::lower(rel));
      margin_hi = std::min(margin_hi, num::upper(rel_hi));
      reversed = reversed || num::certainly_negative(rel_hi);
      log_ratio_sum += num::log(ratio);
      sink_cheaper += num::certainly_positive(rel) ? 1 : 0;
      diag_cheaper += num::certainly_negative(rel_hi) ? 1 : 0;
      rows.push_back(row);
      xs.push_back(static_cast<double>(c.T));
      sink_mid.push_back(num::mid(s_scaled));
      diag_mid.push_back(num::mid(d_scaled));
      ratio_mid.push_back(num::mid(ratio));
      table << num::decimal_nearest(static_cast<double>(c.T), 4) << " " << num::decimal_nearest(static_cast<double>(c.d), 4) << " | [" << down(num::lower(s_scaled)) << ", "
            << up(num::upper(s_scaled)) << "] | [" << down(num::lower(d_scaled)) << ", " << up(num::upper(d_scaled)) << "] | ["
            << down(num::lower(ratio), 7) << ", " << up(num::upper(ratio), 7) << "] | " << num::decimal_nearest(gap, 2) << "\n";
    }
    r.details["embedding"] = ci.orthonormal ? "orthonormal" : "gaussian";
    r.details["tau"] = ci.tau_sqrt_d ? "sqrt-d" : "1";
    r.details["gamma"] = ci.gamma_text;
    r.details["proposal"] = ci.proposal;
    r.details["rows"] = rows;
    r.details["max_relative_gap"] = max_gap;
    r.details["gap_target"] = gap_target;
    r.details["gap_target_met"] = all_certified && max_gap <= gap_target;
    // Exponent fits on the certified costs (statistics).
    std::set<double> distinct(xs.begin(), xs.end());
    if (distinct.size() >= 2) {
      nlohmann::json fits;
      const std::uint64_t fit_seed = 20260512;
      auto put = [&](const char* key, const std::vector<double>& y, double expected) {
        const auto f = statistics::fit_exponent(xs, y, fit_seed);
        fits[key] = {{"exponent", f.exponent}, {"ci95", {f.ci_low, f.ci_high}}, {"expected_asymptotic", expected}, {"resamples", f.resamples}};
        table << "fit " << key << ": exponent " << num::decimal_nearest(f.exponent, 5) << "  95% bootstrap CI [" << num::decimal_nearest(f.ci_low, 5) << ", "
              << num::decimal_nearest(f.ci_high, 5) << "]  (asymptotic " << expected << ")\n";
      };
      const bool d_is_t1 = [&] {
        for (const auto& c : ci.cases)
          if (c.d != c.T + 1) return false;
        return true;
      }();
      const double extra = ci.tau_sqrt_d && d_is_t1 ? 0.5 : (ci.tau_sqrt_d ? NAN : 0.0);
      put("sink", sink_mid, ci.orthonormal ? 0.5 + extra : NAN);
      put("diagonal", diag_mid, ci.orthonormal ? 1.0 + extra : NAN);
      put("ratio", ratio_mid, ci.orthonormal ? 0.5 : NAN);
      r.details["fits"] = fits;
    }
    r.details["table"] = table.str();
    r.details["cases_sink_certainly_cheaper"] = sink_cheaper;
    r.details["cases_infeasible"] = infeasible_cases;
    all_certified = all_certified && !xs.empty();
    r.details["cases_diagonal_certainly_cheaper"] = diag_cheaper;
    if (!ci.orthonormal) {
      // Random embeddings: the claim read on this sample of instances is that the diagonal is
      // costlier on average, mean_c log(cost_diag/cost_sink) > 0 (single instances may go
      // either way: a random sink embedding is not special). Enclosed rigorously.
      const IntervalD mean = log_ratio_sum / IntervalD(static_cast<double>(std::max<std::size_t>(1, xs.size())));
      if (all_certified) {
        r.margin_lower = num::lower_decimal(mean);
        r.margin_upper = num::upper_decimal(mean);
      }
      r.details["margin_meaning"] = "mean over cases of log(cost_diag / cost_sink)";
      if (!all_certified) {
        r.verdict = engine::Verdict::inconclusive;
        r.reason = "some bracket could not be certified (see details.rows)";
      } else if (num::certainly_positive(mean)) {
        r.verdict = engine::Verdict::proved;
        r.reason = "diagonal costlier than sink on average over " + std::to_string(xs.size()) + " random-embedding cases (" +
                   std::to_string(sink_cheaper) + " individually), certified brackets, max relative gap " + num::decimal_nearest(max_gap, 2);
      } else if (num::certainly_negative(mean)) {
        r.verdict = engine::Verdict::violated;
        r.reason = "certified: on this sample the sink is costlier on average";
      } else {
        r.verdict = engine::Verdict::inconclusive;
        r.reason = "mean log cost ratio not separated from 0";
      }
      return r;
    }
    r.details["margin_meaning"] = "min over T of cost_diag / cost_sink - 1";
    if (all_certified) {
      r.margin_lower = down(margin_lo, 17);
      r.margin_upper = up(margin_hi, 17);
    }
    if (contradiction) {
      r.verdict = engine::Verdict::violated;
      r.reason = "a certified bracket excludes a closed-form cost";
    } else if (reversed) {
      r.verdict = engine::Verdict::violated;
      r.reason = "certified: the diagonal pattern is cheaper than the sink for some T";
    } else if (!all_certified) {
      r.verdict = engine::Verdict::inconclusive;
      r.reason = "some bracket could not be certified (see details.rows)";
    } else if (margin_lo > 0) {
      r.verdict = engine::Verdict::proved;
      r.reason = "sink cheaper than diagonal for all " + std::to_string(ci.cases.size()) + " cases (certified brackets, max relative gap " +
                 num::decimal_nearest(max_gap, 2) + ")";
    } else {
      r.verdict = engine::Verdict::inconclusive;
      r.reason = "brackets overlap: cannot order sink and diagonal costs";
    }
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(CostScaling);

}  // namespace
}  // namespace softcert::checks
