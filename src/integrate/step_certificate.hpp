#pragma once
// Writes the validated Lohner steps of a run as certificate lines (JSON Lines, docs/certificates.md)
// for an independent checker (verify/). One line per step: its start time, length and end time,
// its Taylor order, the box E its a priori test passed on, the Lohner set {c + B r} at its end (absent on the last
// step, whose end is given by its box) and its end box. Every number is the exact decimal of a
// double, so the checker reads the very binary values the run used.
//
// The sets and boxes are written widened about their midpoints (radius × kWiden + a floor): the
// checker evaluates the same enclosures with another arithmetic and other formulas, which are
// wider than ours in their last bits, and a set that is exactly ours would then fail its
// inclusion by those bits. A wider chain of sets is as good a proof, and the checker decides
// whether it is one; nothing here needs rounding care, since nothing here is trusted.
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "integrate/tube.hpp"
#include "numerics/decimal.hpp"
#include "numerics/kinds.hpp"

namespace softcert::integrate {

using num::exact_decimal;  // the certificate's numbers: every digit of each double

class StepCertificateWriter {
 public:
  static constexpr double kWiden = 4;          // radius factor of the written sets and boxes
  static constexpr double kFloor = 0x1p-100;   // added to every radius (≈ 7.9e-31)

  // Observes one step of a τ-time walk (walk.hpp). Only IntervalD steps are written; a step whose
  // start time or length is not a thin double makes the run uncertifiable (usable() false).
  void visit(const TubeStep<IntervalD>& st) {
    const StepRecord<IntervalD>& rec = st.record();
    const double t0 = num::lower(rec.t0), h = num::lower(st.h());
    if (t0 != num::upper(rec.t0) || h != num::upper(st.h())) usable_ = false;
    if (pending_) {
      (*pending_)["set"] = set_json(rec);
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
    line["apriori"] = boxes(rec.apriori_tested, 1, 0);  // E, not the tighter Z: the test is Z ⊂ int E
    line["box"] = boxes(st.end(), kWiden, kFloor);
    pending_ = std::move(line);
  }

  bool usable() const { return usable_ && pending_.has_value(); }

  // The lines that follow the certificate's header: the start line, then one per step.
  std::vector<std::string> lines() const {
    std::vector<std::string> out = lines_;
    if (pending_) out.push_back(pending_->dump());
    return out;
  }

 private:
  static nlohmann::json interval(double lo, double hi, double widen, double floor) {
    if (widen != 1 || floor != 0) {
      const double m = lo + (hi - lo) / 2, r = (hi - lo) / 2 * widen + floor;
      lo = m - r;
      hi = m + r;
    }
    return nlohmann::json::array({exact_decimal(lo), exact_decimal(hi)});
  }
  static nlohmann::json boxes(const std::vector<IntervalD>& v, double widen, double floor) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& x : v) a.push_back(interval(num::lower(x), num::upper(x), widen, floor));
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
    return {{"c", c}, {"B", B}, {"r", boxes(rec.r, kWiden, kFloor)}};
  }

  std::vector<std::string> lines_;
  std::optional<nlohmann::json> pending_;
  bool usable_ = true;
};

}  // namespace softcert::integrate
