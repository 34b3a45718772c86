// sukenik2026.cost_scaling.soft_attention — the costs of the sink and the diagonal pattern under
// SOFTMAX attention at a FIXED embedding dimension d, and certified exponents over T [ours].
//
//   cost_P(T) = min ‖W‖ (nuclear: the factorised cost min ½(‖W_Q‖² + ‖W_K‖²); Frobenius) such
//   that every query t = 1..T puts causal softmax mass ≥ 1 − ε on the sink x_0 (P = sink) or on
//   itself (P = diagonal), embeddings x_0..x_T ∈ R^d (d fixed; nested in T).
//
// Every cost gets a certified bracket (certify/soft_pattern_cost.hpp: an interval-verified
// feasible W above, a rigorously evaluated Lagrangian dual bound below). From the brackets over
// T, the exponent intervals: the slopes s for which some c·T^s meets every bracket
// (certify/power_law_slopes.hpp). params.statement chooses the claim decided (docs):
//   sink_cheaper (default)        cost_diag > cost_sink for every T        margin min_T diag_lo/sink_hi − 1
//   diagonal_not_costlier          cost_diag ≤ cost_sink for every T        margin min_T sink_lo/diag_hi − 1
//   exponent_{sink,diagonal}_{at_least,at_most}  the endpoint exponent interval (the slopes of
//                                  c·T^s through the first and the last bracket; it contains the
//                                  every-bracket interval) against params.exponent
// Brackets of params.cost ("frobenius" default: its brackets are tight; or "nuclear") decide;
// both are recorded. params.task = "backcopy" (with params.trigger_every = k, default 4) costs the
// bigram-backcopy task instead: every k-th query copies its previous token, and "sink" and
// "diagonal" name what the other, dormant queries attend to (certify::soft_target).
// params.value_output = "included" (patterns only) adds the value–output cost the pattern needs
// besides W_QK, exactly (docs, "The value–output cost"): the sink must zero the output, which
// W_VO = 0 does at cost 0; the diagonal must keep every token, W_VOᵀx_t = x_t for t = 1..T, whose
// least cost is that of the projector onto their span: rank r (nuclear), √r (Frobenius).
#include <array>
#include <deque>
#include <memory>
#include <mutex>
#include <sstream>

#include "certify/power_law_slopes.hpp"
#include "certify/rational_json.hpp"
#include "certify/rational_linear.hpp"
#include "certify/soft_pattern_cost.hpp"
#include "engine/registry.hpp"
#include "support/json_fields.hpp"
#include "certify/soft_cost_instance.hpp"
#include "numerics/decimal.hpp"
#include "numerics/elementary.hpp"
#include "sukenik2026_check.hpp"

namespace softcert::checks {
namespace {

using certify::CostNorm;
using certify::Pattern;

std::string lo_text(double x) { return num::lower_decimal(IntervalD(x), 9); }
std::string hi_text(double x) { return std::isfinite(x) ? num::upper_decimal(IntervalD(x), 9) : "inf"; }

nlohmann::json slope_json(const certify::SlopeInterval& s) {
  if (s.empty) return nullptr;
  return nlohmann::json::array({std::isfinite(s.lo) ? nlohmann::json(lo_text(s.lo)) : nlohmann::json("-inf"),
                                std::isfinite(s.hi) ? nlohmann::json(hi_text(s.hi)) : nlohmann::json("inf")});
}

// rank(x_1..x_t) for every t of `ts`, exactly from the instance's decimals (orthonormal: t).
std::vector<std::size_t> token_ranks(const nlohmann::json& instance, const certify::SoftCostInstance& si) {
  std::vector<std::size_t> out;
  if (si.orthonormal) return si.ts;
  const certify::RMat x = certify::require_rmat(instance, "X", si.ts.back() + 1, si.d);
  for (std::size_t t : si.ts) out.push_back(certify::rank_exact(certify::RMat(x.begin() + 1, x.begin() + 1 + t)));
  return out;
}

// The least value–output cost of a pattern (the lemma in the docs): 0 for the sink; for the
// diagonal, rank r of the kept tokens (nuclear) or √r (Frobenius), enclosed.
// The certified brackets of one instance and task: [T index][norm][pattern] (nuclear, Frobenius;
// sink, diagonal). Every statement of this check reads the same brackets, and a suite states
// several of them on one instance, so they are computed once a process: certify_soft_cost is a
// function of the instance and the task alone, so the memo changes no result, only the time. It
// keeps the last few; two workers asking at once may both compute (the same numbers).
using SoftBrackets = std::vector<std::array<std::array<certify::SoftBracket, 2>, 2>>;

std::shared_ptr<const SoftBrackets> soft_brackets(const nlohmann::json& instance, const certify::SoftCostInstance& si,
                                                  std::size_t trigger_period) {
  static std::mutex mu;
  static std::deque<std::pair<std::string, std::shared_ptr<const SoftBrackets>>> memo;
  const std::string key = std::to_string(trigger_period) + " " + instance.dump();
  {
    const std::lock_guard<std::mutex> lock(mu);
    for (const auto& [k, v] : memo)
      if (k == key) return v;
  }
  auto out = std::make_shared<SoftBrackets>(si.ts.size());
  for (std::size_t i = 0; i < si.ts.size(); ++i)
    for (int n = 0; n < 2; ++n)
      for (int q = 0; q < 2; ++q) {
        const certify::SoftProblem prob{si.ts[i], si.x, q == 0 ? Pattern::sink : Pattern::diagonal, si.epsilon, trigger_period};
        (*out)[i][n][q] = certify::certify_soft_cost(prob, n == 0 ? CostNorm::nuclear : CostNorm::frobenius);
      }
  const std::lock_guard<std::mutex> lock(mu);
  memo.emplace_back(key, out);
  if (memo.size() > 4) memo.pop_front();
  return out;
}

IntervalD value_output_cost(Pattern p, CostNorm norm, std::size_t rank) {
  if (p == Pattern::sink) return IntervalD(0.0);
  const IntervalD r(static_cast<double>(rank));
  return norm == CostNorm::nuclear ? r : num::sqrt(r);
}

struct Series {
  std::vector<double> ts, lo, hi;
  bool all_certified = true;
};

class SoftAttentionCost final : public SinkPaperCheck {
 public:
  SoftAttentionCost()
      : SinkPaperCheck({"sukenik2026.cost_scaling.soft_attention", "docs/theorems/sukenik2026_soft_attention.md",
                        "[ours: a reading of the abstract's 'quantitative comparison of the costs of representing sinks vs. "
                        "diagonal patterns' under softmax attention at a fixed embedding dimension; the seed's sink ~ T, diagonal "
                        "~ T^{3/2} is what it is compared with] min ||W|| (nuclear; Frobenius) such that every query puts causal "
                        "softmax mass >= 1 - epsilon on the sink (resp. on itself), embeddings in R^d, d fixed: certified brackets "
                        "for each T and certified intervals of the exponents s with c*T^s inside every bracket. Default statement: "
                        "the sink is cheaper than the diagonal for every T; params.statement = diagonal_not_costlier or "
                        "exponent_{sink,diagonal}_{at_least,at_most} (with params.exponent) decide the other readings; "
                        "params.task = backcopy costs the bigram-backcopy task (every k-th query copies its previous token, the "
                        "others attend to the sink, resp. to themselves)."}) {}
  std::vector<std::string> params() const override {
    return {"epsilon", "d", "T", "embedding", "min_cosine", "statement", "exponent", "cost", "task", "trigger_every", "value_output"};
  }

  nlohmann::json generate(std::uint64_t seed, const engine::GenerateOptions& o) const override {
    nlohmann::json in = certify::generate_soft_cost_instance(seed, o.params, name());
    in["provenance"] = provenance(seed, o);
    return in;
  }

  engine::CheckResult run(const nlohmann::json& instance, const engine::CheckOptions& options) const override {
    const certify::SoftCostInstance si = certify::read_soft_cost_instance(instance);
    const nlohmann::json& params = options.params;
    const auto text = [&](const char* key, const std::string& fallback) {
      if (!params.is_object() || !params.contains(key)) return fallback;
      if (!params[key].is_string()) throw std::invalid_argument(std::string("params.") + key + ": must be a string");
      return params[key].get<std::string>();
    };
    const std::string statement = text("statement", "sink_cheaper");
    const std::string cost = text("cost", "frobenius");
    if (cost != "nuclear" && cost != "frobenius") throw std::invalid_argument("params.cost: must be \"nuclear\" or \"frobenius\"");
    static const std::set<std::string> statements{"sink_cheaper", "diagonal_not_costlier", "exponent_sink_at_least",
                                                  "exponent_sink_at_most", "exponent_diagonal_at_least", "exponent_diagonal_at_most"};
    if (!statements.count(statement)) throw std::invalid_argument("params.statement: unknown statement \"" + statement + "\"");
    const std::string task = text("task", "patterns");
    if (task != "patterns" && task != "backcopy") throw std::invalid_argument("params.task: must be \"patterns\" or \"backcopy\"");
    if (task != "backcopy" && params.is_object() && params.contains("trigger_every"))
      throw std::invalid_argument("params.trigger_every: only with params.task = \"backcopy\"");
    const std::size_t trigger_period =
        task == "backcopy" ? static_cast<std::size_t>(support::param_int(params, "trigger_every", 4, 2, 1000000)) : 0;
    const std::string value_output = text("value_output", "excluded");
    if (value_output != "excluded" && value_output != "included")
      throw std::invalid_argument("params.value_output: must be \"excluded\" or \"included\"");
    if (value_output == "included" && task == "backcopy")
      throw std::invalid_argument("params.value_output: \"included\" is defined for params.task = \"patterns\" only (docs)");
    const bool with_vo = value_output == "included";
    const std::vector<std::size_t> ranks = with_vo ? token_ranks(instance, si) : std::vector<std::size_t>();
    const bool exponent_statement = statement.rfind("exponent_", 0) == 0;
    double s0 = NAN;
    if (exponent_statement) {
      if (!params.contains("exponent")) throw std::invalid_argument("params.exponent: required by params.statement = " + statement);
      s0 = support::param_double(params, "exponent", NAN);
    }
    engine::CheckResult r;
    r.precision_bits = 53;
    // [norm][pattern] series over T.
    Series series[2][2];
    nlohmann::json rows = nlohmann::json::array();
    std::ostringstream table;
    table << "   T | cost | sink bracket                 | diagonal bracket\n";
    const std::shared_ptr<const SoftBrackets> brackets = soft_brackets(instance, si, trigger_period);
    for (std::size_t i = 0; i < si.ts.size(); ++i) {
      const std::size_t t = si.ts[i];
      nlohmann::json row;
      row["T"] = t;
      if (with_vo) row["kept_rank"] = ranks[i];
      for (int n = 0; n < 2; ++n) {
        const CostNorm norm = n == 0 ? CostNorm::nuclear : CostNorm::frobenius;
        table << num::decimal_nearest(static_cast<double>(t), 4) << " | " << certify::to_string(norm);
        for (int q = 0; q < 2; ++q) {
          const Pattern pat = q == 0 ? Pattern::sink : Pattern::diagonal;
          certify::SoftBracket b = (*brackets)[i][n][q];
          if (with_vo) {  // W_QK's bracket plus the exact value–output cost, rounded outward
            const IntervalD vo = value_output_cost(pat, norm, ranks[i]);
            b.lower = num::lower(IntervalD(b.lower) + vo);
            if (std::isfinite(b.upper)) b.upper = num::upper(IntervalD(b.upper) + vo);
          }
          Series& s = series[n][q];
          s.ts.push_back(static_cast<double>(t));
          s.lo.push_back(b.lower);
          s.hi.push_back(b.upper);
          s.all_certified = s.all_certified && b.upper_ok && b.lower > 0;
          const std::string key = std::string(certify::to_string(pat)) + "_" + certify::to_string(norm);
          row[key] = {lo_text(b.lower), hi_text(b.upper)};
          if (!b.note.empty()) row[key + "_note"] = b.note;
          table << " | [" << lo_text(b.lower) << ", " << hi_text(b.upper) << "]";
        }
        table << "\n";
      }
      rows.push_back(row);
    }
    const int decide = cost == "nuclear" ? 0 : 1;
    nlohmann::json exps;
    certify::SlopeInterval slope[2][2], ends[2][2];
    for (int n = 0; n < 2; ++n)
      for (int q = 0; q < 2; ++q) {
        slope[n][q] = certify::consistent_power_slopes(series[n][q].ts, series[n][q].lo, series[n][q].hi);
        const std::string key = std::string("exponent_") + (q == 0 ? "sink" : "diagonal") + (n == 0 ? "" : "_frobenius");
        r.details[key] = slope_json(slope[n][q]);
        const Series& e = series[n][q];
        ends[n][q] = certify::consistent_power_slopes({e.ts.front(), e.ts.back()}, {e.lo.front(), e.lo.back()}, {e.hi.front(), e.hi.back()});
        r.details[key + "_endpoints"] = slope_json(ends[n][q]);
        // The slopes between consecutive T (two brackets each): how the growth changes with T.
        nlohmann::json local = nlohmann::json::array();
        const Series& s = series[n][q];
        for (std::size_t i = 0; i + 1 < s.ts.size(); ++i) {
          const auto l = certify::consistent_power_slopes({s.ts[i], s.ts[i + 1]}, {s.lo[i], s.lo[i + 1]}, {s.hi[i], s.hi[i + 1]});
          local.push_back({{"T", {s.ts[i], s.ts[i + 1]}}, {"slope", slope_json(l)}});
        }
        r.details["local_" + key] = local;
        table << key << ": ";
        if (slope[n][q].empty) table << "empty (no power law fits every bracket)";
        else table << "[" << lo_text(slope[n][q].lo) << ", " << hi_text(slope[n][q].hi) << "]";
        table << "; from T_min to T_max: [" << lo_text(ends[n][q].lo) << ", " << hi_text(ends[n][q].hi) << "]\n";
      }
    if (trigger_period > 0) {
      r.details["task"] = "backcopy";
      r.details["trigger_every"] = trigger_period;
    }
    r.details["embedding"] = si.orthonormal ? "orthonormal" : "gaussian";
    r.details["epsilon"] = si.epsilon_text;
    r.details["d"] = si.d;
    r.details["rows"] = rows;
    r.details["statement"] = statement;
    r.details["cost"] = cost;
    if (with_vo) r.details["value_output"] = "included";
    r.details["table"] = table.str();
    const Series& sink = series[decide][0];
    const Series& diag = series[decide][1];
    if (statement == "sink_cheaper" || statement == "diagonal_not_costlier") {
      // sink_cheaper: margin min_T diag_lo/sink_hi − 1 (lower end) … diag_hi/sink_lo − 1 (upper end).
      const bool sink_claim = statement == "sink_cheaper";
      double m_lo = INFINITY, m_hi = INFINITY;
      bool counter = false;
      for (std::size_t i = 0; i < sink.ts.size(); ++i) {
        const double a_lo = sink_claim ? diag.lo[i] : sink.lo[i], a_hi = sink_claim ? diag.hi[i] : sink.hi[i];
        const double b_lo = sink_claim ? sink.lo[i] : diag.lo[i], b_hi = sink_claim ? sink.hi[i] : diag.hi[i];
        const double lo = std::isfinite(b_hi) ? num::lower(IntervalD(a_lo) / IntervalD(b_hi) - IntervalD(1.0)) : -1.0;
        const double hi = b_lo > 0 && std::isfinite(a_hi) ? num::upper(IntervalD(a_hi) / IntervalD(b_lo) - IntervalD(1.0)) : INFINITY;
        m_lo = std::min(m_lo, lo);
        m_hi = std::min(m_hi, hi);
        counter = counter || hi < 0;
      }
      r.details["margin_meaning"] = sink_claim ? "min over T of cost_diag / cost_sink - 1" : "min over T of cost_sink / cost_diag - 1";
      r.margin = engine::Margin::of_doubles(m_lo, m_hi, kMarginDigits);
      const bool certified = sink.all_certified && diag.all_certified;
      const engine::Certified what = counter                   ? engine::Certified::counterexample
                                     : certified && m_lo > 0 ? engine::Certified::claim
                                                             : engine::Certified::nothing;
      const std::string n = std::to_string(sink.ts.size());
      engine::decide_by_certificate(
          r, what,
          {sink_claim ? "the sink is cheaper than the diagonal for all " + n + " T (certified brackets)"
                      : "the diagonal costs no more than the sink for all " + n + " T (certified brackets)",
           sink_claim ? "certified: the diagonal is cheaper than the sink for some T"
                      : "certified: the diagonal is costlier than the sink for some T",
           "brackets overlap or are not all certified: the two costs are not ordered for every T"});
      return r;
    }
    // Exponent statements: the endpoint interval (never empty when both end brackets are
    // certified; it contains every slope consistent with all brackets) against s0.
    const bool of_sink = statement.find("_sink_") != std::string::npos;
    const bool at_least = statement.size() > 9 && statement.compare(statement.size() - 9, 9, "_at_least") == 0;
    const auto& sl = ends[decide][of_sink ? 0 : 1];
    const bool certified = (of_sink ? sink : diag).all_certified;
    r.details["exponent"] = num::decimal_nearest(s0, 6);
    r.details["margin_meaning"] = at_least ? "lower end of the endpoint exponent interval minus params.exponent"
                                           : "params.exponent minus the upper end of the endpoint exponent interval";
    if (sl.empty || !std::isfinite(sl.lo) || !std::isfinite(sl.hi)) {
      engine::undecided(r, "the first and last brackets are not both certified: no exponent interval");
      return r;
    }
    // s ∈ [lo, hi] for every consistent slope: "≥ s0" holds when lo ≥ s0, fails when hi < s0.
    const double m_lo = at_least ? num::lower(IntervalD(sl.lo) - IntervalD(s0)) : num::lower(IntervalD(s0) - IntervalD(sl.hi));
    const double m_hi = at_least ? num::upper(IntervalD(sl.hi) - IntervalD(s0)) : num::upper(IntervalD(s0) - IntervalD(sl.lo));
    r.margin = engine::Margin::of_doubles(m_lo, m_hi, kMarginDigits);
    const engine::Certified what = m_hi < 0 ? engine::Certified::counterexample
                                   : certified && m_lo > 0 ? engine::Certified::claim
                                                           : engine::Certified::nothing;
    const std::string who = of_sink ? "sink" : "diagonal";
    engine::decide_by_certificate(r, what,
                                  {"every power law through the certified brackets has a " + who + " exponent " +
                                       (at_least ? ">= " : "<= ") + num::decimal_nearest(s0, 6),
                                   "certified: the " + who + " exponent interval lies " + (at_least ? "below " : "above ") +
                                       num::decimal_nearest(s0, 6),
                                   "the certified exponent interval contains " + num::decimal_nearest(s0, 6)});
    return r;
  }
};

SOFTCERT_REGISTER_CHECK(SoftAttentionCost);

}  // namespace
}  // namespace softcert::checks
