#include "engine/verdict_policy.hpp"

#include <cmath>
#include <limits>

#include "support/failures.hpp"
#include "numerics/quote.hpp"

namespace softcert::engine {

bool fast_runs_agree(double m_p, double m_2p, bool strict) {
  if (std::isnan(m_p) || std::isnan(m_2p)) return false;
  // equal: infinities included (a vacuous claim: no quantity to estimate), and exactly 0 for a
  // non-strict claim whose margin is 0 where it starts
  if (m_p == m_2p) return !strict || m_p != 0;
  if (m_p == 0 || m_2p == 0 || (m_p > 0) != (m_2p > 0)) return false;
  if (!std::isfinite(m_p) || !std::isfinite(m_2p)) return false;
  return std::abs(m_p - m_2p) <= 0.5 * std::min(std::abs(m_p), std::abs(m_2p));
}

CheckResult decide_fast(const FastRun& p, const FastRun& p2, const std::string& holds, const std::string& what,
                        const std::function<CheckResult()>& recertify, bool strict) {
  CheckResult r;
  r.precision_bits = p.bits;
  r.verdict = Verdict::inconclusive;
  r.details["margin_is_estimate"] = true;
  if (!p.failure.empty() || !p2.failure.empty()) {
    r.reason = "fast tier: " + (p.failure.empty() ? p2.failure : p.failure);
    return r;
  }
  if (p2.bits < 2 * p.bits)
    throw std::logic_error("decide_fast: the reference run needs at least twice the bits of the first");
  // An estimate, printed outward like every margin: the decimal pair contains both values.
  const IntervalD hull(std::min(p.margin, p2.margin), std::max(p.margin, p2.margin));
  set_margin(r, hull);
  r.details["margin_runs"] = {{{"bits", p.bits}, {"margin", p.margin}}, {{"bits", p2.bits}, {"margin", p2.margin}}};
  const std::string bits = std::to_string(p.bits) + "- and " + std::to_string(p2.bits) + "-bit runs";
  const auto holds_at = [strict](double m) { return strict ? m > 0 : m >= 0; };
  if (holds_at(p.margin) && holds_at(p2.margin) && fast_runs_agree(p.margin, p2.margin, strict)) {
    r.verdict = Verdict::confirmed;
    r.reason = bits + ": " + holds;
    return r;
  }
  if (p.margin < 0 && p2.margin < 0) {
    CheckResult rr = recertify();
    if (rr.verdict == Verdict::violated) return rr;
    r.details["fast_saw_violation"] = true;
    r.reason = "fast tier: " + what + " < 0 in the " + bits + ", but the rigorous tier did not certify it (" +
               rr.reason + ")";
    return r;
  }
  r.reason = "fast tier: the " + bits + " do not agree on the sign of " + what;
  return r;
}

void decide_by_margin(CheckResult& r, const MarginReasons& why) {
  decide_by_exact_sign(r, r.margin.certain_sign(), why);
}

void set_exact_margin(CheckResult& r, const Rational& m) { r.margin = Margin::of_exact(m); }

void decide_by_exact_margin(CheckResult& r, const Rational& m, const MarginReasons& why) {
  set_exact_margin(r, m);
  decide_by_exact_sign(r, m > 0 ? 1 : (m < 0 ? -1 : 0), why);
}

void decide_by_exact_sign(CheckResult& r, int sign, const MarginReasons& why) {
  r.verdict = sign > 0 ? Verdict::proved : (sign < 0 ? Verdict::violated : Verdict::inconclusive);
  r.reason = sign > 0 ? why.holds : (sign < 0 ? why.fails : why.undecided);
}

void decide_by_certificate(CheckResult& r, Certified what, const MarginReasons& why) {
  decide_by_exact_sign(r, what == Certified::claim ? 1 : (what == Certified::counterexample ? -1 : 0), why);
}

void undecided(CheckResult& r, const std::string& why) {
  r.verdict = Verdict::inconclusive;
  r.reason = why;
}

void check_error(CheckResult& r, const std::string& why) {
  r.verdict = Verdict::error;
  r.reason = why;
}

void internal_contradiction(CheckResult& r, const std::string& what) {
  r.verdict = Verdict::error;
  r.reason = "internal contradiction: " + what;
}

std::optional<HypothesisFailure> failed_hypothesis(const Check& check, const nlohmann::json& instance,
                                                   const std::set<std::string>& dropped) {
  try {
    return check.failed_hypothesis(instance, dropped);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // a malformed instance: the check's own run says what is wrong with it
  }
}

std::string hypothesis_failure_reason(const HypothesisFailure& f) {
  return "hypothesis " + f.name + " fails on this instance" + (f.detail.empty() ? "" : ": " + f.detail);
}

CheckResult run_check(const Check& check, const nlohmann::json& instance, const CheckOptions& options) {
  CheckResult r;
  // The claim assumes its hypotheses: outside one it says nothing, so the instance is neither a
  // counterexample nor (vacuously) a proof. The check does not run.
  if (const auto failed = failed_hypothesis(check, instance, options.dropped)) {
    undecided(r, hypothesis_failure_reason(*failed));
    r.details["failed_hypothesis"] = failed->name;
    if (!failed->detail.empty()) r.details["failed_hypothesis_detail"] = failed->detail;
    r.precision_bits = options.precision_bits;
    r.horizon = options.horizon;
    return r;
  }
  try {
    r = check.run(instance, options);
  } catch (const support::RigorousFailure& e) {
    r = CheckResult{};
    r.reason = std::string("the rigorous tier stopped: ") + e.what();
  } catch (const support::ValidationFailure& e) {
    r = CheckResult{};
    r.reason = std::string("the rigorous tier stopped: ") + e.what();
  } catch (const support::MemoryLimit& e) {  // a run too big for the machine: not a bug, not a verdict
    r = CheckResult{};
    r.reason = std::string("the run does not fit the memory cap: ") + e.what();
  }
  if (r.verdict == Verdict::inconclusive && r.precision_bits == 0) r.precision_bits = options.precision_bits;
  if (!r.horizon && r.verdict == Verdict::inconclusive) r.horizon = options.horizon;
  enforce_margin_contract(check, r);
  return r;
}

}  // namespace softcert::engine
