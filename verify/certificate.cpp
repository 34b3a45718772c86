#include "certificate.hpp"

#include <fstream>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "claim.hpp"
#include "decimal.hpp"
#include "exact_certificate.hpp"
#include "field.hpp"
#include "gradient_descent.hpp"
#include "attended_column.hpp"
#include "attention_at_horizon.hpp"
#include "partial_polarization.hpp"
#include "step.hpp"

namespace verify {

namespace {

std::vector<nlohmann::json> read_lines(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Rejection("cannot read the file");
  std::vector<nlohmann::json> lines;
  std::string text;
  for (std::size_t k = 1; std::getline(in, text); ++k) {
    if (text.empty()) continue;
    try {
      lines.push_back(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception&) {
      throw Rejection("line " + std::to_string(k) + " is not JSON");
    }
  }
  return lines;
}

// The steps after the header, re-checked in order from the start set (docs/certificates.md, (a)–(d)):
// each step's facts go to `visit`; the last step and its facts are returned.
struct LastStep {
  Step step;
  StepFacts facts;
};
template <class Visit>
LastStep check_chain(const Field& f, const std::vector<nlohmann::json>& lines, Visit&& visit) {
  const slong n = f.n();
  if (lines.size() < 3) throw Rejection("a certificate needs a header, a start set and at least one step");
  // (d) the start set holds the instance's initial state (a(0), Vᵀβ*, t = 0)
  if (!lines[1].contains("start")) throw Rejection("line 2: no start set");
  LohnerSet set = parse_set(lines[1].at("start"), n);
  std::string why;
  if (!set.contains(f.x0, why)) throw Rejection("(d) the start set does not contain the instance's initial state: " + why);
  std::optional<Ball> t_prev;
  std::optional<LastStep> last;
  for (std::size_t k = 2; k < lines.size(); ++k) {
    Step st = parse_step(lines[k], n);
    const std::string name = "step " + std::to_string(st.index);
    if (st.index != static_cast<slong>(k - 2)) throw Rejection(name + ": out of sequence (expected step " + std::to_string(k - 2) + ")");
    if (t_prev ? !arb_equal(t_prev->get(), st.t0.get()) : !arb_is_zero(st.t0.get()))
      throw Rejection(name + ": (d) t0 is not where the previous step ended");
    if (!st.end && k + 1 < lines.size()) throw Rejection(name + ": (c) only the last step may omit its end set");
    StepFacts facts = check_step(f, set, st);
    visit(st, facts);
    if (st.end) set = *st.end;
    t_prev = st.t1;
    last = LastStep{std::move(st), std::move(facts)};
  }
  return std::move(*last);
}

// order_preservation on [0, H]: every step, then the horizon and the pairs on the last box.
FileVerdict check_order(const Field& f, const nlohmann::json& head, const std::vector<nlohmann::json>& lines) {
  const slong ti = f.time_index();
  const Ball horizon = parse_number(head.at("horizon"));
  OrderPreservation claim(f, head.at("claim"));
  const Ball margin = positive_margin(head);
  const LastStep last = check_chain(f, lines, [&](const Step& st, const StepFacts& facts) { claim.visit(st, facts); });
  // (d) the last step ends past the horizon: t ≥ H on its end box
  if (!(last.step.box[ti].lo - horizon).nonnegative())
    throw Rejection("step " + std::to_string(last.step.index) + ": (d) the last box has t ≥ " + last.step.box[ti].lo.text() +
                    ", not past the horizon " + horizon.text());
  // (e) the margin's sign: every pair's gap u_i − u_j is positive on the last box too
  for (slong i = 0; i < f.T; ++i)
    for (slong j = 0; j < f.T; ++j)
      if (i != j && (f.x0[f.T + i] - f.x0[f.T + j]).positive() &&
          !(last.step.box[f.T + i].lo - last.step.box[f.T + j].hi).positive())
        throw Rejection("step " + std::to_string(last.step.index) + ": (e) the last box does not show u_" + std::to_string(i) +
                        " > u_" + std::to_string(j));
  return {true, std::to_string(lines.size() - 2) + " steps, " + std::to_string(claim.pairs()) +
                    " pairs ordered on [0, H = " + horizon.text(6) + "]; min u_i − u_j ≥ " + claim.margin_lower().text(17) +
                    " (certificate's margin ≥ " + margin.text(17) + ")"};
}

// A claim at t = H (on α(a(H)): attention_at_horizon.hpp; on the tied model's attended column:
// attended_column.hpp): every step, the claim on each step that may hold t = H, then t ≥ H on the
// last box.
template <class Claim>
FileVerdict check_at_horizon(const Field& f, const nlohmann::json& head, const std::vector<nlohmann::json>& lines) {
  const slong ti = f.time_index();
  const Ball horizon = parse_number(head.at("horizon"));
  Claim claim(f, head.at("claim"), head.value("check", std::string()), horizon);
  const Ball margin = positive_margin(head);
  const LastStep last = check_chain(f, lines, [&](const Step& st, const StepFacts& facts) { claim.visit(st, facts); });
  // (d) the last step ends past the horizon, so some step holds t = H
  if (!(last.step.box[ti].lo - horizon).nonnegative())
    throw Rejection("step " + std::to_string(last.step.index) + ": (d) the last box has t ≥ " + last.step.box[ti].lo.text() +
                    ", not past the horizon " + horizon.text());
  if (claim.steps_at_horizon() == 0) throw Rejection("(e) no step's range of t holds H");
  return {true, std::to_string(lines.size() - 2) + " steps; " + claim.kind() + " at t = H = " + horizon.text(6) + " (in " +
                    std::to_string(claim.steps_at_horizon()) + (claim.steps_at_horizon() == 1 ? " step" : " steps") +
                    "); margin ≥ " + claim.margin_lower().text(17) + " (certificate's margin ≥ " + margin.text(17) + ")"};
}

// partial_polarization: every step, the claim on each step where ρ may vanish, then ρ < 0 on the
// last box, so that τ* lies in the steps.
FileVerdict check_partial_polarization(const Field& f, const nlohmann::json& head, const std::vector<nlohmann::json>& lines) {
  PartialPolarization claim(f, head.at("claim"), head.value("check", std::string()));
  const Ball margin = positive_margin(head);
  const LastStep last = check_chain(f, lines, [&](const Step& st, const StepFacts& facts) { claim.visit(st, facts); });
  claim.require_crossed(last.step);
  if (claim.steps_at_crossing() == 0) throw Rejection("(e) no step's range of rho holds 0");
  return {true, std::to_string(lines.size() - 2) + " steps; rho crosses 0 in " + std::to_string(claim.steps_at_crossing()) +
                    (claim.steps_at_crossing() == 1 ? " step" : " steps") + "; distance to a vertex − ε ≥ " +
                    claim.margin_lower().text(17) + " (certificate's margin ≥ " + margin.text(17) + ")"};
}

// region_entry: every step, then the gaps of R_k at the last step's end; region_at_start: the
// gaps at the initial state, with no steps.
FileVerdict check_region(const Field& f, const nlohmann::json& head, const std::vector<nlohmann::json>& lines, bool at_start) {
  const RegionEntry claim(f, head.at("claim"), head.value("check", std::string()));
  const Ball margin = positive_margin(head);
  const std::string region = "R_" + std::to_string(claim.winner());
  if (at_start) {
    if (lines.size() != 1) throw Rejection("a region_at_start certificate is its header alone");
    return {true, "the initial state is in " + region + "; min gap ≥ " + claim.at_start(f).text(17) +
                      " (certificate's margin ≥ " + margin.text(17) + ")"};
  }
  const LastStep last = check_chain(f, lines, [](const Step&, const StepFacts&) {});
  const Ball gap = claim.at_end(last.facts, "step " + std::to_string(last.step.index));
  const std::size_t steps = lines.size() - 2;
  return {true, std::to_string(steps) + (steps == 1 ? " step" : " steps") + "; in " + region + " at the end of step " +
                    std::to_string(last.step.index) + " (t ≥ " + last.step.box[f.time_index()].lo.text(6) + "); min gap ≥ " +
                    gap.text(17) + " (certificate's margin ≥ " + margin.text(17) + ")"};
}

FileVerdict check(const std::vector<nlohmann::json>& lines) {
  if (!lines.empty() && lines[0].value("certificate", "") == "softcert.exact.v1") return check_exact(lines);
  if (!lines.empty() && lines[0].value("certificate", "") == "softcert.gd.v1") {
    if (lines.size() < 3) throw Rejection("a gd certificate needs a header and at least two iterates");
    return check_gradient_descent(lines);
  }
  if (lines.empty()) throw Rejection("the file holds no certificate");
  const nlohmann::json& head = lines[0];
  const std::string kind = head.value("claim", nlohmann::json::object()).value("kind", "");
  if (head.value("certificate", "") != "softcert.flow.v1") throw Rejection("header: not a softcert.flow.v1 certificate");
  const std::string model = head.value("model", "");
  const Field f = field_from_instance(head.at("instance"), model);
  if (model == "rank_one_square_tau") {
    if (head.value("set", "") != "lohner") throw Rejection("header: the steps are not Lohner sets");
    if (kind != "partial_polarization") throw Rejection("header: the model rank_one_square_tau has no claim " + kind);
    return check_partial_polarization(f, head, lines);
  }
  if (model == "tied_value_softmax_tau" || kind == "attended_column_at_horizon") {
    if (head.value("set", "") != "lohner") throw Rejection("header: the steps are not Lohner sets");
    return check_at_horizon<AttendedColumn>(f, head, lines);
  }
  if (model == "value_softmax_tau") {
    if (head.value("set", "") != "lohner") throw Rejection("header: the steps are not Lohner sets");
    return check_at_horizon<AttentionAtHorizon>(f, head, lines);
  }
  if (kind == "region_at_start") return check_region(f, head, lines, true);
  if (head.value("set", "") != "lohner") throw Rejection("header: the steps are not Lohner sets");
  if (kind == "region_entry") return check_region(f, head, lines, false);
  if (kind == "max_attention_at_horizon") return check_at_horizon<AttentionAtHorizon>(f, head, lines);
  if (head.value("check", "") != "varre2026.order_preservation" || kind != "order_preservation")
    throw Rejection("header: the check " + head.value("check", std::string("?")) + " has no claim this verifier knows");
  return check_order(f, head, lines);
}

}  // namespace

FileVerdict verify_file(const std::string& path) {
  try {
    return check(read_lines(path));
  } catch (const Rejection& e) {
    return {false, e.what()};
  } catch (const std::exception& e) {  // a malformed certificate is rejected, never verified
    return {false, std::string("malformed: ") + e.what()};
  }
}

}  // namespace verify
