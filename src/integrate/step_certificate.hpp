#pragma once
// Writes the validated Lohner steps of a run as certificate lines (JSON Lines, docs/certificates.md)
// for an independent checker (verify/). One line per step: its start time, length and end time,
// its Taylor order, the box E its a priori test passed on, the Lohner set {c + B r} at its end (absent on the last
// step, whose end is given by its box) and its end box. Every number is the exact decimal of a
// double, so the checker reads the very binary values the run used.
//
// The sets and boxes are written widened about their midpoints (radius × a factor + a floor): the
// checker evaluates the same enclosures with another arithmetic and other formulas, which are
// wider than ours in their last bits, and a set that is exactly ours would then fail its
// inclusion by those bits. A wider chain of sets is as good a proof, and the checker decides
// whether it is one; nothing here needs rounding care, since nothing here is trusted.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "integrate/tube.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"

namespace softcert::integrate {

using num::exact_decimal;  // the certificate's numbers: every digit of each double

class StepCertificateWriter {
 public:
  static constexpr double kFloor = 0x1p-100;   // added to every radius (≈ 7.9e-31)

  // widen: the radius factor of the written sets and boxes. 4 covers the checker's enclosures of
  // the reduced model; the full model's (more products of wide balls in Arb's midpoint–radius
  // form) need 8.
  explicit StepCertificateWriter(double widen = 4) : widen_(widen) {}

  // Observes one step of a τ-time walk (walk.hpp). Only IntervalD steps are written; a step whose
  // start time or length is not a thin double makes the run uncertifiable (usable() false).
  void visit(const TubeStep<IntervalD>& st) {
    const StepRecord<IntervalD>& rec = st.record();
    const double t0 = num::lower(rec.t0), h = num::lower(st.h());
    if (t0 != num::upper(rec.t0) || h != num::upper(st.h())) usable_ = false;
    if (pending_) {
      (*pending_)["set"] = set_json(rec);
      // The box of a step with an end set holds that set's hull as written: the checker meets
      // its own enclosure of the moved set with that hull, so the inclusion into the box cannot
      // fail by the formulas' last bits (only the last box, which has no end set, is ours alone).
      const std::vector<double> hull = written_hull_radius(rec);
      nlohmann::json& box = (*pending_)["box"];
      for (std::size_t i = 0; i < rec.n; ++i) {
        const double c = num::lower(rec.c[i]), r = hull[i] * (1 + 0x1p-40) + std::fabs(c) * 0x1p-50 + kFloor;
        box[i][0] = exact_decimal(std::min(pending_box_[i].first, c - r));
        box[i][1] = exact_decimal(std::max(pending_box_[i].second, c + r));
      }
      lines_.push_back(pending_->dump());
    } else {
      nlohmann::json start = {{"start", set_json(rec)}};
      lines_.push_back(start.dump());
    }
    nlohmann::json line;
    line["step"] = st.index();
    line["t0"] = exact_decimal(t0);
    line["h"] = exact_decimal(h);
    line["t1"] = exact_decimal(t0 + h);  // the checker takes h from t1 − t0 and compares
    if (t0 + h - t0 != h) usable_ = false;
    line["order"] = rec.p;
    line["jacobian_order"] = rec.jq();
    line["apriori"] = apriori_json(rec);
    pending_box_.clear();
    line["box"] = nlohmann::json::array();
    for (const auto& x : st.end()) {
      pending_box_.push_back(widened(num::lower(x), num::upper(x), widen_, kFloor));
      line["box"].push_back(interval(pending_box_.back().first, pending_box_.back().second, 1, 0));
    }
    pending_ = std::move(line);
  }

  bool usable() const { return usable_ && pending_.has_value(); }

  // The lines that follow the certificate's header: the start line, then one per step.
  std::vector<std::string> lines() const {
    std::vector<std::string> out = lines_;
    if (pending_) {
      // The last box has no end set's hull to be met with: the checker's direct enclosure of the
      // moved set alone must fit, so it is widened further (widen² the radius).
      nlohmann::json last = *pending_;
      for (std::size_t i = 0; i < pending_box_.size(); ++i)
        last["box"][i] = interval(pending_box_[i].first, pending_box_[i].second, widen_, kFloor);
      out.push_back(last.dump());
    }
    return out;
  }

 private:
  // [lo, hi] widened about its midpoint: radius × widen + floor.
  static std::pair<double, double> widened(double lo, double hi, double widen, double floor) {
    if (widen == 1 && floor == 0) return {lo, hi};
    const double m = lo + (hi - lo) / 2, r = (hi - lo) / 2 * widen + floor;
    return {m - r, m + r};
  }
  static nlohmann::json interval(double lo, double hi, double widen, double floor) {
    const auto [l, h] = widened(lo, hi, widen, floor);
    return nlohmann::json::array({exact_decimal(l), exact_decimal(h)});
  }
  static nlohmann::json boxes(const std::vector<IntervalD>& v, double widen, double floor) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : v) a.push_back(interval(num::lower(x), num::upper(x), widen, floor));
    return a;
  }
  // Σ_j |B_ij| r'_j per component: the radius of the hull of the record's start set as written
  // (its radii r' widened), about c.
  std::vector<double> written_hull_radius(const StepRecord<IntervalD>& rec) const {
    const std::size_t n = rec.n;
    std::vector<double> hull(n, 0.0);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        hull[i] += std::fabs(num::lower(rec.B[i * n + j])) * ((num::upper(rec.r[j]) - num::lower(rec.r[j])) / 2 * widen_ + kFloor);
    return hull;
  }
  // E, not the tighter Z (the test is Z ⊂ int E), grown by widen times the radius of the written
  // start set's hull and a few ulps of its ends: the checker's Taylor range over the wider set is
  // wider than ours by up to about that (its higher coefficients over the wider hull included),
  // and where the solution only touches an end of E its other formulas land a few bits away. Any
  // box holding E is as good an a priori box while Z stays inside it; E is not widened by a
  // factor of its own width, since the remainder x_{p+1}(E) grows fast with that width.
  nlohmann::json apriori_json(const StepRecord<IntervalD>& rec) const {
    nlohmann::json a = nlohmann::json::array();
    const std::vector<double> hull = written_hull_radius(rec);
    for (std::size_t i = 0; i < rec.n; ++i) {
      const IntervalD& e = rec.apriori_tested[i];
      const double grow = widen_ * hull[i] * 1.01 + std::max(std::fabs(num::lower(e)), std::fabs(num::upper(e))) * 0x1p-46 + kFloor;
      a.push_back(nlohmann::json::array({exact_decimal(num::lower(e) - grow), exact_decimal(num::upper(e) + grow)}));
    }
    return a;
  }
  // The record's set at its start: c (point), B (n×n, row-major rows), r (intervals).
  nlohmann::json set_json(const StepRecord<IntervalD>& rec) {
    const std::size_t n = rec.n;
    nlohmann::json c = nlohmann::json::array(), B = nlohmann::json::array();
    for (std::size_t i = 0; i < n; ++i) {
      if (num::lower(rec.c[i]) != num::upper(rec.c[i])) usable_ = false;
      c.push_back(exact_decimal(num::lower(rec.c[i])));
      nlohmann::json row = nlohmann::json::array();
      for (std::size_t j = 0; j < n; ++j) {
        const IntervalD& b = rec.B[i * n + j];
        if (num::lower(b) != num::upper(b)) usable_ = false;
        row.push_back(exact_decimal(num::lower(b)));
      }
      B.push_back(std::move(row));
    }
    return {{"c", c}, {"B", B}, {"r", boxes(rec.r, widen_, kFloor)}};
  }

  std::vector<std::string> lines_;
  std::optional<nlohmann::json> pending_;
  std::vector<std::pair<double, double>> pending_box_;  // pending_'s box as doubles
  double widen_;
  bool usable_ = true;
};

}  // namespace softcert::integrate
